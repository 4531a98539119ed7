"""Golden transcripts: seeded 4-player games, diffed line by line each run.

`golden_4p.txt` is a game of RandomBots (the rules); `golden_bots.txt` a game of four baseline
bots (their decisions stay the same when their code is made faster).

The version line is left out of both (it names the installed release, not the game); a
transcript from before the version and player lines is kept as `transcript_before_version.txt`.

The file is never rewritten by the test. After an intended change of the rules or the
transcript format, regenerate it from the repository root and review the diff:

    .venv/bin/python -m tests.game.test_golden --regen
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

from game import Rules, parse_action, play_game
from game.bots import BOTS, RandomBot
from game.map import classic_map
from tests.helpers.traces import first_change, trace_lines, trace_rows

GOLDEN = Path(__file__).parents[1] / "data" / "golden_4p.txt"
GOLDEN_BOTS = Path(__file__).parents[1] / "data" / "golden_bots.txt"
BOT_SEATS = ("continent", "distributor", "bully", "border_patrol")
SEED = 20240611
RULES = Rules(cap=25)  # long enough for trades, conquests and cards; short enough to review


def _unversioned(lines: tuple[str, ...] | None) -> tuple[str, ...]:
    assert lines is not None and lines[1].startswith("version ")
    return lines[:1] + lines[2:]


def golden_game() -> tuple[str, ...]:
    """The transcript of the golden game (without its version line)."""
    o = play_game([RandomBot() for _ in range(4)], seed=SEED, rules=RULES, transcript=True)
    return _unversioned(o.transcript)


def golden_bots_game() -> tuple[str, ...]:
    """The transcript of the baseline bots' golden game (without its version line)."""
    o = play_game([BOTS[n]() for n in BOT_SEATS], seed=SEED, rules=Rules(cap=60),
                  transcript=True)
    return _unversioned(o.transcript)


def _diff(path: Path, got: list[str]) -> None:
    changed = first_change(path.read_text(encoding="utf-8").splitlines(), got, path.name)
    assert not changed, (f"{changed}\n(after an intended change, regenerate with: "
                         "python -m tests.game.test_golden --regen)")


def test_a_changed_game_names_its_first_changed_move() -> None:
    m = classic_map()
    rows = np.array([[0, 0, 5, 1, 0], [1, 3, 5, 6, 3], [1, 4, 0, 0, 0]], dtype=np.int64)
    lines = trace_lines(rows, m)
    assert lines[1] == f"s1 attack {m.territories[5].replace(' ', '_')} " \
                       f"{m.territories[6].replace(' ', '_')} 3"
    assert np.array_equal(trace_rows(lines, m), rows)
    changed = first_change(lines, [lines[0], lines[2]], "g")
    assert changed.startswith("g: the first changed move is line 2") and "-s1 attack" in changed
    assert first_change(lines, lines, "g") == ""


def test_golden_transcript() -> None:
    _diff(GOLDEN, list(golden_game()))


def test_golden_bots_transcript() -> None:
    _diff(GOLDEN_BOTS, list(golden_bots_game()))


def test_round_stamps_change_only_between_turns() -> None:
    # A seat's lines of one turn share its round; the round goes up by one at most, and only
    # when the turn passes to another seat (the last action of a round is not stamped with the
    # next one, nor the last initial placement with round 1).
    stamps = [(int(m.group(1)), int(m.group(2))) for line in golden_game()
              if (m := re.match(r"^r(\d+) s(\d+) ", line))]
    assert stamps[0][0] == 0
    for (r0, s0), (r1, s1) in itertools.pairwise(stamps):
        assert r1 - r0 in (0, 1), (r0, s0, r1, s1)
        if s1 == s0:
            assert r1 == r0, (r0, s0, r1, s1)


def test_golden_game_covers_the_rules() -> None:
    text = "\n".join(golden_game())
    for what in (" trade ", " conquers", " card ", " fortify ", " move ", " stop", " skip"):
        assert what in text, what


def test_action_lines_parse_back() -> None:
    m = classic_map()
    n = 0
    for line in golden_game():
        if not re.match(r"r(\d+|-) s\d+ ", line):
            continue
        parts = line.split()
        if parts[2] in ("eliminates", "card"):
            continue
        action_text = " ".join(parts[2:]).split(" = ")[0]
        assert parse_action(action_text, m).text(m) == action_text
        n += 1
    assert n > 500


def regenerate() -> None:
    """Write the golden files atomically (temp file in the same folder, then os.replace)."""
    for path, game in ((GOLDEN, golden_game), (GOLDEN_BOTS, golden_bots_game)):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".golden-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write("\n".join(game()) + "\n")
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        print(f"wrote {path}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regen"]:
        sys.exit("usage: python -m tests.game.test_golden --regen")
    regenerate()
