"""Continent: takes the cheapest continent within reach, holds its entries, then expands.

Cheapest = fewest enemy armies (plus one per enemy territory) in it, ties to the bigger bonus;
within reach = it holds a territory in it or next to it. Reinforcements first raise the weakest
border of a continent it owns to one more than the biggest adjacent enemy stack (at most half
of them), the rest go to its strongest border next to an enemy territory of the target. It
attacks into the target continent at a conquest probability >= TAKE and elsewhere at >= EXPAND,
counting only what a border of an owned continent need not keep, moves in all but that guard,
trades the best set at once and marches interior stacks to the front. Compiled (the player is
`game.bots.table.ContinentBot`); tests/helpers/reference_bots.py holds the Python it was written as.
"""

from __future__ import annotations

from game.bots import attacks as A
from game.bots.baseline_kernels import first_own
from game.bots.kernels import BotWork, census, continent_cost, enemy_count, enemy_max, stack_base
from game.protocol import Action4
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays

TAKE = 0.5  # exact P(conquest) enough to attack into the target continent
EXPAND = 0.7  # ... elsewhere


@inline_rule_kernel
def _owned(m: MapArrays, w: BotWork, c: int) -> bool:
    """The seat `census` counted for owns continent c whole."""
    return bool(w.cnt[c] == m.continent_size[c])


@inline_rule_kernel
def _guard(m: MapArrays, s: StateArrays, w: BotWork, t: int, skip: int) -> int:
    """Armies t keeps back: the biggest adjacent enemy stack (but `skip`) in an owned continent."""
    if not _owned(m, w, m.continent_of[t]):
        return 0
    return enemy_max(m, s, t, skip)


@rule_kernel
def _target(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> int:
    """The unowned continent within reach costing fewest enemy armies (ties: bigger bonus,
    then lower index); -1 when none is within reach."""
    best, best_cost, best_bonus = -1, 0, 0
    for c in range(m.bonus.shape[0]):
        if _owned(m, w, c):
            continue
        reach, cost, _entries = continent_cost(m, s, seat, c, False)
        if reach and (best < 0 or cost < best_cost or
                      (cost == best_cost and m.bonus[c] > best_bonus)):
            best, best_cost, best_bonus = c, cost, m.bonus[c]
    return best


@rule_kernel
def place(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    """Up to half on a weak owned-continent border, else all on the target's attack base."""
    owner, armies = s.owner, s.armies
    census(m, s, seat, w)
    any_owned = False
    for c in range(m.bonus.shape[0]):
        any_owned = any_owned or _owned(m, w, c)
    front = False
    gap_t, gap = -1, 0
    for t in range(owner.shape[0]):
        if owner[t] != seat or enemy_count(m, s, t) == 0:
            continue
        front = True
        if any_owned:
            g = _guard(m, s, w, t, -1) + 1 - armies[t]
            if gap_t < 0 or g > gap:
                gap_t, gap = t, g
    if not front:
        return (L.A_PLACE, first_own(s, seat), int(pool), 0)
    if gap_t >= 0 and gap > 0:
        return (L.A_PLACE, int(gap_t), int(max(1, min(gap, pool // 2))), 0)
    # The strongest border next to an enemy territory of the target (else the strongest border).
    base, _key = stack_base(m, s, seat, -1, _target(m, s, seat, w))
    return (L.A_PLACE, int(base), int(pool), 0)


@rule_kernel
def attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """Into the target at odds >= TAKE, elsewhere >= EXPAND, beyond border guards (the
    target first, then the best odds, then the lower target territory)."""
    census(m, s, seat, w)
    tc = _target(m, s, seat, w)
    # TAKE < EXPAND: an attack into the target below TAKE is below the second rung too.
    return A.best_attack(m, s, seat, w, ((A.TARGET, TAKE, 1.0), (A.ANY, EXPAND, 0.0)),
                         A.Aims(-1, -1, tc, -1, 0.0), A.KEEP_GUARD, A.BY_ODDS)


@rule_kernel
def move_in(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """All but a border guard (all when the source is safe)."""
    src = s.sc[L.S_SRC]
    lo, hi = s.sc[L.S_MIN_MOVE], s.armies[src] - 1
    if enemy_count(m, s, src) == 0:
        return (L.A_MOVE, int(hi), 0, 0)
    census(m, s, seat, w)
    return (L.A_MOVE, int(max(lo, hi - _guard(m, s, w, src, -1))), 0, 0)


__all__ = ["EXPAND", "TAKE", "attack", "move_in", "place"]
