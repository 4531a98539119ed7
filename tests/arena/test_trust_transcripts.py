"""Transcripts and replays that cannot lie or swamp the server (issue 55, cases 11-14): a replay
is bounded in lines, an impossible position is refused naming its line, `explain` says when a
line is not the bot's choice, an env's penalty must be finite."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import explain
from arena.envs import seat_env
from arena.web import app as web
from features.botfile import save_genome
from features.genome import hand_set_genome
from game.bots import make_player
from game.engine import play_game
from game.record.replay import MAX_REPLAY_LINES, ReplayError, replay
from game.state import Rules


@pytest.fixture(scope="module")
def game_lines() -> list[str]:
    out = play_game([make_player("aggressive"), make_player("bully"), make_player("random")],
                    rules=Rules(cap=15), seed=4, transcript=True,
                    labels=["aggressive", "bully", "random"])
    assert out.transcript is not None
    return list(out.transcript)


def test_a_replay_is_bounded_in_lines(game_lines: list[str], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Case 11: a transcript of valid lines beyond what a replay shows is one line of error,
    before any of it is replayed (a list) or as the bound is reached (a stream)."""
    head = game_lines[:next(i for i, x in enumerate(game_lines) if x[:2] in ("r0", "r1"))]
    long = head + ["r1 s0 skip"] * (MAX_REPLAY_LINES + 1)
    path = tmp_path / "long.txt"
    path.write_text("\n".join(long) + "\n")
    assert web.main(["--replay", str(path), "--games", "", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"error: the transcript has {len(long)} lines; a replay shows at most "
                   f"{MAX_REPLAY_LINES}")
    with pytest.raises(ReplayError, match=f"line {MAX_REPLAY_LINES + 1}: a replay shows"):
        replay(iter(long))
    assert replay(long[:MAX_REPLAY_LINES]).frames  # at the bound it replays


def first_attack(lines: list[str]) -> int:
    return next(i for i, x in enumerate(lines) if " attack " in x and " v " in x)


@pytest.mark.parametrize("effects,why", [
    ("= 5 4 3 v 5 -0 -9", "these dice cost the attacker 1 and the defender 0, not 0 and 9"),
    ("= 7 v 1 -0 -1", "dice must be 1..6"),
    ("= 1 1 1 v 6 -0 -1", "dice must be 1..6, highest first|cost the attacker"),
    ("= 3 1 1 v 6 -0 -1", "cost the attacker 1 and the defender 0"),
    ("= 6 6 6 6 v 1 -0 -1", "the attacker rolls 1.."),
])
def test_an_impossible_attack_is_refused_naming_its_line(
        game_lines: list[str], effects: str, why: str) -> None:
    """Case 13: dice 1..6 and as many as the armies allow, losses as the dice give them."""
    i = first_attack(game_lines)
    lines = list(game_lines)
    lines[i] = lines[i].partition(" = ")[0] + " " + effects
    with pytest.raises(ReplayError, match=f"^line {i + 1}: cannot replay .*({why})") as e:
        replay(lines)
    assert "\n" not in str(e.value)


def test_no_replayed_territory_drops_below_one_army(game_lines: list[str]) -> None:
    """Case 13: losses the dice allow but the armies do not are refused, as are a move-in, a
    fortification and a seat the game does not have."""
    i = first_attack(game_lines)
    head, _, _ = game_lines[i].partition(" = ")
    lines = list(game_lines)
    # The defender's territory as the line found it: attack it again and again with a win.
    for k in range(4):
        lines.insert(i + 1 + k, head + " = 6 v 1 -0 -1")
    with pytest.raises(ReplayError, match=r"line \d+: cannot replay"):
        replay(lines)
    fort = next(j for j, x in enumerate(game_lines) if " fortify " in x)
    bad = list(game_lines)
    parts = bad[fort].split()
    bad[fort] = " ".join([*parts[:-1], "100000"])
    with pytest.raises(ReplayError, match=f"line {fort + 1}: .*without an army"):
        replay(bad)
    bad = list(game_lines)
    bad[i] = bad[i].replace(bad[i].split()[1], "s5", 1)
    with pytest.raises(ReplayError, match=f"line {i + 1}: .*seat s5 does not play"):
        replay(bad)


def test_explain_says_when_the_line_is_not_the_bots_choice(
        game_lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Case 12: on a line another player made, and BOT would not, a note names who made it;
    an impossible line is refused instead of explained."""
    bot = tmp_path / "champ.json"
    save_genome(bot, hand_set_genome())
    path = tmp_path / "g.txt"
    path.write_text("\n".join(game_lines) + "\n")
    notes = []
    for no, x in enumerate(game_lines, 1):
        if " attack " in x or " fortify " in x:
            assert explain.main([str(bot), "--transcript", str(path), "--line", str(no)]) == 0
            out = capsys.readouterr().out.splitlines()
            notes += [line for line in out if line.startswith("note: ")]
            if len(notes) >= 1:
                break
    assert notes, "no line on which the bot chooses otherwise"
    seat = int(x.split()[1][1:])
    player = game_lines[next(i for i, y in enumerate(game_lines) if y.startswith("seats "))
                        ].split()[1:][seat]
    assert notes[0].startswith(f"note: line {no} was played by seat {seat} (player {player}, ")
    assert "'champ' chooses otherwise there" in notes[0]
    bad = list(game_lines)
    i = first_attack(game_lines)
    bad[i] = bad[i].partition(" = ")[0] + " = 5 4 3 v 5 -0 -9"
    path.write_text("\n".join(bad) + "\n")
    assert explain.main([str(bot), "--transcript", str(path), "--line", str(i + 1)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: line {i + 1}: cannot replay") and "\n" not in err


@pytest.mark.parametrize("penalty", [float("nan"), float("inf"), float("-inf")])
def test_an_envs_illegal_penalty_must_be_finite(penalty: float) -> None:
    """Case 14."""
    with pytest.raises(ValueError, match="illegal_penalty must be a finite number"):
        seat_env(["random"], illegal_penalty=penalty)
