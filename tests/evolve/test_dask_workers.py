"""A dask run that loses its only worker waits for another and replays the lost chunks, or
stops with one line and the resume command (docs/distributed.md, issue 55 case 10)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evolve import parallel
from evolve.config import load_config
from evolve.parallel import Runner
from evolve.run_cmd import main as run_main
from tests.helpers.dask_tasks import square_and_pid
from tests.helpers.fake_run import tiny_args

ROOT = Path(__file__).resolve().parents[2]  # the checkout
pytest.importorskip("distributed", reason="the dask extra is part of `make venv`")


def _worker(address: str) -> subprocess.Popen[bytes]:
    """A `dask worker` without a nanny (a kill -9 ends it for good), able to import
    tests.helpers (the checkout on its path, never tests/ itself: tests/game is not `game`)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
         "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture
def scheduler() -> Iterator[str]:
    """A local scheduler with no worker of its own."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _wait_for_a_worker(address: str) -> None:
    from distributed import Client

    with Client(address, timeout=30) as client:
        client.wait_for_workers(1, timeout=60)


def _kill(worker: subprocess.Popen[bytes]) -> None:
    worker.send_signal(signal.SIGKILL)
    worker.wait()


def test_a_lost_worker_is_waited_for_and_its_tasks_played_again(
        scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "NO_WORKER_TIMEOUT_S", 25.0)
    cfg = load_config(overrides={"parallel.backend": "dask", "parallel.scheduler": scheduler})
    first = _worker(scheduler)
    workers = [first]
    try:
        with Runner(cfg.parallel) as runner:
            got = []
            for k, (v, pid) in enumerate(runner.run((square_and_pid, (i,)) for i in range(12))):
                got.append(v)
                if k == 1:  # mid-run: the only worker dies, a new one comes 1 s later
                    assert pid == first.pid
                    _kill(first)
                    time.sleep(1.0)
                    workers.append(_worker(scheduler))
            assert got == [i * i for i in range(12)]  # what an undisturbed run gives
            # Between two runs: no worker for longer than joblib's own 10 s wait.
            _kill(workers[-1])
            later = threading.Timer(11.0, lambda: workers.append(_worker(scheduler)))
            later.start()
            again = [v for v, _ in runner.run((square_and_pid, (i,)) for i in range(4))]
            later.join()
            assert again == [0, 1, 4, 9]
    finally:
        for w in workers:
            _kill(w)


def test_no_worker_within_the_wait_is_one_line_and_the_resume_command(
        scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: Any) -> None:
    monkeypatch.setattr(parallel, "NO_WORKER_TIMEOUT_S", 2.0)
    worker = _worker(scheduler)
    _wait_for_a_worker(scheduler)
    log = tmp_path / "t" / "log.jsonl"

    def kill_after_generation_0() -> None:
        end = time.monotonic() + 60
        while time.monotonic() < end and not (log.exists() and log.read_text().strip()):
            time.sleep(0.05)
        _kill(worker)

    killer = threading.Thread(target=kill_after_generation_0, daemon=True)
    killer.start()
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "1000"
    try:
        rc = run_main([*args, "--backend", "dask", "--scheduler", scheduler])
    finally:
        killer.join()
        _kill(worker)
    err = capsys.readouterr().err
    assert rc == 1, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: no dask worker connected to {scheduler} for 2 s; ")
    assert "is saved; resume with: " in last and "--name t" in last
