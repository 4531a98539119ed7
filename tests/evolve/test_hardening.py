"""Issue 10 (hardening): each case a hostile tester found, with the check that would have
caught it. Cases 11 and 12 (serve) live with the protocol tests."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import evolve.checkpoint
from evolve.checkpoint import CheckpointError, checkpoint_path, list_checkpoints, load_checkpoint
from evolve.cli import evolve_command
from evolve.config import SCHEMA, ConfigError, load_config
from evolve.evolution import Evolution
from evolve.parallel import PARENT_POLL_S, Runner, WorkersLostError
from evolve.run_cmd import main as run_main
from evolve.runfolder import RunFolder, RunLockedError
from tests.helpers.fake_run import (
    ROOT,
    one_line,
    run_args,
    spawn_run,
    tiny_args,
    wait_for_generation,
)


# ----- case 8: every numeric field bounded -----
def test_every_numeric_field_has_an_upper_bound() -> None:
    for sname, fields in SCHEMA.items():
        for fname, (typ, f) in fields.items():
            if typ in (int, float):
                assert f.metadata["lo"] is not None and f.metadata["hi"] is not None, \
                    f"{sname}.{fname}"


@pytest.mark.parametrize("setting", [
    "variation.sigma_scale=1e300", "rating.mu=1e308", "rating.mu=-1e308", "rating.sigma=1e300",
    "run.population=1000000000", "run.games_per_individual=1000000000",
    "run.generations=1000000000000", "cma.sigma=1e300", "rules.cap=1000000000",
    "eval.games=1000000000", "champion.games=1000000000", "parallel.chunk_games=1000000000",
])
def test_huge_values_are_one_line_errors_before_any_work(tmp_path: Path, capsys: Any,
                                                          setting: str) -> None:
    key, value = setting.split("=")
    args = tiny_args(tmp_path, "h", "--set", setting)
    for opt, field in (("--population", "run.population"), ("--games", "run.games_per_individual"),
                       ("--generations", "run.generations"), ("--eval-games", "eval.games")):
        if key == field:  # options win over --set: change the option itself
            args[args.index(opt) + 1] = value
    assert run_main(args) == 2
    err = one_line(capsys.readouterr().err)
    assert setting.split("=")[0] in err
    assert not (tmp_path / "h").exists()


def test_population_times_games_is_bounded() -> None:
    with pytest.raises(ConfigError, match="run.games_per_individual"):
        load_config(overrides={"run.population": 100_000, "run.games_per_individual": 10_000})


def test_largest_allowed_values_run(tmp_path: Path) -> None:
    """The bounds are not just numbers: a run at the float limits completes."""
    assert run_main(tiny_args(tmp_path, "big", "--set", "variation.sigma_scale=1000",
                              "--set", "rating.mu=1e6", "--set", "rating.sigma=1e6",
                              "--set", "rating.beta=1e6", "--set", "rating.tau=1e6",
                              "--set", "champion.max_sigma=1e6")) == 0
    ck = load_checkpoint(list_checkpoints(tmp_path / "big" / "checkpoints")[-1][1])
    assert np.isfinite(ck.mu).all() and np.isfinite(ck.genes).all()


# ----- case 2: one process per run folder -----
def test_second_process_on_a_folder_is_refused_and_a_dead_lock_is_not(tmp_path: Path,
                                                                     capsys: Any) -> None:
    proc = spawn_run(run_args(tmp_path, 40))
    try:
        wait_for_generation(proc, 1)
        assert run_main(run_args(tmp_path, 40)) == 2
        err = one_line(capsys.readouterr().err)
        assert f"in use by process {proc.pid}" in err and str(tmp_path / "r") in err
    finally:
        proc.kill()  # SIGKILL: the holder cannot release its lock itself
        proc.communicate(timeout=30)
    assert (tmp_path / "r" / ".lock").exists()
    assert run_main(run_args(tmp_path, 6)) == 0
    assert "resuming" in capsys.readouterr().out


def test_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    a, b = RunFolder(tmp_path / "x"), RunFolder(tmp_path / "x")
    assert a.lock() is True
    with pytest.raises(RunLockedError, match=f"process {os.getpid()}"):
        b.lock()
    a.unlock()
    assert b.lock() is False
    b.unlock(remove_root=True)
    assert not (tmp_path / "x").exists()


# ----- case 3: a run stopped before its first checkpoint does not block its name -----
def test_run_killed_before_its_first_checkpoint_starts_again(tmp_path: Path,
                                                            capsys: Any) -> None:
    started = tmp_path / "started"
    env_before = os.environ.get("RISKEVO_TEST_STARTED")
    os.environ["RISKEVO_TEST_STARTED"] = str(started)
    try:
        proc = spawn_run(run_args(tmp_path, 6))
    finally:
        if env_before is None:
            del os.environ["RISKEVO_TEST_STARTED"]
    deadline = time.monotonic() + 60
    while not started.exists():
        assert time.monotonic() < deadline and proc.poll() is None, "generation 0 never began"
        time.sleep(0.01)
    proc.kill()
    proc.communicate(timeout=30)
    root = tmp_path / "r"
    assert (root / "config.toml").exists() and not list_checkpoints(root / "checkpoints")
    assert run_main(run_args(tmp_path, 6)) == 0
    assert "new run" in capsys.readouterr().out


# ----- case 5: temp files of cut writes -----
def test_temp_files_are_removed_on_resume(tmp_path: Path, capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    root = tmp_path / "t"
    temps = [root / "checkpoints" / ".ckpt_00006.npz.abc123.tmp",
             root / "genes" / ".gen_00006.npz.x.tmp", root / ".champion.json.y.tmp"]
    for p in temps:
        p.write_bytes(b"half written")
    keep = root / "notes.tmp"  # not one of ours: no leading dot
    keep.write_text("mine")
    capsys.readouterr()
    assert run_main(tiny_args(tmp_path, "t", "--generations", "8")) == 0
    out = capsys.readouterr().out
    assert not any(p.exists() for p in temps) and keep.exists()
    assert all(str(p) in out for p in temps)


# ----- case 6: a checkpoint's name must match its content -----
def test_renamed_checkpoint_is_refused_and_nothing_is_pruned(tmp_path: Path,
                                                             capsys: Any) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    folder = tmp_path / "t" / "checkpoints"
    before = list_checkpoints(folder)
    oldest = before[0][1]
    fake = checkpoint_path(folder, 99)
    fake.write_bytes(oldest.read_bytes())
    with pytest.raises(CheckpointError, match="name says generation 99"):
        load_checkpoint(fake)
    capsys.readouterr()
    assert run_main(tiny_args(tmp_path, "t", "--generations", "120")) == 2
    err = one_line(capsys.readouterr().err)
    assert str(fake) in err and f"generation {before[-1][0]}" in err  # the fallback hint
    assert [g for g, _ in list_checkpoints(folder)] == [g for g, _ in before] + [99]


# ----- case 10: disk full while saving -----
def test_disk_full_is_one_line_and_the_run_resumes_identically(
        tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    every = ("t", "--set", "output.checkpoint_seconds=0")  # ckpt_00003 is written
    assert run_main(tiny_args(tmp_path / "full", *every)) == 0
    real = evolve.checkpoint.atomic_write_bytes

    def full_at_3(path: Any, data: bytes) -> None:
        if Path(path).name == "ckpt_00003.npz":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)

    monkeypatch.setattr(evolve.checkpoint, "atomic_write_bytes", full_at_3)
    capsys.readouterr()
    assert run_main(tiny_args(tmp_path / "cut", *every)) == 1
    err = one_line(capsys.readouterr().err)
    assert "No space left on device" in err and "up to generation 2 are intact" in err
    assert f"resume with: {evolve_command('run --name t')}" in err
    monkeypatch.undo()
    assert run_main(tiny_args(tmp_path / "cut", *every)) == 0
    for n in (5,):
        a = checkpoint_path(tmp_path / "full" / "t" / "checkpoints", n).read_bytes()
        b = checkpoint_path(tmp_path / "cut" / "t" / "checkpoints", n).read_bytes()
        assert a == b


# ----- case 4: workers exit when the run dies -----
def _alive(pid: int) -> bool:
    """True while `pid` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def test_watchdog_ends_a_worker_whose_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", (
        "import os, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import sys, time; "
        "from evolve.parallel import watch_parent; watch_parent(int(sys.argv[1])); "
        "print(flush=True); time.sleep(120)', str(os.getpid())], stdout=subprocess.PIPE)\n"
        "child.stdout.readline()\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(120)\n")], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert _alive(child)
    parent.kill()
    parent.wait(timeout=10)
    left = _wait_gone([child], 10 * PARENT_POLL_S)
    for pid in left:  # do not leave it behind if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left


@pytest.mark.slow
def test_loky_workers_exit_after_the_run_is_killed(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    args = [*run_args(tmp_path, 40), "--n-jobs", "2", "--backend", "loky"]
    proc = spawn_run(args)
    try:
        wait_for_generation(proc, 1)
        helpers = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
        assert len(helpers) >= 2  # two workers (and loky's resource trackers)
    finally:
        proc.kill()
        proc.communicate(timeout=30)
    left = _wait_gone(helpers, 10 * PARENT_POLL_S + 5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"still running after the run was killed: {left}"


# ----- case 1: losing dask workers -----
def _slow_square(i: int) -> int:
    time.sleep(0.1)
    return i * i


@pytest.fixture
def cluster() -> Any:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as c:
        yield c


def _dask_runner(cluster: Any) -> Runner:
    cfg = load_config(overrides={"parallel.backend": "dask",
                                 "parallel.scheduler": cluster.scheduler_address})
    return Runner(cfg.parallel)


def _after(seconds: float, action: Any) -> threading.Thread:
    t = threading.Thread(target=lambda: (time.sleep(seconds), action()), daemon=True)
    t.start()
    return t


@pytest.mark.slow
def test_a_killed_dask_worker_changes_nothing(cluster: Any) -> None:
    with _dask_runner(cluster) as runner:
        with runner_client(cluster) as client:
            pids = list(client.run(os.getpid).values())
        _after(1.0, lambda: os.kill(pids[0], signal.SIGKILL))
        t0 = time.monotonic()
        assert list(runner.run((_slow_square, (i,)) for i in range(60))) == [
            i * i for i in range(60)]
        assert time.monotonic() - t0 > 1.0  # the kill landed mid-run
    assert not _alive(pids[0])


@pytest.mark.slow
def test_no_dask_worker_left_stops_within_the_timeout(cluster: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("evolve.parallel.NO_WORKER_TIMEOUT_S", 2.0)
    with _dask_runner(cluster) as runner:
        _after(1.0, lambda: cluster.scale(0))
        t0 = time.monotonic()
        with pytest.raises(WorkersLostError, match="no dask worker connected to tcp://127.0.0.1"):
            list(runner.run((_slow_square, (i,)) for i in range(600)))
        assert time.monotonic() - t0 < 30


def runner_client(cluster: Any) -> Any:
    """A second client on the cluster, to find its workers."""
    from distributed import Client

    return Client(cluster.scheduler_address, set_as_default=False)


def test_lost_workers_stop_the_run_in_one_line(tmp_path: Path, capsys: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    real = Evolution.step

    def step(self: Evolution, *args: Any) -> Any:
        if self.generation == 2:
            raise WorkersLostError("no dask worker connected to tcp://127.0.0.1:1 for 60 s")
        return real(self, *args)

    monkeypatch.setattr(Evolution, "step", step)
    assert run_main(tiny_args(tmp_path)) == 1
    err = one_line(capsys.readouterr().err)
    resume = evolve_command(f"run --name t --runs-dir {tmp_path}")
    assert err == ("error: no dask worker connected to tcp://127.0.0.1:1 for 60 s; generation 2 "
                   f"is saved; resume with: {resume}")


# ----- case 13: the documented cluster stays on a private interface -----
def test_docs_cluster_example_binds_every_process_to_an_address() -> None:
    text = (ROOT / "docs" / "distributed.md").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.startswith(("dask scheduler", "dask worker"))]
    assert any(ln.startswith("dask scheduler") for ln in lines)
    assert any(ln.startswith("dask worker") for ln in lines)
    for ln in lines:
        assert "--host 127.0.0.1" in ln and "--dashboard-address 127.0.0.1:" in ln, ln


def test_deleting_the_lock_file_does_not_unlock_a_live_folder(tmp_path: Path) -> None:
    a, b = RunFolder(tmp_path / "r"), RunFolder(tmp_path / "r")
    a.lock()
    (tmp_path / "r" / ".lock").unlink()
    with pytest.raises(RunLockedError):
        b.lock()
    a.unlock()
    assert b.lock() is False
    b.unlock()


def test_plot_temp_files_go_on_resume_and_the_refresh_watches_the_run(tmp_path: Path) -> None:
    from evolve.report.refresh import PlotRefresher

    folder = RunFolder(tmp_path / "r")
    (tmp_path / "r" / "plots").mkdir(parents=True)
    tmp = tmp_path / "r" / "plots" / ".progress.png.x1y2.tmp"
    tmp.write_bytes(b"half a png")
    folder.lock()
    assert tmp in folder.remove_temp_files() and not tmp.exists()
    folder.unlock()
    refresher = PlotRefresher(tmp_path / "r", 1)
    proc = refresher._start()
    proc.wait(timeout=120)
    assert "--parent" in proc.args and str(os.getpid()) in proc.args  # type: ignore[operator]
    # A refresh whose run is gone (its parent is not the given pid) stops at once.
    gone = subprocess.run([sys.executable, "-m", "evolve", "plot", str(tmp_path / "r"),
                           "--no-ladder", "--parent", "1"], capture_output=True, timeout=120)
    assert gone.returncode == 1 and not gone.stdout
    # A run's refresh draws below the priority of the run's games.
    from evolve.report.plots import REFRESH_NICENESS
    code = ("import os; from evolve.report.plots import main; "
            f"main([{str(tmp_path / 'r')!r}, '--no-ladder', '--parent', str(os.getppid())]); "
            "print(os.nice(0))")
    low = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert int(low.stdout.split()[-1]) == min(os.nice(0) + REFRESH_NICENESS, 19), low.stderr
