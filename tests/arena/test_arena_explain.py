"""`arena explain`: a seeded game's decision and a transcript line, as text and JSON; bad input is
one line naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from arena.explain import from_transcript, main
from features.botfile import save_genome
from features.explain import KINDS
from features.genome import LAYOUT, hand_set_genome, random_genomes
from features.linear import LinearPlayer
from game.actions import parse_action
from game.bots import make_player
from game.engine import play_game
from game.map import classic_map
from game.rules import layout as L
from game.state import Rules
from tests.helpers.linear import Recorder


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bots") / "champ.json"
    save_genome(path, hand_set_genome())
    return path


def test_a_seeded_decision_is_the_one_the_bot_made(bot: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    everyone: list[tuple[int, ...]] = []
    recorder = Recorder(hand_set_genome(), everyone)
    play_game([recorder, make_player("random"), make_player("random")], seed=3,
              rules=Rules(cap=10))
    log = [r[1:] for r in everyone]  # the bot's (kind, a, b, c): the only linear seat
    n = next(i for i, a in enumerate(log, 1) if a[0] == L.A_ATTACK)
    assert main([str(bot), "random", "random", "--seed", "3", "--cap", "10", "--decision",
                 str(n), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["decision"] == n and doc["explanation"]["kind"] == "attack"
    assert tuple(doc["explanation"]["action"]) == log[n - 1]
    assert main([str(bot), "random", "random", "--seed", "3", "--cap", "10", "--decision",
                 str(n)]) == 0
    text = capsys.readouterr().out
    assert f"decision {n}" in text and "champ, attack: " in text and "threshold" in text


def test_by_round_and_kind(bot: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(bot), "random", "--seed", "1", "--round", "2", "--kind", "fortify",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["round"] == 2 and doc["explanation"]["kind"] == "fortify"


@pytest.mark.parametrize("rules", [Rules(cap=8), Rules(cap=8, missions=True, trade_at=4,
                                                       path_fortify=True)])
def test_every_transcript_line_of_the_bot_is_explained_as_played(
        tmp_path: Path, rules: Rules) -> None:
    # Rebuilt positions are right where it matters: at each of the bot's own lines, the bot's
    # explanation gives the very action the line records.
    w = random_genomes(LAYOUT, 1, np.random.default_rng(11))[0]
    path = tmp_path / "bot.json"
    save_genome(path, w)
    out = play_game([LinearPlayer(w), make_player("continent"), make_player("random")], seed=9,
                    rules=rules, transcript=True)
    assert out.transcript is not None
    lines = list(out.transcript)
    (tmp_path / "game.txt").write_text("\n".join(lines) + "\n")
    seat = out.seats.index(0)
    kinds, checked = set(), 0
    for no, line in enumerate(lines, 1):
        parts = line.split(" ", 2)
        if (len(parts) < 3 or parts[1] != f"s{seat}" or not parts[0].startswith("r")
                or parts[2].startswith(("card", "eliminates"))):
            continue
        ex, where = from_transcript(str(path), str(tmp_path / "game.txt"), no)
        played = parse_action(parts[2].partition(" = ")[0], classic_map()).encode()
        assert tuple(ex["action"]) == played and ex["note"] is None, (no, line)
        assert where["played"] == line
        kinds.add(ex["explanation"]["kind"])
        checked += 1
    assert checked > 50 and kinds >= set(KINDS) - {"trade"}


def test_another_seats_line_gets_the_bots_view(bot: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = play_game([make_player("random"), make_player("random")], seed=2,
                    rules=Rules(cap=5), transcript=True)
    assert out.transcript is not None
    path = tmp_path / "g.txt"
    path.write_text("\n".join(out.transcript) + "\n")
    no = next(i for i, x in enumerate(out.transcript, 1) if " attack " in x)
    assert main([str(bot), "--transcript", str(path), "--line", str(no)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"# transcript {path}, line {no}, played r")
    assert ", attack: " in text


@pytest.mark.parametrize("argv,field", [
    (["random", "random", "--seed", "1", "--decision", "1"], "BOT must be a riskevo bot file"),
    (["BOT", "random", "--seed", "1", "--round", "1", "--kind", "dance"], "--kind must be one of"),
    (["BOT", "random", "--seed", "1", "--decision", "0"], "--decision must be 1.."),
    (["BOT", "random", "--seed", "1"], "name the decision with one of --decision N or --round"),
    (["BOT", "random", "--decision", "1", "--round", "1"], "name the decision with one of"),
    (["BOT", "random", "--seed", "1", "--decision", "100000"], "--decision 100000: BOT made"),
    (["BOT", "--transcript", "TX", "--line", "999"], "--line must be 1.."),
    (["BOT", "--transcript", "TX", "--line", "2"], "--line 2: not a decision line"),
    (["BOT", "--transcript", "missing.txt", "--line", "2"], "missing.txt"),
    (["BOT", "random", "--transcript", "TX", "--line", "9"], "--transcript takes one BOT"),
    (["BOT", "random", "--line", "9", "--decision", "1"], "--line needs --transcript"),
    (["BOT", "--transcript", "TX", "--line", "2", "--cap", "3"], "--cap cannot change them"),
    (["BOT", "random", "--seed", "-1", "--decision", "1"], "--seed must be 0..9223372036854775807"),
])
def test_bad_input_is_one_line_naming_the_field(
        bot: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        field: str) -> None:
    tx = tmp_path / "t.txt"
    out = play_game([make_player("random"), make_player("random")], seed=1,
                    rules=Rules(cap=2), transcript=True)
    assert out.transcript is not None
    tx.write_text("\n".join(out.transcript) + "\n")
    argv = [str(bot) if a == "BOT" else str(tx) if a == "TX" else
            str(tmp_path / a) if a == "missing.txt" else a for a in argv]
    short = [] if "--transcript" in argv else ["--cap", "3"]  # a transcript's cap is its own
    assert main([*short, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and field in err, err
