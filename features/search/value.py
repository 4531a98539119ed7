"""The value of a position for a seat: a weighted sum of named terms a seat can see.

The search (`features.search.plan`) compares end-of-turn positions by this value. Every term
reads only what every seat sees (owners, armies, hand sizes, the turn's conquest flag, who is
alive, the sets traded), never a hidden card or mission, so the value of a determinized
position depends on the sample only through what the sample changes on the board. Terms lie in
[0, 1], the leads (`*_lead`) in [-1, 1]. The first twelve are the hand-made value; the rest give
a fit on many positions (`evolve.plan.planfit`) room to learn from, and weigh 0 in a bot file
that does not name them (it then plays as before).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.rules import layout as L
from game.rules.cards import set_value
from game.rules.jit import inline_rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import reinforcements


@dataclass(frozen=True)
class Term:
    """One value term: its weight's name is `value.<name>`."""

    name: str
    doc: str
    default: float  # the hand-set weight of the bundled settings (docs/search.md)

    @property
    def gene(self) -> str:
        """The name of this term's weight."""
        return f"value.{self.name}"


# p is the seat valued, q any living rival; inc(q) next turn's income, A(q) armies, T(q)
# territories, B(q) the bonus of the continents q holds, H(q) cards in hand; "border": a
# territory of p with a hostile neighbour, E(t) its largest hostile neighbour army.
TERMS: tuple[Term, ...] = (
    Term("income", "inc(p) / sum of inc(q) over living q: p's share of next turn's income", 1.0),
    Term("rival_income", "max inc(q) over living rivals q / the same sum", -0.5),
    Term("territories", "territories of p / all territories", 0.0),
    Term("armies", "armies of p / all armies on the board", 0.5),
    Term("card", "1 if p conquered this turn (a card at its end), else 0", 0.15),
    Term("hand", "min(1, cards in p's hand / trade_at)", 0.05),
    Term("exposure", "sum over p's border territories t of max(0, E(t) - a(t)), / p's armies, "
         "at most 1", -0.5),
    Term("continent_exposure", "the same sum over the borders of continents p holds", -0.5),
    Term("bonus", "bonus of the continents p holds / all bonuses", 0.5),
    Term("rivals", "living rivals / (players - 1)", -0.2),
    Term("thin", "share of p's border territories that hold 1 army", -0.2),
    Term("won", "1 if p has won the game", 10.0),
    # Leads and rivals
    Term("income_lead", "(inc(p) - max inc(q)) / sum of inc over living seats", 0.0),
    Term("armies_lead", "(A(p) - max A(q)) / all armies", 0.0),
    Term("territories_lead", "(T(p) - max T(q)) / all territories", 0.0),
    Term("rival_armies", "max A(q) / all armies", 0.0),
    Term("rival_territories", "max T(q) / all territories", 0.0),
    Term("weakest_rival", "min T(q) / all territories (0 without rivals)", 0.0),
    Term("leader", "1 if p has more armies than every rival", 0.0),
    Term("last", "1 if p has fewer armies than every rival", 0.0),
    Term("duel", "1 if one rival is left", 0.0),
    Term("growth", "min(1, inc(p) / A(p)): next turn's income against the armies held", 0.0),
    Term("income_sq", "income squared", 0.0),
    Term("armies_sq", "armies squared", 0.0),
    Term("income_armies", "income x armies", 0.0),
    # Continents
    Term("continents", "continents p holds / all continents", 0.0),
    Term("near_bonus", "bonus of continents p lacks 1 or 2 territories of / all bonuses", 0.0),
    Term("half_bonus", "bonus of continents p holds half of or more, lacking 3 or more, / all "
         "bonuses", 0.0),
    Term("continent_share", "sum over continents of bonus x (p's share of it) squared / all "
         "bonuses", 0.0),
    Term("rival_bonus", "max B(q) / all bonuses", 0.0),
    Term("rival_near", "max over q of the bonus of continents q lacks 1 or 2 of / all bonuses",
         0.0),
    Term("safe_bonus", "bonus of the continents p holds where no border t has E(t) > a(t), / "
         "all bonuses", 0.0),
    # Fronts
    Term("border_share", "p's border territories / p's territories", 0.0),
    Term("idle", "armies beyond 1 on p's territories without a hostile neighbour / A(p)", 0.0),
    Term("max_stack", "p's largest army / A(p)", 0.0),
    Term("front", "armies on p's borders / (the same + sum of E(t) over them)", 0.0),
    Term("max_gap", "min(1, max over p's borders of E(t) - a(t), / A(p))", 0.0),
    Term("hostile_near", "armies on rivals' territories next to p's / all armies", 0.0),
    Term("threat", "max over q of N(q) / (N(q) + A(p)), N(q): q's armies next to p's "
         "territories", 0.0),
    # Cards
    Term("hand3", "1 if p holds 3 or more cards", 0.0),
    Term("hand5", "1 if p holds 5 or more cards", 0.0),
    Term("rival_hand", "min(1, max H(q) / 5)", 0.0),
    Term("set_value", "min(1, the next set's value / 30)", 0.0),
    Term("own_trade", "min(1, H(p) / 3) x set_value", 0.0),
    Term("rival_trade", "min(1, max H(q) / 3) x set_value", 0.0),
    Term("bounty", "min(1, cards held by rivals with 3 territories or fewer / 5)", 0.0),
    Term("prey", "1 if a rival with 3 territories or fewer borders p", 0.0),
    Term("round", "min(1, the round / 40)", 0.0),
)
NV = len(TERMS)
NAMES: tuple[str, ...] = tuple(t.gene for t in TERMS)
_I = {t.name: i for i, t in enumerate(TERMS)}
(V_INCOME, V_RIVAL_INCOME, V_TERRITORIES, V_ARMIES, V_CARD, V_HAND, V_EXPOSURE,
 V_CONTINENT_EXPOSURE, V_BONUS, V_RIVALS, V_THIN, V_WON) = range(12)
(V_INCOME_LEAD, V_ARMIES_LEAD, V_TERRITORIES_LEAD, V_RIVAL_ARMIES, V_RIVAL_TERRITORIES,
 V_WEAKEST, V_LEADER, V_LAST, V_DUEL, V_GROWTH, V_INCOME_SQ, V_ARMIES_SQ, V_INCOME_ARMIES,
 V_CONTINENTS, V_NEAR, V_HALF, V_SHARE, V_RIVAL_BONUS, V_RIVAL_NEAR, V_SAFE, V_BORDER_SHARE,
 V_IDLE, V_MAX_STACK, V_FRONT, V_MAX_GAP, V_HOSTILE_NEAR, V_THREAT, V_HAND3, V_HAND5,
 V_RIVAL_HAND, V_SET_VALUE, V_OWN_TRADE, V_RIVAL_TRADE, V_BOUNTY, V_PREY, V_ROUND) = range(12, NV)
assert _I["round"] == V_ROUND and _I["income_lead"] == V_INCOME_LEAD
PREY = 3  # a rival with this many territories or fewer is close to elimination (its cards)


def default_weights() -> np.ndarray:
    """The hand-set value weights, f64[NV] in TERMS order."""
    return np.array([t.default for t in TERMS], dtype=np.float64)


def scratch_size(n_territories: int, n_continents: int, n_players: int) -> int:
    """Length of the scratch `value_terms` fills (its first NV entries are the terms)."""
    return NV + n_territories + n_continents * (n_players + 2) + 4 * n_players


def value_scratch(m: MapArrays, n_players: int) -> np.ndarray:
    """A scratch for `value_terms` on board m."""
    return np.zeros(scratch_size(m.continent_of.shape[0],
                                 m.bonus.shape[0], n_players), np.float64)


@inline_rule_kernel
def value_terms(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int,
                out: np.ndarray) -> None:
    """Fill out[:NV] with the value terms of the position s for seat (out: `value_scratch`)."""
    owner, armies, pl, sc = s.owner, s.armies, s.pl, s.sc
    n_pl, n_terr, n_cont = pl.shape[0], owner.shape[0], m.bonus.shape[0]
    o_mark = NV  # 1 per rival territory next to p's, counted once
    o_cnt = o_mark + n_terr  # territories of seat q in continent c: [q * n_cont + c]
    o_held = o_cnt + n_pl * n_cont  # 1 where p holds the continent
    o_unsafe = o_held + n_cont  # 1 where a border of p in the continent has E(t) > a(t)
    o_t = o_unsafe + n_cont  # per seat: territories, armies, cards, armies next to p's
    o_a, o_h, o_n = o_t + n_pl, o_t + 2 * n_pl, o_t + 3 * n_pl
    for i in range(out.shape[0]):
        out[i] = 0.0
    if sc[L.S_PHASE] == L.PH_OVER and sc[L.S_WINNER] == seat:
        out[V_WON] = 1.0
    all_a = 0
    for t in range(n_terr):
        all_a += armies[t]
        q = owner[t]
        if 0 <= q < n_pl:
            out[o_t + q] += 1.0
            out[o_a + q] += armies[t]
            out[o_cnt + q * n_cont + m.continent_of[t]] += 1.0
    for c in range(s.cards.shape[0]):
        q = s.cards[c]
        if 0 <= q < n_pl:
            out[o_h + q] += 1.0
    # Continents per seat: held bonus (and p's held flags), bonus within 1-2 territories.
    all_b = 0
    for c in range(n_cont):
        all_b += m.bonus[c]
    fb = float(max(1, all_b))
    own_b, own_near = 0.0, 0.0
    rival_b, rival_near = 0.0, 0.0
    for q in range(n_pl):
        if pl[q, L.P_ALIVE] == 0:
            continue
        bq, nq = 0.0, 0.0
        for c in range(n_cont):
            k, size = out[o_cnt + q * n_cont + c], m.continent_size[c]
            if k == size:
                bq += m.bonus[c]
                if q == seat:
                    out[o_held + c] = 1.0
                    out[V_CONTINENTS] += 1.0 / n_cont
            elif size - k <= 2:
                nq += m.bonus[c]
            elif q == seat and 2 * k >= size:
                out[V_HALF] += m.bonus[c] / fb
            if q == seat:
                out[V_SHARE] += m.bonus[c] * (k / size) ** 2 / fb
        if q == seat:
            own_b, own_near = bq, nq
        else:
            rival_b, rival_near = max(rival_b, bq), max(rival_near, nq)
    out[V_BONUS] = own_b / fb
    out[V_NEAR] = own_near / fb
    out[V_RIVAL_BONUS] = rival_b / fb
    out[V_RIVAL_NEAR] = rival_near / fb
    # p's territories: borders, their gaps, idle armies, the rivals' armies next to them.
    own_t, own_a = out[o_t + seat], out[o_a + seat]
    exposed, cont_exposed, max_gap, border, thin = 0, 0, 0, 0, 0
    idle, stack, on_front, e_front, near_a = 0, 0, 0, 0, 0
    for t in range(n_terr):
        if owner[t] != seat:
            continue
        a = armies[t]
        stack = max(stack, a)
        nh, big = 0, 0
        for j in range(m.degree[t]):
            u = m.neighbours[t, j]
            q = owner[u]
            if q == seat:
                continue
            nh += 1
            big = max(big, armies[u])
            if out[o_mark + u] == 0.0:
                out[o_mark + u] = 1.0
                near_a += armies[u]
                if 0 <= q < n_pl:
                    out[o_n + q] += armies[u]
        if nh == 0:
            idle += a - 1
            continue
        border += 1
        on_front += a
        e_front += big
        if a == 1:
            thin += 1
        gap = max(0, big - a)
        exposed += gap
        max_gap = max(max_gap, gap)
        c = m.continent_of[t]
        if out[o_held + c] != 0.0:
            cont_exposed += gap
            if gap > 0:
                out[o_unsafe + c] = 1.0
    for c in range(n_cont):
        if out[o_held + c] != 0.0 and out[o_unsafe + c] == 0.0:
            out[V_SAFE] += m.bonus[c] / fb
    out[V_TERRITORIES] = own_t / n_terr
    if all_a > 0:
        out[V_ARMIES] = own_a / all_a
        out[V_HOSTILE_NEAR] = near_a / all_a
    if own_a > 0:
        out[V_EXPOSURE] = min(1.0, exposed / own_a)
        out[V_CONTINENT_EXPOSURE] = min(1.0, cont_exposed / own_a)
        out[V_MAX_GAP] = min(1.0, max_gap / own_a)
        out[V_IDLE] = idle / own_a
        out[V_MAX_STACK] = stack / own_a
    if own_t > 0:
        out[V_BORDER_SHARE] = border / own_t
    if border > 0:
        out[V_THIN] = thin / border
        out[V_FRONT] = on_front / (on_front + e_front)
    # Incomes and the rivals.
    total_inc, own_inc, rival_inc = 0.0, 0.0, 0.0
    rivals = 0
    r_a, r_t, w_t, l_a, r_h = 0.0, 0.0, float(n_terr), np.inf, 0.0
    bounty, threat = 0.0, 0.0
    for q in range(n_pl):
        if pl[q, L.P_ALIVE] == 0:
            continue
        inc = float(reinforcements(m, s, q))
        total_inc += inc
        if q == seat:
            own_inc = inc
            continue
        rivals += 1
        rival_inc = max(rival_inc, inc)
        tq, aq, hq, nq = out[o_t + q], out[o_a + q], out[o_h + q], out[o_n + q]
        r_a, r_t, r_h = max(r_a, aq), max(r_t, tq), max(r_h, hq)
        w_t, l_a = min(w_t, tq), min(l_a, aq)
        if tq <= PREY:
            bounty += hq
            if nq > 0:
                out[V_PREY] = 1.0
        if nq + own_a > 0:
            threat = max(threat, nq / (nq + own_a))
    if total_inc > 0.0:
        out[V_INCOME] = own_inc / total_inc
        out[V_RIVAL_INCOME] = rival_inc / total_inc
        out[V_INCOME_LEAD] = (own_inc - rival_inc) / total_inc
    out[V_RIVALS] = rivals / max(1, n_pl - 1)
    out[V_DUEL] = 1.0 if rivals == 1 else 0.0
    out[V_TERRITORIES_LEAD] = (own_t - r_t) / n_terr
    out[V_RIVAL_TERRITORIES] = r_t / n_terr
    if rivals > 0:
        out[V_WEAKEST] = w_t / n_terr
        out[V_LEADER] = 1.0 if own_a > r_a else 0.0
        out[V_LAST] = 1.0 if own_a < l_a else 0.0
    if all_a > 0:
        out[V_ARMIES_LEAD] = (own_a - r_a) / all_a
        out[V_RIVAL_ARMIES] = r_a / all_a
    if own_a > 0:
        out[V_GROWTH] = min(1.0, own_inc / own_a)
    out[V_INCOME_SQ] = out[V_INCOME] ** 2
    out[V_ARMIES_SQ] = out[V_ARMIES] ** 2
    out[V_INCOME_ARMIES] = out[V_INCOME] * out[V_ARMIES]
    out[V_THREAT] = threat
    # Cards.
    if sc[L.S_CONQUERED] != 0 and sc[L.S_CURRENT] == seat:
        out[V_CARD] = 1.0
    hand = out[o_h + seat]
    out[V_HAND] = min(1.0, hand / max(1, rules[L.R_TRADE_AT]))
    out[V_HAND3] = 1.0 if hand >= 3 else 0.0
    out[V_HAND5] = 1.0 if hand >= 5 else 0.0
    out[V_RIVAL_HAND] = min(1.0, r_h / 5.0)
    sv = min(1.0, set_value(rules, sc[L.S_TRADES], L.INFANTRY, L.CAVALRY, L.ARTILLERY) / 30.0)
    out[V_SET_VALUE] = sv
    out[V_OWN_TRADE] = min(1.0, hand / 3.0) * sv
    out[V_RIVAL_TRADE] = min(1.0, r_h / 3.0) * sv
    out[V_BOUNTY] = min(1.0, bounty / 5.0)
    out[V_ROUND] = min(1.0, sc[L.S_ROUND] / 40.0)


# The value's net (a bot file's `plan.net`): up to MAX_HIDDEN rectified units on the same terms,
# added to the weighted sum, so a fit on many positions can learn what the terms do together (a
# linear value stops learning after about 10,000 games: docs/experiments/2026-11-30-value-net.md).
MAX_HIDDEN = 32
UNIT = NV + 2  # a unit's row: bias, one weight per term, its weight in the value
NET_SIZE = 1 + MAX_HIDDEN * UNIT  # the unit count, then the rows (`net_vector`)


def net_vector(net: tuple[tuple[float, ...], ...]) -> np.ndarray:
    """f64[NET_SIZE]: len(net), then each unit's row (bias, NV term weights, out weight)."""
    v = np.zeros(NET_SIZE, np.float64)
    v[0] = len(net)
    for j, row in enumerate(net):
        v[1 + j * UNIT: 1 + (j + 1) * UNIT] = row
    return v


def net_units(vw: np.ndarray) -> int:
    """The number of units of the net vw goes on with (`net_vector`), 0 for a weighted sum."""
    return int(vw[NV]) if len(vw) > NV else 0


@inline_rule_kernel
def weighted_value(vw: np.ndarray, x: np.ndarray) -> float:
    """The value of terms x[:NV] under vw: sum of vw[i] * x[i], plus, when vw goes on with a
    net (`net_vector`), the sum over its units of out * max(0, bias + sum of w[i] * x[i]);
    not for a won position, which no net learned from (the win's weight alone ranks it)."""
    v = 0.0
    for i in range(NV):
        v += vw[i] * x[i]
    if vw.shape[0] > NV and x[V_WON] == 0.0:
        for j in range(int(vw[NV])):
            o = NV + 1 + j * UNIT
            z = vw[o]
            for i in range(NV):
                z += vw[o + 1 + i] * x[i]
            if z > 0.0:
                v += vw[o + NV + 1] * z
    return v


@inline_rule_kernel
def position_value(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int,
                   vw: np.ndarray, out: np.ndarray) -> float:
    """The value of position s for seat (`weighted_value` of its `value_terms`; out is their
    scratch)."""
    value_terms(m, s, rules, seat, out)
    return weighted_value(vw, out)


__all__ = ["MAX_HIDDEN", "NAMES", "NET_SIZE", "NV", "TERMS", "UNIT", "Term", "default_weights",
           "net_units", "net_vector", "position_value", "scratch_size", "value_scratch",
           "value_terms", "weighted_value"]
