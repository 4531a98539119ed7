"""The training path: whole games between linear players inside one compiled function.

`play_linear_game` runs `game.kernel.setup`, then `decide -> game.kernel.step` until the game is
over, all in `_play`; `play_linear_games` calls it once per game with a fresh
`numpy.random.Generator(PCG64(seed))`. The moves equal `game.engine.play_game` with
`LinearPlayer` objects and the same seed, because both use the same `decide` and rule kernels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from features.decide import decide, make_work
from features.kernels import feature_context
from features.registry import N_GENES
from game.jit import allocating_kernel
from game.kernel import placements, setup, step
from game.layout import (
    E_OK,
    N_PL,
    N_SC,
    N_WILDS,
    PH_OVER,
    R_CAP,
    S_CAPPED,
    S_CURRENT,
    S_PHASE,
    S_ROUND,
    S_WINNER,
)
from game.map import Map, classic_map
from game.state import Rules


class CompiledGameError(RuntimeError):
    """The compiled loop produced an action the rules reject (a bug, never bad input)."""


@dataclass(frozen=True)
class LinearOutcome:
    """Result of one compiled game; per-player arrays are in input (weights row) order."""

    placements: np.ndarray  # int32[k], 1 = best
    rounds: int
    capped: bool
    winner: int  # player index, -1 when capped
    seats: np.ndarray  # int64[k]: perm[seat] = player index
    actions: int  # decisions applied


@allocating_kernel
def _play(m: tuple, fx: tuple, rules: np.ndarray, weights: np.ndarray, rng: np.random.Generator,
          s: tuple, work: tuple, trace: np.ndarray) -> tuple:
    """Play one game in s; returns (perm, actions, error); trace rows get (seat, kind, a, b, c)."""
    sc = s[4]
    perm = setup(m, s, rules, rng)
    n = 0
    while sc[S_PHASE] != PH_OVER:
        seat = sc[S_CURRENT]
        kind, a, b, c = decide(m, fx, s, rules, weights[perm[seat]], work)
        err = step(m, s, rules, rng, kind, a, b, c)
        if n < trace.shape[0]:
            trace[n, 0] = seat
            trace[n, 1] = kind
            trace[n, 2] = a
            trace[n, 3] = b
            trace[n, 4] = c
        n += 1
        if err != E_OK:
            return perm, n, err
    return perm, n, 0


def new_state(n_terr: int, n_players: int) -> tuple:
    """Fresh zeroed state arrays (owner, armies, cards, pl, sc) for a game."""
    return (
        np.zeros(n_terr, dtype=np.int32),
        np.zeros(n_terr, dtype=np.int32),
        np.zeros(n_terr + N_WILDS, dtype=np.int32),
        np.zeros((n_players, N_PL), dtype=np.int32),
        np.zeros(N_SC, dtype=np.int32),
    )


_NO_TRACE = np.zeros((0, 5), dtype=np.int64)


def _run(weights: np.ndarray, seed: np.random.SeedSequence | int, rules: np.ndarray, m: tuple,
         fx: tuple, trace: np.ndarray) -> tuple[LinearOutcome, tuple]:
    k = weights.shape[0]
    s = new_state(len(m[0]), k)
    rng = np.random.Generator(np.random.PCG64(seed))
    perm, n, err = _play(m, fx, rules, weights, rng, s, make_work(m, k), trace)
    if err != E_OK:
        raise CompiledGameError(f"compiled loop: action {n} rejected with error code {err}")
    place_seat = placements(s)
    place = np.empty(k, dtype=np.int32)
    for seat in range(k):
        place[perm[seat]] = place_seat[seat]
    sc = s[4]
    winner = int(perm[sc[S_WINNER]]) if sc[S_WINNER] >= 0 else -1
    rounds = min(int(sc[S_ROUND]), int(rules[R_CAP]))
    out = LinearOutcome(place, rounds, bool(sc[S_CAPPED]), winner, perm.copy(), int(n))
    return out, s


def _args(weights: np.ndarray, rules: Rules | None, map: Map | None
          ) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Validated (weights, rules vector, map kernel): the kernels have no bounds checks."""
    mp = classic_map() if map is None else map
    rl = Rules() if rules is None else rules
    w = np.ascontiguousarray(weights, dtype=np.float64)
    if w.ndim < 2 or w.shape[-1] != N_GENES:
        raise ValueError(f"weights must end in the {N_GENES} genes of the layout, got shape "
                         f"{w.shape}")
    if not np.isfinite(w).all():
        raise ValueError("weights must be finite (found NaN or inf)")
    rl.check(mp, w.shape[-2])
    return w, np.ascontiguousarray(rl.vector(), dtype=np.int32), mp.kernel


def play_linear_game(weights: np.ndarray, seed: np.random.SeedSequence | int,
                     rules: Rules | None = None, map: Map | None = None) -> LinearOutcome:
    """One game between len(weights) linear players (weights f64[k, G]); rules/map default."""
    w, rv, m = _args(weights, rules, map)
    if w.ndim != 2 or not 2 <= w.shape[0] <= 6:
        raise ValueError(f"weights must be f64[k, G] with 2 <= k <= 6, got shape {w.shape}")
    return _run(w, seed, rv, m, feature_context(m), _NO_TRACE)[0]


def play_linear_games(weights: np.ndarray, seeds: Sequence[np.random.SeedSequence | int],
                      rules: Rules | None = None, map: Map | None = None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Many games: weights f64[n_games, k, G] -> (placements i32[n, k], rounds, capped)."""
    w, rv, m = _args(weights, rules, map)
    if w.ndim != 3 or w.shape[0] != len(seeds):
        raise ValueError(f"weights must be f64[n_games, k, G] with n_games = len(seeds) "
                         f"= {len(seeds)}, got shape {w.shape}")
    fx = feature_context(m)
    n = w.shape[0]
    place = np.zeros((n, w.shape[1]), dtype=np.int32)
    rounds = np.zeros(n, dtype=np.int32)
    capped = np.zeros(n, dtype=np.bool_)
    for g in range(n):
        out, _ = _run(w[g], seeds[g], rv, m, fx, _NO_TRACE)
        place[g] = out.placements
        rounds[g] = out.rounds
        capped[g] = out.capped
    return place, rounds, capped


def trace_linear_game(weights: np.ndarray, seed: np.random.SeedSequence | int,
                      rules: Rules | None = None, map: Map | None = None,
                      max_actions: int = 200_000) -> tuple[LinearOutcome, np.ndarray]:
    """Like `play_linear_game`, also returning every decision as rows (seat, kind, a, b, c)."""
    w, rv, m = _args(weights, rules, map)
    trace = np.zeros((max_actions, 5), dtype=np.int64)
    out, _ = _run(w, seed, rv, m, feature_context(m), trace)
    return out, trace[: min(out.actions, max_actions)]
