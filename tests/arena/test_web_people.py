"""Friends at the table (issue 64): the person who starts a game picks the seats of the other
people; each acts and sees by their seat's link (its secret), nobody acts for another seat or
sees its cards and mission, and a saved game resumes with its people and their links."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from arena.web import routes
from arena.web.app import Lobby, make_lobby
from arena.web.httpd import RequestError
from arena.web.routes import _route
from game.rules import layout as L

BOTS = ["aggressive", "bully"]


def call(lobby: Lobby, method: str, path: str, body: dict[str, Any] | None = None
         ) -> dict[str, Any]:
    out, _ = _route(lobby, method, path, body)
    assert isinstance(out, dict)
    return out


def start(lobby: Lobby) -> tuple[str, dict[int, str]]:
    """A game of two people (seats 0 and 2) and two bots; (id, secret by seat)."""
    out = call(lobby, "POST", "/api/games", {"opponents": BOTS, "seat": 0, "people": [2],
                                             "seed": 5, "rules": "missions,cap=30"})
    assert out["human"] == 0 and out["people"] == [0, 2] and not out["hotseat"]
    assert [(x["seat"], x["label"]) for x in out["links"]] == [(2, "friend 1")]
    return out["id"], {0: out["key"], 2: out["links"][0]["key"]}


def as_seat(gid: str, keys: dict[int, str], seat: int, what: str = "") -> str:
    sep = "&" if "?" in what else "?"
    return f"/api/games/{gid}{what}{sep}seat={seat}&key={keys[seat]}"


def answer(s: dict[str, Any]) -> dict[str, Any]:
    """A plain legal answer to the seat's decision."""
    d, me = s["decision"], s["human"]
    mine = [t for t, o in enumerate(s["owner"]) if o == me]
    if d["kind"] in ("place_initial", "reinforce"):
        return {"type": "place", "territory": mine[0], "count": 1 if d["kind"] ==
                "place_initial" else d["armies"]}
    if d["kind"] == "trade":
        return {"type": "trade", "cards": d["sets"][0]["cards"]} if d["compulsory"] else {
            "type": "end_trade"}
    if d["kind"] == "move_in":
        return {"type": "move_in", "count": d["lo"]}
    return {"type": "stop" if d["kind"] == "attack" else "skip"}


def play(lobby: Lobby, gid: str, keys: dict[int, str], moves: int) -> dict[int, int]:
    """Both people answer in turn for `moves` answers (bots between); answers by seat."""
    done = {0: 0, 2: 0}
    while sum(done.values()) < moves:
        s = call(lobby, "POST", as_seat(gid, keys, 0, "/advance"), {"max": 5000})
        if s["over"]:
            break
        seat = s["to_move"]
        assert seat in (0, 2) and (s["decision"] is None) == (seat != 0)
        other = 2 - seat
        mine = call(lobby, "GET", as_seat(gid, keys, seat))
        theirs = call(lobby, "GET", as_seat(gid, keys, other))
        assert mine["decision"] is not None and theirs["decision"] is None
        refused = call(lobby, "POST", as_seat(gid, keys, other, "/act"), answer(mine))
        assert "not yours" in refused["error"]  # nobody acts for another seat
        out = call(lobby, "POST", as_seat(gid, keys, seat, "/act"), answer(mine))
        assert not out.get("error"), out.get("error")
        done[seat] += 1
    return done


def test_two_people_play_by_their_own_links(tmp_path: Path) -> None:
    lobby = make_lobby(BOTS, seat=None, rules_text=None, seed=None, replay_file=None)
    gid, keys = start(lobby)
    done = play(lobby, gid, keys, 64)
    assert done[0] > 5 and done[2] > 5
    game = lobby.games[gid]
    assert not game.over
    for bad in ("", "?seat=2", f"?seat=2&key={keys[0]}", f"?seat=1&key={keys[2]}",
                f"?seat=0&key={keys[0][:-1]}x"):
        with pytest.raises(RequestError, match="your seat's link") as e:
            _route(lobby, "GET", f"/api/games/{gid}{bad}", None)
        assert e.value.status == 403
    with pytest.raises(RequestError, match="your seat's link"):
        _route(lobby, "POST", f"/api/games/{gid}/act", {"type": "stop"})
    # Each seat sees its own cards and mission, never the other person's.
    views = {s: call(lobby, "GET", as_seat(gid, keys, s)) for s in (0, 2)}
    for s, other in ((0, 2), (2, 0)):
        v = views[s]
        assert v["human"] == s and [p["human"] for p in v["players"]].index(True) == s
        assert [c["id"] for c in v["hand"]] == list(game.views[s].hand)
        mine = game.public(0, s)["mission"]
        theirs = game.public(0, other)["mission"]
        assert v["mission"] == mine and mine
        if theirs != mine:
            assert theirs.split(" (")[0] not in json.dumps(v)
        drawn = [x["text"] for x in v["log"] if x["seat"] == other
                 and "draws" in x["text"]]
        assert all(t.endswith("draws a card") for t in drawn)
    play(lobby, gid, keys, 40)  # on past the initial placement
    assert game.state.phase != L.PH_SETUP


def test_a_restart_resumes_the_game_with_its_people_and_links(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    lobby = make_lobby(BOTS, seat=None, rules_text=None, seed=None, replay_file=None,
                       games_dir=str(folder))
    gid, keys = start(lobby)
    play(lobby, gid, keys, 70)
    before = {s: call(lobby, "GET", as_seat(gid, keys, s)) for s in (0, 2)}
    assert lobby.saves is not None
    lobby.saves.close()
    again = make_lobby(BOTS, seat=None, rules_text=None, seed=None, replay_file=None,
                       games_dir=str(folder))
    assert gid in again.games and again.games[gid].people == [0, 2]
    for s in (0, 2):
        after = call(again, "GET", as_seat(gid, keys, s))
        assert {k: after[k] for k in ("owner", "armies", "hand", "mission", "decision")} == {
            k: before[s][k] for k in ("owner", "armies", "hand", "mission", "decision")}
    with pytest.raises(RequestError):
        _route(again, "GET", f"/api/games/{gid}", None)
    play(again, gid, keys, 4)


def test_a_page_waiting_for_the_other_person_hears_their_move_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = make_lobby(BOTS, seat=None, rules_text=None, seed=None, replay_file=None)
    gid, keys = start(lobby)
    monkeypatch.setattr(routes, "WAIT_S", 1.0)
    s = call(lobby, "POST", as_seat(gid, keys, 0, "/advance"), {"max": 5000})
    while s["to_move"] != 0:
        call(lobby, "POST", as_seat(gid, keys, 2, "/act"), answer(call(lobby, "GET", as_seat(
            gid, keys, 2))))
        s = call(lobby, "POST", as_seat(gid, keys, 0, "/advance"), {"max": 5000})
    def waits(since: int) -> dict[str, Any]:
        return call(lobby, "POST", as_seat(gid, keys, 0, f"/advance?since={since}"),
                    {"max": 1, "wait": True})

    t = time.monotonic()  # the host's own turn: no wait
    s = waits(s["log_next"])
    assert time.monotonic() - t < 0.5 and s["to_move"] == 0
    while s["to_move"] != 2:  # the host answers until the friend is to move
        call(lobby, "POST", as_seat(gid, keys, 0, "/act"), answer(s))
        s = call(lobby, "POST", as_seat(gid, keys, 0, "/advance"), {"max": 5000})
    t = time.monotonic()  # a page behind the game (it has not seen every line): no wait
    assert waits(s["log_next"] - 1)["to_move"] == 2 and time.monotonic() - t < 0.5
    # Nobody moves: the host's long poll ends after WAIT_S with the same position.
    t = time.monotonic()
    same = waits(s["log_next"])
    assert 0.9 < time.monotonic() - t < 3 and same["to_move"] == 2
    # The friend moves while the host waits (WAIT_S long): the host hears it at once.
    monkeypatch.setattr(routes, "WAIT_S", 30.0)
    got: dict[str, Any] = {}

    def host_waits() -> None:
        got["s"] = waits(s["log_next"])
        got["t"] = time.monotonic()

    waiting = threading.Thread(target=host_waits)
    waiting.start()
    time.sleep(0.3)
    assert waiting.is_alive()  # held: the lock is free meanwhile, or the friend could not act
    friend = call(lobby, "GET", as_seat(gid, keys, 2))
    moved = time.monotonic()
    assert not call(lobby, "POST", as_seat(gid, keys, 2, "/act"), answer(friend)).get("error")
    waiting.join(timeout=10)
    assert not waiting.is_alive() and got["t"] - moved < 2
    assert got["s"]["log_next"] > same["log_next"] and got["s"]["log"]  # the friend's move
    with pytest.raises(RequestError, match="wait must be true or false"):
        _route(lobby, "POST", as_seat(gid, keys, 0, "/advance"), {"max": 1, "wait": 1})


@pytest.mark.parametrize(("body", "says"), [
    ({"seat": 0, "people": [0]}, "other than yours"),
    ({"seat": None, "people": [1]}, "choose your own seat"),
    ({"seat": 0, "people": [1, 1]}, "distinct"),
    ({"seat": 0, "people": [1, 2, 3, 4], "opponents": ["bully", "bully"]}, "at most 6"),
    ({"seat": 0, "people": [9]}, "distinct seats 0..3"),
    ({"seat": 0, "people": "1"}, "list of seat numbers"),
    ({"seat": 0, "hotseat": True}, "hotseat is for"),
    ({"seat": 0, "people": [1], "hotseat": "yes"}, "true or false"),
])
def test_bad_people_are_one_line(body: dict[str, Any], says: str) -> None:
    lobby = make_lobby(BOTS, seat=None, rules_text=None, seed=None, replay_file=None)
    with pytest.raises(RequestError, match=says) as e:
        lobby.new_game({"opponents": BOTS, **body})
    assert "\n" not in str(e.value)
