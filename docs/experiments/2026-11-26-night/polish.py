"""Experiment: polish a champion with CMA-ES on paired games against the gauntlet.

usage: polish.py CHAMPION.json OUT_DIR [--steps N] [--games N] [--lam N] [--sigma F]
       [--every N] [--playoff N] [--seed N] [--jobs N]

Each step samples lam points around the centroid (scale genes fixed at the champion's signs),
plays each the same `games` seeded games (common random numbers) 1 vs 3 gauntlet bots rotated
over the seats, and tells CMA-ES the outright wins. Every `every` steps the centroid plays a
paired playoff of `playoff` fresh games against the incumbent and is crowned when its wins
exceed the incumbent's by more than 1.96 sqrt(discordant). Writes OUT_DIR/log.jsonl and
OUT_DIR/champion.json (the incumbent), OUT_DIR/centroid.json.
"""
from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from evolve.config import load_config
from evolve.plugin import default_plugin
from evolve.strategy import SeededCmaStrategy
from features.genome import LAYOUT, load_genome, save_genome
from evolve.rotation import rotated_opponents
from game.bots import GAUNTLET

STEP_KEY, PLAYOFF_KEY = 0x5011, 0x5012


def tables(m: int, k: int = 3) -> list[tuple[str, ...]]:
    return rotated_opponents(GAUNTLET, m, k)


POOL: list = []  # (policy code, weights) per pool member; empty = the gauntlet


def play(plugin, weights, seeds, pool=None):  # type: ignore[no-untyped-def]
    if not pool:
        return plugin.play_eval(weights, tables(len(seeds)), seeds, plugin.rules,
                                plugin.map) == 0
    from features.compiled import play_mixed_game
    n = len(pool)
    out = np.zeros(len(seeds), dtype=bool)
    for i, seed in enumerate(seeds):
        skip = i % n  # each game leaves one pool member out (pool of 4: 4 trios)
        trio = [pool[j] for j in range(n) if j != skip][:3]
        w = np.zeros((4, len(weights)))
        w[0] = weights
        pol = np.zeros(4, dtype=np.int32)
        for s, (code, wt) in enumerate(trio, start=1):
            pol[s] = code
            if wt is not None:
                w[s] = wt
        out[i] = play_mixed_game(w, pol, seed, plugin.rules, plugin.map).winner == 0
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("champion")
    ap.add_argument("out")
    ap.add_argument("--steps", type=int, default=100000)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--lam", type=int, default=16)
    ap.add_argument("--sigma", type=float, default=0.5)
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--playoff", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--hours", type=float, default=1.0)
    ap.add_argument("--pool", default="", help="comma list of bot names or genome files")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cfg = load_config()
    plugin = default_plugin(cfg)
    x0, meta = load_genome(a.champion)
    free = ~np.asarray(LAYOUT.scale, dtype=bool)
    sig = np.asarray(LAYOUT.sigma, dtype=np.float64)[free]
    rng = np.random.default_rng(a.seed)
    cma = SeededCmaStrategy(centroid=x0[free].copy(), sigma=a.sigma, lambda_=a.lam,
                            cmatrix=np.diag(sig ** 2))
    incumbent = x0.copy()
    from game.bots import COMPILED_BOTS
    pool = []
    for item in filter(None, a.pool.split(",")):
        if item == "self":
            pool.append((0, x0.copy()))
        elif item.endswith(".json"):
            pool.append((0, load_genome(item)[0]))
        else:
            pool.append((COMPILED_BOTS[item], None))
    par = Parallel(n_jobs=a.jobs)
    t0 = time.time()
    log = open(out / "log.jsonl", "a")

    def full(v: np.ndarray) -> np.ndarray:
        g = x0.copy()
        g[free] = v
        return g

    def wins_of(weights: np.ndarray, seeds: list) -> np.ndarray:  # type: ignore[type-arg]
        chunks = np.array_split(np.arange(len(seeds)), a.jobs)
        parts = par(delayed(play)(plugin, weights, [seeds[i] for i in c], pool) for c in chunks)
        return np.concatenate(parts)

    for step in range(a.steps):
        if time.time() - t0 > a.hours * 3600:
            break
        seeds = [np.random.SeedSequence(a.seed, spawn_key=(STEP_KEY, step, i))
                 for i in range(a.games)]
        pts = cma.sample(rng)
        wins = [int(wins_of(full(p), seeds).sum()) for p in pts]
        from deap import base, creator
        if not hasattr(creator, "PFit"):
            creator.create("PFit", base.Fitness, weights=(1.0,))
            creator.create("PInd", list, fitness=creator.PFit)
        inds = []
        for p, w in zip(pts, wins, strict=True):
            ind = creator.PInd(p.tolist())
            ind.fitness.values = (float(w),)
            inds.append(ind)
        cma.update(inds)
        rec = {"step": step, "t": round(time.time() - t0, 1), "wins_mean": float(np.mean(wins)),
               "wins_max": int(max(wins)), "games": a.games, "sigma": float(cma.sigma),
               "moved": float(np.linalg.norm((cma.centroid - x0[free]) / sig))}
        if (step + 1) % a.every == 0:
            pseeds = [np.random.SeedSequence(a.seed, spawn_key=(PLAYOFF_KEY, step, i))
                      for i in range(a.playoff)]
            cand = full(cma.centroid)
            wc, wi = wins_of(cand, pseeds), wins_of(incumbent, pseeds)
            disc = int((wc != wi).sum())
            diff = int(wc.sum()) - int(wi.sum())
            crowned = diff > 1.96 * math.sqrt(disc)
            rec["playoff"] = {"cand": int(wc.sum()), "inc": int(wi.sum()), "disc": disc,
                              "crowned": crowned}
            if crowned:
                incumbent = cand.copy()
                save_genome(out / "champion.json", incumbent,
                            {"polished_from": a.champion, "step": step})
            save_genome(out / "centroid.json", cand, {"polished_from": a.champion,
                                                      "step": step})
        log.write(json.dumps(rec) + "\n")
        log.flush()
        print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
