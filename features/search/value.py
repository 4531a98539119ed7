"""The value of a position for a seat: a weighted sum of named terms a seat can see.

The planner (`features.search.plan`) compares end-of-turn positions by this value. Every term
reads only what every seat sees (owners, armies, hand sizes, the turn's conquest flag, who is
alive), never a hidden card or mission, so the value of a determinized position depends on the
sample only through what the sample changes on the board. Terms lie in [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from features.kernels import hostile, jit_inline
from game.rules import layout as L
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


TERMS: tuple[Term, ...] = (
    Term("income", "inc(p) / sum of inc(q) over living q: p's share of next turn's income", 1.0),
    Term("rival_income", "max inc(q) over living rivals q / the same sum", -0.5),
    Term("territories", "territories of p / all territories", 0.0),
    Term("armies", "armies of p / all armies on the board", 0.5),
    Term("card", "1 if p conquered this turn (a card at its end), else 0", 0.15),
    Term("hand", "min(1, cards in p's hand / trade_at)", 0.05),
    Term("exposure", "sum over p's border territories t of max(0, E(t) - a(t)), / p's armies, "
         "at most 1 (E(t): largest hostile neighbour army)", -0.5),
    Term("continent_exposure", "the same sum over the borders of continents p holds", -0.5),
    Term("bonus", "bonus of the continents p holds / all bonuses", 0.5),
    Term("rivals", "living rivals / (players - 1)", -0.2),
    Term("thin", "share of p's border territories that hold 1 army", -0.2),
    Term("won", "1 if p has won the game", 10.0),
)
NV = len(TERMS)
(V_INCOME, V_RIVAL_INCOME, V_TERRITORIES, V_ARMIES, V_CARD, V_HAND, V_EXPOSURE,
 V_CONTINENT_EXPOSURE, V_BONUS, V_RIVALS, V_THIN, V_WON) = range(NV)
NAMES: tuple[str, ...] = tuple(t.gene for t in TERMS)


def default_weights() -> np.ndarray:
    """The hand-set value weights, f64[NV] in TERMS order."""
    return np.array([t.default for t in TERMS], dtype=np.float64)


@jit_inline
def value_terms(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int,
                out: np.ndarray) -> None:
    """Fill out[:NV] with the value terms of the position s for seat (out: scratch of at
    least NV + continents)."""
    owner, armies, pl, sc = s.owner, s.armies, s.pl, s.sc
    n_pl = pl.shape[0]
    for i in range(NV):
        out[i] = 0.0
    if sc[L.S_PHASE] == L.PH_OVER and sc[L.S_WINNER] == seat:
        out[V_WON] = 1.0
    total_inc = 0.0
    rival = 0.0
    rivals = 0
    for q in range(n_pl):
        if pl[q, L.P_ALIVE] == 0:
            continue
        inc = float(reinforcements(m, s, q))
        total_inc += inc
        if q == seat:
            out[V_INCOME] = inc
        else:
            rivals += 1
            rival = max(rival, inc)
    if total_inc > 0.0:
        out[V_INCOME] /= total_inc
        out[V_RIVAL_INCOME] = rival / total_inc
    out[V_RIVALS] = rivals / max(1, n_pl - 1)
    n_terr = owner.shape[0]
    n_cont = m.bonus.shape[0]
    held = out[NV:NV + n_cont]  # 1.0 where p holds the continent
    for c in range(n_cont):
        held[c] = 0.0
    for t in range(n_terr):
        if owner[t] == seat:
            held[m.continent_of[t]] += 1.0
    held_b, all_b = 0, 0
    for c in range(n_cont):
        all_b += m.bonus[c]
        if held[c] == m.continent_size[c]:
            held[c] = 1.0
            held_b += m.bonus[c]
        else:
            held[c] = 0.0
    if all_b > 0:
        out[V_BONUS] = held_b / all_b
    own_t, own_a, all_a = 0, 0, 0
    exposed, cont_exposed, border, thin = 0, 0, 0, 0
    for t in range(n_terr):
        all_a += armies[t]
        if owner[t] != seat:
            continue
        own_t += 1
        own_a += armies[t]
        nh, _h, big = hostile(m, owner, armies, seat, t)
        if nh == 0:
            continue
        border += 1
        if armies[t] == 1:
            thin += 1
        gap = max(0, big - armies[t])
        exposed += gap
        if held[m.continent_of[t]] != 0.0:
            cont_exposed += gap
    out[V_TERRITORIES] = own_t / n_terr
    if all_a > 0:
        out[V_ARMIES] = own_a / all_a
    if own_a > 0:
        out[V_EXPOSURE] = min(1.0, exposed / own_a)
        out[V_CONTINENT_EXPOSURE] = min(1.0, cont_exposed / own_a)
    if border > 0:
        out[V_THIN] = thin / border
    if sc[L.S_CONQUERED] != 0 and sc[L.S_CURRENT] == seat:
        out[V_CARD] = 1.0
    hand = 0
    for c in range(s.cards.shape[0]):
        if s.cards[c] == seat:
            hand += 1
    out[V_HAND] = min(1.0, hand / max(1, rules[L.R_TRADE_AT]))


@jit_inline
def position_value(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int,
                   vw: np.ndarray, out: np.ndarray) -> float:
    """sum of vw[i] * term i of s for seat (`value_terms`; out is its scratch)."""
    value_terms(m, s, rules, seat, out)
    v = 0.0
    for i in range(NV):
        v += vw[i] * out[i]
    return v


__all__ = ["NAMES", "NV", "TERMS", "Term", "default_weights", "position_value", "value_terms"]
