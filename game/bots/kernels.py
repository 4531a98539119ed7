"""Compiled building blocks of the planning bots (`planner`, `hunter`, `strategist`): board
facts per decision.

Every function is a rule kernel (no allocation): scratch space comes from one `BotWork` per game.
The bots are deterministic (ties go to the lowest index) so that the Python class, which calls
the same kernel, and the compiled league loop play the same moves.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from game.protocol import Action4
from game.rules import layout as L
from game.rules import queries
from game.rules.cards import hand_size, is_set, set_value
from game.rules.dice import conquest_table, odds_lookup
from game.rules.jit import inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import census_into, reinforcements, trade_compulsory

MAX_SEATS = 6


class BotWork(NamedTuple):
    """Scratch arrays of a compiled bot, allocated once per game (`make_bot_work`)."""

    table: np.ndarray  # f64[a, d]: exact conquest odds (game.rules.dice.conquest_table)
    cnt: np.ndarray  # int32[C]: own territories per continent
    holder: np.ndarray  # int32[C]: sole holder of each continent, -1 none
    nown: np.ndarray  # int32[MAX_SEATS]: territories per seat
    strength: np.ndarray  # f64[MAX_SEATS]: a player's threat (see `player_strength`)
    queue: np.ndarray  # int32[T]: BFS queue
    dist: np.ndarray  # int32[T]: BFS distance to the front (own territories), -1 unseen


def make_bot_work(m: MapArrays) -> BotWork:
    """Scratch arrays for a board."""
    n_terr, n_cont = len(m.continent_of), len(m.bonus)
    return BotWork(conquest_table(), np.zeros(n_cont, np.int32), np.zeros(n_cont, np.int32),
                   np.zeros(MAX_SEATS, np.int32), np.zeros(MAX_SEATS, np.float64),
                   np.zeros(n_terr, np.int32), np.zeros(n_terr, np.int32))


@rule_kernel
def census(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> None:
    """`census_into` the bot's scratch (w.cnt, w.holder, w.nown)."""
    census_into(m, s.owner, seat, w.cnt, w.holder, w.nown)


@inline_rule_kernel
def enemy_max(m: MapArrays, s: StateArrays, t: int, skip: int) -> int:
    """Largest stack next to t owned by someone else than t's owner (ignoring `skip`)."""
    big = 0
    o = s.owner[t]
    for k in range(m.degree[t]):
        u = m.neighbours[t, k]
        if u != skip and s.owner[u] != o and s.armies[u] > big:
            big = s.armies[u]
    return big


@inline_rule_kernel
def enemy_min(m: MapArrays, s: StateArrays, t: int) -> int:
    """Smallest stack next to t owned by someone else than t's owner (1 << 30 if none)."""
    small = 1 << 30
    o = s.owner[t]
    for k in range(m.degree[t]):
        u = m.neighbours[t, k]
        if s.owner[u] != o and s.armies[u] < small:
            small = s.armies[u]
    return small


@inline_rule_kernel
def enemy_count(m: MapArrays, s: StateArrays, t: int) -> int:
    """Neighbours of t owned by someone else."""
    n = 0
    for k in range(m.degree[t]):
        if s.owner[m.neighbours[t, k]] != s.owner[t]:
            n += 1
    return n


@inline_rule_kernel
def garrison(m: MapArrays, s: StateArrays, w: BotWork, t: int, skip: int) -> int:
    """Armies a territory of a continent its owner holds should keep: at least 2 and the
    largest adjacent enemy stack (0 elsewhere, or with no enemy next to it)."""
    c = m.continent_of[t]
    if w.holder[c] != s.owner[t]:
        return 0
    big = enemy_max(m, s, t, skip)
    if big == 0:
        return 0
    return max(2, big)


@inline_rule_kernel
def odds(w: BotWork, attackers: int, defenders: int) -> float:
    """P(a stack of `attackers` conquers `defenders`)."""
    return odds_lookup(w.table, attackers, defenders)


@rule_kernel
def player_strength(m: MapArrays, s: StateArrays, w: BotWork) -> None:
    """w.strength[q]: territories + 2 x income + armies / 3 + 2 x cards of each live seat."""
    n = s.pl.shape[0]
    w.strength[:] = 0.0
    for q in range(n):
        if s.pl[q, L.P_ALIVE] == 0:
            continue
        arm = 0
        for t in range(s.owner.shape[0]):
            if s.owner[t] == q:
                arm += s.armies[t]
        w.strength[q] = (w.nown[q] + 2.0 * reinforcements(m, s, q) + arm / 3.0
                         + 2.0 * hand_size(s.cards, q))


@rule_kernel
def move_in_garrisoned(m: MapArrays, s: StateArrays, seat: int, w: BotWork,
                       entry_weight: float, always_halve: bool) -> Action4:
    """Move in all but what the source must keep: only the dice into a conquered interior; a
    held continent's garrison stays; elsewhere next to enemies the largest adjacent stack
    stays, halved when `always_halve` or when the conquest is in the target continent
    (`target_continent` with `entry_weight`)."""
    src, dst = s.sc[L.S_SRC], s.sc[L.S_DST]
    lo, hi = s.sc[L.S_MIN_MOVE], s.armies[src] - 1
    census(m, s, seat, w)
    if enemy_count(m, s, dst) == 0:
        return (L.A_MOVE, int(lo), 0, 0)  # a conquered interior: the armies stay at the front
    keep = garrison(m, s, w, src, -1)
    if keep == 0 and enemy_count(m, s, src) > 0:
        keep = enemy_max(m, s, src, -1)
        if always_halve or m.continent_of[dst] == target_continent(m, s, seat, w, entry_weight):
            keep //= 2
    return (L.A_MOVE, int(min(hi, max(lo, hi - keep))), 0, 0)


@rule_kernel
def garrison_gap(m: MapArrays, s: StateArrays, seat: int, w: BotWork,
                 pool: int) -> tuple[int, int]:
    """(territory, armies) for the largest garrison gap of a held continent, at most half of
    the `pool` left so that the attack base gets the rest; (-1, 0) if none or if a single
    reinforcement is left. Needs `census` first."""
    owner, armies = s.owner, s.armies
    gap_t, gap = -1, 0
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            need = garrison(m, s, w, t, -1) - armies[t]
            if need > gap:
                gap_t, gap = t, need
    if gap_t >= 0 and (pool > 1 or s.sc[L.S_PHASE] == L.PH_SETUP):
        return gap_t, min(gap, max(1, pool // 2))
    return -1, 0


@rule_kernel
def place_garrison(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    """Census, then the placement that fills the largest garrison gap of a held continent,
    or (-1, 0, 0, 0) when none is short (the planner's and the strategist's first step)."""
    census(m, s, seat, w)
    gap_t, n = garrison_gap(m, s, seat, w, pool)
    if gap_t >= 0:
        return (L.A_PLACE, int(gap_t), int(n), 0)
    return (-1, 0, 0, 0)


NEXT_TARGET = 1 << 20  # `stack_base` keys: next to the target continent ...
NEXT_PREY = 2 << 20  # ... next to the prey (above any stack: fewer than 2^20 armies)


@rule_kernel
def stack_base(m: MapArrays, s: StateArrays, seat: int, prey: int, tc: int) -> tuple[int, int]:
    """(own t, key) with the highest key (ties: the lowest t; (-1, -1) if no own t has an
    enemy neighbour): its armies, plus NEXT_PREY next to the prey's territory, else plus
    NEXT_TARGET next to an enemy territory of continent tc. Where a bot masses its armies."""
    owner, armies = s.owner, s.armies
    base, best = -1, -1
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        for k in range(m.degree[t]):
            u = m.neighbours[t, k]
            if owner[u] == seat:
                continue
            key = armies[t] + (NEXT_PREY if owner[u] == prey else
                               NEXT_TARGET if m.continent_of[u] == tc else 0)
            if key > best:
                base, best = t, key
    return base, best


@rule_kernel
def edge_base(m: MapArrays, s: StateArrays, seat: int) -> int:
    """The own border stack with the biggest edge over its weakest enemy neighbour, else the
    first own territory (-1 if none): where a bot with no better plan masses its armies."""
    owner, armies = s.owner, s.armies
    base, edge = -1, -1 << 30
    for t in range(owner.shape[0]):
        if owner[t] != seat or enemy_count(m, s, t) == 0:
            continue
        weakest = enemy_min(m, s, t)
        if armies[t] - weakest > edge:
            base, edge = t, armies[t] - weakest
    if base < 0:
        for t in range(owner.shape[0]):
            if owner[t] == seat:
                return t
    return base


@inline_rule_kernel
def continent_cost(m: MapArrays, s: StateArrays, seat: int, c: int,
                   count_entries: bool) -> tuple[bool, int, int]:
    """(within reach: seat holds a territory in or next to c, enemy armies + territories to
    take in c, entry territories of c: those with a neighbour outside; 0 unless
    `count_entries`, which a constant False lets the search stop at the first own one)."""
    owner = s.owner
    reach, cost, entries = False, 0, 0
    for t in range(owner.shape[0]):
        if m.continent_of[t] != c:
            continue
        if owner[t] == seat:
            reach = True
        else:
            cost += s.armies[t] + 1
        if reach and not count_entries:
            continue
        entry = False
        for k in range(m.degree[t]):
            u = m.neighbours[t, k]
            if owner[u] == seat:
                reach = True
                if not count_entries:
                    break
            if m.continent_of[u] != c:
                entry = True
        entries += entry and count_entries
    return reach, cost, entries


@rule_kernel
def mass_base(m: MapArrays, s: StateArrays, seat: int, w: BotWork, prey: int,
              entry_weight: float) -> int:
    """Where a planning bot masses its armies: the biggest stack next to the prey (-1: none),
    else next to an enemy territory of its `target_continent`, else its `edge_base`."""
    tc = target_continent(m, s, seat, w, entry_weight)
    base, key = stack_base(m, s, seat, prey, tc)
    return base if key >= NEXT_TARGET else edge_base(m, s, seat)


@rule_kernel
def target_continent(m: MapArrays, s: StateArrays, seat: int, w: BotWork,
                     entry_weight: float) -> int:
    """The continent not held whose conquest is cheapest for its bonus: (bonus + 1) / (enemy
    armies + territories to take + entry_weight x entry territories + 1), among those within
    reach; -1 if none."""
    best, bv = -1, -1.0
    for c in range(m.bonus.shape[0]):
        if w.cnt[c] == m.continent_size[c]:
            continue
        reach, cost, entries = continent_cost(m, s, seat, c, True)
        if not reach:
            continue
        v = (m.bonus[c] + 1.0) / (cost + entry_weight * entries + 1.0)
        if v > bv:
            best, bv = c, v
    return best


@rule_kernel
def rank_sets(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int,
              own_apart: bool) -> Action4:
    """(A_TRADE, c1, c2, c3) for the set worth most now, or (A_END_TRADE, 0, 0, 0) when the
    hand holds no set; ties go to fewer wilds, then the first in (i, j, k) order.

    A card of an own territory counts as its +2 bonus (while the bonus is open) in the value,
    or, with `own_apart`, as a tie-break between the value and the wilds (the baselines' rule).
    """
    owner, cards, sc, kinds = s.owner, s.cards, s.sc, m.card_kind
    n_terr = owner.shape[0]
    bonus_open = queries.bonus_open(s, rules)
    b1, b2, b3, bv, bo, bw = -1, -1, -1, -1, 0, 9
    n = cards.shape[0]
    for i in range(n):
        if cards[i] != seat:
            continue
        for j in range(i + 1, n):
            if cards[j] != seat:
                continue
            for k in range(j + 1, n):
                if cards[k] != seat:
                    continue
                ki, kj, kk = kinds[i], kinds[j], kinds[k]
                if not is_set(ki, kj, kk):
                    continue
                wilds = (ki == L.WILD) + (kj == L.WILD) + (kk == L.WILD)
                v = set_value(rules, sc[L.S_TRADES], ki, kj, kk)
                own = int((i < n_terr and owner[i] == seat) or (j < n_terr and owner[j] == seat)
                          or (k < n_terr and owner[k] == seat))
                if not own_apart:
                    if bonus_open and own:
                        v += L.CARD_BONUS
                    own = 0
                if v > bv or (v == bv and (own > bo or (own == bo and wilds < bw))):
                    b1, b2, b3, bv, bo, bw = i, j, k, v, own, wilds
    if b1 < 0:
        return (L.A_END_TRADE, 0, 0, 0)
    return (L.A_TRADE, int(b1), int(b2), int(b3))


@rule_kernel
def best_set(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int) -> Action4:
    """`rank_sets` with the territory bonus in the value (the planning bots' rule)."""
    return rank_sets(m, s, rules, seat, False)


@rule_kernel
def set_worth(m: MapArrays, s: StateArrays, rules: np.ndarray, c1: int, c2: int,
              c3: int) -> int:
    """Armies the set (c1, c2, c3) gives now, without the territory bonus."""
    k = m.card_kind
    return set_value(rules, s.sc[L.S_TRADES], k[c1], k[c2], k[c3])


__all__ = [
    "NEXT_PREY",
    "NEXT_TARGET",
    "BotWork",
    "best_set",
    "census",
    "continent_cost",
    "edge_base",
    "enemy_count",
    "enemy_max",
    "enemy_min",
    "garrison",
    "garrison_gap",
    "make_bot_work",
    "mass_base",
    "move_in_garrisoned",
    "odds",
    "place_garrison",
    "player_strength",
    "rank_sets",
    "set_worth",
    "stack_base",
    "target_continent",
    "trade_compulsory",
]
