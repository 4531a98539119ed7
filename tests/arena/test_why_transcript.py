"""A transcript carries the decision records (issue 64): a finished web game's saved transcript
has, after its end line, each bot's record of why it decided (`why 1 <line> <json>`), and a
replay of that file explains what was decided, not a re-estimate. Older transcripts (no
records) still load, a record of a later version is skipped, a malformed one is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.bots import make_bot, trusted
from arena.web.httpd import RequestError
from arena.web.insight import explain_json, explain_live
from arena.web.live import LiveGame, Seat
from arena.web.routes import saved_transcript
from arena.why import line_action
from features.why import record_from_json, record_json
from game.map import classic_map
from game.record import replay as replay_module
from game.record import transcript
from game.record.replay import read_transcript, replay
from game.record.transcript import RECORD_VERSION, RecordError, records, with_records
from game.state import Rules


@pytest.fixture(scope="module")
def game() -> LiveGame:
    specs = ("champion", "strategist", "continent")
    g = LiveGame(classic_map(), Rules(cap=10), [Seat(s, make_bot(s), trusted(s), s)
                                                 for s in specs], 11)
    g.advance(1_000_000)
    assert g.over
    return g


def test_a_saved_transcript_carries_the_records_after_its_end(game: LiveGame) -> None:
    lines = list(game.transcript())
    saved = saved_transcript(game)
    assert saved[:len(lines)] == lines and lines[-1].startswith("end ")
    trailer = saved[len(lines):]
    assert len(trailer) == len(game.whys) > 50
    assert all(x.startswith(f"why {RECORD_VERSION} ") for x in trailer)
    assert len(replay(saved).frames) == len(replay(lines).frames)  # readers stop at the end
    kept = records(saved)
    assert sorted(kept) == sorted(i + 1 for i in game.whys)
    for i, why in game.whys.items():
        back = record_from_json(kept[i + 1], why.state)
        assert back.action == tuple(why.action) and back.plan == why.plan


def test_a_replay_of_the_file_explains_what_was_decided(game: LiveGame) -> None:
    saved = saved_transcript(game)
    planned = [i for i, w in game.whys.items() if w.plan is not None and w.plan.options][:12]
    plain = [i for i, w in game.whys.items() if w.plan is None][:4]
    assert len(planned) >= 5
    for i in planned + plain:
        live = explain_live(game, i + 1)
        out = explain_json("champion", saved, i + 1)  # the file alone, no live record
        assert out["recorded"] and out["note"] is None
        assert tuple(out["action"]) == line_action(saved, i + 1, game.m)
        assert (out["plain"], out["plan"], out["text"]) == (live["plain"], live["plan"],
                                                            live["text"])
    bare = explain_json("champion", list(game.transcript()), planned[0] + 1)
    assert not bare["recorded"]  # an old transcript: decided again, and it says so


def test_records_of_a_later_version_are_skipped_and_bad_ones_are_one_line(
        game: LiveGame) -> None:
    lines = list(game.transcript())
    no = next(iter(game.whys)) + 1
    assert records([*lines, f"why {RECORD_VERSION + 1} {no} {{\"new\": 1}}"]) == {}
    for bad, says in ((f"why 1 {no} [1]", "JSON object"), (f"why 1 {no} {{", "not valid JSON"),
                      (f"why 1 {no} " + "[" * 50_000, "nested too deep"),
                      (f"why 1 {len(lines) + 5} {{}}", "action line"),
                      ("whatever", "only 'why")):
        with pytest.raises(RecordError, match=says):
            records([*lines, bad])
        with pytest.raises(RequestError) as e:
            explain_json("champion", [*lines, bad], no)
        assert "\n" not in str(e.value)
    wrong = record_json(game.whys[no - 1]) | {"action": [1, 2]}
    with pytest.raises(RequestError, match="action must be 4 whole numbers"):
        explain_json("champion", [*lines, f"why 1 {no} " + json.dumps(wrong)], no)
    planned = next(i + 1 for i, w in game.whys.items() if record_json(w).get("plan"))
    huge = record_json(game.whys[planned - 1])
    huge["plan"]["weights"][0] = 10**400  # beyond a float: not finite, not a traceback
    with pytest.raises(RequestError, match="plan.weights must be a finite number"):
        explain_json("champion", [*lines, f"why 1 {planned} " + json.dumps(huge)], planned)


def test_records_past_the_file_bound_are_left_out_and_the_file_reads_back(
        game: LiveGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = list(game.transcript())
    recs = {i + 1: record_json(w) for i, w in game.whys.items()}
    full = with_records(lines, recs)
    assert len(full) - len(lines) == len(recs) > 4
    # A bound that holds the game and about half of its records: the earlier ones stay.
    game_bytes = sum(len(x) + 1 for x in lines)
    bound = game_bytes + sum(len(x) + 1 for x in full[len(lines):]) // 2
    for module in (transcript, replay_module):
        monkeypatch.setattr(module, "MAX_TRANSCRIPT_BYTES", bound)
    kept = with_records(lines, recs)
    assert full[:len(kept)] == kept and len(lines) < len(kept) < len(full)
    path = tmp_path / "t.txt"
    path.write_text("\n".join(kept) + "\n")
    assert path.stat().st_size <= bound
    assert records(read_transcript(path)) == {no: recs[no] for no in sorted(recs)[
        :len(kept) - len(lines)]}
