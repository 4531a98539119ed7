"""The compiled bots' one attack scan: every legal attack rated by a priority ladder, the best.

Each bot states its attack rules as a ladder, a tuple of rungs (aim, least odds, priority): an
attack takes the priority of the first rung whose aim it meets at those conquest odds, and is
passed over when it meets none. The bots differ in three more ways, chosen by small ints so
that the scan stays one compiled loop: what the source keeps back (`KEEP_*`), the order of the
rated attacks (`BY_*`) and the aims' subjects (`Aims`: prey, leader, target continent).
"""

from __future__ import annotations

from typing import NamedTuple

from game.bots.kernels import BotWork, enemy_max, garrison, odds
from game.protocol import Action4
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel
from game.rules.layout import MapArrays, StateArrays

# Aims of a rung: whom or what the attack is into (q: the defender, c: its continent).
ANY = 0  # anything
PREY = 1  # q is the prey
SMALL = 2  # q has at most `Aims.small` territories (needs census)
LEADER_HELD = 3  # q is the leader and holds c whole (needs census)
TARGET = 4  # c is the target continent
HELD = 5  # q holds c whole (needs census)
CARD = 6  # the turn's first conquest (it earns a card)
SAFE = 7  # about half the largest other stack next to the defender would be left there
NEVER = 2.0  # least odds no attack reaches: a rung switched off

# What the source keeps back (its attacking stack is the rest).
KEEP_NONE = 0  # nothing
KEEP_GARRISON = 1  # a held continent's garrison (`garrison`; needs census)
KEEP_GUARD = 2  # in a continent it holds, the largest other enemy stack next to it (census)

# Order of the rated attacks (the first found wins a tie the order leaves).
BY_KEY = 0  # priority x 10 + odds (+ Aims.lead_tie on the leader), the highest
BY_ODDS = 1  # priority, then odds, then the lower target
BY_ODDS_LAST = 2  # odds, then the lower target, then the higher source
BY_ODDS_WEAKEST = 3  # odds, then the weaker defender, then as BY_ODDS_LAST


class Aims(NamedTuple):
    """Subjects of a ladder's aims (-1: none)."""

    prey: int
    leader: int
    target: int
    small: int
    lead_tie: float  # added to an attack's BY_KEY key on the leader


@inline_rule_kernel
def _meets(m: MapArrays, s: StateArrays, w: BotWork, aim: int, aims: Aims, card_open: bool,
           a: int, d: int, stack: int) -> bool:
    """Whether attacking d from a with `stack` armies meets `aim`."""
    q, c = s.owner[d], m.continent_of[d]
    if aim == ANY:
        return True
    if aim == PREY:
        return bool(q == aims.prey)
    if aim == SMALL:
        return bool(w.nown[q] <= aims.small)
    if aim == LEADER_HELD:
        return bool(q == aims.leader and w.holder[c] == q)
    if aim == TARGET:
        return bool(c == aims.target)
    if aim == HELD:
        return bool(w.holder[c] == q)
    if aim == CARD:
        return card_open
    return bool(2 * (stack - s.armies[d]) >= enemy_max(m, s, d, a))  # SAFE


@inline_rule_kernel
def best_attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork,
                ladder: tuple[tuple[int, float, float], ...], aims: Aims, keep: int,
                order: int) -> Action4:
    """The best attack by `order` among those a rung of `ladder` takes, else stop."""
    owner, armies = s.owner, s.armies
    card_open = s.sc[L.S_CONQUERED] == 0
    bs, bd, bprio, bp, bkey = -1, -1, 0.0, 0.0, -1.0
    for a in range(owner.shape[0]):
        if owner[a] != seat or armies[a] < 2:
            continue
        guarded = keep == KEEP_GUARD and w.holder[m.continent_of[a]] == seat
        for k in range(m.degree[a]):
            d = m.neighbours[a, k]
            if owner[d] == seat:
                continue
            # What a keeps back when attacking d; the rest attacks.
            if keep == KEEP_GARRISON:
                stack = armies[a] - garrison(m, s, w, a, d)
            elif guarded:
                stack = armies[a] - enemy_max(m, s, a, d)
            else:
                stack = armies[a]
            if keep != KEEP_NONE and stack < 2:
                continue
            p = odds(w, stack, armies[d])
            prio = -1.0
            for aim, least, rung in ladder:
                if p >= least and _meets(m, s, w, aim, aims, card_open, a, d, stack):
                    prio = rung
                    break
            if prio < 0:
                continue
            if order == BY_KEY:
                key = prio * 10.0 + p + (aims.lead_tie if owner[d] == aims.leader else 0.0)
                if key > bkey:
                    bs, bd, bkey = a, d, key
                continue
            if bs < 0 or prio != bprio or p != bp:
                better = bs < 0 or prio > bprio or (prio == bprio and p > bp)
            elif order == BY_ODDS_WEAKEST and armies[d] != armies[bd]:
                better = armies[d] < armies[bd]
            else:
                better = d < bd or (d == bd and order != BY_ODDS and a > bs)
            if better:
                bs, bd, bprio, bp = a, d, prio, p
    if bs < 0:
        return (L.A_STOP, 0, 0, 0)
    return (L.A_ATTACK, int(bs), int(bd), 0)


__all__ = ["ANY", "BY_KEY", "BY_ODDS", "BY_ODDS_LAST", "BY_ODDS_WEAKEST", "CARD", "HELD",
           "KEEP_GARRISON", "KEEP_GUARD", "KEEP_NONE", "LEADER_HELD", "NEVER", "PREY", "SAFE",
           "SMALL", "TARGET", "Aims", "best_attack"]
