"""Checkpoints and resume: killed runs resume bit-identical; bad checkpoints are clear errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_run import fake_plugin, tiny_args

from evolve.checkpoint import CheckpointError, checkpoint_path, list_checkpoints, load_checkpoint
from evolve.config import Config
from evolve.plugin import Plugin
from evolve.run_cmd import main as run_main

ROOT = Path(__file__).resolve().parent.parent


def slow_play_games(weights: np.ndarray, seeds: list[np.random.SeedSequence], rules: Any,
                    map: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fake game, slowed down so that a kill lands in the middle of a run."""
    from test_run import fake_play_games

    time.sleep(0.08)
    return fake_play_games(weights, seeds, rules, map)


def slow_plugin(cfg: Config) -> Plugin:
    """fake_plugin with slow games."""
    p = fake_plugin(cfg)
    return Plugin(**{**p.__dict__, "play_games": slow_play_games})


def _args(runs: Path, generations: int) -> list[str]:
    args = tiny_args(runs, "r", "--set", "game.plugin=test_resume:slow_plugin")
    args[args.index("--generations") + 1] = str(generations)
    return args


def _spawn(args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'tests'}{os.pathsep}{ROOT}"}
    return subprocess.Popen([sys.executable, "-m", "evolve", "run", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_generation(proc: subprocess.Popen[str], gen: int) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(f"gen {gen:>5}/"):
            return
    raise AssertionError(f"run ended before generation {gen}: {proc.stderr and proc.stderr.read()}")


def _final_state(runs: Path, generations: int) -> tuple[bytes, list[bytes], list[dict[str, Any]]]:
    root = runs / "r"
    ck = checkpoint_path(root / "checkpoints", generations - 1).read_bytes()
    genes = [p.read_bytes() for p in sorted((root / "genes").iterdir())]
    log = [json.loads(x) for x in (root / "log.jsonl").read_text().splitlines()]
    for r in log:  # timings differ between runs, everything else must not
        for k in ("wall_s", "games_per_s", "time_games_s", "time_rating_s", "time_overhead_s"):
            r.pop(k)
    return ck, genes, log


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_interrupted_run_resumes_bit_identical(tmp_path: Path, sig: int, capsys: Any) -> None:
    n = 9
    full, cut = tmp_path / "full", tmp_path / "cut"
    assert run_main(_args(full, n)) == 0
    proc = _spawn(_args(cut, n))
    _wait_for_generation(proc, 3)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    if sig == signal.SIGTERM:
        assert proc.returncode == 130
        assert "resume with: python -m evolve run --name r" in err
        done = list_checkpoints(cut / "r" / "checkpoints")[-1][0]
        assert 3 <= done < n - 1  # stopped cleanly after a complete generation
    else:
        assert proc.returncode == -signal.SIGKILL
    capsys.readouterr()
    assert run_main(_args(cut, n)) == 0
    assert "resuming" in capsys.readouterr().out
    assert _final_state(cut, n) == _final_state(full, n)


def test_corrupt_checkpoint_is_an_error(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    newest = list_checkpoints(tmp_path / "t" / "checkpoints")[-1][1]
    newest.write_bytes(newest.read_bytes()[:200])
    with pytest.raises(CheckpointError, match="corrupt"):
        load_checkpoint(newest)
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "10"
    capsys.readouterr()
    assert run_main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "corrupt checkpoint" in err and "\n" not in err
    # Nothing was silently restarted: the log still holds the six generations.
    assert len((tmp_path / "t" / "log.jsonl").read_text().splitlines()) == 6


def test_mismatched_config_is_an_error(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    capsys.readouterr()
    assert run_main(tiny_args(tmp_path, "t", "--set", "variation.flip_prob=0.5")) == 2
    err = capsys.readouterr().err
    assert "variation.flip_prob" in err and "0.5" in err


def test_temp_files_are_not_checkpoints(tmp_path: Path) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    folder = tmp_path / "t" / "checkpoints"
    (folder / ".ckpt_00009.npz.123.tmp").write_bytes(b"half written")
    assert list_checkpoints(folder)[-1][0] == 5
