"""Serve hardening (issue 10, cases 11 and 12) and whole games through protocol 2."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.bots import make_bot
from arena.serve.lines import reply_line
from arena.serve.server import Server, SubprocessPlayer
from game.engine import play_game
from game.map import build_map
from game.state import Rules
from tests.helpers.serve import START, TIMEOUT, json_paths, replaced, request, write_bot


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_bot(str(tmp_path_factory.mktemp("bot") / "bot.json"))


# Requests of every ask, valid as they stand (the fuzz replaces one part of one of them).
VALID: list[dict[str, Any]] = [
    START,
    {"id": 1, "ask": "hello"},
    request("place_initial", 2),
    {**request("reinforce", 3), "armies": 3},
    {**request("trade", 4, hand=[{"id": 2, "kind": "artillery", "territory": "Charlie"},
                                 {"id": 3, "kind": "infantry"}, {"id": 5, "kind": "wild"}],
               discard=[0], players=[{"cards": 3, "alive": 1}, {"cards": 2, "alive": True}],
               mission=[-1, -1], next_set_value=10), "compulsory": False},
    {**request("attack", 5, last_roll={"attacker": [6, 2, 1], "defender": [3, 3]},
               scalars={"trades": 2, "conquered": 1}), "refused": ["stop"]},
    {**request("move_in", 6, owner=[0, 0, 0, 1, 0], armies=[5, 3, 0, 2, 1],
               scalars={"src": 0, "dst": 2}), "lo": 2, "hi": 4},
    request("fortify", 7),
    {"id": 8, "ask": "end_game"},
]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from([2**70, -(2**70), 10**400, 1e300, -1, 0, 5, "wild", "Alpha", "attack"]),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=8)


def _check_reply(reply: dict[str, Any], req_id: Any) -> None:
    assert set(reply) in ({"id", "error"}, {"id", "action"}, {"id", "ok"},
                          {"id", "protocol", "accepts", "asks"}), reply
    line = reply_line(reply)  # what the server writes: one strict JSON line
    assert line.endswith("\n") and "\n" not in line[:-1]
    assert json.loads(line)["id"] in (req_id, None)
    if "error" in reply:
        assert len(reply["error"]) <= 300


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(VALID) - 1), pick=st.integers(0, 10**6), value=JSON)
def test_fuzz_every_field(which: int, pick: int, value: Any) -> None:
    """Any field of any request replaced by any JSON value: a reply line, never a crash."""
    server = Server(lambda: make_bot("random"))
    assert server.handle(json.dumps(START))["ok"] is True
    base = VALID[which]
    paths = list(json_paths(base))
    bad = replaced(base, paths[pick % len(paths)], value)
    _check_reply(server.handle(json.dumps(bad)), bad.get("id") if isinstance(bad, dict) else None)
    # The session still serves afterwards.
    assert server.handle(json.dumps(START))["ok"] is True
    after = server.handle(json.dumps(VALID[3]))
    assert "action" in after, after


@pytest.mark.parametrize("line", [
    json.dumps({**VALID[3], "armies": 2**70}),
    '{"id": 1, "ask": "reinforce", "armies": 1e400, "state": {"owner": [0,0,1,1,0], '
    '"armies": [1,1,1,1,1]}}',
    json.dumps(replaced(VALID[3], ("state", "armies", 0), 2**70)),
    json.dumps(replaced(VALID[3], ("state", "players"), "two")),
    json.dumps(replaced(VALID[3], ("state", "scalars"), [1, 2])),
    json.dumps(replaced(VALID[5], ("state", "last_roll"), 6)),
    json.dumps(replaced(VALID[3], ("state", "owner", 2), 7)),
    "[" * 100_000 + "]" * 100_000,
    '{"id": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "\xff\xfe not utf-8",
])
def test_hostile_lines_get_one_line_errors(line: str) -> None:
    server = Server(lambda: make_bot("random"))
    server.handle(json.dumps(START))
    reply = server.handle(line)
    assert "error" in reply and "\n" not in reply["error"]
    assert "action" in server.handle(json.dumps(VALID[3]))


def test_subprocess_outlives_hostile_lines(bot: str) -> None:
    lines = [json.dumps(START),
             json.dumps({**VALID[3], "armies": 2**70}),
             '{"id": 9, "ask": "reinforce", "armies": 1e400}',
             "[" * 100_000 + "]" * 100_000,
             json.dumps(replaced(VALID[3], ("state", "players"), {"cards": 1})),
             json.dumps(replaced(VALID[3], ("state", "owner", 1), 5)),
             json.dumps(VALID[3])]
    res = subprocess.run([sys.executable, "-m", "arena", "serve", bot], capture_output=True,
                         input="\n".join(lines) + "\n", text=True, timeout=TIMEOUT)
    replies = [json.loads(x) for x in res.stdout.splitlines()]
    assert res.returncode == 0 and len(replies) == len(lines)
    assert replies[0]["ok"] is True and "action" in replies[-1]
    assert all("error" in r for r in replies[1:-1])


def test_stdin_bytes_a_bad_encoding_costs_a_line_a_long_line_ends_the_session(bot: str) -> None:
    from arena.serve.lines import MAX_LINE

    valid = json.dumps(VALID[3]).encode()
    data = b"\n".join([json.dumps(START).encode(), b"\xff\xfe not utf-8", valid,
                       b"x" * (MAX_LINE + 10), valid]) + b"\n"
    res = subprocess.run([sys.executable, "-m", "arena", "serve", bot], capture_output=True,
                         input=data, timeout=TIMEOUT, env={**os.environ, "LC_ALL": "C.UTF-8",
                                                           "PYTHONIOENCODING": "utf-8:strict"})
    replies = [json.loads(x) for x in res.stdout.splitlines()]
    assert res.returncode == 0 and not res.stderr, res.stderr
    assert [sorted(r) for r in replies] == [["id", "ok"], ["error", "id"],
                                            ["action", "id"], ["error", "id"]], replies
    assert "not UTF-8" in replies[1]["error"]
    assert replies[3]["error"] == f"request line longer than {MAX_LINE} bytes"


# --- case 12: impossible states are errors naming the field ----------------------------------

@pytest.mark.parametrize("req, error", [
    ({**VALID[3], "armies": 0}, "armies must be 1..1000000, got 0"),
    ({**VALID[6], "lo": 5, "hi": 2}, "lo must be at most hi, got lo=5, hi=2"),
    ({**VALID[6], "lo": 2, "hi": 5}, "hi must be at most the attacking territory's armies - 1"),
    (replaced(VALID[4], ("state", "hand", 0, "id"), -1), "state.hand[0].id must be 0..6, got -1"),
    (replaced(VALID[4], ("state", "hand", 1, "id"), 2), "state.hand[1].id 2 appears twice"),
    (replaced(VALID[4], ("state", "discard"), [2]), "state.discard[0]: card 2 is also in"),
    (replaced(VALID[4], ("state", "hand", 0, "kind"), "joker"), "state.hand[0].kind must be"),
    (replaced(VALID[4], ("state", "hand", 0, "territory"), "Echo"),
     "state.hand[0].territory must be 'Charlie'"),
    (replaced(VALID[3], ("state", "owner", 1), 2), "state.owner[1] must be 0..1, got 2"),
    (replaced(VALID[3], ("state", "owner"), [0, 0, 1]), "state.owner must have 5 entries"),
    (replaced(VALID[3], ("state", "armies", 1), 0), "state.armies[1] must be at least 1"),
    (replaced(VALID[3], ("state", "armies", 1), -3), "state.armies[1] must be 0..1000000"),
    (replaced(VALID[3], ("state", "owner"), [1, 1, 1, 1, 1]), "the bot's seat 0 owns no"),
    (replaced(VALID[3], ("state", "current"), 1), "state.current must be the bot's seat 0"),
    (replaced(VALID[3], ("state", "phase"), "attack"), "state.phase must be 'reinforce'"),
    (replaced(VALID[4], ("state", "players", 1, "cards"), 6), "state.players[1].cards: 6 cards"),
    (replaced(VALID[4], ("state", "players", 0, "cards"), 1), "state.players[0].cards must equal"),
    (replaced(VALID[5], ("state", "last_roll", "attacker", 0), 7),
     "state.last_roll.attacker[0] must be 0..6, got 7"),
    (replaced(VALID[5], ("state", "scalars", "src"), 5), "state.scalars.src must be -1..4"),
    (replaced(VALID[5], ("state", "mission"), [20, 0]), "state.mission[0] must be -1..13"),
    (replaced(VALID[6], ("state", "scalars"), {"src": 0, "dst": 4}),
     "state.scalars.src 0 must be the bot's and border state.scalars.dst 4"),
    (replaced(VALID[4], ("compulsory",), "yes"), "compulsory must be true or false"),
    (replaced(VALID[3], ("state", "mission"), [2, -1]), "state.mission must be [-1, -1] when"),
    (replaced(START, ("seat",), 2), "start_game.seat must be 0..1, got 2"),
    (replaced(START, ("n_players",), 7), "start_game.n_players must be 2..6, got 7"),
    (replaced(START, ("rng_state",), {"bit_generator": "PCG64"}), "start_game.rng_state must be"),
    (replaced(VALID[5], ("state", "players"), [{"alive": 1}, {"alive": 0}]),
     "state.players[1].alive is false, yet seat 1 owns territories"),
])
def test_impossible_states_name_the_field(req: dict[str, Any], error: str) -> None:
    server = Server(lambda: make_bot("random"))
    assert server.handle(json.dumps(START))["ok"] is True
    reply = server.handle(json.dumps(req))
    assert error in reply.get("error", ""), reply


# --- whole games through the protocol (issue 11, "done when") --------------------------------

def _without_borders(cut: list[tuple[str, str]]) -> dict[str, Any]:
    from importlib import resources

    data = json.loads(resources.files("game.maps").joinpath("classic.json").read_text())
    data["borders"] = [b for b in data["borders"] if tuple(b) not in cut]
    return dict(data)


def _transcript(first: object, m: Any, rules: Rules, seed: int) -> tuple[str, ...]:
    out = play_game([first, *(make_bot("bully") for _ in range(3))],  # type: ignore[list-item]
                    map=m, rules=rules, seed=seed, transcript=True,
                    labels=["first", "bully", "bully", "bully"])  # however the bot is served
    assert out.transcript is not None
    return out.transcript


def test_subprocess_game_shuffled_deck_bonus_every_set(bot: str) -> None:
    """A non-classic deck, the +2 bonus on every set, trades at 4: legal and as in-process."""
    from tests.helpers.deck import SHUFFLED

    rules = Rules(cap=30, bonus_every_set=True, trade_at=4)
    direct = _transcript(make_bot(bot), SHUFFLED, rules, 5)
    assert sum(" trade " in line for line in direct) >= 3
    sp = SubprocessPlayer.for_bot(bot)
    try:
        assert _transcript(sp, SHUFFLED, rules, 5) == direct  # play_game raises on illegal play
    finally:
        sp.close()


def test_game_on_a_board_without_some_borders(bot: str) -> None:
    """The bot plays the request's board: a classic map with borders cut plays as in-process."""
    from tests.helpers.serve import Loopback

    m = build_map(_without_borders([("Alaska", "Kamchatka"), ("Brazil", "North Africa")]))
    assert m.n_borders == 81
    direct = _transcript(make_bot(bot), m, Rules(cap=20), 8)
    assert _transcript(Loopback(bot), m, Rules(cap=20), 8) == direct


def test_next_set_value_reads_as_the_escalating_count() -> None:
    from arena.wire.protocol import trades_for_value
    from game.rules.cards import escalating_value

    for value in range(1, 400):
        t = trades_for_value(value)
        assert escalating_value(t) <= value < escalating_value(t + 1) or (t == 0 and value < 4)


@pytest.mark.parametrize("mission, ok", [([9, 1], True), ([9, -1], False), ([9, 0], False),
                                         ([2, -1], True), ([2, 1], False)])
def test_missions_name_a_target_only_to_destroy(mission: list[int], ok: bool) -> None:
    from arena.serve.server import map_json
    from game.map import classic_map

    state = {"owner": [i % 2 for i in range(42)], "armies": [1] * 42}
    server = Server(lambda: make_bot("random"))
    start = {**START, "map": map_json(classic_map()), "rules": {"missions": True},
             "state": {**state, "mission": [0, -1]}}
    assert server.handle(json.dumps(start))["ok"] is True
    reply = server.handle(json.dumps({"id": 1, "ask": "reinforce", "armies": 3,
                                      "state": {**state, "mission": mission}}))
    assert ("action" in reply) == ok, reply


def test_rng_state_round_trips() -> None:
    rng = np.random.default_rng(4)
    server = Server(lambda: make_bot("random"))
    start = copy.deepcopy(START)
    start["rng_state"] = rng.bit_generator.state
    assert server.handle(json.dumps(start))["ok"] is True
