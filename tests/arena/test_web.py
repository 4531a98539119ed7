"""`arena web`'s server: the kernel referees, bad requests get clear errors, secrets stay hidden."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.serve.answers import final_answer
from arena.web import app as web
from arena.web.app import Lobby, make_lobby
from arena.web.live import LiveGame, Seat
from game.bots import BOTS
from game.engine import play_game
from game.map import classic_map
from game.state import Rules
from tests.helpers.web import Client, serving


@pytest.fixture
def served() -> Iterator[tuple[Client, Lobby]]:
    yield from serving(["aggressive", "random"])


def test_page_and_config(served: tuple[Client, Lobby]) -> None:
    c, _ = served
    status, page = c.call("GET", "/")
    assert status == 200 and "<svg id=\"board\"" in page
    status, cfg = c.call("GET", "/api/config")
    assert status == 200
    assert cfg["defaults"] == ["aggressive", "random"]
    assert "strategist" in cfg["bots"] and len(cfg["map"]["territories"]) == 42
    assert c.call("GET", "/../../etc/passwd")[0] == 404


def test_a_game_refereed_by_the_kernel(served: tuple[Client, Lobby]) -> None:
    c, _ = served
    status, g = c.call("POST", "/api/games", {})
    assert status == 200 and g["human"] == 0 and g["decision"]["kind"] == "place_initial"
    gid = g["id"]
    enemy = next(t for t, o in enumerate(g["owner"]) if o != 0)
    _, r = c.call("POST", f"/api/games/{gid}/act", {"type": "place", "territory": enemy})
    assert r["error"] == "the territory is not yours"
    assert r["armies"] == g["armies"]  # nothing changed
    mine = g["owner"].index(0)
    _, r = c.call("POST", f"/api/games/{gid}/act", {"type": "place", "territory": mine})
    assert "error" not in r and r["armies"][mine] == g["armies"][mine] + 1
    assert r["decision"] is None  # the bots move next
    _, r2 = c.call("POST", f"/api/games/{gid}/act", {"type": "place", "territory": mine})
    assert "turn, not yours" in r2["error"]
    _, r = c.call("POST", f"/api/games/{gid}/advance", {"max": 5000})
    assert r["decision"]["kind"] == "place_initial"
    assert any("aggressive places 1 army" in e["text"] for e in r["log"])


@pytest.mark.parametrize(("method", "path", "body", "status", "needle"), [
    ("GET", "/api/games/nope", None, 404, "no live game"),
    ("POST", "/api/games", {"opponents": ["evil.module:Class"]}, 400, "unknown bot"),
    ("POST", "/api/games", {"opponents": []}, 400, "1..5 bot names"),
    ("POST", "/api/games", {"seat": 7}, 400, "seat must be"),
    ("POST", "/api/games", {"seed": -1}, 400, "seed must be"),
    ("POST", "/api/games", {"rules": "warp_drive"}, 400, "unknown rules option"),
    ("POST", "/api/games", [1, 2], 400, "JSON object"),
    ("GET", "/api/nothing", None, 404, "no such API path"),
    ("GET", "/api/replay", None, 404, "without --replay"),
])
def test_bad_requests_get_clear_errors(served: tuple[Client, Lobby], method: str, path: str,
                                       body: object, status: int, needle: str) -> None:
    c, _ = served
    got, r = c.call(method, path, body)
    assert got == status and needle in r["error"]


def test_malformed_and_oversized_bodies(served: tuple[Client, Lobby]) -> None:
    c, _ = served
    _, g = c.call("POST", "/api/games", {})
    gid = g["id"]
    status, r = c.call("POST", f"/api/games/{gid}/act", raw=b"{not json",
                       headers={"Content-Type": "application/json"})
    assert status == 400 and "not valid JSON" in r["error"]
    status, r = c.call("POST", f"/api/games/{gid}/act", raw=b"[" * 100_000)
    assert status == 413 and "at most" in r["error"]
    for body, needle in (({"type": "warp"}, "type must be one of"),
                         ({"type": "place", "territory": 99}, "territory must be"),
                         ({"type": "place", "territory": "Alaska"}, "territory must be"),
                         ({"type": "trade", "cards": [1, 2]}, "cards must be")):
        status, r = c.call("POST", f"/api/games/{gid}/act", body)
        assert status == 200 and needle in r["error"], body
    status, r = c.call("POST", f"/api/games/{gid}/advance", {"max": 10**9})
    assert status == 400 and "max must be" in r["error"]
    assert c.call("GET", "/api/config")[0] == 200  # the server lives on


def test_hidden_information_stays_hidden() -> None:
    m = classic_map()
    players = [Seat("human", None), Seat("b1", BOTS["aggressive"](), True),
               Seat("b2", BOTS["aggressive"](), True)]
    game = LiveGame(m, Rules(missions=True, cap=30), players, seed=4, human_seat=2)
    for _ in range(400):
        if game.over:
            break
        if game.waiting_for_human():
            d = game.decision()
            assert d is not None
            view = game.views[game.human]
            req = {"armies": d.armies, "lo": d.lo, "hi": d.hi}
            game.act(final_answer(view, d.kind.value, None, req, set()))
        else:
            game.advance(1)
        pub = game.public()
        text = json.dumps(pub)
        for seat in range(3):
            if seat == game.human:
                continue
            for card in game.state.hand(seat):
                assert f'"id": {card},' not in text
        assert "destroy" not in text.replace(str(pub["mission"]), "")
        assert "hand" in pub and all(set(c) == {"id", "kind", "text"} for c in pub["hand"])


def test_live_game_replays_like_play_game() -> None:
    """All bots, no person: the same seed gives play_game's transcript line for line."""
    m = classic_map()
    bots = ["aggressive", "continent", "random"]
    out = play_game([BOTS[b]() for b in bots], seed=9, rules=Rules(cap=40), transcript=True)
    game = LiveGame(m, Rules(cap=40), [Seat(b, BOTS[b](), True) for b in bots], seed=9)
    game.advance(100_000)
    assert game.over and game.transcript() == out.transcript


def test_games_are_bounded_and_expire(served: tuple[Client, Lobby],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    c, lobby = served
    monkeypatch.setattr(web, "MAX_GAMES", 3)
    ids = [c.call("POST", "/api/games", {})[1]["id"] for _ in range(3)]
    status, r = c.call("POST", "/api/games", {})
    assert status == 503 and "too many live games" in r["error"]
    for gid in ids[:2]:
        lobby.games[gid].touched -= web.IDLE_SECONDS + 1
    assert c.call("POST", "/api/games", {})[0] == 200
    assert c.call("GET", f"/api/games/{ids[0]}")[0] == 404
    assert c.call("GET", f"/api/games/{ids[2]}")[0] == 200


def test_transcript_and_replay_of_a_finished_game(served: tuple[Client, Lobby],
                                                  tmp_path: Path) -> None:
    c, lobby = served
    _, g = c.call("POST", "/api/games", {"opponents": ["aggressive", "aggressive"]})
    for what in ("transcript", "replay"):  # it names the bots' cards: not before the end
        status, r = c.call("GET", f"/api/games/{g['id']}/{what}")
        assert status == 403 and "when the game is over" in r["error"]
    game = lobby.games[g["id"]]
    assert game.human is not None
    while not game.over:  # the person plays the fallback answers until the game is out
        if game.waiting_for_human():
            d = game.decision()
            assert d is not None
            req = {"armies": d.armies, "lo": d.lo, "hi": d.hi, "compulsory": d.compulsory}
            game.act(final_answer(game.views[game.human], d.kind.value, None, req, set()))
        else:
            game.advance(100_000)
    status, text = c.call("GET", f"/api/games/{g['id']}/transcript")
    assert status == 200 and text.startswith("riskevo-transcript 1") and "\nend " in text
    status, rep = c.call("GET", f"/api/games/{g['id']}/replay")
    assert status == 200 and rep["frames"][-1]["line"].startswith("end ")
    p = tmp_path / "game.txt"
    p.write_text(text)
    lobby2 = make_lobby(["random"], None, None, None, str(p))
    assert lobby2.replay is not None and len(lobby2.replay.frames) == len(rep["frames"])


@pytest.mark.parametrize(("argv", "needle"), [
    (["no_such_bot"], "no_such_bot"),
    (["random", "--replay", "/nonexistent/t.txt"], "No such file"),
    (["random", "--port", "70000"], "--port must be"),
    (["random", "--rules", "cap=0"], "rules.cap"),
    (["random", "--seat", "5"], "--seat must be"),
])
def test_command_line_errors_are_one_line(argv: list[str], needle: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert web.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and needle in err and "\n" not in err


class _Broken:
    """A bot that raises on every question."""

    def start_game(self, view: object, rng: object) -> None:
        pass

    def act(self, view: object, decision: object) -> object:
        raise ZeroDivisionError("oops")


def test_a_faulty_bot_plays_the_fallback_and_the_log_says_so() -> None:
    players = [Seat("broken", _Broken()), Seat("aggr", BOTS["aggressive"](), True)]
    game = LiveGame(classic_map(), Rules(cap=5), players, seed=2)
    game.advance(100_000)
    assert game.over
    notes = [e["text"] for e in game.log_texts(0) if e.get("note")]
    assert notes and all("broken's answer was refused (ZeroDivisionError: oops)" in n
                         for n in notes)
