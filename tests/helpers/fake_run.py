"""The fake game plug-in of the run tests (four genes, strength a + b), tiny run
arguments, and a run in a subprocess that a test can stop and resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from evolve.checkpoint import (
    atomic_write_bytes,
    checkpoint_path,
)
from evolve.config import Config
from evolve.evolution import TIMING_KEYS
from evolve.plugin import Plugin

NAMES = ("a", "b", "c", "s")


def fake_play_games(weights: np.ndarray, seeds: list[np.random.SeedSequence], rules: Any,
                    map: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Strength = a + b (scale gene s and c irrelevant) + noise; ties when strengths round equal."""
    n, k, _ = weights.shape
    placements = np.zeros((n, k), dtype=np.int32)
    rounds = np.zeros(n, dtype=np.int32)
    capped = np.zeros(n, dtype=np.bool_)
    for g in range(n):
        rng = np.random.default_rng(seeds[g])
        strength = np.round(weights[g, :, 0] + weights[g, :, 1] + rng.normal(0, 0.5, k), 1)
        placements[g] = 1 + (strength[None, :] > strength[:, None]).sum(axis=1)
        rounds[g] = rng.integers(10, 60)
        capped[g] = rounds[g] >= 55
    return placements, rounds, capped


def fake_play_mixed(weights: np.ndarray, policies: np.ndarray,
                    seeds: list[np.random.SeedSequence], rules: Any,
                    map: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """fake_play_games where a bot seat (policy 1, "fixedbot") plays as a + b = 1.2."""
    w = weights.copy()
    bot = policies == 1
    w[bot, 0], w[bot, 1] = 0.6, 0.6
    return fake_play_games(w, seeds, rules, map)


def fake_play_eval(weights: np.ndarray, opponents: list[tuple[str, ...]],
                   seeds: list[np.random.SeedSequence], rules: Any, map: Any) -> np.ndarray:
    """The champion wins when a + b + noise > 1."""
    out = np.zeros(len(seeds), dtype=np.int32)
    for i, s in enumerate(seeds):
        out[i] = 0 if weights[0] + weights[1] + np.random.default_rng(s).normal() > 1 else 1
    return out


def fake_save_genome(path: Path, values: np.ndarray, meta: dict[str, Any]) -> None:
    """A JSON genome file, written atomically."""
    doc = {"genes": dict(zip(NAMES, values.tolist(), strict=True)), "meta": meta}
    atomic_write_bytes(Path(path), json.dumps(doc).encode())


def fake_load_genome(path: str) -> np.ndarray:
    """The genes of a file `fake_save_genome` wrote; ValueError naming the file otherwise."""
    try:
        genes = json.loads(Path(path).read_text())["genes"]
        return np.array([float(genes[n]) for n in NAMES])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not a fake genome file ({type(e).__name__})") from None


def fake_plugin(cfg: Config) -> Plugin:
    """A four-gene fake game; the evolution code cannot tell it from the real one."""
    return Plugin(names=NAMES, low=np.full(4, -1.0), high=np.full(4, 1.0),
                  sigma=np.full(4, 0.2), scale=np.array([False, False, False, True]),
                  play_games=fake_play_games, play_eval=fake_play_eval,
                  save_genome=fake_save_genome, rules=None, map=None,
                  bots=("random", "greedy"), play_mixed=fake_play_mixed,
                  compiled_bots={"fixedbot": 1}, load_genome=fake_load_genome)


def tiny_args(runs: Path, name: str = "t", *extra: str) -> list[str]:
    """Command-line arguments for a tiny fake run."""
    return ["--name", name, "--runs-dir", str(runs), "--population", "30", "--games", "8",
            "--generations", "6", "--seed", "7", "--n-jobs", "1", "--eval-every", "2",
            "--eval-games", "40", "--set", "game.plugin=tests.helpers.fake_run:fake_plugin",
            "--set", "run.elite=2", "--set", "output.plot_every=0",
            # Playoffs every other generation, open to all: resume tests cover the champion.
            "--set", "champion.every=2", "--set", "champion.max_sigma=100",
            "--set", "champion.games=20", "--set", "plan.games=0", *extra]


ROOT = Path(__file__).resolve().parents[2]  # the checkout
SLOW = "RISKEVO_TEST_SLOW_GAMES"  # set by spawn_run: slow_plugin's games pause there


def slow_play_games(weights: np.ndarray, seeds: list[np.random.SeedSequence], rules: Any,
                    map: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fake game, slowed down in a run `spawn_run` started, so that a kill lands in the
    middle of it (the same run in the test's own process, a reference or a resume, need not
    wait: the pause changes no result)."""
    started = os.environ.get("RISKEVO_TEST_STARTED")
    if started and seeds[0].spawn_key:  # a league game (the warm-up's seed has no spawn key)
        Path(started).touch()  # tells a test that generation 0 is being played
    if os.environ.get(SLOW):
        time.sleep(0.08)
    return fake_play_games(weights, seeds, rules, map)


def slow_plugin(cfg: Config) -> Plugin:
    """fake_plugin with slow games."""
    p = fake_plugin(cfg)
    return Plugin(**{**p.__dict__, "play_games": slow_play_games})


def run_args(runs: Path, generations: int) -> list[str]:
    args = tiny_args(runs, "r", "--set", "game.plugin=tests.helpers.fake_run:slow_plugin")
    args[args.index("--generations") + 1] = str(generations)
    return args


def spawn_run(args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), SLOW: "1"}  # tests.helpers by name
    return subprocess.Popen([sys.executable, "-m", "evolve", "run", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_generation(proc: subprocess.Popen[str], gen: int) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(f"gen {gen:>5}/"):
            return
    raise AssertionError(f"run ended before generation {gen}: {proc.stderr and proc.stderr.read()}")


def final_state(runs: Path, generations: int) -> tuple[bytes, list[bytes], list[dict[str, Any]]]:
    root = runs / "r"
    ck = checkpoint_path(root / "checkpoints", generations - 1).read_bytes()
    genes = [p.read_bytes() for p in sorted((root / "genes").iterdir())]
    return ck, genes, untimed_log(root)


def untimed_log(root: Path) -> list[dict[str, Any]]:
    """A run folder's log.jsonl without its timings, which differ between runs (nothing else
    may)."""
    return [{k: v for k, v in json.loads(x).items() if k not in TIMING_KEYS}
            for x in (root / "log.jsonl").read_text().splitlines()]


def one_line(err: str) -> str:
    err = err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


