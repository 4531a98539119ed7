"""Invariants checked after every action of hundreds of seeded games of every baseline bot."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import Aggressive

from game import Rules, State, play_game
from game.bots import BOTS
from game.layout import (
    CARD_DECK,
    CARD_DISCARD,
    P_ALIVE,
    P_ELIM_ORDER,
    P_LOST,
    P_RECEIVED,
    PH_OCCUPY,
    PH_OVER,
    S_CAPPED,
    S_DST,
    S_N_ELIM,
)
from game.view import GameView

BOT_CLASSES: list[Any] = [*BOTS.values(), Aggressive]


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
    assert len(s.cards) == 44
    holders = s.cards[s.cards >= 0]
    assert alive[holders].all(), "an eliminated seat holds cards"
    assert ((s.cards >= 0) | (s.cards == CARD_DECK) | (s.cards == CARD_DISCARD)).all()
    assert int(s.armies.sum()) == int(s.pl[:, P_RECEIVED].sum() - s.pl[:, P_LOST].sum())
    dead = ~alive
    assert int(dead.sum()) == int(s.sc[S_N_ELIM])
    assert sorted(s.pl[dead, P_ELIM_ORDER].tolist()) == list(range(1, int(dead.sum()) + 1))
    assert (s.pl[alive, P_ELIM_ORDER] == 0).all()
    assert s.round <= rules.cap or (s.phase == PH_OVER and s.round == rules.cap + 1)


class Checked:
    """Wraps a player: checks the invariants before each of its decisions."""

    def __init__(self, inner: Any, rules: Rules, counter: list[int]) -> None:
        self.inner, self.rules, self.counter = inner, rules, counter
        self.view: GameView | None = None

    def _check(self, view: GameView) -> None:
        check(view.state, self.rules)
        self.counter[0] += 1

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        self.view = view
        self.inner.start_game(view, rng)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def wrapped(view: GameView, *args: Any) -> Any:
            self._check(view)
            return method(view, *args)

        return wrapped

    def __repr__(self) -> str:
        return f"Checked({self.inner!r})"


def run_checked(seed: int, rules: Rules) -> tuple[Any, int]:
    """One game of 2..6 random baseline bots with every invariant checked; (outcome, checks)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    counter = [0]
    players = [Checked(BOT_CLASSES[int(rng.integers(len(BOT_CLASSES)))](), rules, counter)
               for _ in range(n)]
    o = play_game(players, seed=seed, rules=rules)  # type: ignore[arg-type]
    final = players[0].view
    assert final is not None
    s = final.state
    check(s, rules)
    assert s.phase == PH_OVER
    if s.sc[S_CAPPED]:
        assert o.capped and o.rounds == rules.cap and o.winner is None
    else:
        assert o.winner is not None and o.rounds <= rules.cap
        if not rules.missions:
            assert o.stats[o.winner].territories == 42
    return o, counter[0]


RULE_SETS = [Rules(cap=10), Rules(missions=True, cap=10), Rules(fixed_cards=True, cap=10),
             Rules(path_fortify=True, cap=10)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "missions", "fixed", "path"])
def test_invariants_short_games(rules: Rules) -> None:
    checks = 0
    ended = 0
    for seed in range(50):
        o, k = run_checked(seed, rules)
        checks += k
        ended += not o.capped
    assert checks > 50 * 50
    assert ended > 0  # some games are won, not only capped


def test_invariants_full_games() -> None:
    for seed in range(100, 106):
        run_checked(seed, Rules())


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), Rules(missions=True), Rules(fixed_cards=True),
                                   Rules(path_fortify=True, missions=True, cap=40)])
def test_invariants_many_full_games(rules: Rules) -> None:
    for seed in range(1000, 1150):
        run_checked(seed, rules)
