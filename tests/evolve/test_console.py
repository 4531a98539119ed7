"""The `riskevo` console script: one program for every subcommand of evolve and arena."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path
from typing import Any

import pytest

from evolve.cli import SUBCOMMANDS, riskevo

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_names_the_entry_point() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "scripts"]
    mod, _, fn = scripts["riskevo"].partition(":")
    assert getattr(importlib.import_module(mod), fn) is riskevo


def test_help_lists_every_subcommand(capsys: Any) -> None:
    assert riskevo(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: riskevo SUBCOMMAND")
    for name in SUBCOMMANDS:
        assert f"  {name} " in out


def test_a_subcommand_runs_under_riskevo(capsys: Any) -> None:
    with pytest.raises(SystemExit) as e:
        riskevo(["gauntlet", "--help"])
    assert e.value.code == 0 and "gauntlet" in capsys.readouterr().out
    assert riskevo([]) == 2  # no subcommand: usage, exit 2


def test_a_hint_names_the_interpreter_a_new_shell_needs(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """make runs .venv/bin/python: a resume hint saying `python` failed in a new shell (no
    numba there). The hint says `python` only when that is this interpreter."""
    import os
    import sys

    from evolve.cli import evolve_command

    monkeypatch.setenv("PATH", str(tmp_path))  # no python on it
    said = evolve_command("run --name r")
    exe = said.removesuffix(" -m evolve run --name r")
    assert exe != "python" and os.path.samefile(exe, sys.executable)
    (tmp_path / "python").symlink_to(sys.executable)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert evolve_command("run --name r") == "python -m evolve run --name r"


def test_the_generation_line_says_when_the_run_ends() -> None:
    """A night's line said how long this generation took, never when the run would end."""
    from evolve.progress import RunClock, summary

    line = {"games": 2048, "games_per_s": 2048.0, "mu_mean": 25.0, "mu_std": 0.8,
            "mu_max": 28.0, "champion_index": 0, "champion_mu": 27.0, "champion_sigma": 1.0,
            "mean_rounds": 15.0, "capped_fraction": 0.0, "playoff": None, "eval": None}
    clock = RunClock(window=2)
    first = {**line, "generation": 10, "wall_s": 2.0}
    second = {**line, "generation": 11, "wall_s": 4.0}
    assert clock.left(first, 1000) == 989 * 2.0
    left = clock.left(second, 1000)
    assert left == 988 * 3.0  # the mean of the last two generations
    assert summary(second, 1000, left).split("capped ")[1].split("  ")[1] == "ends in ~49m"
    assert "  ends in ~8h19m" in summary(second, 10_000, 9988 * 3.0)
    assert "ends in" not in summary(second, 13, clock.left(second, 13))  # under a minute
