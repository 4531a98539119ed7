"""TrueSkill ratings of a league as mu/sigma arrays, with two interchangeable engines.

`Rater` holds one slot per rated player: the population in slots 0..n-1, then any league anchors
(named bots, hall-of-fame champions) added with `add_anchors`, which play in the same games but
keep their ratings when marked fixed. Games are rated one after the other in the order given,
each from its full finishing order (ties allowed).

Engines (`rating.engine`): "compiled" (evolve.rating.trueskill_kernel, the default) and "reference"
(`trueskill.TrueSkill.rate` game by game); both give the same numbers. Either way a rating goes
in and out of a game as `trueskill.Rating(mu, sigma)` would, so the arrays alone are the state:
a checkpoint of them resumes exactly.
"""

from __future__ import annotations

import numpy as np
import trueskill

from evolve.config import RatingSection
from evolve.rating import trueskill_kernel as tk

ENGINES = ("compiled", "reference")


class RatingError(FloatingPointError):
    """TrueSkill cannot rate a game in double precision (the reference raises the same)."""


def environment(cfg: RatingSection) -> trueskill.TrueSkill:
    """The reference TrueSkill environment of a rating config."""
    return trueskill.TrueSkill(mu=cfg.mu, sigma=cfg.sigma, beta=cfg.beta, tau=cfg.tau,
                               draw_probability=cfg.draw_probability)


def kernel_params(env: trueskill.TrueSkill) -> np.ndarray:
    """The constants `trueskill_kernel.rate_games` takes, computed as the package does."""
    p = np.zeros(tk.N_PARAMS)
    p[tk.K_BETA2] = env.beta ** 2
    p[tk.K_DYN2] = env.tau ** 2
    # One-player teams: every compared pair has two players.
    p[tk.K_MARGIN] = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    p[tk.K_MIN_DELTA] = trueskill.DELTA
    p[tk.K_TWO], p[tk.K_MINUS_TWO] = 2.0, -2.0
    return p


def rate_reference(env: trueskill.TrueSkill, mu: np.ndarray, sigma: np.ndarray,
                   fixed: np.ndarray, groups: np.ndarray, placements: np.ndarray) -> int:
    """`rate_games` through `trueskill.TrueSkill.rate`: same contract, same numbers."""
    for g, (idx, ranks) in enumerate(zip(groups.tolist(), placements.tolist(), strict=True)):
        teams = [(env.create_rating(float(mu[i]), float(sigma[i])),) for i in idx]
        try:
            new = env.rate(teams, ranks=ranks)
        except (FloatingPointError, ValueError, ZeroDivisionError):
            return g
        for i, (r,) in zip(idx, new, strict=True):
            if not fixed[i]:
                mu[i], sigma[i] = r.mu, r.sigma
    return -1


def rated_places(placements: np.ndarray, capped: np.ndarray, outcome: str) -> np.ndarray:
    """The places TrueSkill rates, int32[g, k] (1 = best), from the games' finishing order.

    "order" keeps every place. "win" keeps only an outright win: the winner is 1 and the others
    tie at 2; a capped game has no winner, so everyone ties at 1. Other engines and the yardstick
    count only outright wins, which the finishing order rewards in one comparison of three.
    """
    places = np.asarray(placements, dtype=np.int32)
    if outcome == "order":
        return places
    if outcome != "win":
        raise ValueError(f"rating.outcome {outcome!r}: allowed order, win")
    capped = np.asarray(capped, dtype=np.bool_)[:, None]
    return np.where(capped, 1, np.where(places == 1, 1, 2)).astype(np.int32)


class Rater:
    """mu, sigma f64[N] and fixed bool[N] of the population (first) and league anchors."""

    def __init__(self, cfg: RatingSection, n_population: int, engine: str | None = None) -> None:
        self.cfg = cfg
        self.engine = engine or cfg.engine
        if self.engine not in ENGINES:
            raise ValueError(f"rating engine {self.engine!r}: allowed {', '.join(ENGINES)}")
        self.env = environment(cfg)
        self.params = kernel_params(self.env)
        self.n_population = n_population
        self.mu = np.full(n_population, cfg.mu, dtype=np.float64)
        self.sigma = np.full(n_population, cfg.sigma, dtype=np.float64)
        self.fixed = np.zeros(n_population, dtype=np.bool_)

    @property
    def population(self) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the population's mu and sigma."""
        n = self.n_population
        return self.mu[:n].copy(), self.sigma[:n].copy()

    def set_population(self, mu: np.ndarray, sigma: np.ndarray) -> None:
        """Replace the population's ratings (anchors stay); NaN means a new player."""
        n = self.n_population
        mu, sigma = np.asarray(mu, dtype=np.float64), np.asarray(sigma, dtype=np.float64)
        if mu.shape != (n,) or sigma.shape != (n,):
            raise ValueError(f"expected {n} ratings, got mu {mu.shape} and sigma {sigma.shape}")
        fresh = np.isnan(mu) | np.isnan(sigma)
        self.mu[:n] = np.where(fresh, self.cfg.mu, mu)
        self.sigma[:n] = np.where(fresh, self.cfg.sigma, sigma)

    def add_anchors(self, mu: np.ndarray, sigma: np.ndarray, fixed: bool = True) -> np.ndarray:
        """Append anchors (e.g. baseline bots, hall-of-fame champions); their slot indices."""
        mu, sigma = np.atleast_1d(mu).astype(np.float64), np.atleast_1d(sigma).astype(np.float64)
        start = len(self.mu)
        self.mu = np.concatenate([self.mu, mu])
        self.sigma = np.concatenate([self.sigma, sigma])
        self.fixed = np.concatenate([self.fixed, np.full(len(mu), fixed, dtype=np.bool_)])
        return np.arange(start, len(self.mu))

    def set_anchors(self, mu: np.ndarray, sigma: np.ndarray, fixed: bool = False) -> np.ndarray:
        """Replace all anchors by these (slots n..n+A-1 in order); their slot indices."""
        n = self.n_population
        self.mu, self.sigma, self.fixed = self.mu[:n], self.sigma[:n], self.fixed[:n]
        return self.add_anchors(mu, sigma, fixed)

    @property
    def anchors(self) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the anchors' mu and sigma."""
        n = self.n_population
        return self.mu[n:].copy(), self.sigma[n:].copy()

    def warm_up(self) -> None:
        """Load (on a machine's first run: compile, a few seconds) the compiled kernel now,
        rating a game on scratch arrays."""
        if self.engine == "compiled":
            mu, sigma = np.full(2, self.cfg.mu), np.full(2, self.cfg.sigma)
            tk.rate_games(mu, sigma, np.zeros(2, dtype=np.bool_), np.array([[0, 1]]),
                          np.array([[1, 2]], dtype=np.int32), self.params)

    def rate(self, groups: np.ndarray, placements: np.ndarray) -> None:
        """Rate games in order: groups int[g, k] of slots, placements int[g, k] (1 = best)."""
        groups = np.ascontiguousarray(groups, dtype=np.int64)
        placements = np.ascontiguousarray(placements, dtype=np.int32)
        if groups.shape != placements.shape or not 2 <= groups.shape[1] <= tk.MAX_PLAYERS:
            raise ValueError(f"groups {groups.shape} and placements {placements.shape} must "
                             f"match, with 2..{tk.MAX_PLAYERS} players per game")
        if self.engine == "compiled":
            bad = tk.rate_games(self.mu, self.sigma, self.fixed, groups, placements,
                                self.params)
        else:
            bad = rate_reference(self.env, self.mu, self.sigma, self.fixed, groups, placements)
        if bad >= 0:
            raise RatingError(f"TrueSkill cannot rate game {bad} (players {groups[bad].tolist()}"
                              f", places {placements[bad].tolist()}) in double precision")
