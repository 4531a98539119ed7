"""The page's story of a game: every log line as data, the since-your-turn summary, odds, income,
the explanation of a linear bot's line (the same words as `arena explain`), the hint."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import explain as cli
from arena.web.app import Lobby, make_lobby
from arena.web.insight import explain_json
from arena.web.live import ActionError, LiveGame, Seat
from arena.web.story import since_last_turn
from features.botfile import save_genome
from features.genome import hand_set_genome
from game.bots import make_player
from game.map import classic_map
from game.record.replay import replay
from game.rules import layout as L
from game.rules.odds import attack_odds
from game.state import Rules
from tests.helpers.web import Client, human_game, play_to, serving


@pytest.fixture(scope="module")
def champ(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bots") / "champ.json"
    save_genome(path, hand_set_genome())
    return path


def bots_game(seed: int) -> LiveGame:
    players = [Seat(b, make_player(b), True) for b in ("aggressive", "random", "bully")]
    g = LiveGame(classic_map(), Rules(cap=30), players, seed)
    g.advance(100_000)
    assert g.over
    return g


@pytest.mark.parametrize("seed", [1, 2])
def test_every_line_carries_its_event(seed: int) -> None:
    lines = bots_game(seed).transcript()
    frames = replay(lines).frames
    kinds = set()
    for before, f in itertools.pairwise(frames):
        ev = f.event
        kinds.add(ev["kind"])
        assert ev["seat"] == f.seat
        if ev["kind"] == "attack":
            src, dst = ev["src"], ev["dst"]
            assert isinstance(src, int) and isinstance(dst, int)
            assert ev["defender"] == before.owner[dst] != f.seat
            assert f.line.split(" = ")[1].startswith(" ".join(map(str, ev["att"])))  # type: ignore[call-overload]
            assert len(ev["att"]) >= 1 and 1 <= len(ev["dfn"]) <= 2  # type: ignore[arg-type]
            assert ev["conquered"] == (f.owner[dst] == f.seat)
            moved = ev["moved"]
            assert isinstance(moved, int)
            assert f.armies[src] == before.armies[src] - int(str(ev["lost"])) - moved
        elif ev["kind"] in ("move", "fortify"):
            assert f.armies[ev["dst"]] == before.armies[ev["dst"]] + ev["count"]  # type: ignore[index, operator]
        elif ev["kind"] == "trade":
            assert len(ev["cards"]) == 3 and ev["armies"] >= 4  # type: ignore[arg-type, operator]
        elif ev["kind"] == "eliminate":
            assert not f.alive[ev["victim"]]  # type: ignore[index]
        elif ev["kind"] == "card":
            assert set(ev) == {"kind", "seat"}  # the card itself stays hidden
    assert {"place", "attack", "card", "end"} <= kinds


def test_since_last_turn_last_roll_and_income() -> None:
    g = human_game()
    play_to(g, 3)
    pub = g.public()
    assert all("ev" in e for e in pub["log"])  # type: ignore[attr-defined]
    summary = pub["since_last_turn"]
    assert isinstance(summary, dict) and summary["lines"]
    dice = pub["dice"]
    assert isinstance(dice, dict) and dice["label"] in [*g.labels, "you"]
    q = pub["decision"]
    assert isinstance(q, dict)
    if q["kind"] == "reinforce":
        assert q["income"]["total"] == q["armies"]
    play_to(g, 3, L.PH_REINFORCE)
    q = g.public()["decision"]
    assert isinstance(q, dict) and q["income"]["total"] == q["armies"]


def test_attack_until_rolls_nothing_at_or_below_the_stop_level() -> None:
    g = human_game(seed=7)
    play_to(g, 1, L.PH_ATTACK)
    view = g.views[g.human or 0]
    src, dst = next(iter(view.attack_options()))
    n = len(g.transcript())
    with pytest.raises(ActionError, match="nothing rolled"):
        g.attack_until(src, dst, 0, int(g.state.armies[src]))
    assert len(g.transcript()) == n


@pytest.fixture
def served(champ: Path) -> Iterator[tuple[Client, Lobby]]:
    yield from serving([str(champ), "random"])


def test_explain_a_bots_line_as_the_command_line_does(
        served: tuple[Client, Lobby], champ: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    c, lobby = served
    gid, _ = lobby.new_game({})  # directly: the first start compiles (longer than a client waits)
    status, listing = c.call("GET", "/api/games")
    assert status == 200 and [x["id"] for x in listing["games"]] == [gid]
    for _ in range(60):  # the champion places and the person too, until a champion's attack
        _, s = c.call("POST", f"/api/games/{gid}/advance", {"max": 500})
        game = lobby.games[gid]
        if game.state.round >= 1 and any(x.split()[1] == "s1" and " attack " in f" {x}"
                                         for x in game.transcript()[5:]):
            break
        d = s["decision"]
        mine = s["owner"].index(s["human"])
        if d and d["kind"] in ("place_initial", "reinforce"):
            c.call("POST", f"/api/games/{gid}/act",
                   {"type": "place", "territory": mine, "count": d["armies"] or 1})
        elif d and d["kind"] in ("trade",):
            c.call("POST", f"/api/games/{gid}/act", {"type": "end_trade"})
        elif d and d["kind"] == "attack":
            c.call("POST", f"/api/games/{gid}/act", {"type": "stop"})
        elif d and d["kind"] == "fortify":
            c.call("POST", f"/api/games/{gid}/act", {"type": "skip"})
    game = lobby.games[gid]
    lines = game.transcript()
    champ_seat = game.labels.index("champ")
    no = next(i for i, x in enumerate(lines, 1)
              if x.startswith("r") and x.split()[1] == f"s{champ_seat}" and " attack " in x)
    path = tmp_path / "t.txt"
    path.write_text("\n".join(lines) + "\n")
    # the command line first: its first explanation compiles (longer than a client waits)
    assert cli.main([str(champ), "--transcript", str(path), "--line", str(no)]) == 0
    printed = capsys.readouterr().out.splitlines()
    status, ex = c.call("GET", f"/api/games/{gid}/explain?line={no}")
    assert status == 200, ex
    assert ex["text"].splitlines() == printed[2:]
    human_line = next(i for i, x in enumerate(lines, 1)
                      if x.startswith("r") and x.split()[1] == f"s{game.human}")
    status, err = c.call("GET", f"/api/games/{gid}/explain?line={human_line}")
    assert status == 400 and "only a riskevo linear bot" in err["error"]
    assert c.call("GET", f"/api/games/{gid}/explain?line=x")[0] == 400


def test_hint_and_odds(served: tuple[Client, Lobby]) -> None:
    c, lobby = served
    gid, _ = lobby.new_game({})  # directly: the first start compiles (longer than a client waits)
    _, _s = c.call("POST", f"/api/games/{gid}/advance", {"max": 500})
    status, h = c.call("GET", f"/api/games/{gid}/hint")
    assert status == 200 and h["bot"] == "champ" and h["text"]
    game = lobby.games[gid]
    st = game.state
    src = next(t for t in range(42) if st.owner[t] == game.human)
    dst = int(next(n for n in range(42) if game.m.adjacency[src, n] and st.owner[n] != game.human))
    st.armies[src] = 9  # a test position: the odds read the board as it is
    status, o = c.call("GET", f"/api/games/{gid}/odds?src={src}&dst={dst}&down_to=2")
    want = attack_odds(9, int(st.armies[dst]), 2)
    assert status == 200 and o["conquer"] == want.conquer
    assert o["source_left"] == want.source_left and o["defender_dice"] == want.defender_dice
    status, err = c.call("GET", f"/api/games/{gid}/odds?src={src}&dst={src}&down_to=2")
    assert status == 400 and "src must be" in err["error"]


def test_replays_say_the_rules_as_the_live_game_and_the_page_has_an_icon(
        served: tuple[Client, Lobby]) -> None:
    from arena.web.views import replay_json

    g = bots_game(3)
    out = replay_json(replay(g.transcript()), "x")
    assert out["rules"] == g.public()["rules"] and "trade at 5 cards" in out["rules"]
    assert all("event" in f for f in out["frames"])
    c, _ = served
    assert 'rel="icon"' in c.call("GET", "/")[1]


def test_initial_placement_says_how_many_are_left() -> None:
    g = human_game()
    g.advance(100)
    q = g.public()["decision"]
    assert isinstance(q, dict) and q["kind"] == "place_initial"
    assert q["left"] == int(g.state.pl[g.human or 0, L.P_SETUP_LEFT]) > 1


def test_mission_progress_is_shown_with_missions() -> None:
    players = [Seat("human", None), *(Seat(b, make_player(b), True) for b in ("random", "bully"))]
    g = LiveGame(classic_map(), Rules(missions=True, cap=30), players, 4, human_seat=0)
    g.advance(100)
    assert str(g.public()["mission_progress"]).startswith("progress: ")
    assert human_game().public()["mission_progress"] == ""


def test_the_summary_names_losses_continents_trades_and_eliminations() -> None:
    m = classic_map()
    aus = [t for t in range(42) if m.continents[int(m.continent_of[t])] == "Australia"]
    sam = [t for t in range(42) if m.continents[int(m.continent_of[t])] == "South America"]
    before = [2] * 42
    for t in aus:
        before[t] = 0  # the person (seat 0) holds Australia
    now = list(before)
    now[aus[0]] = 1
    for t in sam:
        now[t] = 1  # seat 1 took South America
    events: list[dict[str, object]] = [
        {"kind": "attack", "seat": 1, "src": 0, "dst": aus[0], "conquered": True, "defender": 0},
        {"kind": "attack", "seat": 1, "src": 0, "dst": sam[0], "conquered": True, "defender": 2},
        {"kind": "trade", "seat": 2, "armies": 6},
        {"kind": "eliminate", "seat": 1, "victim": 3}]
    out = since_last_turn(m, ["you", "hunter", "bully", "random"], 0, events, before, now)
    assert out["lost"] == [{"territory": aus[0], "name": m.territories[aus[0]], "by": 1}]
    assert out["lines"] == [f"hunter took {m.territories[aus[0]]} from you",
                            "bully traded cards for 6 armies", "hunter eliminated random",
                            "hunter took South America", "you lost Australia"]
    assert since_last_turn(m, ["you", "b"], 0, [], before, before)["lines"] == [
        "nothing of yours changed hands"]


def test_a_replay_file_is_explained_by_the_servers_champion(
        champ: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = bots_game(4).transcript()
    path = tmp_path / "g.txt"
    path.write_text("\n".join(lines) + "\n")
    lobby = make_lobby([str(champ), "random"], None, None, None, str(path))
    no = next(i for i, x in enumerate(lines, 1) if " attack " in x)
    assert cli.main([str(champ), "--transcript", str(path), "--line", str(no)]) == 0
    printed = capsys.readouterr().out.splitlines()
    out = explain_json(lobby.champions()[0], lobby.replay_lines, no)
    assert out["text"].splitlines() == printed[2:]


def test_the_replay_of_ones_own_game_says_you() -> None:
    from arena.web import app as web

    lobby = make_lobby(["aggressive", "bully"], seat=1, rules_text="cap=12", seed=2,
                       replay_file=None)
    gid, game = lobby.new_game({})
    play_to(game, 10**6)
    assert game.over and game.human is not None
    out, _ = web._route(lobby, "GET", f"/api/games/{gid}/replay", None)
    assert isinstance(out, dict) and out["labels"][game.human] == "you"
    assert any(f["text"].startswith("you place ") for f in out["frames"])
    assert not any(f["text"].startswith("you places") for f in out["frames"])


def test_a_restarted_server_plays_the_saved_games_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from arena.web import app as web

    folder = tmp_path / "games"
    lobby = make_lobby(["aggressive", "bully"], seat=1, rules_text="cap=12", seed=None,
                       replay_file=None, games_dir=str(folder))
    gid, game = lobby.new_game({})
    web._route(lobby, "POST", f"/api/games/{gid}/advance", {"max": 50})
    assert (folder / f"{gid}.json").is_file()
    play_to(game, 3)
    lobby.keep(gid, game)
    assert lobby.saves is not None
    lobby.saves.close()  # the server stops: one server at a time on a saves folder
    again = make_lobby(["aggressive", "bully"], seat=1, rules_text="cap=12", seed=None,
                       replay_file=None, games_dir=str(folder))
    back = again.games[gid]
    assert back.transcript() == game.transcript() and back.waiting_for_human()
    assert back.public()["armies"] == game.public()["armies"]
    # A file whose moves the game does not repeat is named and left alone.
    doc = json.loads((folder / f"{gid}.json").read_text())
    doc["request"]["seed"] += 1
    doc.pop("dealt")  # the deal too, as an older file without it
    (folder / f"{gid}.json").write_text(json.dumps(doc))
    assert again.saves is not None
    again.saves.close()
    third = make_lobby(["aggressive", "bully"], seat=1, rules_text="cap=12", seed=None,
                       replay_file=None, games_dir=str(folder))
    assert gid not in third.games
    assert f"{folder / gid}.json: not resumed" in capsys.readouterr().err


def test_a_replay_names_the_players_its_transcript_records() -> None:
    """Bug 4: a saved transcript's replay says who sat where (older ones: 'seat N')."""
    from arena.web.views import replay_json
    from game.engine import play_game

    names = ["aggressive", "bully", "random"]
    out = play_game([make_player(n) for n in names], rules=Rules(cap=12), seed=5,
                    labels=names, transcript=True)
    assert out.transcript is not None
    rep = replay(out.transcript)
    page = replay_json(rep, "x")
    assert page["labels"] == [names[p] for p in rep.seats]
    old = [x for x in out.transcript if not x.startswith("player ")]
    assert replay_json(replay(old), "x")["labels"] == ["seat 0", "seat 1", "seat 2"]



def test_the_web_command_keeps_live_games_by_default(tmp_path: Path) -> None:
    """A reload or a restart of `make play` finds the game: saved as it goes by default."""
    from arena.web import app as web

    assert web.parser().parse_args([]).games == "runs/web-games"
    assert web.parser().parse_args(["--games", ""]).games == ""
