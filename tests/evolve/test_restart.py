"""run.restart_after: a run that stops crowning starts a fresh population and keeps its champion;
the restarts are part of the seeded run, so an interrupted run resumes through them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evolve.config import ConfigError, load_config
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import final_state, tiny_args

N = 14


def run_args(runs: Path, generations: int, after: int = 3) -> list[str]:
    args = tiny_args(runs, "r", "--set", f"run.restart_after={after}", "--set",
                     "output.genes_every=1")
    args[args.index("--generations") + 1] = str(generations)
    return args


def _log(runs: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (runs / "r" / "log.jsonl").read_text().splitlines()]


def _genes(runs: Path, g: int) -> np.ndarray:
    with np.load(runs / "r" / "genes" / f"gen_{g:05d}.npz") as z:
        return np.asarray(z["genes"])


def test_a_run_without_crownings_restarts_and_keeps_its_champion(tmp_path: Path,
                                                                  capsys: Any) -> None:
    assert run_main(run_args(tmp_path, N)) == 0
    out = capsys.readouterr().out
    log = _log(tmp_path)
    restarts = [r["generation"] for r in log if r["restart"]]
    assert restarts, "no restart in a run of 14 generations with restart_after = 3"
    assert out.count("restart: a fresh random population") == len(restarts)
    epoch_start = 0
    for r in log:
        g, born = r["generation"], r["proven_generation"]
        quiet = g - max(epoch_start - 1, -1 if born is None else born)
        assert r["restart"] == (quiet >= 3), (g, born, epoch_start)
        if r["restart"]:
            epoch_start = g + 1
    for g in range(1, N):
        before, after = _genes(tmp_path, g - 1), _genes(tmp_path, g)
        shared = sum(bool((before == row).all(axis=1).any()) for row in after)
        if g - 1 in restarts:  # a fresh population: nobody from the generation before
            assert shared == 0, g
        else:  # run.elite = 2 survive unchanged
            assert shared >= 2, g
    # The champion crowned before a restart stays until a newcomer beats it in a playoff.
    assert [r["generation"] for r in log] == list(range(N))
    for g in restarts:
        assert log[g]["proven_generation"] is not None
        assert log[g + 1]["proven_generation"] in (log[g]["proven_generation"], g + 1)


def test_a_run_resumes_bit_identical_through_its_restarts(tmp_path: Path) -> None:
    full = tmp_path / "full"
    assert run_main(run_args(full, N)) == 0
    restarts = [r["generation"] for r in _log(full) if r["restart"]]
    cut_at = restarts[0]  # the run stops right after deciding to restart
    cut = tmp_path / "cut"
    assert run_main(run_args(cut, cut_at + 1)) == 0
    assert run_main(run_args(cut, N)) == 0
    assert final_state(cut, N) == final_state(full, N)


@pytest.mark.parametrize("extra", [{"run.strategy": "cma"}, {"champion.every": 0}])
def test_restarts_need_the_ga_and_playoffs(extra: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="run.restart_after") as e:
        load_config([], {"run.restart_after": 100, **extra})
    assert "\n" not in str(e.value)
