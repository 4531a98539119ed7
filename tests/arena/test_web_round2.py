"""Bugs of issue 64 (game night, round 2), each pinned: the initial placement refuses a count
above one army instead of placing one silently; a server that cannot be reached is said in
words, not "Failed to fetch"."""

from __future__ import annotations

import pytest

from arena.web.live import ActionError
from game.actions import Place
from game.rules import layout as L
from tests.helpers.web import human_game


def test_the_initial_placement_refuses_too_large_a_count() -> None:
    g = human_game()
    g.advance(10_000, setup_only=True)
    assert g.waiting_for_human() and g.state.phase == L.PH_SETUP
    mine = int(next(t for t in range(42) if g.state.owner[t] == g.human))
    before = g.state.armies.copy()
    with pytest.raises(ActionError, match=r"count must be 1 in the initial placement \(one "
                       r"army a turn, \d+ left to place\), got 50"):
        g.act(Place(mine, 50))
    assert (g.state.armies == before).all()
    g.act(Place(mine, 1))
    assert int(g.state.armies[mine]) == int(before[mine]) + 1


def test_a_server_that_cannot_be_reached_is_said_in_words() -> None:
    """The page's one door to the server turns the browser's 'Failed to fetch' (no answer at
    all) into a sentence a person understands."""
    from pathlib import Path

    js = (Path(__file__).parents[2] / "arena" / "web" / "static" / "app.js").read_text()
    api = js[js.index("async function api("):]
    api = api[:api.index("\n}\n")]
    assert "catch" in api and "throw new Error(NO_SERVER)" in api
    assert "The game server cannot be reached" in js
