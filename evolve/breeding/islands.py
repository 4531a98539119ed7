"""Islands (`run.islands`): the GA's population as K sub-populations that breed apart, with
DEAP's ring migration (`deap.tools.migRing`) between them every `run.migration_every`
generations.

An individual's island is its place in the population: island i holds the slots
[i * n / K, (i + 1) * n / K). Each island's next generation (its elite, then its selected and
varied offspring, `evolve.breeding.toolbox.next_generation`) fills its own slots again, so
the order the checkpoint saves (genes, mu and sigma in population order) is the island
assignment, and
`run.islands` is in the checkpoint's fingerprint: a resumed run breeds the same islands.

The league stays across the whole population: islands separate breeding, not play. So there is
one TrueSkill scale for everybody (a migrant's fitness means the same on its new island, and the
champion, the hall and the playoffs read one ranking), and the league, the rater and the
checkpoint stay as they are. With one island this is the plain GA, draw for draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from deap import base, tools

from evolve.breeding.toolbox import next_generation, seed_random
from evolve.config import Config
from evolve.sections import ISLAND_LISTS, ISLAND_SPREAD


def split(pop: Sequence[Any], k: int) -> list[list[Any]]:
    """The k islands of a population, in order (k divides its size: evolve.config checks)."""
    n = len(pop) // k
    return [list(pop[i * n:(i + 1) * n]) for i in range(k)]


def island_statistics(genes: np.ndarray, mu: np.ndarray, k: int) -> dict[str, Any]:
    """A rated population's islands for log.jsonl (k > 1): each island's best and mean mu,
    and how far apart the islands have bred (`island_spread`: over the genes, the mean
    standard deviation of the k islands' mean genes; 0 when they all sit in one place)."""
    n = len(mu) // k
    by_island = mu[:n * k].reshape(k, n)
    means = genes[:n * k].reshape(k, n, -1).mean(axis=1)
    best, mean = ISLAND_LISTS
    return {best: by_island.max(axis=1).tolist(), mean: by_island.mean(axis=1).tolist(),
            ISLAND_SPREAD: float(means.std(axis=0).mean())}


def migration_due(cfg: Config, g: int) -> bool:
    """True when generation g is bred after a migration (islands > 1, every migration_every)."""
    every = cfg.run.migration_every
    return cfg.run.islands > 1 and every > 0 and g > 0 and g % every == 0


def migrate(islands: list[list[Any]], toolbox: base.Toolbox, k: int,
            rng: np.random.Generator) -> None:
    """Ring migration in place: each island's `toolbox.select` picks k emigrants, whose copies
    replace the k worst (`tools.selWorst`) of the next island; the last sends to the first."""
    def emigrants(island: list[Any], n: int) -> list[Any]:
        # Copies: an individual never sits in two islands (each slot is rated on its own).
        return [toolbox.clone(ind) for ind in toolbox.select(island, n)]

    # migRing finds a replaced individual by `list.index`, i.e. by its genes: where two share
    # the worst genes, the first of them makes way. The genes that stay are the same either way.
    seed_random(rng)
    tools.migRing(islands, k, emigrants, replacement=tools.selWorst)


def next_generation_islands(pop: Sequence[Any], toolbox: base.Toolbox, cfg: Config,
                            rng: np.random.Generator, g: int) -> list[Any]:
    """Generation g from the rated generation g - 1: the plain GA with one island; else the
    islands (after a migration when due) each bred apart, in island order."""
    k = cfg.run.islands
    if k == 1:
        return next_generation(pop, toolbox, cfg, rng)
    islands = split(pop, k)
    if migration_due(cfg, g):
        migrate(islands, toolbox, cfg.run.migrants, rng)
    return [ind for island in islands for ind in next_generation(island, toolbox, cfg, rng)]
