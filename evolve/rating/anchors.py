"""League anchors: fixed opponents seated in the population's games (docs/evolution.md).

Without anchors the population only meets its siblings, and TrueSkill says who is best among
equally naive players. Anchors are opponents whose play does not evolve: named bundled bots
(those the game plug-in can seat in its compiled games, `Plugin.compiled_bots`) and a hall of past
champions (every `league.hall_every` generations the proven champion, else the league's, joins;
at most `league.hall_size`, the oldest leaves first). Fixed genomes read from bot
files (`league.genomes`, e.g. the champions of earlier runs) sit between the two and never
leave. Each league game gives `league.seats` of its seats to distinct anchors drawn at random;
the other seats are the population's, drawn as before.

Anchors are rated in the same TrueSkill games as everyone (their ratings move, and persist from
generation to generation), so an individual's mu reflects how it does against strong fixed play.
The fixed genomes, the hall and the anchors' ratings are plain arrays in the checkpoint
(`league.*`); a resumed run plays the fixed genomes its checkpoint holds, even if a file
changed since (the files must still be readable).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Anchors", "LeagueGames", "seat_anchors"]


@dataclass
class Anchors:
    """The anchor pool: named bots first, then fixed genomes, then the hall (oldest first),
    with ratings."""

    bots: tuple[str, ...]
    codes: tuple[int, ...]  # policy code of each bot in the plug-in's compiled games
    n_genes: int
    fixed_names: tuple[str, ...] = ()  # labels of the fixed genomes (their files' stems)
    fixed_genes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # f64[f, G]
    hall_genes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # f64[h, G]
    hall_generation: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    mu: np.ndarray = field(default_factory=lambda: np.zeros(0))  # f64[A]: bots, genomes, hall
    sigma: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def create(cls, bots: Sequence[str], compiled_bots: Mapping[str, int], n_genes: int,
               mu: float, sigma: float, genomes: Sequence[tuple[str, np.ndarray]] = ()
               ) -> Anchors:
        """A pool with the named bots and the fixed `genomes` (label, genes f64[G]) at the
        initial rating and an empty hall."""
        n = len(bots) + len(genomes)
        fixed = np.array([np.asarray(g, dtype=np.float64) for _, g in genomes]).reshape(
            len(genomes), n_genes)
        return cls(tuple(bots), tuple(int(compiled_bots[b]) for b in bots), n_genes,
                   tuple(name for name, _ in genomes), fixed, np.zeros((0, n_genes)),
                   np.zeros(0, np.int64), np.full(n, float(mu)), np.full(n, float(sigma)))

    def __len__(self) -> int:
        return len(self.bots) + len(self.fixed_genes) + len(self.hall_genes)

    def labels(self) -> list[str]:
        """Readable names: bots, fixed genomes ("genome:NAME"), hall members ("hall:gen N")."""
        return [*self.bots, *(f"genome:{n}" for n in self.fixed_names),
                *(f"hall:gen {int(g)}" for g in self.hall_generation)]

    def admit(self, genes: np.ndarray, generation: int, mu: float, sigma: float,
              size: int) -> bool:
        """Add a champion to the hall (not if the same genes are in it); drop the oldest
        beyond `size`. True when it was added."""
        genes = np.asarray(genes, dtype=np.float64)
        if size <= 0 or any(np.array_equal(h, genes) for h in self.hall_genes):
            return False
        nb = len(self.bots) + len(self.fixed_genes)  # the hall's first rating index
        self.hall_genes = np.vstack([self.hall_genes, genes[None, :]])
        self.hall_generation = np.append(self.hall_generation, np.int64(generation))
        self.mu = np.append(self.mu, float(mu))
        self.sigma = np.append(self.sigma, float(sigma))
        while len(self.hall_genes) > size:
            self.hall_genes = self.hall_genes[1:]
            self.hall_generation = self.hall_generation[1:]
            self.mu = np.delete(self.mu, nb)
            self.sigma = np.delete(self.sigma, nb)
        return True

    # ----- checkpoint arrays -----
    def arrays(self) -> dict[str, np.ndarray]:
        """Plain arrays for the checkpoint."""
        return {"league.genomes.genes": self.fixed_genes.reshape(-1, self.n_genes),
                "league.hall.genes": self.hall_genes.reshape(-1, self.n_genes),
                "league.hall.generation": self.hall_generation.astype(np.int64),
                "league.mu": self.mu.astype(np.float64),
                "league.sigma": self.sigma.astype(np.float64)}

    def restore(self, arrays: Mapping[str, np.ndarray]) -> None:
        """Take the state of `arrays` (absent: keep the fresh pool, a run of an older version)."""
        keys = ("league.hall.genes", "league.hall.generation", "league.mu", "league.sigma")
        if not all(k in arrays for k in keys):
            return
        genes, gen, mu, sigma = (np.asarray(arrays[k]) for k in keys)
        # A checkpoint before fixed genomes existed has none: the run had none either.
        fixed = np.asarray(arrays.get("league.genomes.genes", np.zeros((0, self.n_genes))))
        n = len(self.bots) + len(fixed) + len(genes)
        if (genes.ndim != 2 or genes.shape[1] != self.n_genes or gen.shape != (len(genes),)
                or fixed.shape != self.fixed_genes.shape or mu.shape != (n,)
                or sigma.shape != (n,)):
            raise ValueError("league anchor arrays of unexpected shapes")
        self.fixed_genes = fixed.astype(np.float64)
        self.hall_genes = genes.astype(np.float64)
        self.hall_generation = gen.astype(np.int64)
        self.mu, self.sigma = mu.astype(np.float64), sigma.astype(np.float64)


@dataclass(frozen=True)
class LeagueGames:
    """One generation's league: slots int[g, k] (population 0..n-1, then anchors n..n+A-1),
    weights f64[g, k, G] and policy codes int[g, k] (0 = linear player) of every seat."""

    slots: np.ndarray
    weights: np.ndarray
    policies: np.ndarray | None  # None: every seat is a linear player


def seat_anchors(groups: np.ndarray, genes: np.ndarray, anchors: Anchors, seats: int,
                 rng: np.random.Generator) -> LeagueGames:
    """Add `seats` distinct anchors to every game of the population's `groups` int[g, k - s]."""
    n, g = len(genes), len(groups)
    if seats == 0 or len(anchors) == 0:
        return LeagueGames(groups, genes[groups], None)
    a = len(anchors)
    if seats > a:
        raise ValueError(f"league.seats = {seats} but only {a} anchors to seat")
    picks = np.argsort(rng.random((g, a)), axis=1)[:, :seats]  # distinct anchors per game
    slots = np.concatenate([groups, n + picks], axis=1)
    nb = len(anchors.bots)
    # Anchor rows: bots play by their code (their genes are unused zeros), fixed genomes and
    # the hall by their genes.
    rows = np.vstack([np.zeros((nb, genes.shape[1])), anchors.fixed_genes.reshape(
        -1, genes.shape[1]), anchors.hall_genes.reshape(-1, genes.shape[1])])
    weights = np.concatenate([genes[groups], rows[picks]], axis=1)
    codes = np.array([*anchors.codes, *([0] * (a - nb))], dtype=np.int32)
    policies = np.concatenate([np.zeros(groups.shape, np.int32), codes[picks]], axis=1)
    return LeagueGames(slots, weights, policies if (codes[picks] != 0).any() else None)
