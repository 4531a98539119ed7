"""Every invariant of a position the game loop can reach."""

from __future__ import annotations

import numpy as np

from game import Rules, State
from game.rules.layout import (
    CARD_DECK,
    CARD_DISCARD,
    P_ALIVE,
    P_ELIM_ORDER,
    P_LOST,
    P_RECEIVED,
    PH_OCCUPY,
    PH_OVER,
    S_DST,
    S_N_ELIM,
)
from tests.helpers.positions import N_CARDS, hand_size


def check(s: State, rules: Rules) -> None:
    """Every invariant of a position the game loop can reach."""
    alive = s.pl[:, P_ALIVE] == 1
    assert alive[s.owner].all(), "a territory owned by an eliminated seat"
    low = s.armies < 1
    if s.phase == PH_OCCUPY:
        dst = int(s.sc[S_DST])
        assert s.armies[dst] == 0, "a conquered territory holds armies before the move-in"
        low[dst] = False
    assert not low.any(), f"territories with < 1 army: {np.flatnonzero(low).tolist()}"
    owned = np.bincount(s.owner, minlength=s.n_players)
    assert ((owned > 0) == alive).all(), "alive must mean owning territories"
    check_card_places(s)
    assert int(s.armies.sum()) == int(s.pl[:, P_RECEIVED].sum() - s.pl[:, P_LOST].sum())
    dead = ~alive
    assert int(dead.sum()) == int(s.sc[S_N_ELIM])
    assert sorted(s.pl[dead, P_ELIM_ORDER].tolist()) == list(range(1, int(dead.sum()) + 1))
    assert (s.pl[alive, P_ELIM_ORDER] == 0).all()
    assert s.round <= rules.cap or (s.phase == PH_OVER and s.round == rules.cap + 1)


def check_card_places(s: State) -> None:
    """Every card is in exactly one place: the deck, the discard, or a living seat's hand."""
    assert s.cards.shape == (N_CARDS,)
    alive = s.pl[:, P_ALIVE] == 1
    living = set(np.flatnonzero(alive).tolist())
    places = set(s.cards.tolist())
    assert places <= living | {CARD_DECK, CARD_DISCARD}, f"cards in no place: {places - living}"
    for q in np.flatnonzero(~alive):
        assert hand_size(s, int(q)) == 0, f"eliminated seat {q} holds cards"


