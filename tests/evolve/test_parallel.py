"""Same seed, same results whatever runs the games: n_jobs=1, n_jobs=2 (loky), dask."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from evolve.checkpoint import checkpoint_path, load_checkpoint
from evolve.rating.league import chunk_bounds
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import tiny_args, untimed_log


def _result(runs: Path) -> tuple[bytes, list[dict[str, Any]]]:
    root = runs / "t"
    ck = (root / "checkpoints" / "ckpt_00005.npz").read_bytes()
    return ck, untimed_log(root)


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
        assert all(x[1] == y[0] for x, y in itertools.pairwise(b))
        assert max(y - x for x, y in b) <= chunk
        assert len(b) >= min(n, workers)


def test_chunks_shrink_towards_the_end() -> None:
    # Big chunks while work is plentiful, small ones last: no worker idles on a long tail.
    sizes = [y - x for x, y in chunk_bounds(2048, 256, 2)]
    assert sizes[0] == 256 and max(sizes[-4:]) <= 16
    assert sizes == sorted(sizes, reverse=True) and len(sizes) < 25


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


def test_unreachable_scheduler_is_one_line_error(tmp_path: Path, capsys: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    import evolve.parallel

    monkeypatch.setattr(evolve.parallel, "CONNECT_TIMEOUT_S", 1)
    args = [*tiny_args(tmp_path), "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"]
    assert run_main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: parallel.scheduler: cannot connect to tcp://127.0.0.1:1")
    assert "\n" not in err
    assert not (tmp_path / "t").exists()  # checked before the run folder is made


def test_missing_dask_extra_is_one_line_error(tmp_path: Path, capsys: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    assert run_main([*tiny_args(tmp_path), "--backend", "dask"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "parallel.backend" in err and "riskevo[dask]" in err
    assert not (tmp_path / "t").exists()


# The real game (features.compiled via evolve.plugin:default_plugin), kept to a few seconds:
# the value's batch at generation 0 is 8 games (4 tasks of 2), not the default 128.
REAL = ["--population", "12", "--games", "4", "--chunk-games", "2", "--seed", "3",
        "--eval-every", "2", "--eval-games", "4", "--set", "output.plot_every=0",
        "--set", "value.games=8", "--set", "plan.games=0"]


def _real(runs: Path, generations: int, n_jobs: int) -> bytes:
    assert run_main(["--name", "r", "--runs-dir", str(runs), *REAL, "--generations",
                     str(generations), "--n-jobs", str(n_jobs)]) == 0
    return checkpoint_path(runs / "r" / "checkpoints", generations - 1).read_bytes()


def test_real_plugin_same_results_for_one_and_two_jobs(tmp_path: Path) -> None:
    one = _real(tmp_path / "one", 3, 1)
    two = _real(tmp_path / "two", 3, 2)
    assert one == two
    ck = load_checkpoint(tmp_path / "one" / "r" / "checkpoints" / "ckpt_00002.npz")
    log = [json.loads(x) for x in (tmp_path / "one" / "r" / "log.jsonl").read_text().split("\n")
           if x]
    assert log[2]["eval"]["games"] == 4 and len(set(ck.mu.tolist())) > 1


def test_a_real_run_makes_its_planning_champion_when_it_ends(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    args = [*REAL[:-2], "--set", "plan.games=3", "--set", "plan.check_games=2",
            "--set", "plan.margins=[0.1]", "--name", "p", "--runs-dir", str(tmp_path),
            "--generations", "2", "--n-jobs", "1"]
    assert run_main(args) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("planning champion:"))
    made = (tmp_path / "p" / "champion-plan.json").exists()
    assert made == ("not kept" not in line) and "greedy" in line


def test_real_plugin_stop_and_resume_is_identical(tmp_path: Path) -> None:
    full = _real(tmp_path / "full", 4, 1)
    _real(tmp_path / "cut", 2, 1)
    # What a kill between the log line and the checkpoint of generation 2 leaves behind.
    root = tmp_path / "cut" / "r"
    with open(root / "log.jsonl", "a", encoding="utf-8") as f:
        f.write('{"generation": 2, "torn')
    (root / "checkpoints" / ".ckpt_00002.npz.99.tmp").write_bytes(b"half")
    assert _real(tmp_path / "cut", 4, 2) == full
    lines = (root / "log.jsonl").read_text().splitlines()
    assert [json.loads(x)["generation"] for x in lines] == [0, 1, 2, 3]


def _square_and_pid(i: int) -> tuple[int, int]:
    time.sleep(0.15)
    return i * i, os.getpid()


def test_a_killed_loky_worker_costs_only_a_replay(capsys: Any) -> None:
    from evolve.config import load_config
    from evolve.parallel import Runner

    cfg = load_config(overrides={"parallel.n_jobs": 2, "parallel.backend": "loky"})
    with Runner(cfg.parallel) as runner:
        got = []
        for k, (v, pid) in enumerate(runner.run((_square_and_pid, (i,)) for i in range(16))):
            got.append(v)
            if k == 1:
                os.kill(pid, signal.SIGKILL)  # the worker that just answered, now busy again
        assert got == [i * i for i in range(16)]
        # The Runner goes on with a fresh pool for the next generation.
        assert [v for v, _ in runner.run((_square_and_pid, (i,)) for i in range(4))] == [
            0, 1, 4, 9]
    assert "a worker was lost" in capsys.readouterr().err
