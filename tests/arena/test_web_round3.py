"""Bugs of issue 64 (game night, round 2) still open after round 2's fixes, each pinned on the
server's side: a reload keeps "since your last turn" and the header's game and seed."""

from __future__ import annotations

from arena.web.app import make_lobby
from game.actions import Place
from game.rules import layout as L
from tests.helpers.web import human_game, play_to


def test_since_your_last_turn_stays_through_the_turn_so_a_reload_shows_it() -> None:
    g = human_game()
    play_to(g, 3, L.PH_REINFORCE)
    first = g.public()["since_last_turn"]
    assert isinstance(first, dict) and first["lines"]
    mine = int(next(t for t in range(42) if g.state.owner[t] == g.human))
    g.act(Place(mine, 1))  # the person has acted this turn; a reload asks again from line 0
    again = g.public(0, g.human)["since_last_turn"]
    assert again == first


def test_the_game_answers_with_its_id_and_seed_on_every_request() -> None:
    lobby = make_lobby(["aggressive"], seat=0, rules_text="cap=5", seed=17, replay_file=None)
    gid, game = lobby.new_game({"opponents": ["aggressive"], "seat": 0, "seed": 17})
    out = lobby.public(gid, game)
    assert (out["id"], out["seed"]) == (gid, 17)


def test_the_first_explanation_says_it_takes_a_few_seconds() -> None:
    from pathlib import Path

    js = (Path(__file__).parents[2] / "arena" / "web" / "static" / "story.js").read_text()
    assert "about a minute" not in js and "thinking… (a few seconds)" in js
