"""Same seed, same results whatever runs the games: n_jobs=1, n_jobs=2 (loky), dask."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_run import tiny_args

from evolve.league import chunk_bounds
from evolve.run_cmd import main as run_main


def _result(runs: Path) -> tuple[bytes, list[dict[str, Any]]]:
    root = runs / "t"
    ck = (root / "checkpoints" / "ckpt_00005.npz").read_bytes()
    log = [json.loads(x) for x in (root / "log.jsonl").read_text().splitlines()]
    for r in log:
        for k in ("wall_s", "games_per_s", "time_games_s", "time_rating_s", "time_overhead_s"):
            r.pop(k)
    return ck, log


def _run(runs: Path, *extra: str) -> tuple[bytes, list[dict[str, Any]]]:
    args = tiny_args(runs)
    args[args.index("--n-jobs") + 1] = extra[0]
    # Small chunks so that several tasks really are spread over the workers.
    assert run_main([*args, "--chunk-games", "5", *extra[1:]]) == 0
    return _result(runs)


def test_chunks_cover_all_games() -> None:
    for n, chunk, workers in [(2048, 256, 2), (10, 256, 2), (7, 3, 1), (1, 5, 4)]:
        b = chunk_bounds(n, chunk, workers)
        assert b[0][0] == 0 and b[-1][1] == n
        assert all(x[1] == y[0] for x, y in zip(b, b[1:], strict=False))
        assert max(y - x for x, y in b) <= chunk
        assert len(b) >= min(n, workers)


def test_same_results_for_one_and_two_jobs(tmp_path: Path) -> None:
    one = _run(tmp_path / "one", "1")
    two = _run(tmp_path / "two", "2")
    assert one == two
    threads = _run(tmp_path / "threads", "2", "--backend", "threading")
    assert one == threads


@pytest.mark.slow
def test_same_results_on_dask_local_cluster(tmp_path: Path) -> None:
    from distributed import LocalCluster

    one = _run(tmp_path / "one", "1")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        dask = _run(tmp_path / "dask", "2", "--backend", "dask", "--scheduler",
                    cluster.scheduler_address)
    assert one == dask
