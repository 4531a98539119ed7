"""Player-level summaries computed once per decision: who leads, whose income, cards and threat.

`summarize` fills a `Players` scratch tuple from the position; the reinforce, attack and trade
decisions read it instead of recomputing per option. Formulas (p the deciding seat, T the number
of territories, sums over living seats):

- inc(q) = max(3, terr(q) // 3) + bonuses of the continents q holds (its next income);
- S(q) = (terr(q) / T + inc(q) / sum inc + armies(q) / sum of p's opponents' armies) / 3, the
  strength of q (armies among the opponents only, so p's own placements leave it unchanged);
- leader: the living opponent of p with the largest S (lowest seat on ties), -1 if none;
- att(q) = sum over q's territories next to p of (armies - 1), plus inc(q): what q can throw at p
  next turn; pressure = A / (A + D), A = max att(q) over opponents, D = p's armies on its borders;
- hand(q) = cards q holds;
- K(c) = 1 + sum over the territories u of c p does not own of (a(u) + 1) (0 if p holds c), the
  armies one stack needs to sweep c; stager(c) = p's territory with most armies next to one of
  those (lowest index on ties, -1 if none; `stagers`);
- K(q) = 1 + sum over the territories u of a living opponent q of (a(u) + 1) (0 for p and the
  dead), the armies one stack needs to take all q has; v(q) = (1 + min(hand(q), F)) / (1 + F)
  with F = rules.trade_at (the hand that must trade, 5 by default), what eliminating q is worth
  (a rival fewer, its cards taken); stager(q) = p's territory with most armies next to one of
  q's (`stagers`).

The summaries are exact for the position they were computed in. The compiled game loop carries
them across the two steps that change little (`carry`: a placement, a battle without conquest)
and marks them fresh; `summarize`, `stagers` and `pressure` then return at once. Every other
step, and every caller outside that loop, leaves them stale, so they are recomputed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from features.kernels import FeatureContext, garrison, hand_share, hostile
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import census_into


class Players(NamedTuple):
    """Per-decision scratch: per-seat summaries and the decision's scalars."""

    cnt: np.ndarray  # int32[C]: p's territories per continent
    holder: np.ndarray  # int32[C]: sole holder of each continent (-1 none)
    nown: np.ndarray  # int32[P]: territories per seat
    hand: np.ndarray  # int32[P]: cards per seat
    inc: np.ndarray  # float64[P]: next income per seat
    strength: np.ndarray  # float64[P]: S(q)
    att: np.ndarray  # float64[P]: attack potential of q against p (`pressure`)
    mark: np.ndarray  # int32[T]: enemy territories next to p (`pressure`)
    cost: np.ndarray  # float64[C]: K(c), the plan's armies
    stager: np.ndarray  # int32[C]: stager(c), filled by `stagers` (placements only)
    ecost: np.ndarray  # float64[P]: K(q), the elimination plan's armies
    evalue: np.ndarray  # float64[P]: v(q), what eliminating q is worth
    estager: np.ndarray  # int32[P]: stager(q), filled by `stagers` (placements only)
    scalars: np.ndarray  # float64[N_SCALARS]: see SC_*
    army: np.ndarray  # int64[P]: armies per seat
    memo: np.ndarray  # int32[N_MEMO]: which summaries hold for the current position, see M_*
    place: np.ndarray  # float64[T, N_PLACE]: the parts of p's reinforce scores, see PT_*


SC_LEADER, SC_HAND, SC_DEFENCE = 0, 1, 2  # SC_DEFENCE: D of `pressure`
N_SCALARS = 3
# M_FRESH: the `summarize` part holds (set only by `carry`); M_STAGERS, M_PRESSURE, M_PLACE: so
# do the stagers, pressure's att and D, and `place` (only read while M_FRESH is set).
M_FRESH, M_STAGERS, M_PRESSURE, M_PLACE = 0, 1, 2, 3
N_MEMO = 4
# Per own territory, what `features.decide.place_score` scores it from besides its armies: the
# parts unchanged by p's placements (the fixed terms' sum, H(t), E(t), the mission value, G(t),
# the held continent's bonus share), then its two plans (value, K), rewritten at each decision.
PT_FIXED, PT_H, PT_BIG, PT_MISSION, PT_GARRISON, PT_GUARD = 0, 1, 2, 3, 4, 5
PT_PLAN_B, PT_PLAN_K, PT_ELIM_B, PT_ELIM_K = 6, 7, 8, 9
N_PLACE = 10


def make_players(m: MapArrays, n_players: int) -> Players:
    """Scratch for `summarize` sized for a board and a seat count."""
    n_cont = len(m.bonus)
    return Players(np.zeros(n_cont, dtype=np.int32), np.zeros(n_cont, dtype=np.int32),
                   np.zeros(n_players, dtype=np.int32), np.zeros(n_players, dtype=np.int32),
                   np.zeros(n_players), np.zeros(n_players), np.zeros(n_players),
                   np.zeros(len(m.continent_of), dtype=np.int32), np.zeros(n_cont),
                   np.zeros(n_cont, dtype=np.int32), np.zeros(n_players), np.zeros(n_players),
                   np.zeros(n_players, dtype=np.int32), np.zeros(N_SCALARS),
                   np.zeros(n_players, dtype=np.int64), np.zeros(N_MEMO, dtype=np.int32),
                   np.zeros((len(m.continent_of), N_PLACE)))


@inline_rule_kernel
def summarize(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int, pl: Players) -> None:
    """Fill census, hands, incomes, strengths, the leader, p's hand share, K and v (not
    `pressure` or `stagers`); nothing to do while they are fresh (`carry`)."""
    if pl.memo[M_FRESH] != 0:
        return
    pl.memo[:] = 0  # stagers and pressure were of another position
    owner, armies, cards = s.owner, s.armies, s.cards
    census_into(m, owner, seat, pl.cnt, pl.holder, pl.nown)
    nown, hand, army = pl.nown, pl.hand, pl.army
    n_pl = nown.shape[0]
    hand[:] = 0
    for c in range(cards.shape[0]):
        q = cards[c]
        if 0 <= q < n_pl:
            hand[q] += 1
    _incomes(m, pl)
    cost, ecost = pl.cost, pl.ecost
    cost[:] = 0.0
    ecost[:] = 0.0
    army[:] = 0
    for t in range(owner.shape[0]):
        army[owner[t]] += armies[t]
        if owner[t] != seat:
            cost[m.continent_of[t]] += armies[t] + 1
            ecost[owner[t]] += armies[t] + 1
    for c in range(cost.shape[0]):
        if cost[c] > 0:
            cost[c] += 1.0
    full = float(rules[L.R_TRADE_AT])  # the hand that must trade: v(q) saturates there
    for q in range(n_pl):
        if ecost[q] > 0:
            ecost[q] += 1.0
        pl.evalue[q] = (1.0 + min(hand[q], full)) / (1.0 + full)
    _strengths(seat, owner.shape[0], pl)
    pl.scalars[SC_HAND] = hand_share(hand[seat], rules)


@inline_rule_kernel
def _incomes(m: MapArrays, pl: Players) -> None:
    """inc(q) from the counts and the continents' holders."""
    nown, inc = pl.nown, pl.inc
    for q in range(nown.shape[0]):
        inc[q] = float(max(L.MIN_REINFORCEMENTS, nown[q] // L.TERRITORIES_PER_ARMY))
    for c in range(pl.holder.shape[0]):
        h = pl.holder[c]
        if h >= 0:
            inc[h] += m.bonus[c]


@inline_rule_kernel
def _strengths(seat: int, n_terr: int, pl: Players) -> None:
    """S(q) and the leader from the counts, incomes and armies per seat."""
    nown, inc, army, st = pl.nown, pl.inc, pl.army, pl.strength
    n_pl = nown.shape[0]
    sum_inc = 0.0
    sum_arm = 0.0
    for q in range(n_pl):
        if nown[q] > 0:
            sum_inc += inc[q]
            if q != seat:
                sum_arm += float(army[q])
    leader = -1
    top = -1.0
    for q in range(n_pl):
        if nown[q] == 0:
            st[q] = 0.0
            continue
        arm_share = float(army[q]) / sum_arm if sum_arm > 0 else 0.0
        st[q] = (nown[q] / n_terr + inc[q] / sum_inc + arm_share) / 3.0
        if q != seat and st[q] > top:
            top, leader = st[q], q
    pl.scalars[SC_LEADER] = leader


@inline_rule_kernel
def _stages_better(armies: np.ndarray, u: int, g: int) -> bool:
    """True if u should replace stager g (-1: none): more armies, lowest index on ties."""
    return g < 0 or armies[u] > armies[g] or (armies[u] == armies[g] and u < g)


@inline_rule_kernel
def stagers(m: MapArrays, s: StateArrays, seat: int, pl: Players) -> None:
    """Fill stager(c) and stager(q); apart from `summarize` because only placements read them.

    Call `summarize` first: it marks these stale when it recomputes.
    """
    if pl.memo[M_FRESH] != 0 and pl.memo[M_STAGERS] != 0:
        return
    pl.memo[M_STAGERS] = 1
    owner, armies, stager, estager = s.owner, s.armies, pl.stager, pl.estager
    stager[:] = -1
    estager[:] = -1
    for t in range(owner.shape[0]):
        q = owner[t]
        if q == seat:
            continue
        c = m.continent_of[t]
        for k in range(m.degree[t]):
            u = m.neighbours[t, k]
            if owner[u] == seat:
                if _stages_better(armies, u, stager[c]):
                    stager[c] = u
                if _stages_better(armies, u, estager[q]):
                    estager[q] = u


@inline_rule_kernel
def pressure(m: MapArrays, s: StateArrays, seat: int, pl: Players) -> float:
    """A / (A + D) (0 if both are 0); needs `summarize` first (the incomes).

    Only p's territories are scanned (an own territory with an enemy neighbour is a border),
    which is why this is separate from `summarize`: decisions call it only when weighed.
    """
    owner, armies = s.owner, s.armies
    mark, att = pl.mark, pl.att
    if pl.memo[M_FRESH] == 0 or pl.memo[M_PRESSURE] == 0:
        pl.memo[M_PRESSURE] = 1
        mark[:] = 0
        defence = 0.0
        for t in range(owner.shape[0]):
            if owner[t] != seat:
                continue
            border = False
            for k in range(m.degree[t]):
                u = m.neighbours[t, k]
                if owner[u] != seat:
                    border = True
                    mark[u] = 1
            if border:
                defence += armies[t]
        pl.scalars[SC_DEFENCE] = defence
        att[:] = 0.0
        for u in range(owner.shape[0]):
            if mark[u] != 0:
                att[owner[u]] += armies[u] - 1
        for q in range(att.shape[0]):
            if q != seat and pl.nown[q] > 0:
                att[q] += pl.inc[q]
    threat = 0.0
    for q in range(att.shape[0]):
        if q != seat and pl.nown[q] > 0:
            threat = max(threat, att[q])
    defence = pl.scalars[SC_DEFENCE]
    return threat / (threat + defence) if threat + defence > 0 else 0.0


@inline_rule_kernel
def carry(m: MapArrays, s: StateArrays, seat: int, phase: int, kind: int, a: int, b: int,
          pre_a: int, pre_b: int, pre_q: int, pl: Players) -> None:
    """After a step of `seat`'s decision (kind, a, b) taken in `phase`, with pre_a and pre_b
    the armies on a and b before it and pre_q b's owner: bring the summaries of that decision
    up to date, or mark them stale (kind -1: not a linear decision, nothing to carry).

    Carried: a placement in the reinforce phase (only p's armies and a's stager rank change; p's
    `place` parts stay), a battle without conquest (only a's and b's armies), a conquest that
    eliminates no one (b's owner, so one continent's counts and the incomes) and the occupying
    move after it (p's armies only). All sums are of integers, so an update gives the very
    floats a recount would.
    """
    owner, armies, sc, memo = s.owner, s.armies, s.sc, pl.memo
    after = sc[L.S_PHASE]
    if (kind == L.A_PLACE and phase == L.PH_REINFORCE and sc[L.S_CURRENT] == seat
            and (after == L.PH_REINFORCE or after == L.PH_ATTACK)):
        pl.army[seat] += b
        _strengths(seat, owner.shape[0], pl)
        if memo[M_STAGERS] != 0:
            stager, estager = pl.stager, pl.estager
            for k in range(m.degree[a]):
                t = m.neighbours[a, k]
                q = owner[t]
                if q == seat:
                    continue
                c = m.continent_of[t]
                if _stages_better(armies, a, stager[c]):
                    stager[c] = a
                if _stages_better(armies, a, estager[q]):
                    estager[q] = a
        memo[M_PRESSURE] = 0
        memo[M_FRESH] = 1
    elif (kind == L.A_ATTACK and phase == L.PH_ATTACK and after == L.PH_ATTACK
          and sc[L.S_CURRENT] == seat and owner[b] != seat):
        la, ld, q = pre_a - armies[a], pre_b - armies[b], owner[b]
        pl.army[seat] -= la
        pl.army[q] -= ld
        pl.cost[m.continent_of[b]] -= ld  # b stays q's with an army: K stays above 0
        pl.ecost[q] -= ld
        _strengths(seat, owner.shape[0], pl)
        if memo[M_PRESSURE] != 0:
            pl.scalars[SC_DEFENCE] -= la  # a borders b: its armies count in D
            pl.att[q] -= ld  # b borders a: its armies count in att(q)
        memo[M_STAGERS] = 0
        memo[M_PLACE] = 0
        memo[M_FRESH] = 1
    elif (kind == L.A_ATTACK and phase == L.PH_ATTACK and sc[L.S_CURRENT] == seat
          and owner[b] == seat and pl.nown[pre_q] > 1
          and (after == L.PH_OCCUPY or after == L.PH_ATTACK)):
        # A conquest that eliminates no one moves no card; b's armies all came from a.
        la, c = pre_a - armies[a] - armies[b], m.continent_of[b]
        pl.army[seat] -= la
        pl.army[pre_q] -= pre_b
        pl.cost[c] -= pre_b + 1
        if pl.cost[c] == 1.0:  # only the source's army is left: p holds c
            pl.cost[c] = 0.0
        pl.ecost[pre_q] -= pre_b + 1
        pl.nown[seat] += 1
        pl.nown[pre_q] -= 1
        pl.cnt[c] += 1
        pl.holder[c] = seat if pl.cnt[c] == m.continent_size[c] else -1
        _incomes(m, pl)
        _strengths(seat, owner.shape[0], pl)
        memo[:] = 0
        memo[M_FRESH] = 1
    elif (kind == L.A_MOVE and phase == L.PH_OCCUPY and after == L.PH_ATTACK
          and sc[L.S_CURRENT] == seat):
        memo[M_STAGERS] = 0  # moves only p's armies: the summaries stay, if fresh
        memo[M_PRESSURE] = 0
        memo[M_PLACE] = 0
    else:
        memo[:] = 0


@inline_rule_kernel
def continent_term(m: MapArrays, fx: FeatureContext, s: StateArrays, seat: int,
                   cnt: np.ndarray, v: int) -> float:
    """cards.continent: the largest B(c)/Bmax of a continent v armies would take or hold now.

    Take: p owns part of c and the enemy armies in c are at most v. Hold: p holds c and one of
    its territories with a hostile neighbour has fewer armies than G(t).
    """
    owner, armies = s.owner, s.armies
    best = 0.0
    for c in range(cnt.shape[0]):
        if cnt[c] == 0 or fx.bonus_norm[c] <= best:
            continue
        held = cnt[c] == m.continent_size[c]
        enemy = 0
        short = False
        for t in range(owner.shape[0]):
            if m.continent_of[t] != c:
                continue
            if owner[t] != seat:
                enemy += armies[t]
            elif held:
                nh, _h, big = hostile(m, owner, armies, seat, t)
                if armies[t] < garrison(nh, big):
                    short = True
        if (held and short) or (not held and enemy <= v):
            best = fx.bonus_norm[c]
    return best
