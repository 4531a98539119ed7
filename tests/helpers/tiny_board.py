"""A five-territory board (A = {a1, a2, a3} bonus 3, B = {b1, b2} bonus 1) for features and
decisions computed by hand."""

from __future__ import annotations

import numpy as np

from features.decide import decide
from features.kernels import feature_context
from features.work import make_work
from game.map import build_map
from game.rules.layout import (
    P_ALIVE,
    P_MISSION,
    P_TARGET,
    S_CONQUERED,
    StateArrays,
)
from game.state import Rules, State

# Tiny board: A = {a1, a2, a3} bonus 3, B = {b1, b2} bonus 1; a3-b1 is the only crossing.
TINY = build_map({
    "name": "tiny",
    "continents": [
        {"name": "A", "bonus": 3, "territories": ["a1", "a2", "a3"]},
        {"name": "B", "bonus": 1, "territories": ["b1", "b2"]},
    ],
    "borders": [["a1", "a2"], ["a2", "a3"], ["a1", "a3"], ["a3", "b1"], ["b1", "b2"]],
})


A1, A2, A3, B1, B2 = range(5)


MK = TINY.kernel


FX = feature_context(MK)


OFF = Rules().vector()


MISSIONS = Rules(missions=True).vector()


def tiny(owner: list[int], armies: list[int], n_players: int = 2,
         conquered: int = 0) -> StateArrays:
    """State arrays on the tiny board; seats owning nothing are dead."""
    st = State.empty(TINY, n_players)
    st.owner[:], st.armies[:], st.cards[:] = owner, armies, -1
    st.pl[:, P_MISSION] = -1
    st.pl[:, P_TARGET] = -1
    for q in range(n_players):
        st.pl[q, P_ALIVE] = int(q in owner)
    st.sc[S_CONQUERED] = conquered
    return st.kernel


def act_tiny(s: StateArrays, w: np.ndarray) -> tuple[int, ...]:
    """The linear decision on the tiny board (a writable copy, as in `helpers.linear.act`)."""
    return tuple(int(x) for x in decide(MK, FX, State(*s).copy().kernel, OFF, w,
                                        make_work(MK, 2)))


