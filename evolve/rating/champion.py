"""The proven champion: crowned only with evidence, and only after it beat the incumbent.

The league's best mu - 3 sigma is often a newcomer that got lucky in its 16 games. A user who
stops a run takes `champion.json` home, so that file holds the *proven* champion instead:

1. Every `champion.every` generations, the candidate is the best mu - 3 sigma among the
   individuals with sigma <= `champion.max_sigma` (enough rated games; a newcomer's sigma after
   16 four-player games is about 1.5, a survivor's about 0.9-1.1).
2. A candidate other than the incumbent plays a confirmation playoff: the candidate and the
   incumbent each play the same `champion.games` seeded games (same seeds, same seats: common
   random numbers) against `players - 1` copies of the strongest anchors. The candidate is
   crowned only when its outright wins exceed the incumbent's by more than `champion.margin`
   times the square root of the games exactly one of the two won (a paired sign test; the
   default margin 0: any more wins; a larger one kept older champions, no clearly stronger
   ones: docs/evolution.md). The first candidate of a run is crowned after the same games,
   which become its record.

The playoff's seeds derive from (run seed, PLAYOFF_KEY, generation, game) and its games run in
the run's worker pool, so a resumed run crowns the same champions. The state is a few plain
arrays in the checkpoint (`champion.*`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evolve.stats import wilson_interval

__all__ = ["PLAYOFF_KEY", "Proven", "beats", "candidate_index", "playoff_seeds"]

PLAYOFF_KEY = 0xC4A3  # first spawn_key entry of playoff game seeds (eval uses EVAL_KEY)
# Plays weights f64[G] in seeded games against anchors; returns bool[games]: an outright win.
PlayAgainstAnchors = Callable[[np.ndarray, list[np.random.SeedSequence]], np.ndarray]


def candidate_index(mu: np.ndarray, sigma: np.ndarray, max_sigma: float) -> int:
    """Best mu - 3 sigma among individuals with sigma <= max_sigma; -1 when none qualifies."""
    ok = sigma <= max_sigma
    if not ok.any():
        return -1
    score = np.where(ok, mu - 3.0 * sigma, -np.inf)
    return int(np.argmax(score))


def beats(candidate: np.ndarray, incumbent: np.ndarray, margin: float) -> tuple[bool, int, float]:
    """Paired sign test on the same games (bool wins of each): (candidate's wins exceed the
    incumbent's by more than margin * sqrt(discordant games), discordant, that bound)."""
    discordant = int((np.asarray(candidate) != np.asarray(incumbent)).sum())
    need = margin * math.sqrt(discordant)
    return int(np.sum(candidate)) - int(np.sum(incumbent)) > need, discordant, need


def playoff_seeds(run_seed: int, generation: int, games: int) -> list[np.random.SeedSequence]:
    """Seeds of a generation's playoff games."""
    return [np.random.SeedSequence(run_seed, spawn_key=(PLAYOFF_KEY, generation, i))
            for i in range(games)]


@dataclass
class Proven:
    """The proven champion (`genes` None until the first crowning) and its evidence."""

    genes: np.ndarray | None = None  # f64[G]
    born: int = -1  # generation in which it was the candidate and was crowned
    mu: float = 0.0  # its rating when crowned
    sigma: float = 0.0
    wins: int = 0  # its outright wins in the playoff that crowned it
    games: int = 0
    beaten: int = -1  # wins of the incumbent it dethroned in the same games (-1: first)
    beaten_born: int = -1  # generation the dethroned incumbent was crowned in
    # Its evaluations so far (eval.every), pooled: each one is a fresh sample of the same
    # champion, so pooling narrows the interval instead of showing 200-game noise as swings.
    eval_wins: int = 0
    eval_games: int = 0

    def same(self, genes: Sequence[float] | np.ndarray) -> bool:
        """True when `genes` are the incumbent's."""
        return self.genes is not None and bool(np.array_equal(self.genes, genes))

    def playoff(self, genes: np.ndarray, mu: float, sigma: float, generation: int,
                play: PlayAgainstAnchors, seeds: list[np.random.SeedSequence],
                margin: float = 0.0) -> dict[str, Any]:
        """Run the playoff of a candidate; crown it if it beats the incumbent by the margin
        (`beats`); return the log record."""
        won = np.asarray(play(genes, seeds), dtype=np.bool_)
        cand, inc, discordant, need = int(won.sum()), -1, -1, 0.0
        crowned = True
        if self.genes is not None:
            inc_won = np.asarray(play(self.genes, seeds), dtype=np.bool_)
            inc = int(inc_won.sum())
            crowned, discordant, need = beats(won, inc_won, margin)
        rec = {"games": len(seeds), "candidate_wins": cand, "incumbent_wins": inc,
               "incumbent_born": self.born, "discordant": discordant, "needed": need,
               "crowned": crowned}
        if crowned:
            self.beaten, self.beaten_born = inc, self.born
            self.genes = np.array(genes, dtype=np.float64)
            self.born, self.mu, self.sigma = generation, mu, sigma
            self.wins, self.games = cand, len(seeds)
            self.eval_wins, self.eval_games = 0, 0
        return rec

    def pool_eval(self, wins: int, games: int) -> dict[str, Any]:
        """Add an evaluation of this champion; its pooled record (all evaluations since it
        was crowned)."""
        self.eval_wins += wins
        self.eval_games += games
        lo, hi = wilson_interval(self.eval_wins, self.eval_games)
        return {"pooled_wins": self.eval_wins, "pooled_games": self.eval_games,
                "pooled_win_rate": self.eval_wins / self.eval_games, "pooled_lo": lo,
                "pooled_hi": hi, "champion_generation": self.born}

    def meta(self) -> dict[str, Any]:
        """Why it was crowned, for champion.json and the log."""
        lo, hi = wilson_interval(self.wins, self.games) if self.games else (0.0, 0.0)
        return {"proven": True, "crowned_generation": self.born, "mu": self.mu,
                "sigma": self.sigma, "playoff": {
                    "games": self.games, "wins": self.wins, "lo": lo, "hi": hi,
                    "dethroned_wins": self.beaten if self.beaten >= 0 else None,
                    "dethroned_generation": self.beaten_born if self.beaten_born >= 0 else None}}

    # ----- checkpoint arrays -----
    def arrays(self, n_genes: int) -> dict[str, np.ndarray]:
        """Plain arrays for the checkpoint (empty genes before the first crowning)."""
        genes = np.zeros((0, n_genes)) if self.genes is None else self.genes.reshape(1, -1)
        return {"champion.genes": genes,
                "champion.rating": np.array([self.mu, self.sigma], dtype=np.float64),
                "champion.record": np.array([self.born, self.wins, self.games, self.beaten,
                                             self.beaten_born, self.eval_wins,
                                             self.eval_games], dtype=np.int64)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], n_genes: int) -> Proven:
        """The state `arrays` stored (a checkpoint without them: no champion yet)."""
        if "champion.genes" not in arrays:
            return cls()
        genes = np.asarray(arrays["champion.genes"], dtype=np.float64)
        rating = np.asarray(arrays["champion.rating"], dtype=np.float64)
        record = np.asarray(arrays["champion.record"], dtype=np.int64)
        if genes.shape not in ((0, n_genes), (1, n_genes)) or rating.shape != (2,) or (
                record.shape != (7,)):
            raise ValueError("champion arrays of unexpected shapes")
        if len(genes) == 0:
            return cls()
        born, wins, games, beaten, beaten_born, ev_w, ev_g = (int(x) for x in record)
        return cls(genes[0].copy(), born, float(rating[0]), float(rating[1]), wins, games,
                   beaten, beaten_born, ev_w, ev_g)
