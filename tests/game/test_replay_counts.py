"""Every count a transcript records is held to the rules when it is replayed (issue 65, R1): a
placement of 400 armies on an income of 4 replayed and was shown as a 417-army territory,
where the docs promise an impossible position is never shown. A trade's armies and its
territory bonus are held to the rules too (else a trade for 400 would make the same)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.record.replay import ReplayError, read_transcript, replay

GOLDEN = Path(__file__).parents[1] / "data" / "golden_4p.txt"


def _with(first: str, new: str) -> tuple[list[str], int]:
    """The golden 4-player transcript with the first line that starts with `first` replaced,
    and that line's number."""
    lines = read_transcript(GOLDEN)
    k = next(i for i, x in enumerate(lines) if x.startswith(first))
    lines[k] = new
    return lines, k + 1


def test_the_golden_games_counts_all_replay() -> None:
    rep = replay(read_transcript(GOLDEN))
    assert rep.result.startswith("end ")


@pytest.mark.parametrize(("first", "line", "says"), [
    # r1 s0's first placement, on an income of 3 (11 territories, no continent).
    ("r1 s0 place Yakutsk", "r1 s0 place Yakutsk 400", "places 400: s0 has 3 armies left"),
    # Its third placement, after 1 and 1: 1 left.
    ("r1 s0 place Peru", "r1 s0 place Peru 2", "places 2: s0 has 1 armies left"),
    # The setup places one army a decision.
    ("r0 s2 place India", "r0 s2 place India 2", "places 2: s2 has 1 armies left"),
    # After a trade for 4: its income of 8 and the 4 (it placed 1, 8, 1, 1, 1).
    ("r5 s2 place Egypt", "r5 s2 place Egypt 99", "places 99: s2 has 12 armies left"),
    # The game's first set: worth 4 (escalating values), not what the line says.
    ("r5 s2 trade", "r5 s2 trade 15 27 36 = 40", "this set is worth 4 armies now, not 40"),
    # The +2 goes on a territory a traded card shows (Scandinavia, Siberia, Afghanistan).
    ("r7 s0 trade", "r7 s0 trade 14 26 29 = 6 bonus Peru",
     "the +2 goes on a territory a traded card shows, not Peru"),
    ("r1 s0 move", "r1 s0 move 5", "leaves at least 1 army behind"),
    ("r1 s1 fortify", "r1 s1 fortify Eastern_Australia New_Guinea 40",
     "would leave it without an army"),
])
def test_an_impossible_count_is_a_one_line_error(first: str, line: str, says: str) -> None:
    lines, no = _with(first, line)
    with pytest.raises(ReplayError) as e:
        replay(lines)
    assert "\n" not in str(e.value) and f"line {no}: " in str(e.value)
    assert says in str(e.value), str(e.value)
