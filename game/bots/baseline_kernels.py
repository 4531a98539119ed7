"""Compiled decisions the baseline bots share: trading, the likeliest attack, the default move-in.

These are the baselines' own rules (`game.bots.common` keeps the Python ones for the bots that
are not compiled); they differ from the planning bots' in `kernels` in small ways that
change moves (which set is "best"), so they are kept apart; where the two differ only in a
tie-break (the attack scan, the march to the front) one kernel takes it as a parameter.
Ties go where the Python versions send them: tests/helpers/reference_bots.py is the oracle.
"""

from __future__ import annotations

import numpy as np

from game.bots import attacks as A
from game.bots.kernels import BotWork, enemy_count, rank_sets
from game.protocol import Action4
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays


@inline_rule_kernel
def first_own(s: StateArrays, seat: int) -> int:
    """The seat's lowest-numbered territory."""
    for t in range(s.owner.shape[0]):
        if s.owner[t] == seat:
            return t
    return 0


@rule_kernel
def trade_best(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int) -> Action4:
    """The set worth most now; ties prefer a card of an own territory, then fewer wilds."""
    return rank_sets(m, s, rules, seat, True)


@inline_rule_kernel  # inlined: `weakest_first` is a constant at every call
def likeliest_attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork, threshold: float,
                     weakest_first: bool) -> Action4:
    """The attack with the best conquest odds if they reach `threshold`, else stop. Ties: the
    weaker defender (with `weakest_first`), then the lower target, then the higher source."""
    return A.best_attack(m, s, seat, w, ((A.ANY, threshold, 0.0),), A.Aims(-1, -1, -1, -1, 0.0),
                         A.KEEP_NONE, A.BY_ODDS_WEAKEST if weakest_first else A.BY_ODDS_LAST)


@rule_kernel
def move_in_split(m: MapArrays, s: StateArrays) -> Action4:
    """Everything when the source is safe, else half each (the bigger half moves)."""
    lo, hi = s.sc[L.S_MIN_MOVE], s.armies[s.sc[L.S_SRC]] - 1
    if enemy_count(m, s, s.sc[L.S_SRC]) == 0:
        return (L.A_MOVE, int(hi), 0, 0)
    return (L.A_MOVE, int(max(lo, min(hi, (hi + 1) - (hi + 1) // 2))), 0, 0)


__all__ = ["first_own", "likeliest_attack", "move_in_split", "trade_best"]
