"""Save a run's playoff candidates as bot files: the best mu - 3 sigma with sigma <= 1.2 of the
generation's saved genes (what the run's playoff at that generation played).

usage: players.py RUN_DIR LABEL_PREFIX OUT_DIR GEN ...   -> OUT_DIR/LABEL_PREFIX-candGEN.json
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from evolve.champion import candidate_index
from features.genome import save_genome

run, prefix, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
for gen in map(int, sys.argv[4:]):
    with np.load(run / "genes" / f"gen_{gen:05d}.npz") as z:
        i = candidate_index(z["mu"], z["sigma"], 1.2)
        path = out / f"{prefix}-cand{gen}.json"
        save_genome(path, z["genes"][i], {"run": run.name, "generation": gen,
                                          "mu": float(z["mu"][i]), "sigma": float(z["sigma"][i])})
        print(path, i, float(z["mu"][i]), float(z["sigma"][i]))
