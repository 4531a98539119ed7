"""Every file `evolve run` reads is opened without waiting (issue 65, K3): a FIFO named as a
checkpoint or as log.jsonl hung the run (open() waits for a writer), and one SIGTERM did not
stop it. Now a FIFO is a one-line error, as the web saves already were."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evolve.checkpoint import list_checkpoints
from evolve.run_cmd import main as run_main
from game.atomic import check_size, read_limited
from tests.helpers.fake_run import ROOT, tiny_args


def _within(seconds: float, call: Callable[[], Any]) -> BaseException | None:
    """What `call` raised (None if nothing), failing the test if it has not returned in time."""
    got: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            got.append(None)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            got.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        # Let the blocked open() return (a writer appears) so the thread ends.
        pytest.fail(f"still blocked after {seconds} s")
    return got[0]


@pytest.mark.parametrize("read", [
    lambda p: read_limited(p, 100, "a config file"),
    lambda p: check_size(p, 100, "a checkpoint"),
])
def test_a_fifo_is_refused_without_waiting(tmp_path: Path, read: Callable[[Path], Any]) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    try:
        e = _within(10, lambda: read(fifo))
    finally:
        with open(os.open(fifo, os.O_RDWR | os.O_NONBLOCK), "rb"):  # frees a blocked reader
            pass
    assert isinstance(e, OSError) and "regular file" in str(e), e


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "evolve", "run", *args], capture_output=True,
                          text=True, timeout=120, env=env, check=False)


@pytest.mark.parametrize("which", ["checkpoint", "log.jsonl", "config"])
def test_a_fifo_named_as_a_runs_file_is_a_one_line_error(tmp_path: Path, which: str,
                                                        capsys: Any) -> None:
    args = tiny_args(tmp_path)
    if which == "config":
        fifo = tmp_path / "config.toml"
        os.mkfifo(fifo)
        args += ["--config", str(fifo)]
    else:
        assert run_main(args) == 0
        capsys.readouterr()
        run = tmp_path / "t"
        fifo = (list_checkpoints(run / "checkpoints")[-1][1] if which == "checkpoint"
                else run / "log.jsonl")
        fifo.unlink()
        os.mkfifo(fifo)
        args[args.index("--generations") + 1] = "8"
    res = _run(args)  # before: never returned (the timeout raises)
    err = res.stderr.strip()
    assert res.returncode == 2, err[-800:]
    assert err.count("\n") == 0 and str(fifo) in err and "regular file" in err, err
