"""A why?'s position kept between questions (`Positions`) is the one a fresh replay of the whole
transcript gives, whatever order the lines are asked in and however the transcript grew."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from game.bots import BOTS
from game.engine import play_game
from game.record.position import Positions, position_at
from game.record.replay import ReplayError, replay
from game.record.replay_board import Frame
from game.state import Rules


def _lines(seed: int) -> tuple[str, ...]:
    out = play_game([BOTS[b]() for b in ("aggressive", "continent", "bully")],
                    rules=Rules(cap=30), seed=seed, transcript=True)
    assert out.transcript is not None
    return out.transcript


def _decisions(lines: tuple[str, ...]) -> list[int]:
    return [i for i, x in enumerate(lines, 1) if x[:1] == "r" and x[1:2].isdigit()
            and x.split()[2] not in ("card", "eliminates")]


@functools.cache
def _frames(lines: tuple[str, ...]) -> list[Frame]:
    return replay(lines).frames  # one fresh replay a transcript, asked many times


def _expected(lines: tuple[str, ...], no: int) -> tuple[list[int], list[int]]:
    before = [f for f in _frames(lines) if f.index < no - 1][-1]
    return before.owner, before.armies


def test_kept_positions_are_a_fresh_replays_in_any_order() -> None:
    lines = _lines(5)
    asked = _decisions(lines)
    rng = np.random.default_rng(1)
    order = [*asked[::7], *rng.choice(asked, 40).tolist(), asked[-1], asked[0]]
    kept = Positions()
    for no in order:
        st, _, _, line = position_at(lines, no, kept)
        assert line == lines[no - 1]
        assert (st.owner.tolist(), st.armies.tolist()) == _expected(lines, no), no


def test_a_growing_transcript_then_another_one() -> None:
    lines, other = _lines(6), _lines(7)
    kept = Positions()
    asked = _decisions(lines)
    for cut in (asked[10], asked[len(asked) // 2], len(lines)):  # the live game's log so far
        so_far = lines[:cut]
        no = _decisions(so_far)[-1]
        st, *_ = position_at(so_far, no, kept)
        assert (st.owner.tolist(), st.armies.tolist()) == _expected(lines, no)
    early = asked[10]
    position_at(lines, early, kept)
    no = next(i for i in _decisions(other) if i > early)  # further on, but in other lines
    st, *_ = position_at(other, no, kept)
    assert (st.owner.tolist(), st.armies.tolist()) == _expected(other, no)


def test_a_bad_line_is_named_and_the_next_question_is_answered() -> None:
    """A line that cannot be replayed is refused, the asked one included."""
    lines = list(_lines(8))
    no = _decisions(tuple(lines))[40]
    bad = [*lines[:no - 3], "r1 s0 attack Nowhere -> Alaska", *lines[no - 2:]]
    kept = Positions()
    with pytest.raises(ReplayError, match=f"line {no - 2}"):
        position_at(bad, no, kept)
    st, *_ = position_at(lines, no, kept)
    assert (st.owner.tolist(), st.armies.tolist()) == _expected(tuple(lines), no)
    attack = next(i for i in _decisions(tuple(lines)) if i > no and " attack " in lines[i - 1])
    bad = list(lines)
    bad[attack - 1] = bad[attack - 1].partition(" = ")[0] + " = 5 4 3 v 5 -0 -9"
    with pytest.raises(ReplayError, match=f"line {attack}"):  # the asked line is replayed too
        position_at(bad, attack, kept)
