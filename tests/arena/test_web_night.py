"""`arena web` for a game night (issue 53): the shipped territory shapes, the champion offered,
the log in the second person, the first turns paced, missions revealed at the end, a finished
game reopened after a restart, why? only where the seat's bot explains, plain words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.bots import BotSpecError
from arena.web import app as web
from arena.web import champ as webchamp
from arena.web.app import make_lobby
from arena.web.httpd import RequestError
from arena.web.insight import can_explain, explain_replay
from arena.web.live import LiveGame, Seat
from arena.web.mapshapes import shapes, shipped, text
from arena.web.story import second_person
from arena.web.views import map_json, seat_labels
from features.botfile import save_genome
from features.genome import hand_set_genome
from game.bots import make_player
from game.engine import play_game
from game.map import build_map, classic_map
from game.record.replay import replay
from game.rules import layout as L
from game.state import Rules
from tests.helpers.web import human_game, play_to


def test_the_shipped_shapes_are_what_the_script_writes() -> None:
    m = classic_map()
    ref = Path(__file__).parents[2] / "game" / "maps" / "classic_shapes.json"
    assert ref.read_text(encoding="utf-8") == text(m), "run python -m arena.web.mapshapes"
    doc = json.loads(ref.read_text(encoding="utf-8"))
    assert "riskevo's own data" in doc["licence"]
    out = map_json(m)["shapes"]
    assert out is not None and len(out) == m.n_territories
    assert all(len(poly) >= 3 for poly in out)


def test_neighbours_touch_and_others_are_apart() -> None:
    m = classic_map()
    polys = [list(map(tuple, p)) for p in shapes(m)["shapes"]]

    def gap(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
        return min(((x - u) ** 2 + (y - v) ** 2) ** 0.5 for x, y in a for u, v in b)

    # Corners only: neighbours whose positions are close meet within a few units.
    near = [gap(polys[a], polys[b]) for a in range(42) for b in range(a + 1, 42)
            if m.adjacency[a, b]]
    assert sorted(near)[len(near) // 2] < 8


def test_a_custom_board_without_shapes_draws_from_its_positions() -> None:
    doc = {"name": "classic", "continents": [
        {"name": "A", "bonus": 1, "territories": ["a", "b"]},
        {"name": "B", "bonus": 1, "territories": ["c"]}],
        "borders": [["a", "b"], ["b", "c"]]}
    m = build_map(doc, "tiny.json")
    assert shipped(m) is None
    assert map_json(m)["shapes"] is None


@pytest.mark.parametrize("line, want", [
    ("you places 1 army on Peru", "you place 1 army on Peru"),
    ("you attacks Peru (bully) from Brazil: 6 5 vs 4, loses 1, kills 1; conquers Peru, moves 3",
     "you attack Peru (bully) from Brazil: 6 5 vs 4, lose 1, kill 1; conquer Peru, move 3"),
    ("you does not fortify", "you do not fortify"),
    ("bully attacks Peru (you) from Brazil: 6 vs 4, loses 1, kills 0",
     "bully attacks Peru (you) from Brazil: 6 vs 4, loses 1, kills 0"),
])
def test_the_log_speaks_to_the_person(line: str, want: str) -> None:
    assert second_person(line) == want


def test_the_live_log_says_you_not_human() -> None:
    """Bug 10."""
    g = human_game()
    play_to(g, 3)
    texts = [str(e["text"]) for e in g.log_texts(0)]
    assert not any("human" in t for t in texts)
    assert any(t.startswith("you place ") for t in texts)
    assert g.public()["dice"]["label"] in (*g.labels, "you")  # type: ignore[index]


def test_the_first_turns_after_the_initial_placement_are_paced() -> None:
    """Bug 15: the page's chained advance stops where the initial placement ends."""
    g = human_game()
    st = g.state
    while st.phase == L.PH_SETUP:
        g.advance(5000, setup_only=True)
        if g.waiting_for_human() and st.phase == L.PH_SETUP:
            mine = next(t for t in range(42) if st.owner[t] == g.human)
            from game.actions import Place
            g.act(Place(mine, 1))
    assert st.phase != L.PH_SETUP
    steps = len(g.transcript())
    g.advance(5000, setup_only=True)
    assert len(g.transcript()) == steps  # nothing more: the turns are for the paced advance


def _mission_game() -> LiveGame:
    for seed in range(1, 40):
        players = [Seat(b, make_player(b), True) for b in ("aggressive", "bully", "random")]
        g = LiveGame(classic_map(), Rules(missions=True, cap=60), players, seed)
        g.advance(200_000)
        if g.public().get("mission_done"):
            return g
    raise AssertionError("no seed of 1..39 ended with a mission")


def test_a_mission_game_says_which_mission_won_and_reveals_all() -> None:
    """Bug 12."""
    g = _mission_game()
    pub = g.public()
    done = pub["mission_done"]
    assert isinstance(done, dict) and pub["placements"][done["seat"]] == 1  # type: ignore[index]
    missions = pub["missions"]
    assert isinstance(missions, list) and len(missions) == 3 and done["text"] in missions
    plain = LiveGame(classic_map(), Rules(cap=2), [Seat("r", make_player("random"), True),
                                                   Seat("b", make_player("bully"), True)], 1)
    plain.advance(100_000)
    assert "missions" not in plain.public()


def test_a_finished_game_reopens_after_a_restart(tmp_path: Path) -> None:
    """Bug 16."""
    folder = tmp_path / "games"
    lobby = make_lobby(["aggressive", "bully"], seat=1, rules_text="cap=6", seed=3,
                       replay_file=None, games_dir=str(folder))
    gid, game = lobby.new_game({})
    play_to(game, 10**6)
    assert game.over
    lobby.keep(gid, game)
    assert lobby.saves is not None
    lobby.saves.close()  # the server stops
    again = make_lobby(["aggressive", "bully"], seat=1, rules_text="cap=6", seed=3,
                       replay_file=None, games_dir=str(folder))
    # Found over at the restart, its file moves to old/ (never played on), yet its page opens.
    assert (folder / "old" / f"{gid}.json").is_file() and not (folder / f"{gid}.json").exists()
    out, _ = web._route(again, "GET", f"/api/games/{gid}", None)
    assert isinstance(out, dict) and out["over"] and out["owner"] == game.public()["owner"]
    with pytest.raises(RequestError, match="no live game"):
        web._route(again, "GET", "/api/games/nosuchgame", None)


def test_the_champion_offered_or_how_to_make_one(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Bug 6: the bundled `champion` on a fresh clone (no runs/), explaining its moves; the
    newest run's champion once there is one; else one line on how to make one."""
    monkeypatch.chdir(tmp_path)
    assert webchamp.bundled_champion() == "champion"
    cfg = make_lobby([], seat=None, rules_text=None, seed=None, replay_file=None).config()
    assert cfg["defaults"][0] == "champion" and "champion" in cfg["explainers"]
    assert cfg["champion_note"] == ""
    run = tmp_path / "runs" / "night"
    run.mkdir(parents=True)
    save_genome(run / "champion.json", hand_set_genome())
    assert webchamp.default_champion(tmp_path / "runs") == str(run / "champion.json")

    def unresolved(spec: str) -> None:
        raise BotSpecError(f"no {spec}")

    monkeypatch.setattr(webchamp, "check_bot", unresolved)
    assert webchamp.bundled_champion() is None
    lobby = make_lobby(["strategist"], seat=None, rules_text=None, seed=None, replay_file=None)
    lobby.bots = {"strategist": "strategist"}
    assert lobby.config()["champion_note"] == webchamp.HOW_TO and "make evolve" in webchamp.HOW_TO


def test_the_bundled_champion_says_why_in_a_fresh_clone(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled `champion` is a name, not a path: its why? and the hint read its packaged
    file (arena.bots.bot_file_path), and a saves folder does not take the name for a file."""
    monkeypatch.chdir(tmp_path)
    assert can_explain("champion") and not can_explain("strategist")
    lobby = make_lobby([], seat=1, rules_text="cap=4", seed=2, replay_file=None,
                       games_dir=str(tmp_path / "games"))
    gid, game = lobby.new_game({"opponents": ["champion", "strategist"]})
    web._route(lobby, "POST", f"/api/games/{gid}/advance", {"max": 5000})
    seat = game.labels.index("champion")
    no = next(i for i, x in enumerate(game.transcript(), 1)
              if x.startswith("r") and x.split()[1] == f"s{seat}" and x.split()[2] == "place")
    out, _ = web._route(lobby, "GET", f"/api/games/{gid}/explain?line={no}", None)
    assert isinstance(out, dict) and out["bot"] == "champion"
    assert out["plain"].startswith(("Places ", "Attacks "))
    hint, _ = web._route(lobby, "GET", f"/api/games/{gid}/hint", None)
    assert isinstance(hint, dict) and hint["bot"] == "champion"
    assert lobby.saves is not None
    lobby.saves.close()


def _replay_lines(champ: Path, tmp_path: Path) -> list[str]:
    from arena.bots import make_bot

    bots = [str(champ), "hunter", "strategist"]
    players = [make_bot(b) for b in bots]
    result = play_game(players, rules=Rules(cap=8), seed=4, transcript=True,  # type: ignore[arg-type]
                       labels=["champ", "hunter", "strategist"])
    return list(result.transcript)


def test_a_replay_explains_only_the_lines_of_its_linear_bots(tmp_path: Path) -> None:
    """Bug 7: a hunter's line is not explained as the champion's; the champion's is, in plain
    words first, with the move to highlight."""
    champ = tmp_path / "champ.json"
    save_genome(champ, hand_set_genome())
    lines = _replay_lines(champ, tmp_path)
    bots = {"champ": str(champ), "hunter": "hunter", "strategist": "strategist"}
    labels = seat_labels(replay(lines))
    assert sorted(labels) == ["champ", "hunter", "strategist"]
    seat_of = {f"s{s}": s for s in range(3)}
    who = [labels[seat_of[x.split()[1]]] if re.match(r"r\d+ s\d+ ", x) else "" for x in lines]
    hunter = next(i for i, x in enumerate(lines, 1) if who[i - 1] == "hunter"
                  and " attack " in f" {x.split(' ', 2)[2]}")
    with pytest.raises(RequestError, match="hunter's: only a riskevo linear bot"):
        explain_replay(bots, labels, lines, hunter)
    mine = next(i for i, x in enumerate(lines, 1) if who[i - 1] == "champ"
                and x.split()[2] in ("place", "attack"))
    out = explain_replay(bots, labels, lines, mine)
    assert out["bot"] == "champ" and out["plain"].startswith(("Places ", "Attacks "))
    assert "next choice" in out["plain"] or "came next" in out["plain"]
    assert out["highlight"] and all(0 <= t < 42 for t in out["highlight"])


def test_every_gene_has_plain_words() -> None:
    from arena.plainwords import PLAIN
    from features.genome import LAYOUT

    assert set(PLAIN) == set(LAYOUT.names)
    assert not any("(" in w or "/" in w for w in PLAIN.values())


def test_the_engine_compiles_in_the_background_and_says_so() -> None:
    """Item 5: the server warms the first game's kernels on a thread; the page reads how far."""
    from arena.web.warm import Engine

    e = Engine()
    assert e.json()["ready"]  # nothing to wait for unless asked
    t = e.warm(classic_map(), Rules(), ["strategist", "continent", "pkg.mod:Cls"])
    assert not e.json()["ready"] or not t.is_alive()
    t.join(600)
    out = e.json()
    assert out["ready"] and out["error"] == "" and out["seconds"] >= 0
    lobby = make_lobby(["random"], seat=None, rules_text=None, seed=None, replay_file=None)
    assert lobby.config()["engine"]["ready"]
