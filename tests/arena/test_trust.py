"""Untrusted bots play isolated and forfeit instead of cheating, hanging or stopping an event."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.bots import close_bot, make_bot, trusted
from arena.measure.tournament import run_tournament, summarize
from game.bots import RandomBot
from game.decision import Decision, DecisionKind
from game.engine import play_game
from game.forfeit import forfeit_placements
from game.state import Rules, State

HOSTILE = "tests.helpers.hostile_bots"


def _referee_max_armies() -> tuple[list[int], Any]:
    seen: list[int] = []

    def referee(state: State, seat: int, action: object) -> None:
        seen.append(int(state.armies.max()))

    return seen, referee


def test_a_cheat_cannot_rewrite_the_live_game() -> None:
    cheat = make_bot(f"{HOSTILE}:Cheat", timeout=5)
    seen, referee = _referee_max_armies()
    try:
        out = play_game([cheat, RandomBot(), RandomBot()], seed=1, rules=Rules(cap=15),
                        observer=referee, forfeits=True, full_access=[False, True, True])
    finally:
        close_bot(cheat)
    # Its 500 armies stayed in its own process; it then answered from its fake board.
    assert max(seen) < 100
    assert "not yours" in out.forfeits[0] and out.placements[0] == 3 and out.winner != 0


def test_a_spy_sees_no_hidden_mission() -> None:
    spy = make_bot(f"{HOSTILE}:Spy", timeout=5)
    try:
        out = play_game([spy, RandomBot(), RandomBot(), RandomBot()], seed=2,
                        rules=Rules(missions=True, cap=8), forfeits=True)
    finally:
        close_bot(spy)
    assert out.forfeits == () or not out.forfeits[0]


def test_a_third_party_module_is_never_imported_by_the_engine(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RISKEVO_SANDBOX", "off")  # the module writes its evidence to tmp_path
    (tmp_path / "sneaky_bot.py").write_text(
        "import os, pathlib\n"
        f"pathlib.Path({str(tmp_path)!r}, 'pid').write_text(str(os.getpid()))\n"
        "from game.bots import RandomBot as Bot\n")
    sys.path.insert(0, str(tmp_path))
    try:
        bot = make_bot("sneaky_bot:Bot", timeout=5)
        close_bot(bot)
    finally:
        sys.path.remove(str(tmp_path))
    assert "sneaky_bot" not in sys.modules
    assert int((tmp_path / "pid").read_text()) != os.getpid()
    assert not trusted("sneaky_bot:Bot")


def test_hostile_bots_forfeit_and_the_tournament_goes_on() -> None:
    specs = [f"{HOSTILE}:Hang", f"{HOSTILE}:Raise", f"{HOSTILE}:Cheat", "continent"]
    results = run_tournament(specs, 1, per_game=4, seed=0, rules="cap=20", timeout=1.0)
    (r,) = results
    why = dict(zip(r.lineup, r.forfeits, strict=True))
    assert "BotTimeoutError" in why[0] and "killed" in why[0]
    assert "ZeroDivisionError" in why[1] or "BotTimeoutError" in why[1]
    assert why[2] and not why[3]
    rows = summarize(["hang", "raise", "cheat", "continent"], results, 4)
    assert [row.forfeits for row in rows] == [1, 1, 1, 0]
    assert r.winner == 3 and rows[3].places[0] == 1


class _Fails(RandomBot):
    """Raises at its first attack decision (an in-process bot: forfeits too)."""

    def act(self, view: Any, decision: Decision) -> Any:
        if decision.kind is DecisionKind.ATTACK:
            raise KeyError("oops")
        return super().act(view, decision)


def test_a_forfeit_places_the_bot_last_and_the_others_play_on() -> None:
    with pytest.raises(KeyError):
        play_game([_Fails(), RandomBot(), RandomBot()], seed=4, rules=Rules(cap=40))
    out = play_game([_Fails(), RandomBot(), RandomBot()], seed=4, rules=Rules(cap=40),
                    forfeits=True, transcript=True)
    assert out.forfeits[0].startswith("round 1, attack: KeyError") and out.forfeits[1:] == ("", "")
    assert out.placements[0] == 3 and sorted(out.placements[1:]) in ([1, 2], [1, 1])
    assert out.rounds > 1 and out.transcript  # the game went on with a stand-in


def test_forfeit_placements() -> None:
    assert forfeit_placements([1, 2, 3, 4], [0]) == (4, 1, 2, 3)
    assert forfeit_placements([2, 1, 1, 4], [1, 3]) == (2, 4, 1, 3)
    assert forfeit_placements([1, 1, 3], [2]) == (1, 1, 3)


def test_a_stand_in_never_changes_a_game_without_forfeits() -> None:
    a = play_game([RandomBot() for _ in range(4)], seed=9, rules=Rules(cap=30),
                  transcript=True)
    b = play_game([RandomBot() for _ in range(4)], seed=9, rules=Rules(cap=30),
                  transcript=True, forfeits=True)
    assert a == b and b.forfeits == ()



@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux")
def test_the_engine_process_is_not_dumpable_once_a_bot_is_isolated() -> None:
    import ctypes

    close_bot(make_bot(f"{HOSTILE}:Raise", timeout=5))
    assert ctypes.CDLL(None).prctl(3, 0, 0, 0, 0) == 0  # PR_GET_DUMPABLE: no /proc/PID/mem


def test_gauntlet_diagnose_and_play_record_the_forfeit(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from arena.measure.diagnose import diagnose
    from arena.measure.gauntlet import format_gauntlet, run_gauntlet
    from arena.play import main as play_main

    bad = f"{HOSTILE}:Raise"
    rows = run_gauntlet(bad, ["random"], 2, players=3, rules="cap=10", timeout=5)
    assert rows[0].row.forfeits == 2 and "ProtocolError" in rows[0].row.reasons
    assert "2x attack: ProtocolError" in format_gauntlet(rows, 3)
    lost: list[str] = []
    diagnose(bad, ["random", "random"], 1, rules="cap=10", timeout=5, forfeits=lost)
    assert len(lost) == 1 and "Raise forfeited" in lost[0]
    assert play_main([bad, "random", "--cap", "10", "--decision-timeout", "5"]) == 0
    assert "(forfeited: round 1, attack: ProtocolError" in capsys.readouterr().out
