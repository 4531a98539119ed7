"""Gauntlet: the bot against copies of each opponent, its row per opponent, seeded."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from arena.measure.gauntlet import gauntlet_mean, main, run_gauntlet


def _fake(specs: tuple[str, ...], seed: int, rules: str | None, cap: int | None
          ) -> tuple[tuple[int, ...], int, int, bool]:
    """A stand-in game: 'strong' always wins; otherwise a seeded random winner."""
    rng = np.random.default_rng(seed)
    order = sorted(range(len(specs)), key=lambda i: (specs[i] != "strong", rng.random()))
    places = [0] * len(specs)
    for k, i in enumerate(order):
        places[i] = k + 1
    return tuple(places), order[0], 20, False


def test_rows_per_opponent_count_the_bot_only() -> None:
    rows = run_gauntlet("strong", ["a", "b"], 30, seed=1, play_fn=_fake)
    assert [g.opponent for g in rows] == ["a", "b"]
    for g in rows:
        assert g.row.games == 30 and g.row.wins == 30 and g.row.win_rate == 1.0
        assert g.row.lo < 1.0 == g.row.hi
    weak = run_gauntlet("a", ["strong"], 30, seed=1, play_fn=_fake)[0].row
    assert weak.wins == 0 and weak.mean_place > 1.0


def test_seeded_and_independent_of_other_opponents() -> None:
    one = run_gauntlet("x", ["a", "b"], 40, seed=5, play_fn=_fake)
    two = run_gauntlet("x", ["a", "b"], 40, seed=5, play_fn=_fake)
    assert one == two
    # The first opponent block's games do not change when another opponent is added.
    assert run_gauntlet("x", ["a"], 40, seed=5, play_fn=_fake)[0] == one[0]
    assert 0 < one[0].row.wins < 40


def test_mean_counts_each_opponent_once() -> None:
    rows = run_gauntlet("x", ["a", "b", "strong"], 40, seed=5, play_fn=_fake)
    rates = [g.row.win_rate for g in rows]
    assert rates[2] == 0.0 and rates[0] != rates[1]
    assert gauntlet_mean(rows) == pytest.approx(sum(rates) / 3)
    assert gauntlet_mean(run_gauntlet("strong", ["a", "b"], 30, seed=1, play_fn=_fake)) == 1.0


def test_real_games_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g"
    assert main(["aggressive", "--opponents", "bully", "--games", "6", "--jobs", "1",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "3x bully" in text and "par 0.250" in text
    rows = list(csv.DictReader((out / "gauntlet.csv").open()))
    assert f"mean win rate {float(rows[0]['win_rate']):.3f} over 1 opponent " in text
    assert rows[0]["opponent"] == "3x bully" and rows[0]["games"] == "6"
    assert (out / "gauntlet.png").stat().st_size > 0


def test_bad_opponent_is_one_line_error(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["aggressive", "--opponents", "nosuchbot", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "nosuchbot" in err and "\n" not in err
