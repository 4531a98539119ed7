"""Ctrl-C at any moment of a run's start: one line, exit 130, the name free to start again."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from evolve.cli import dispatch
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import one_line, run_args, spawn_run, tiny_args


@pytest.mark.parametrize("where", ["load_plugin", "Runner"])
def test_ctrl_c_while_loading_is_one_line_and_leaves_no_folder(
        tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(f"evolve.run_cmd.{where}", interrupted)
    assert run_main(tiny_args(tmp_path)) == 130
    assert "start again" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "t").exists()
    monkeypatch.undo()
    assert run_main(tiny_args(tmp_path)) == 0


def test_ctrl_c_inside_a_subcommands_import_waits_for_the_import(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    # The signal lands inside a namedtuple's exec(): raised there, it used to cut the import
    # short and make CPython 3.11 kill itself with SIGINT at exit (-2, not 130).
    (tmp_path / "slow_cmd.py").write_text(
        "import os, signal, collections\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "Point = collections.namedtuple('Point', 'x y')\n"
        "LOADED = True\n"
        "def main(argv):\n"
        "    raise AssertionError('an interrupted start must not run the command')\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = signal.getsignal(signal.SIGINT)
    assert dispatch("p", {"slow": ("slow_cmd:main", "")}, ["slow"]) == 130
    assert sys.modules["slow_cmd"].LOADED  # the import ran to its end
    assert capsys.readouterr().err.strip() == "interrupted"
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.parametrize("delay", [0.2, 0.8, 1.5, 2.5])
def test_ctrl_c_at_any_moment_of_the_start_is_no_traceback(tmp_path: Path, delay: float) -> None:
    proc = spawn_run(run_args(tmp_path, 40))
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert len(err.strip().splitlines()) <= 2, err  # the notice and the stop line at most
    assert run_main(run_args(tmp_path, 2)) == 0  # and the name is free to start (or resume)
