"""The linear player in hand-built classic positions: a genome by gene names, its decision,
and a game played by the compiled loop and the Python engine side by side."""

from __future__ import annotations

import numpy as np

from features.compiled import trace_linear_game
from features.decide import decide
from features.genome import LAYOUT
from features.kernels import feature_context
from features.linear import LinearPlayer
from features.registry import (
    N_GENES,
)
from features.work import make_work
from game.engine import play_game
from game.map import Map
from game.state import Rules, State
from tests.helpers.positions import CLASSIC

MK = CLASSIC.kernel


FX = feature_context(MK)


RV = Rules().vector()


def genes(**kw: float) -> np.ndarray:
    """All-zero genome (scale genes +1) with the named genes set; dots may be written as __."""
    w = np.zeros(N_GENES)
    w[LAYOUT.scale] = 1.0
    for k, v in kw.items():
        w[LAYOUT.index(k.replace("__", "."))] = v
    return w


def act(st: State, w: np.ndarray, rules: np.ndarray = RV) -> tuple[int, ...]:
    """The linear decision (kind, a, b, c) in a hand-built position, writable as the players
    pass it (read-only arrays would compile decide a second time: 250 MB more per process)."""
    return tuple(int(x) for x in decide(MK, FX, st.copy().kernel, rules, w,
                                        make_work(MK, st.n_players)))


class Recorder(LinearPlayer):
    """LinearPlayer that logs (seat, kind, a, b, c) of every decision into a shared list."""

    def __init__(self, weights: np.ndarray, log: list[tuple[int, ...]]) -> None:
        super().__init__(weights)
        self.log = log

    def kernel_action(self, view):  # type: ignore[no-untyped-def]
        r = super().kernel_action(view)
        self.log.append((view.seat, *r))
        return r


def same_game(w: np.ndarray, seed: int, rules: Rules, map: Map | None = None) -> None:
    out, trace = trace_linear_game(w, seed, rules, map)
    log: list[tuple[int, ...]] = []
    res = play_game([Recorder(x, log) for x in w], seed=seed, rules=rules, map=map)
    assert [tuple(int(v) for v in r) for r in trace] == log, seed
    assert tuple(out.placements.tolist()) == res.placements
    assert (out.rounds, out.capped) == (res.rounds, res.capped)
    assert tuple(out.seats.tolist()) == res.seats
    assert out.winner == (-1 if res.winner is None else res.winner)


