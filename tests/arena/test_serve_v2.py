"""Protocol riskevo-bot 2 (issue 11) through a real subprocess and a real socket."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.bots import make_bot
from arena.serve.server import PROTOCOL, Server
from tests.helpers.serve import (
    START,
    STATE,
    Session,
    StdioServer,
    TcpServer,
    hand,
    request,
    write_bot,
)

CHANNELS = ("stdio", "tcp")


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_bot(str(tmp_path_factory.mktemp("bot") / "bot.json"))


@pytest.fixture(scope="module")
def servers(bot: str) -> Iterator[dict[str, StdioServer | TcpServer]]:
    srv: dict[str, StdioServer | TcpServer] = {"stdio": StdioServer(bot), "tcp": TcpServer(bot)}
    try:
        yield srv
    finally:
        assert srv["stdio"].stop() == 0
        srv["tcp"].stop()


@pytest.fixture(params=CHANNELS)
def game(request: pytest.FixtureRequest,
         servers: dict[str, StdioServer | TcpServer]) -> Iterator[Session]:
    """A session with START played: seat 0 of 2 on the tiny board."""
    s = servers[request.param].session()
    assert s.ask(START) == {"id": 0, "ok": True}
    yield s
    s.close()


def action(reply: dict[str, object]) -> str:
    assert "action" in reply, reply
    return str(reply["action"])


def test_hello_reports_v2(game: Session) -> None:
    r = game.ask({"id": 1, "ask": "hello"})
    assert r["protocol"] == PROTOCOL == "riskevo-bot 2"
    assert r["accepts"] == ["riskevo-bot 1", "riskevo-bot 2"]


def test_start_game_names_a_protocol(game: Session) -> None:
    assert game.ask({**START, "protocol": "riskevo-bot 1"})["ok"] is True
    r = game.ask({**START, "protocol": "riskevo-bot 3"})
    assert r["error"] == "protocol must be one of riskevo-bot 1, riskevo-bot 2, got 'riskevo-bot 3'"


# --- 1, 2: card kinds come from the request; wild ids ---------------------------------------

def test_request_kinds_are_authoritative(game: Session) -> None:
    # By id (classic kinds) 0, 1, 2 are one of each; the request says infantry, infantry,
    # cavalry, and card 3 cavalry: no set.
    r = game.ask(request("trade", hand=hand((0, "infantry"), (1, "infantry"), (2, "cavalry"),
                                            (3, "cavalry")), compulsory=False))
    assert action(r) == "end-trade"
    # By id 0, 3, 4 are infantry, infantry, cavalry (no set); the request says one of each.
    r = game.ask({**request("trade", hand=hand((0, "infantry"), (3, "cavalry"),
                                               (4, "artillery"))), "compulsory": True})
    assert action(r).split()[0] == "trade" and sorted(action(r).split()[1:]) == ["0", "3", "4"]


def test_wild_ids_complete_a_set(game: Session) -> None:
    r = game.ask({**request("trade", hand=hand((0, "infantry"), (1, "cavalry"), (5, "wild"))),
                  "compulsory": True})
    assert sorted(action(r).split()[1:]) == ["0", "1", "5"]


# --- 3: the value of the next set -------------------------------------------------------------

@pytest.mark.parametrize("value, trades", [(4, "end-trade"), (8, "end-trade"), (10, "trade"),
                                           (15, "trade"), (60, "trade")])
def test_next_set_value_decides_optional_trades(game: Session, value: int, trades: str) -> None:
    # Charlie and Delta are the opponent's: no +2 bonus; the bot trades optional sets worth 10+.
    req = request("trade", hand=hand((2, "artillery"), (3, "infantry"), (5, "wild")),
                  next_set_value=value)
    assert action(game.ask({**req, "compulsory": False})).split()[0] == trades


# --- 4: missing fields -------------------------------------------------------------------------

@pytest.mark.parametrize("ask, extra", [
    ("place_initial", {}), ("reinforce", {"armies": 4}), ("trade", {}), ("attack", {}),
    ("fortify", {}), ("move_in", {"lo": 1, "hi": 2}),
])
def test_only_owner_and_armies_are_required(game: Session, ask: str,
                                            extra: dict[str, int]) -> None:
    state = {"owner": STATE["owner"], "armies": STATE["armies"]}
    if ask == "move_in":  # the attack being moved in: Alpha (5) took Charlie
        state = {"owner": [0, 0, 0, 1, 0], "armies": [3, 3, 0, 2, 1],
                 "scalars": {"src": 0, "dst": 2}}
    r = game.ask({"id": 5, "ask": ask, "state": state, **extra})
    verb = action(r).split()[0]
    assert verb in {"place_initial": {"place"}, "reinforce": {"place"}, "trade": {"end-trade"},
                    "attack": {"attack", "stop"}, "fortify": {"fortify", "skip"},
                    "move_in": {"move"}}[ask]
    if ask == "reinforce":
        _, t, n = action(r).split()
        assert t in ("Alpha", "Bravo", "Echo") and 1 <= int(n) <= 4


# --- 5, 6: asked whenever the engine likes --------------------------------------------------

def test_forced_move_in_is_answered(game: Session) -> None:
    req = request("move_in", owner=[0, 0, 0, 1, 0], armies=[3, 3, 0, 2, 1],
                  scalars={"src": 0, "dst": 2})
    assert action(game.ask({**req, "lo": 2, "hi": 2})) == "move 2"


def test_attack_with_no_legal_attack_stops(game: Session) -> None:
    assert action(game.ask(request("attack", armies=[1, 1, 5, 5, 1]))) == "stop"


def test_fortify_with_no_move_skips(game: Session) -> None:
    assert action(game.ask(request("fortify", armies=[1, 1, 5, 5, 1]))) == "skip"


def test_compulsory_trade_with_one_set(game: Session) -> None:
    # Three cards only (riskevo would not call this compulsory): the engine says it is.
    req = request("trade", hand=hand((2, "artillery"), (3, "infantry"), (4, "cavalry")))
    assert action(game.ask({**req, "compulsory": True})) in ("trade 2 3 4",)


def test_attack_dice_zero_or_explicit_are_legal(game: Session) -> None:
    r = action(game.ask(request("attack", armies=[9, 9, 1, 1, 1])))
    verb, src, dst, dice = r.split()
    assert verb == "attack" and (src, dst) in (("Alpha", "Charlie"), ("Bravo", "Charlie"))
    assert 0 <= int(dice) <= 3


# --- 7: refused actions ------------------------------------------------------------------------

@pytest.mark.parametrize("ask, extra", [("attack", {}), ("reinforce", {"armies": 3}),
                                        ("fortify", {})])
def test_refused_answers_are_not_repeated(game: Session, ask: str,
                                          extra: dict[str, int]) -> None:
    req = {**request(ask, armies=[9, 9, 1, 1, 1] if ask == "attack" else [5, 3, 2, 2, 1]),
           **extra}
    refused: list[str] = []
    for _ in range(3):
        a = action(game.ask({**req, "refused": refused}))
        assert a not in refused
        refused.append(a)
    assert len(set(refused)) == 3


def test_refused_must_be_action_texts(game: Session) -> None:
    r = game.ask({**request("attack"), "refused": ["attack Alpha Nowhere 1"]})
    assert r["error"].startswith("refused[0]: ")


# --- 8: rule variants in start_game ---------------------------------------------------------

def test_rule_variants_accepted(game: Session) -> None:
    rules = {"cap": 20, "bonus_every_set": True, "trade_at": 4}
    assert game.ask({**START, "rules": rules})["ok"] is True
    # trade_at 4: four cards holding a set are compulsory when the engine leaves it out.
    req = request("trade", hand=hand((0, "infantry"), (1, "infantry"), (2, "infantry"),
                                     (3, "cavalry")))
    assert action(game.ask(req)).startswith("trade ")
    r = game.ask({**START, "rules": {"trade_at": 2}})
    assert r["error"] == "rules.trade_at must be a hand size 3..10, got 2"


# --- 9: TCP, several sessions at once --------------------------------------------------------

def test_two_tcp_sessions_interleaved(servers: dict[str, StdioServer | TcpServer],
                                      bot: str) -> None:
    tcp = servers["tcp"]
    a, b = tcp.session(), tcp.session()
    ref_a, ref_b = Server(lambda: make_bot(bot)), Server(lambda: make_bot(bot))
    start_b = {**START, "seat": 1, "state": {**START["state"], "owner": [1, 1, 0, 0, 1]}}
    reqs_a = [START, request("reinforce", 2, armies=[5, 3, 2, 2, 1]) | {"armies": 3},
              request("attack", 3), request("fortify", 4)]
    state_b = {"owner": [1, 1, 0, 0, 1], "current": 1}
    reqs_b = [start_b, request("reinforce", 2, **state_b) | {"armies": 5},
              request("attack", 3, **state_b), request("fortify", 4, **state_b)]
    try:
        for qa, qb in zip(reqs_a, reqs_b, strict=True):
            ra, rb = a.ask(qa), b.ask(qb)
            assert ra == ref_a.handle(json.dumps(qa)) and "error" not in ra
            assert rb == ref_b.handle(json.dumps(qb)) and "error" not in rb
    finally:
        a.close()
        b.close()


def test_tcp_binds_localhost_by_default() -> None:
    from arena.serve.tcp import parse_address

    assert parse_address("9000") == ("127.0.0.1", 9000)
    assert parse_address(":0") == ("127.0.0.1", 0)
    assert parse_address("0.0.0.0:80") == ("0.0.0.0", 80)  # noqa: S104 - only parsed
    with pytest.raises(ValueError, match="--tcp must be HOST:PORT"):
        parse_address("localhost:http")


def test_doc_has_a_client_example() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    assert "socket.create_connection" in doc and "--tcp" in doc
