"""The yardstick's results reader, the rank correlation, and the opponent rotation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evolve.bench import yardstick
from evolve.bench.yardstick import YardError, ranks, read_yard, spearman, yard_rate
from evolve.rotation import rotated_opponents


def test_read_yard_sums_batches_per_label(tmp_path: Path) -> None:
    f = tmp_path / "results"
    f.write_text("s4-crown850 hard seed=1 games=100 wins=31\n"
                 "a line the queue wrote about itself\n"
                 "s4-crown850 hard seed=2 games=50 wins=14\n"
                 "s3-g1050 hard games=200 wins=60 extra=1\n")
    yard = read_yard(f)
    assert yard == {"s4-crown850": (45, 150), "s3-g1050": (60, 200)}
    assert yard_rate(yard, "s3-g1050") == 0.3
    with pytest.raises(YardError, match="nope: no yardstick games"):
        yard_rate(yard, "nope")


def test_read_yard_refuses_what_it_cannot_trust(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(YardError, match=r"missing: cannot read the yardstick results"):
        read_yard(tmp_path / "missing")
    f = tmp_path / "results"
    f.write_text("x games=10 wins=11\n")
    with pytest.raises(YardError, match="x has 11 wins in 10 games"):
        read_yard(f)
    monkeypatch.setattr(yardstick, "MAX_RESULTS", 8)
    with pytest.raises(YardError, match="larger than 8 bytes"):
        read_yard(f)


def test_ranks_average_ties() -> None:
    assert ranks([3.0, 1.0, 3.0, 2.0]).tolist() == [2.5, 0.0, 2.5, 1.0]


def test_spearman_against_the_textbook_formula() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.permutation(12).astype(float), rng.permutation(12).astype(float)
    d = ranks(a) - ranks(b)
    n = len(a)
    assert spearman(a, b) == pytest.approx(1 - 6 * float((d ** 2).sum()) / (n * (n * n - 1)))
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


@pytest.mark.parametrize(("a", "b", "says"), [
    ([1.0], [2.0], "same >= 2 players"), ([1.0, 2.0], [1.0, 2.0, 3.0], "same >= 2 players"),
    ([1.0, float("nan")], [1.0, 2.0], "finite"), ([1.0, 1.0], [1.0, 2.0], "the same for every"),
])
def test_spearman_refuses_what_has_no_rank_order(a: list[float], b: list[float],
                                                 says: str) -> None:
    with pytest.raises(YardError, match=says):
        spearman(a, b)


def test_rotation_seats_every_bot_equally_often() -> None:
    assert rotated_opponents(("a", "b", "c"), 4, 3) == [("a", "b", "c"), ("a", "b", "c"),
                                                        ("a", "b", "c"), ("a", "b", "c")]
    six = ("c", "p", "h", "d", "b", "s")
    lineups = rotated_opponents(six, 6, 3)
    assert lineups[:2] == [("c", "p", "h"), ("d", "b", "s")]
    seated = [b for x in rotated_opponents(six, 12, 3) for b in x]
    assert sorted(seated) == sorted(six * 6)
    with pytest.raises(ValueError, match="at least one bot"):
        rotated_opponents((), 3, 3)
