"""Populations as DEAP individuals: random start, arrays in and out, the champion.

The genetic operators themselves are DEAP's, registered in evolve.breeding.toolbox.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evolve.breeding.creator import Individual
from evolve.plugin import Plugin
from features.genome import random_genomes


def random_population(plugin: Plugin, n: int, rng: np.random.Generator) -> list[Any]:
    """n individuals: genes uniform in their documented ranges, scale genes +-1; unrated."""
    return individuals(random_genomes(plugin, n, rng))


def individuals(genes: np.ndarray) -> list[Any]:
    """Unrated individuals with the given genes f64[n, G]."""
    return [Individual(row) for row in np.asarray(genes, dtype=np.float64).tolist()]


def to_array(pop: Sequence[Any]) -> np.ndarray:
    """Genes of a population as f64[n, G]."""
    return np.asarray(pop, dtype=np.float64)


def rate(pop: Sequence[Any], mu: np.ndarray, sigma: np.ndarray) -> None:
    """Give each individual its rating (mu, sigma) and fitness mu."""
    for ind, m, s in zip(pop, mu.tolist(), sigma.tolist(), strict=True):
        ind.rating = (m, s)
        ind.fitness.values = (m,)


def from_arrays(genes: np.ndarray, mu: np.ndarray, sigma: np.ndarray) -> list[Any]:
    """Rated individuals (as stored in a checkpoint)."""
    pop = individuals(genes)
    rate(pop, mu, sigma)
    return pop


def ratings(pop: Sequence[Any], default_mu: float, default_sigma: float
            ) -> tuple[np.ndarray, np.ndarray]:
    """mu, sigma f64[n] the individuals carry (unrated ones: the defaults)."""
    pairs = [ind.rating or (default_mu, default_sigma) for ind in pop]
    mu, sigma = np.array(pairs, dtype=np.float64).reshape(len(pairs), 2).T
    return mu.copy(), sigma.copy()


def champion_index(mu: np.ndarray, sigma: np.ndarray) -> int:
    """Index of the best conservative rating mu - 3 sigma (first on ties)."""
    return int(np.argmax(mu - 3.0 * sigma))
