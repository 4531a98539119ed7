"""Positions for fitting the value: compiled games replayed from their traces, every seat's
value terms recorded at the end of each of its attack phases, labelled by who won.

The compiled loop (`features.compiled`) keeps each decision as a trace row; the game's dice
come from one generator seeded by the game's seed, so `setup` and `step` with that generator
and the trace replay the game exactly without deciding anything again. A seat's position is
recorded before its first fortify decision of a turn: the position the search's `attack`
horizon values (`features.search.plan`); or before its first reinforcement (`round`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from features.compiled import trace_linear_game
from features.search.value import NV, value_scratch, value_terms
from game.map import Map, classic_map
from game.rules import layout as L
from game.rules.jit import allocating_kernel
from game.rules.kernel import setup, step
from game.rules.layout import MapArrays, StateArrays
from game.state import Rules, State

MAX_ACTIONS = 100_000  # a game's trace bound (capped games stop far below it)


@allocating_kernel
def _replay(m: MapArrays, s: StateArrays, rules: np.ndarray, rng: np.random.Generator,
            trace: np.ndarray, phase: int, scratch: np.ndarray, x: np.ndarray,
            seat_of: np.ndarray) -> tuple[np.ndarray, int]:
    """Replay the traced game into s; returns (perm, rows): rows of x get the value terms of a
    seat (seat_of) before its first decision in `phase` of each turn."""
    perm = setup(m, s, rules, rng)
    sc = s.sc
    last = np.full(s.pl.shape[0], -1, np.int64)
    n = 0
    for i in range(trace.shape[0]):
        seat = sc[L.S_CURRENT]
        if sc[L.S_PHASE] == phase and last[seat] != sc[L.S_TURNS] and n < x.shape[0]:
            last[seat] = sc[L.S_TURNS]
            value_terms(m, s, rules, seat, scratch)
            x[n, :] = scratch[:NV]
            seat_of[n] = seat
            n += 1
        if step(m, s, rules, rng, trace[i, 1], trace[i, 2], trace[i, 3], trace[i, 4]) != L.E_OK:
            return perm, -1 - i
    return perm, n


class Positions(NamedTuple):
    """Value terms of recorded positions with their labels (one row each)."""

    x: np.ndarray  # f64[n, NV]
    won: np.ndarray  # f64[n]: 1 if the seat went on to win the game
    game: np.ndarray  # int64[n]: the game's index in the batch
    player: np.ndarray  # int64[n]: the player (row of the game's weights) whose position it is


def record_games(weights: np.ndarray, policies: np.ndarray,
                 seeds: Sequence[np.random.SeedSequence | int], record: np.ndarray,
                 rules: Rules | None = None, map: Map | None = None,
                 plans: np.ndarray | None = None, horizon: str = "attack") -> Positions:
    """Play compiled games (`features.compiled.play_mixed_games`'s arguments) and record the
    positions of the players where record[g, p] is true: at the end of each of their attack
    phases (before their first fortify decision), or with horizon "round" at the start of each
    of their turns (before their first reinforcement)."""
    phase = L.PH_FORTIFY if horizon == "attack" else L.PH_REINFORCE
    mp = classic_map() if map is None else map
    rl = Rules() if rules is None else rules
    rv = rl.vector()
    k = weights.shape[1]
    xs, ys, gs, ps = [], [], [], []
    scratch = value_scratch(mp.kernel, k)
    for g, seed in enumerate(seeds):
        out, trace = trace_linear_game(weights[g], seed, rl, mp, MAX_ACTIONS, policies[g],
                                       None if plans is None else plans[g])
        state = State.empty(mp, k, one_buffer=False)
        rng = np.random.Generator(np.random.PCG64(
            seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)))
        x = np.zeros((len(trace) // 2 + 1, NV))
        seat_of = np.zeros(len(x), np.int64)
        perm, n = _replay(mp.kernel, state.kernel, rv, rng, trace, phase, scratch, x, seat_of)
        if n < 0 or not np.array_equal(perm, out.seats):
            raise RuntimeError(f"game {g}: its replay left the trace at action {-1 - n}")
        player = perm[seat_of[:n]]
        keep = record[g][player]
        xs.append(x[:n][keep])
        ys.append((player[keep] == out.winner).astype(np.float64))
        gs.append(np.full(int(keep.sum()), g, np.int64))
        ps.append(player[keep])
    if not xs:
        return Positions(np.zeros((0, NV)), np.zeros(0), np.zeros(0, np.int64),
                         np.zeros(0, np.int64))
    return Positions(np.concatenate(xs), np.concatenate(ys), np.concatenate(gs),
                     np.concatenate(ps))


__all__ = ["MAX_ACTIONS", "Positions", "record_games"]
