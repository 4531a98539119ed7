"""Tournament: even lineups with rotating seats, seeded games, a table that adds up."""

from __future__ import annotations

import csv
import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from arena.measure.tournament import (
    GameResult,
    TournamentError,
    main,
    run_tournament,
    schedule,
    summarize,
)


def test_schedule_even_and_rotating() -> None:
    lus = schedule(5, 4, 50, np.random.default_rng(0))
    combos = Counter(tuple(sorted(lu)) for lu in lus)
    assert len(combos) == 5 and set(combos.values()) == {10}
    for b in range(5):  # each bot sits in each input position equally often (±1 per combo)
        pos = Counter(lu.index(b) for lu in lus if b in lu)
        assert max(pos.values()) - min(pos.values()) <= 4
    assert all(len(set(lu)) == 4 for lu in lus)


def test_schedule_errors() -> None:
    with pytest.raises(TournamentError, match="give at least 4"):
        schedule(3, 4, 10, np.random.default_rng(0))
    with pytest.raises(TournamentError, match="--games must be >= 1"):
        schedule(4, 4, 0, np.random.default_rng(0))


def _fake(specs: tuple[str, ...], seed: int, rules: str | None, cap: int | None
          ) -> tuple[tuple[int, ...], int, int, bool]:
    """A deterministic stand-in game: 'strong' wins unless the seed says the game is capped."""
    rng = np.random.default_rng(seed)
    capped = rng.random() < 0.2
    order = sorted(range(len(specs)), key=lambda i: (specs[i] != "strong", rng.random()))
    places = [0] * len(specs)
    for k, i in enumerate(order):
        places[i] = k + 1
    return tuple(places), -1 if capped else order[0], int(rng.integers(10, 60)), capped


def test_table_sums() -> None:
    specs = ["strong", "a", "b", "c", "d"]
    res = run_tournament(specs, 40, seed=3, play_fn=_fake)
    rows = summarize(specs, res, 4)
    assert sum(r.games for r in rows) == 40 * 4
    capped_nowin = sum(1 for g in res if g.capped and g.winner < 0)
    assert capped_nowin > 0
    assert sum(r.wins for r in rows) == 40 - capped_nowin
    for r in rows:
        assert sum(r.places) == r.games
        assert r.lo <= r.win_rate <= r.hi
    assert rows[0].wins == rows[0].games - rows[0].capped  # 'strong' wins every uncapped game
    assert rows[0].mean_place == 1.0


def test_seeded_and_parallel_equal() -> None:
    specs = ["strong", "a", "b", "c"]
    one = run_tournament(specs, 12, seed=5, play_fn=_fake)
    two = run_tournament(specs, 12, seed=5, play_fn=_fake, n_jobs=2)
    assert one == two
    assert one != run_tournament(specs, 12, seed=6, play_fn=_fake)


def test_real_games_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    assert main(["random", "random", "random", "random", "--games", "4", "--cap", "5",
                 "--jobs", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "random#4" in text and "4 games" in text
    with open(out / "table.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["games"]) for r in rows] == [4, 4, 4, 4]
    assert all(int(r["capped"]) == 4 for r in rows)  # 5 rounds never finish a game
    assert sum(int(r["wins"]) for r in rows) == 0
    with Image.open(out / "table.png") as im:
        assert im.size[0] > 500


def test_game_result_maps_winner_to_bot() -> None:
    res = run_tournament(["strong", "a", "b", "c"], 8, seed=1, play_fn=_fake)
    for g in res:
        assert isinstance(g, GameResult)
        if g.winner >= 0:
            assert g.winner == 0 and g.placements[g.lineup.index(0)] == 1
    assert list(itertools.chain(*(g.lineup for g in res))).count(0) == 8


def test_cli_errors_are_one_line_on_stderr(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    for extra, part in [(["--seed", "-1"], "--seed"), (["--jobs", "0"], "--jobs"),
                        (["--rules", "fog"], "fog")]:
        assert main(["random", "random", "--games", "2", "--per-game", "2", "--out", str(out),
                     *extra]) == 2
        cap = capsys.readouterr()
        err = cap.err.strip()
        assert err.startswith("error: ") and "\n" not in err and part in err and cap.out == ""
    assert main(["random", "random", "--games", "2", "--per-game", "2", "--out",
                 "/proc/nope/t"]) == 2
    assert "--out /proc/nope/t" in capsys.readouterr().err
    assert not out.exists()


def test_a_linked_output_is_refused_before_the_games(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "table.csv").symlink_to(tmp_path / "elsewhere.csv")
    assert main(["random", "random", "--games", "1", "--per-game", "2", "--jobs", "1",
                 "--cap", "3", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "table.csv" in err and "not replaced" in err
    assert not (tmp_path / "elsewhere.csv").exists()


def test_an_os_error_during_the_games_is_not_called_a_folder_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.measure.tournament as t

    def full(*_a: object, **_k: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(t, "run_tournament", full)
    assert main(["random", "random", "--games", "1", "--per-game", "2", "--jobs", "1",
                 "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "during the games: No space left on device" in err and "cannot create" not in err
