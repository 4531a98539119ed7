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
