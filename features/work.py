"""The linear player's decision scratch (`Work`), shared by the decision kernels
(`features.decide`, `features.moves`), the compiled loop and the explanations."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from features import registry as F
from features.players import Players, make_players
from game.protocol import Action4
from game.rules.layout import MapArrays

MAX_OPTIONS = 8  # most options a search asks the scorer for (top-k move ordering)
NO_ACTION = (-1, 0, 0, 0)  # (kind, a, b, c) as game.rules.kernel.step takes it: none


class Work(NamedTuple):
    """Scratch arrays of `decide`, allocated once per game (`make_work`) and reused."""

    feat: np.ndarray  # float64: one feature vector
    score: np.ndarray  # float64[T]: per-territory partial score or vantage
    flags: np.ndarray  # int32[T]: per-territory flags
    comp: np.ndarray  # int32[T]: component labels of own territories
    stack: np.ndarray  # int32: search stack, or the hand's card ids
    need: np.ndarray  # float64[T]: need(t) of own territories (fortify)
    guard: np.ndarray  # float64[T]: B(c(t))/Bmax if p holds c(t), else 0 (fortify)
    opt_a: np.ndarray  # int64[MAX_OPTIONS]: the best options' first argument, best first
    opt_b: np.ndarray  # int64[MAX_OPTIONS]: their second argument
    opt_v: np.ndarray  # float64[MAX_OPTIONS]: their scores (`features.decide.attack_options`)
    players: Players  # player-level summaries, filled once per decision


def make_work(m: MapArrays, n_players: int) -> Work:
    """Scratch arrays for `decide` sized for a board and a seat count."""
    n_terr = len(m.continent_of)
    return Work(
        feat=np.zeros(max(F.NR, F.NA, F.NF), dtype=np.float64),
        score=np.zeros(n_terr, dtype=np.float64),
        flags=np.zeros(n_terr, dtype=np.int32),
        comp=np.zeros(n_terr, dtype=np.int32),
        stack=np.zeros(max(n_terr, len(m.card_kind)), dtype=np.int32),
        need=np.zeros(n_terr, dtype=np.float64),
        guard=np.zeros(n_terr, dtype=np.float64),
        opt_a=np.zeros(MAX_OPTIONS, dtype=np.int64),
        opt_b=np.zeros(MAX_OPTIONS, dtype=np.int64),
        opt_v=np.zeros(MAX_OPTIONS, dtype=np.float64),
        players=make_players(m, n_players),
    )


__all__ = ["MAX_OPTIONS", "NO_ACTION", "Action4", "Work", "make_work"]
