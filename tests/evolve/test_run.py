"""End-to-end runs of `python -m evolve run` on a tiny fake game (helpers/fake_run.py, also
loaded by subprocesses through `--set game.plugin=tests.helpers.fake_run:fake_plugin`)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evolve.checkpoint import list_checkpoints, load_checkpoint
from evolve.progress import ProgressBar
from evolve.report.refresh import PlotRefresher
from evolve.run_cmd import main as run_main
from evolve.runfolder import RunFolder
from tests.helpers.fake_run import (
    NAMES,
    tiny_args,
    untimed_log,
)

LOG_KEYS = {"generation", "wall_s", "games", "games_per_s", "capped_fraction", "mean_rounds",
            "mu_mean", "mu_std", "mu_min", "mu_max", "champion_index", "champion_mu",
            "champion_sigma", "gene_mean", "gene_std", "eval", "time_games_s", "time_rating_s",
            "time_overhead_s", "proven_generation", "playoff", "anchors", "restart", "value"}


def test_run_folder_layout(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    out = capsys.readouterr().out
    assert out.count("gen ") == 6 and "done: 6 generations" in out
    root = tmp_path / "t"
    assert (root / "config.toml").read_text().count("[run]") == 1
    log = [json.loads(x) for x in (root / "log.jsonl").read_text().splitlines()]
    assert [r["generation"] for r in log] == list(range(6))
    for r in log:
        assert set(r) == LOG_KEYS
        assert r["games"] == 8 * 8  # 8 rounds of ceil(30 / 4) groups (2 seats filled at random)
        assert set(r["gene_mean"]) == set(NAMES)
        assert r["mu_min"] <= r["champion_mu"] <= r["mu_max"]
    assert [r["eval"] is not None for r in log] == [True, False, True, False, True, False]
    ev = log[4]["eval"]
    assert ev["games"] == 40 and ev["lo"] <= ev["win_rate"] <= ev["hi"]
    assert ev["opponents"] == ["random", "greedy"]
    with np.load(root / "genes" / "gen_00005.npz") as z:
        assert z["genes"].shape == (30, 4) and tuple(z["names"]) == NAMES
        assert np.isin(z["genes"][:, 3], [-1.0, 1.0]).all()
    champ = json.loads((root / "champion.json").read_text())
    assert champ["meta"]["generation"] == 5
    # Generation 0's checkpoint and the last's (the others when 30 s have passed).
    found = [g for g, _ in list_checkpoints(root / "checkpoints")]
    assert found[0] == 0 and found[-1] == 5
    ck = load_checkpoint(root / "checkpoints" / "ckpt_00005.npz")
    assert ck.generation == 5 and ck.genes.shape == (30, 4)


def test_checkpoints_on_a_clock_hold_the_same_state(tmp_path: Path, capsys: Any) -> None:
    every, rare = tmp_path / "every", tmp_path / "rare"
    assert run_main(tiny_args(every, "t", "--set", "output.checkpoint_seconds=0")) == 0
    rare_args = tiny_args(rare, "t", "--set", "output.checkpoint_seconds=86400")
    assert run_main(rare_args) == 0
    # Default keep_checkpoints = 3: only the newest three remain.
    assert [g for g, _ in list_checkpoints(every / "t" / "checkpoints")] == [3, 4, 5]
    assert [g for g, _ in list_checkpoints(rare / "t" / "checkpoints")] == [0, 5]
    last = every / "t" / "checkpoints" / "ckpt_00005.npz"
    cut = rare / "t" / "checkpoints" / "ckpt_00005.npz"
    assert cut.read_bytes() == last.read_bytes()
    # A kill before the last write: the resume plays generations 1-5 again, the same games.
    cut.unlink()
    capsys.readouterr()
    assert run_main(rare_args) == 0
    assert "after generation 0" in capsys.readouterr().out
    assert cut.read_bytes() == last.read_bytes()
    logs = [untimed_log(r / "t") for r in (every, rare)]
    assert logs[0] == logs[1] and len(logs[0]) == 6


def test_selection_pushes_strength_up(tmp_path: Path) -> None:
    """In the fake game a + b is strength: evolution must raise it and mu must track it."""
    args = tiny_args(tmp_path, "sel")
    args[args.index("--generations") + 1] = "12"
    assert run_main(args) == 0
    root = tmp_path / "sel"
    with np.load(root / "genes" / "gen_00000.npz") as z0, \
            np.load(root / "genes" / "gen_00011.npz") as z1:
        s0 = (z0["genes"][:, 0] + z0["genes"][:, 1]).mean()
        s1 = (z1["genes"][:, 0] + z1["genes"][:, 1]).mean()
        assert s1 > s0 + 0.5
        strength = z0["genes"][:, 0] + z0["genes"][:, 1]
        assert np.corrcoef(strength, z0["mu"])[0, 1] > 0.7


def test_rerun_complete_and_extend(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    assert run_main(tiny_args(tmp_path)) == 0
    assert "already has 6 generations" in capsys.readouterr().out
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "8"
    assert run_main(args) == 0
    log = (tmp_path / "t" / "log.jsonl").read_text().splitlines()
    assert [json.loads(x)["generation"] for x in log] == list(range(8))


def test_bad_option_is_one_line_error(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path, "bad", "--set", "run.group_size=40")) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "run.group_size" in err
    assert not (tmp_path / "bad").exists()


def test_progress_bar_quiet_off_tty() -> None:
    buf = io.StringIO()
    bar = ProgressBar("gen 0", stream=buf)
    bar.update(10, 100)
    bar.close()
    assert buf.getvalue() == ""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    bar = ProgressBar("gen 0", stream=tty)
    bar.update(50, 100)
    assert "50/100 games" in tty.getvalue() and "ETA" in tty.getvalue()


def test_invalid_opponents_leave_no_folder(tmp_path: Path, capsys: Any) -> None:
    # eval.every = 0 too: a later resume may turn the evaluation on.
    for every in ("2", "0"):
        args = tiny_args(tmp_path, "opp", "--set", "eval.opponents=['nobot']",
                         "--eval-every", every)
        assert run_main(args) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and "eval.opponents" in err and "'nobot'" in err
        assert not (tmp_path / "opp").exists()


def _tiny_map(tmp_path: Path) -> Path:
    """Three territories in two continents: no classic continents for missions."""
    p = tmp_path / "tiny.json"
    p.write_text(json.dumps({
        "name": "tiny",
        "continents": [{"name": "X", "bonus": 1, "territories": ["A", "B"]},
                       {"name": "Y", "bonus": 2, "territories": ["C"]}],
        "borders": [["A", "B"], ["B", "C"]]}), encoding="utf-8")
    return p


def test_rules_the_map_cannot_play_are_config_errors(tmp_path: Path, capsys: Any) -> None:
    """The real plug-in checks rules against the board before any folder exists."""
    base = ["--runs-dir", str(tmp_path), "--population", "8", "--n-jobs", "1",
            "--set", "run.elite=1", "--set", f"game.map={_tiny_map(tmp_path)}"]
    assert run_main(["--name", "m", *base, "--group-size", "2",
                     "--set", "rules.missions=true"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "rules.missions" in err and "game.map" in err
    assert run_main(["--name", "m", *base, "--group-size", "4"]) == 2  # 4 players, 3 territories
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "run.group_size = 4" in err and "territories" in err
    assert run_main(["--name", "b", *base, "--set", f"game.map={tmp_path / 'none.json'}"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "game.map" in err and "none.json" in err
    assert not (tmp_path / "m").exists() and not (tmp_path / "b").exists()


def test_a_resume_draws_final_plots_a_kill_cut_short(tmp_path: Path,
                                                     capsys: Any) -> None:
    # The last flag wins: plots after generations 0 and 5, the last one (else at the end).
    args = tiny_args(tmp_path, "cut", "--set", "output.plot_every=5")
    assert run_main(args) == 0
    plots = tmp_path / "cut" / "plots"
    assert (plots / "progress.png").stat().st_size > 0
    assert (plots / "all_genes.png").stat().st_size > 0
    assert (plots / "drawn.txt").read_text().strip() == "5"
    # A kill while drawing the final plots: some files never written, no stamp.
    (plots / "drawn.txt").unlink()
    (plots / "progress.png").unlink()
    capsys.readouterr()
    assert run_main(args) == 0
    assert "drawing the final plots" in capsys.readouterr().out
    assert (plots / "progress.png").stat().st_size > 0 and (plots / "drawn.txt").exists()
    assert run_main(args) == 0  # all drawn now: nothing to do
    assert "drawing the final plots" not in capsys.readouterr().out


@pytest.mark.parametrize("started_after, drawn, draws", [
    (5, 5, 0),   # the refresh after the last generation drew it all: no second drawing
    (5, -1, 1),  # it was cut short
    (4, 5, 1),   # a stamp from an older drawing (a run cut back) is not this refresh's
    (-1, 5, 1),  # no refresh started in this run
])
def test_the_end_draws_unless_the_last_refresh_drew_the_end(
        tmp_path: Path, monkeypatch: Any, started_after: int, drawn: int, draws: int) -> None:
    folder = RunFolder(tmp_path / "r")
    folder.plots.mkdir(parents=True)
    if drawn >= 0:
        folder.mark_drawn(drawn)
    started: list[int] = []
    refresher = PlotRefresher(folder.root, 5)
    monkeypatch.setattr(refresher, "_start", lambda: started.append(1) or _Done())
    refresher.started_after = started_after
    refresher.finish(True, 5)
    assert len(started) == draws
    refresher.finish(False, 5)  # a stopped run never draws at the end
    assert len(started) == draws


class _Done:
    def wait(self) -> int:
        return 0


def test_a_new_run_named_like_an_existing_one_says_so(tmp_path: Path) -> None:
    """`make evolve RUN=...` with a digit missing started a new night instead of resuming one:
    the new run's first line now names the near ones (it still starts: a name is a name)."""
    from evolve.run_cmd import _near_names

    for name in ("run-20261202-141345", "other", "notarun"):
        (tmp_path / name).mkdir()
    for name in ("run-20261202-141345", "other"):
        (tmp_path / name / "config.toml").write_text("")
    assert "resume one of run-20261202-141345" in _near_names(tmp_path / "run-20261202-14134")
    assert _near_names(tmp_path / "fresh") == ""
    assert _near_names(tmp_path / "notarun2") == ""  # a folder without a run is no run


def test_a_stopped_run_keeps_the_genes_of_its_last_generation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """A run stopped between genes files (every `output.genes_every`) kept none of its last
    generation, so its plots and `export --gen` ended earlier than the run."""
    import os
    import signal

    from evolve.evolution import Evolution
    from tests.helpers.fake_run import tiny_args

    real = Evolution.save

    def save(self: Evolution, gen: Any) -> None:
        real(self, gen)
        if self.generation == 13:
            os.kill(os.getpid(), signal.SIGTERM)  # stop after this generation

    monkeypatch.setattr(Evolution, "save", save)
    args = [*tiny_args(tmp_path), "--set", "output.genes_every=10"]
    args[args.index("--generations") + 1] = "30"
    assert run_main(args) == 130
    assert "stopped after generation 13" in capsys.readouterr().err
    genes = tmp_path / "t" / "genes"
    assert (genes / "gen_00013.npz").is_file() and not (genes / "gen_00012.npz").exists()
