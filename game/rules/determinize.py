"""Hidden information sampled from one seat's view (a determinization, as in ISMCTS).

What a seat cannot see: which cards the deck and its rivals' hands hold (it sees how many each
hand holds, its own cards and the traded ones) and, with missions, its rivals' missions. A
search plays on a copy of the position whose hidden parts are redrawn here from the seat's
view, so no decision can depend on the real ones: two positions that the seat sees alike give
the same sample from the same generator state (`tests/features/test_search.py`).
"""

from __future__ import annotations

import numpy as np

from game.rules import layout as L
from game.rules.jit import inline_rule_kernel
from game.rules.kernel import give_mission
from game.rules.layout import StateArrays


@inline_rule_kernel
def _shuffle(a: np.ndarray, n: int, rng: np.random.Generator) -> None:
    """Fisher-Yates on a[:n]."""
    for i in range(n - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        a[i], a[j] = a[j], a[i]


@inline_rule_kernel
def determinize(s: StateArrays, rules: np.ndarray, seat: int, rng: np.random.Generator,
                ids: np.ndarray, locs: np.ndarray) -> None:
    """Redraw, in place, the cards and missions of s that `seat` cannot see.

    The unseen cards (deck and rivals' hands) are shuffled over the same hand sizes; each
    rival's mission is drawn from the mission deck less the seat's own, as the deal draws them.
    ids and locs are int32 scratch of at least max(cards, N_MISSIONS) entries.
    """
    cards, pl = s.cards, s.pl
    n_pl = pl.shape[0]
    n = 0
    for c in range(cards.shape[0]):
        q = cards[c]
        if q == L.CARD_DECK or (q >= 0 and q != seat):
            ids[n] = c
            n += 1
    # The hand sizes in a fixed order (deck first, then seats), so that the sample does not
    # depend on which unseen card sat where.
    k = 0
    for c in range(cards.shape[0]):
        if cards[c] == L.CARD_DECK:
            locs[k] = L.CARD_DECK
            k += 1
    for q in range(n_pl):
        if q == seat:
            continue
        for c in range(cards.shape[0]):
            if cards[c] == q:
                locs[k] = q
                k += 1
    _shuffle(ids, n, rng)
    for i in range(n):
        cards[ids[i]] = locs[i]
    if rules[L.R_MISSIONS] == 0:
        return
    own = pl[seat, L.P_MISSION]
    m = 0
    for mid in range(L.N_MISSIONS):
        if mid != own:
            ids[m] = mid
            m += 1
    _shuffle(ids, m, rng)
    j = 0
    for q in range(n_pl):
        if q == seat:
            continue
        give_mission(pl, q, ids[j])
        j += 1


__all__ = ["determinize"]
