"""Checkpoints and resume: killed runs resume bit-identical; bad checkpoints are clear errors."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evolve.checkpoint import (
    Checkpoint,
    CheckpointError,
    list_checkpoints,
    load_checkpoint,
    npz_bytes,
    restore_rng,
)
from evolve.config import BEFORE_ADDED, OUTCOMES
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import (
    final_state,
    run_args,
    spawn_run,
    tiny_args,
    wait_for_generation,
)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_interrupted_run_resumes_bit_identical(tmp_path: Path, sig: int, capsys: Any) -> None:
    n = 9
    full, cut = tmp_path / "full", tmp_path / "cut"
    assert run_main(run_args(full, n)) == 0
    proc = spawn_run(run_args(cut, n))
    wait_for_generation(proc, 3)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    if sig == signal.SIGTERM:
        assert proc.returncode == 130
        assert "python -m evolve run --name r" in err.split("resume with: ")[1]
        done = list_checkpoints(cut / "r" / "checkpoints")[-1][0]
        assert 3 <= done < n - 1  # stopped cleanly after a complete generation
    else:
        assert proc.returncode == -signal.SIGKILL
    capsys.readouterr()
    assert run_main(run_args(cut, n)) == 0
    assert "resuming" in capsys.readouterr().out
    assert final_state(cut, n) == final_state(full, n)


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


def test_a_run_from_before_an_added_field_resumes_with_its_old_value(tmp_path: Path,
                                                                      capsys: Any) -> None:
    """A run folder whose config.toml and checkpoint lack a BEFORE_ADDED field plays on with
    the value it was made with, not a changed default, and refuses another value."""
    assert run_main(tiny_args(tmp_path)) == 0
    root = tmp_path / "t"
    text = (root / "config.toml").read_text()
    assert "\noutcome = " in text
    (root / "config.toml").write_text("".join(  # as written before 0.9.0
        x for x in text.splitlines(True) if not x.startswith(("outcome = ", "riskevo_version"))))
    for _, p in list_checkpoints(root / "checkpoints"):
        ck = load_checkpoint(p)
        del ck.config["rating.outcome"]
        ck.version = None
        p.write_bytes(ck.to_bytes())
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "8"
    capsys.readouterr()
    assert run_main(args) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert ("predates version recording), before riskevo 0.9.0 added rating.outcome: the run "
            "keeps rating.outcome = 'order'") in out
    assert "after generation 5, saved by an unrecorded riskevo version" in out
    before = BEFORE_ADDED["rating.outcome"][1]
    assert f'\noutcome = "{before}"' in (root / "config.toml").read_text()
    other = next(v for v in OUTCOMES if v != before)
    capsys.readouterr()
    args[args.index("--generations") + 1] = "10"
    assert run_main([*args, "--set", f'rating.outcome="{other}"']) == 2
    err = capsys.readouterr().err
    assert "rating.outcome" in err and other in err


def test_temp_files_are_not_checkpoints(tmp_path: Path) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    folder = tmp_path / "t" / "checkpoints"
    (folder / ".ckpt_00009.npz.123.tmp").write_bytes(b"half written")
    assert list_checkpoints(folder)[-1][0] == 5


def test_folder_without_checkpoint_is_never_overwritten(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    root = tmp_path / "t"
    log_before = (root / "log.jsonl").read_bytes()
    for _, p in list_checkpoints(root / "checkpoints"):
        p.unlink()
    capsys.readouterr()
    assert run_main(tiny_args(tmp_path)) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(root) in err and "no checkpoint" in err
    assert (root / "log.jsonl").read_bytes() == log_before
    # Log lines alone (config.toml gone) are data too.
    (root / "config.toml").unlink()
    assert run_main(tiny_args(tmp_path)) == 2
    assert "log.jsonl" in capsys.readouterr().err
    assert (root / "log.jsonl").read_bytes() == log_before


def test_generation_0_logged_without_its_checkpoint_runs_again(tmp_path: Path,
                                                               capsys: Any) -> None:
    # kill -9 (or a full disk) after generation 0's log line, before its checkpoint.
    assert run_main(tiny_args(tmp_path)) == 0
    root = tmp_path / "t"
    first = (root / "log.jsonl").read_bytes().splitlines(keepends=True)[0]
    champion = (root / "champion.json").read_bytes()
    shutil.rmtree(root / "checkpoints")
    (root / "log.jsonl").write_bytes(first)
    capsys.readouterr()
    assert run_main(tiny_args(tmp_path)) == 0
    assert "dropped generation 0" in capsys.readouterr().out
    assert (root / "champion.json").read_bytes() == champion  # the same run, replayed
    assert len((root / "log.jsonl").read_bytes().splitlines()) == 6


def test_empty_folder_starts_a_run(tmp_path: Path) -> None:
    (tmp_path / "t" / "checkpoints").mkdir(parents=True)
    assert run_main(tiny_args(tmp_path)) == 0


def test_delete_hint_only_when_an_older_checkpoint_exists(tmp_path: Path) -> None:
    assert run_main(tiny_args(tmp_path, "t", "--set", "output.checkpoint_seconds=0")) == 0
    found = list_checkpoints(tmp_path / "t" / "checkpoints")
    assert len(found) == 3
    for _, p in found:
        p.write_bytes(b"\x00garbage")
    with pytest.raises(CheckpointError, match="delete it to resume from the previous one"):
        load_checkpoint(found[-1][1])
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(found[0][1])
    assert "delete it" not in str(e.value) and "no older checkpoint" in str(e.value)


def _good_checkpoint() -> Checkpoint:
    rng = np.random.default_rng(1)
    log = [{"generation": 0, "games": 4}, {"generation": 1, "games": 4}]
    return Checkpoint(generation=1, genes=rng.random((5, 3)), mu=np.full(5, 25.0),
                      sigma=np.full(5, 8.0), names=("a", "b", "c"),
                      rng_state=dict(rng.bit_generator.state), config={"run.seed": 1},
                      arrays={"hof.mu": np.array([25.0])}, format=1, log=log)


@pytest.mark.parametrize(("change", "reason"), [
    ({"log": [{"games": 4}, {"games": 4}]}, "without a generation"),
    ({"log": [{"generation": 0}]}, "log holds 1 generations"),
    ({"generation": 5}, "log holds 2 generations"),
    ({"config": ["run.seed", 1]}, "config is not a table"),
    ({"rng_state": "PCG64"}, "rng_state"),
    ({"genes": np.full((5, 3), np.nan)}, "non-finite"),
    ({"mu": np.zeros(4)}, "shapes"),
    ({"arrays": {"cma.C": np.full((2, 2), np.inf)}}, "non-finite strategy"),
])
def test_malformed_checkpoint_is_one_line_error(tmp_path: Path, change: dict[str, Any],
                                                reason: str) -> None:
    path = tmp_path / "ckpt_00001.npz"
    path.write_bytes(Checkpoint(**{**_good_checkpoint().__dict__, **change}).to_bytes())
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(path)
    msg = str(e.value)
    assert reason in msg and str(path) in msg and "\n" not in msg


@pytest.mark.parametrize("fmt", [1, 2])
def test_good_checkpoint_loads(tmp_path: Path, fmt: int) -> None:
    path = tmp_path / "ckpt_00001.npz"
    path.write_bytes(Checkpoint(**{**_good_checkpoint().__dict__, "format": fmt}).to_bytes())
    ck = load_checkpoint(path)
    assert ck.generation == 1 and ck.format == fmt and ck.arrays["hof.mu"].tolist() == [25.0]
    assert [r["generation"] for r in ck.log] == [0, 1]


def test_log_lines_lost_from_the_file_come_back_from_the_checkpoint(tmp_path: Path,
                                                                     capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    log = tmp_path / "t" / "log.jsonl"
    before = [json.loads(x) for x in log.read_text().splitlines()]
    log.write_text("\n".join(log.read_text().splitlines()[:2] + log.read_text().splitlines()[4:])
                   + "\n")
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "7"
    capsys.readouterr()
    assert run_main(args) == 0
    assert "lacks" not in capsys.readouterr().err
    after = [json.loads(x) for x in log.read_text().splitlines()]
    assert [r["generation"] for r in after] == list(range(7))
    for g in (2, 3):  # all but timings and gene statistics
        assert "time_games_s" not in after[g] and "gene_mean" not in after[g]
        assert {k: before[g][k] for k in after[g]} == after[g]


def test_log_lines_lost_from_file_and_checkpoint_are_named(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    newest = list_checkpoints(tmp_path / "t" / "checkpoints")[-1][1]
    ck = load_checkpoint(newest)
    ck.log = []  # a checkpoint without its copy of the log
    newest.write_bytes(ck.to_bytes())
    log = tmp_path / "t" / "log.jsonl"
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:2] + lines[4:]) + "\n")
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "7"
    capsys.readouterr()
    assert run_main(args) == 0
    assert "lacks 2 of the generations" in capsys.readouterr().err
    assert [json.loads(x)["generation"] for x in log.read_text().splitlines()] == \
        [0, 1, 4, 5, 6]


@pytest.mark.parametrize("content", [b"", b"plain text, not numpy", b"\x93NUMPY garbage"])
def test_garbage_file_is_called_corrupt(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "ckpt_00003.npz"
    path.write_bytes(content)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(path)
    msg = str(e.value)
    assert "corrupt checkpoint" in msg and str(path) in msg and "pickle" not in msg


def test_missing_array_is_named(tmp_path: Path) -> None:
    path = tmp_path / "ckpt_00001.npz"
    path.write_bytes(npz_bytes({"format": np.array(1)}))
    with pytest.raises(CheckpointError, match="generation"):
        load_checkpoint(path)


def test_rng_state_of_another_generator_is_an_error(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    newest = list_checkpoints(tmp_path / "t" / "checkpoints")[-1][1]
    ck = load_checkpoint(newest)
    ck.rng_state = {"bit_generator": "MT19937", "state": {"key": [1] * 624, "pos": 624}}
    newest.write_bytes(ck.to_bytes())
    with pytest.raises(CheckpointError, match="rng_state"):
        restore_rng(np.random.default_rng(0), load_checkpoint(newest), newest)
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "8"
    capsys.readouterr()
    assert run_main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(newest) in err and "rng_state" in err


def test_second_signal_in_generation_zero_leaves_a_fresh_folder(tmp_path: Path) -> None:
    # One game per chunk makes generation 0 take seconds; two signals abort it unsaved. The
    # signals wait for its first game: loading the compiled code first may take a while.
    started = tmp_path / "started"
    os.environ["RISKEVO_TEST_STARTED"] = str(started)
    try:
        proc = spawn_run([*run_args(tmp_path, 3), "--chunk-games", "1"])
    finally:
        del os.environ["RISKEVO_TEST_STARTED"]
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("new run")
    deadline = time.monotonic() + 60
    while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started.exists(), "generation 0 never started"
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "stopped before generation 0 was saved" in err
    root = tmp_path / "r"
    assert not (root / "config.toml").exists() and list_checkpoints(root / "checkpoints") == []
    args = run_args(tmp_path, 1)
    assert run_main(args) == 0  # the same name starts again instead of refusing


@pytest.mark.slow
def test_real_plugin_killed_run_resumes_bit_identical(tmp_path: Path) -> None:
    real = ["--set", "game.plugin=evolve.plugin:default_plugin", "--population", "12",
            "--games", "4", "--chunk-games", "2", "--eval-every", "5", "--eval-games", "4"]
    n = 30

    def args(runs: Path) -> list[str]:
        a = [*tiny_args(runs, "r"), *real]
        a[a.index("--generations") + 1] = str(n)
        return a

    full, cut = tmp_path / "full", tmp_path / "cut"
    assert run_main(args(full)) == 0
    proc = spawn_run(args(cut))
    wait_for_generation(proc, 5)
    proc.kill()
    proc.communicate(timeout=60)
    assert list_checkpoints(cut / "r" / "checkpoints")[-1][0] < n - 1  # really cut short
    assert run_main(args(cut)) == 0
    assert final_state(cut, n) == final_state(full, n)
