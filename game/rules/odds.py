"""Exact odds of attacking on until a territory falls or the source is down to a chosen size.

Both sides roll as many dice as the rules allow (attacker min(3, a - 1), defender min(2, d)),
so a battle is a Markov chain over (a, d), the armies on the source and on the target; each
roll's loss probabilities are counted exactly over all equally likely dice
(`game.rules.dice.outcome_table`). The chain is solved backwards: a roll always removes one or two
armies, so each state needs only states with fewer armies. Where `game.rules.dice.conquest_table`
answers "down to 1 army" for the players' features, this answers any stopping size and also
the armies expected on both sides at the end, for a person about to roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from game.rules import layout as L
from game.rules.dice import outcome_table

MAX_ARMIES = 300  # per side: the 300 x 300 states take about half a second


@dataclass(frozen=True)
class AttackOdds:
    """The end of attacking from a source of `source` armies on `defenders`, stopping once the
    source has `stop_at` armies or fewer (a roll of several dice may take it below)."""

    source: int
    defenders: int
    stop_at: int
    conquer: float  # P(the target falls)
    source_left: float  # expected armies on the source at the end (before any move-in)
    defenders_left: float  # expected armies on the target at the end (0 once it falls)
    attacker_dice: int  # dice of the first roll
    defender_dice: int


@cache
def roll_odds(n_att: int, n_def: int) -> tuple[tuple[int, int, float], ...]:
    """(attacker loss, defender loss, probability) of one roll of n_att against n_def dice."""
    counts = outcome_table(n_att, n_def)
    total = L.DIE_FACES ** (n_att + n_def)
    return tuple((la, ld, c / total) for (la, ld), c in sorted(counts.items()))


def _whole(name: str, x: object, lo: int, hi: int) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"{name} must be a whole number {lo}..{hi}, got {x!r}")
    return x


def attack_odds(source: int, defenders: int, stop_at: int = 1) -> AttackOdds:
    """Exact odds of attacking from `source` armies on `defenders` until the target falls or the
    source has `stop_at` (1 or more) armies or fewer; ValueError naming a bad argument."""
    a0 = _whole("source", source, 1, MAX_ARMIES)
    d0 = _whole("defenders", defenders, 1, MAX_ARMIES)
    keep = _whole("stop_at", stop_at, 1, MAX_ARMIES)
    # p[a][d], ea[a][d], ed[a][d]: P(conquest), E(source left), E(defenders left) from (a, d).
    p = [[0.0] * (d0 + 1) for _ in range(a0 + 1)]
    ea = [[float(a)] * (d0 + 1) for a in range(a0 + 1)]
    ed = [[float(d) for d in range(d0 + 1)] for _ in range(a0 + 1)]
    for a in range(a0 + 1):
        p[a][0], ed[a][0] = 1.0, 0.0
        if a <= keep:
            continue  # the attacker has stopped (or cannot roll): ea = a, ed = d as set
        for d in range(1, d0 + 1):
            pv = eav = edv = 0.0
            for la, ld, q in roll_odds(min(L.ATTACK_DICE, a - 1), min(L.DEFEND_DICE, d)):
                pv += q * p[a - la][d - ld]
                eav += q * ea[a - la][d - ld]
                edv += q * ed[a - la][d - ld]
            p[a][d], ea[a][d], ed[a][d] = pv, eav, edv
    rolls = a0 > keep
    return AttackOdds(a0, d0, keep, p[a0][d0], ea[a0][d0], ed[a0][d0],
                      min(L.ATTACK_DICE, a0 - 1) if rolls else 0,
                      min(L.DEFEND_DICE, d0) if rolls else 0)


__all__ = ["MAX_ARMIES", "AttackOdds", "attack_odds", "roll_odds"]
