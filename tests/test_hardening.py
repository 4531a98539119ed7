"""Issue 10 (hardening): each case a hostile tester found, with the check that would have
caught it. Cases 11 and 12 (serve) live with the protocol tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_run import tiny_args

from evolve.checkpoint import list_checkpoints, load_checkpoint
from evolve.config import SCHEMA, ConfigError, load_config
from evolve.run_cmd import main as run_main


def _one_line(err: str) -> str:
    err = err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


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
    err = _one_line(capsys.readouterr().err)
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
