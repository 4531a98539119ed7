"""`python -m evolve bench` (`make bench`): games/s, generation wall time and memory.

Every speed figure is a median over repeats; the previous run's figures (runs/bench.json) are
kept as runs/bench.previous.json and the ratios new/old are printed, so a change is judged
against the previous version rather than by a single timing. The compiled game is also timed
against a fixed reference commit in the same run (`evolve.bench.benchref`), which does not drift.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from evolve.bench.benchgen import run_generations
from evolve.bench.benchplan import bench_planning
from evolve.bench.benchref import bench_reference
from evolve.cli import ArgumentParser, error
from evolve.evolution import TIMING_KEYS
from evolve.runfolder import output_problem
from game.atomic import MiB, atomic_write_text, read_limited
from game.untrusted import parse_json

MAX_BENCH_BYTES = 1 * MiB  # a bench file (a few kB of figures)
MAX_MEMORY_GENERATIONS = 10_000  # --memory-generations: about a second each


def _median_rate(run: Callable[[], tuple[int, np.ndarray, np.ndarray]], repeats: int
                 ) -> dict[str, Any]:
    """Run `run` (returning games, rounds, capped) `repeats` times: median games/s and spread."""
    rates: list[float] = []
    rounds: list[int] = []
    capped: list[bool] = []
    n = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        n, r, c = run()
        rates.append(n / (time.perf_counter() - t0))
        rounds.extend(r.tolist())
        capped.extend(c.tolist())
    return {"games_per_s": statistics.median(rates), "min": min(rates), "max": max(rates),
            "repeats": repeats, "games_per_repeat": n, "mean_rounds": float(np.mean(rounds)),
            "capped_fraction": float(np.mean(capped))}


def bench_engine(bot: str, games: int, repeats: int, seed: int) -> dict[str, Any]:
    """The general Python loop on one core: four copies of a baseline bot."""
    from game.bots import BOTS
    from game.engine import play_game
    from game.state import Rules

    play_game([BOTS[bot]() for _ in range(4)], seed=seed, rules=Rules(cap=2))  # load kernels

    def run() -> tuple[int, np.ndarray, np.ndarray]:
        outs = [play_game([BOTS[bot]() for _ in range(4)], seed=seed + g) for g in range(games)]
        return games, np.array([o.rounds for o in outs]), np.array([o.capped for o in outs])

    return _median_rate(run, repeats)


def bench_linear(weights: np.ndarray, repeats: int, seed: int) -> dict[str, Any]:
    """The compiled all-linear loop on one core: weights f64[games, 4, G]."""
    from features.compiled import play_linear_games

    games = weights.shape[0]
    seeds = np.random.SeedSequence(seed).spawn(games)
    play_linear_games(weights[:1], seeds[:1])  # compile or load the cache outside the timing

    def run() -> tuple[int, np.ndarray, np.ndarray]:
        _, r, c = play_linear_games(weights, seeds)
        return games, r, c

    return _median_rate(run, repeats)


def _summary(rows: list[dict[str, Any]], first_wall_s: float, population: int, games: int,
             n_jobs: int) -> dict[str, Any]:
    """Medians of the timed rows of one generation figure, with the memory of every row."""
    med = {k: statistics.median(r[k] for r in rows) for k in
           (*TIMING_KEYS, "time_save_s", "mean_rounds", "capped_fraction")}
    return {"population": population, "games_per_individual": games, "n_jobs": n_jobs,
            "generations": len(rows), "games_per_generation": rows[0]["games"],
            "first_wall_s": first_wall_s, "median": med,
            "rss_main_mb": [round(r["rss_main_mb"], 1) for r in rows],
            "rss_total_peak_mb": max(r["rss_total_mb"] for r in rows), "rows": rows}


def bench_generation(population: int, games: int, n_jobs: int, generations: int,
                     seed: int, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Whole generations of a fresh random population: medians after the first generation
    (which also starts the worker pool)."""
    rows = run_generations(population, games, n_jobs, generations, seed, overrides)
    return _summary(rows[1:] or rows, rows[0]["wall_s"], population, games, n_jobs)


def bench_evolving(population: int, games: int, n_jobs: int, total: int, early: int, late: int,
                   seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """`total` generations of one run as `make evolve` plays it: (generations 1..early-1, on
    random genomes whose games are long; the last `late`, once evolved play made games short).

    Short games are where a night is spent and where fixed costs (rating, gathering results,
    scheduling) show, so both figures come from the same evolving population.
    """
    rows = run_generations(population, games, n_jobs, total, seed)
    first = rows[0]["wall_s"]
    return (_summary(rows[1:early], first, population, games, n_jobs),
            _summary(rows[-late:], first, population, games, n_jobs))


def _report(label: str, r: dict[str, Any]) -> None:
    print(f"{label:44s} {r['games_per_s']:7.1f} games/s (median of {r['repeats']} x "
          f"{r['games_per_repeat']}, {r['min']:.1f}..{r['max']:.1f})  mean rounds "
          f"{r['mean_rounds']:.1f}  capped {r['capped_fraction']:.2f}", flush=True)


def _report_gen(g: dict[str, Any], label: str = "") -> None:
    m = g["median"]
    print(f"generation{label} {g['population']} x {g['games_per_individual']} games on "
          f"{g['n_jobs']} jobs ({g['games_per_generation']} games): first "
          f"{g['first_wall_s']:.2f} s, then median {m['wall_s']:.2f} s = games "
          f"{m['time_games_s']:.2f} + rating {m['time_rating_s']:.3f} + overhead "
          f"{m['time_overhead_s']:.3f}, then saving {m['time_save_s']:.3f} s "
          f"({m['games_per_s']:.0f} games/s, mean rounds {m['mean_rounds']:.1f}, capped "
          f"{m['capped_fraction']:.2f})", flush=True)
    rss = g["rss_main_mb"]
    print(f"  main-process RSS per generation: first {rss[0]:.0f} MiB, last {rss[-1]:.0f} MiB, "
          f"max {max(rss):.0f} MiB; peak with workers {g['rss_total_peak_mb']:.0f} MiB",
          flush=True)


def run_bench(quick: bool, memory_generations: int, seed: int = 2026,
              reference: bool = True) -> dict[str, Any]:
    """Every section; `quick` shrinks the sizes to a smoke run."""
    from features.genome import LAYOUT, hand_set_genome, random_genomes

    res: dict[str, Any] = {"cpu_count": os.cpu_count(), "quick": quick,
                           "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
    n_py, n_lin, reps = (3, 40, 2) if quick else (20, 400, 5)
    for bot in ("random", "aggressive", "continent"):
        res[f"engine_{bot}"] = bench_engine(bot, n_py, reps, seed)
        _report(f"Python loop, 4 {bot} bots (1 core)", res[f"engine_{bot}"])
    rand = random_genomes(LAYOUT, 4 * n_lin, np.random.default_rng(seed)).reshape(n_lin, 4, -1)
    res["linear_random"] = bench_linear(rand, reps, seed)
    _report("compiled, 4 random-genome linear (1 core)", res["linear_random"])
    hand = np.broadcast_to(hand_set_genome(), (n_lin, 4, LAYOUT.size)).copy()
    res["linear_hand_set"] = bench_linear(hand, reps, seed)
    _report("compiled, 4 hand-set linear (1 core)", res["linear_hand_set"])
    res["planning"] = bench_planning(40 if quick else 400, seed)
    if reference:
        res["reference"] = bench_reference(*((20, 2) if quick else (300, 5)), seed)
    pop, k, total, early, late = (64, 4, 5, 3, 2) if quick else (512, 16, 30, 8, 8)
    res["generation"], res["generation_short"] = bench_evolving(pop, k, 2, total, early, late,
                                                                seed)
    _report_gen(res["generation"], f" (random genomes, generations 1-{early - 1})")
    _report_gen(res["generation_short"], f" (evolved, short games: the last {late} of {total})")
    # The anchored league: the same generations with a seat of every game given to the
    # compiled bots (issue 16: within 25% of the league without anchors).
    lg = (64, 4, 3) if quick else (512, 16, 6)
    anchors = {"league.bots": ["planner", "hunter"], "league.seats": 1}
    res["league_none"] = bench_generation(*lg[:2], 2, lg[2], seed)
    res["league_anchors"] = bench_generation(*lg[:2], 2, lg[2], seed, anchors)
    _report_gen(res["league_none"], " (league without anchors)")
    _report_gen(res["league_anchors"], " (league, one seat of each game: planner or hunter)")
    a, b = res["league_anchors"]["median"], res["league_none"]["median"]
    # Anchors end games sooner, so rounds/s (games/s x mean rounds) is the fairer speed ratio.
    print(f"league with anchors seated / without: games/s x"
          f"{a['games_per_s'] / b['games_per_s']:.2f}, rounds/s x"
          f"{a['games_per_s'] * a['mean_rounds'] / (b['games_per_s'] * b['mean_rounds']):.2f}",
          flush=True)
    if memory_generations:
        res["memory"] = bench_generation(128, 16, 2, memory_generations, seed)
        print(f"memory over {memory_generations} generations (population 128 x 16):")
        _report_gen(res["memory"])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    res["peak_self_mb"] = peak
    print(f"peak RSS of the bench process: {peak:.0f} MiB")
    return res


def _compare(new: dict[str, Any], old: dict[str, Any], label: str) -> None:
    print(f"ratios against {label} (new / old; games/s up is better, wall time down):")
    for key in ("engine_random", "engine_aggressive", "engine_continent", "linear_random",
                "linear_hand_set"):
        if key in old and key in new:
            print(f"  {key:20s} games/s x{new[key]['games_per_s'] / old[key]['games_per_s']:.2f}")
    for key in ("generation", "generation_short", "league_none", "league_anchors"):
        if key in old and key in new:
            ratio = new[key]["median"]["wall_s"] / old[key]["median"]["wall_s"]
            print(f"  {key:20s} wall time x{ratio:.2f}")
    for batch in ("random", "hand_set"):
        if "reference" in old and "reference" in new and old["reference"] and new["reference"]:
            ratio = (new["reference"][batch]["head"]["rounds_per_s"]
                     / old["reference"][batch]["head"]["rounds_per_s"])
            print(f"  compiled {batch:11s} rounds/s x{ratio:.2f} (the reference section's HEAD)")


def main(argv: list[str]) -> int:
    """Entry point of `python -m evolve bench`."""
    ap = ArgumentParser(prog="python -m evolve bench", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--memory-generations", type=int, default=0, metavar="N",
                    help="also run N generations (population 128 x 16) to show memory is flat")
    ap.add_argument("--out", type=Path, default=Path("runs/bench.json"),
                    help="where the figures go (default runs/bench.json)")
    ap.add_argument("--compare", type=Path, help="an earlier --out file to compare against")
    ap.add_argument("--no-reference", action="store_true",
                    help="skip the timing against the fixed reference commit")
    args = ap.parse_args(argv)
    if not 0 <= args.memory_generations <= MAX_MEMORY_GENERATIONS:
        return error(f"--memory-generations must be 0..{MAX_MEMORY_GENERATIONS}, "
                     f"got {args.memory_generations}")
    previous = args.out.with_suffix(".previous.json")
    for path in (args.out, previous):  # the new figures, and where the old ones go
        if problem := output_problem(path):
            return error(f"--out {path}: {problem}")
    baseline = args.compare
    res = run_bench(args.quick, args.memory_generations, reference=not args.no_reference)
    if args.out.exists():  # kept as the previous figures only once the new ones are made
        args.out.replace(previous)
        baseline = baseline or previous
    atomic_write_text(args.out, json.dumps(res, indent=1) + "\n")
    print(f"figures written to {args.out}")
    if baseline is not None and baseline.exists():
        try:
            before = parse_json(read_limited(baseline, MAX_BENCH_BYTES, "a bench file"),
                                str(baseline))
            _compare(res, before, str(baseline))
        except OSError as e:
            print(f"(cannot compare: {baseline}: {e.strerror or e})")
        except (ValueError, KeyError, TypeError):  # UntrustedJSONError is a ValueError
            print(f"(cannot compare: {baseline} is not a bench file of this version)")
    return 0
