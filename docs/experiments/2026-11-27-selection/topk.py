"""Save the K best members (mu - 3 sigma, sigma <= 1.2) of saved generations as bot files, to ask
whether the population holds players stronger than the one candidate a playoff tries.
usage: topk.py RUN_DIR PREFIX OUT_DIR K GEN ...   -> OUT_DIR/PREFIX-gGEN-rRANK.json"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from features.genome import save_genome

run, prefix, out, k = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
for gen in map(int, sys.argv[5:]):
    with np.load(run / "genes" / f"gen_{gen:05d}.npz") as z:
        score = np.where(z["sigma"] <= 1.2, z["mu"] - 3.0 * z["sigma"], -np.inf)
        for rank, i in enumerate(np.argsort(-score)[:k]):
            save_genome(out / f"{prefix}-g{gen}-r{rank}.json", z["genes"][i],
                        {"run": run.name, "generation": gen, "rank": rank,
                         "mu": float(z["mu"][i]), "sigma": float(z["sigma"][i])})
