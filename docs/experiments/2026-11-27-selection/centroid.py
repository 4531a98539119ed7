"""Save a population's centroid as a bot file: the mean genome of the saved generation's
members that share the majority sign of the scale genes (which stay +-1).

usage: centroid.py RUN_DIR LABEL_PREFIX OUT_DIR [--top F] GEN ...  -> OUT_DIR/PREFIX-centGEN.json
--top F: only the best fraction F of the members by mu - 3 sigma (default 1.0: all)
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from features.genome import LAYOUT, SCALE_GENES, save_genome

args = sys.argv[1:]
run, prefix, out = Path(args[0]), args[1], Path(args[2])
rest = args[3:]
top = 1.0
if rest and rest[0] == "--top":
    top = float(rest[1])
    rest = rest[2:]
layout = LAYOUT
scale = [layout.index(n) for n in SCALE_GENES]
tag = "cent" if top == 1.0 else f"top{int(top * 100)}"
for gen in map(int, rest):
    with np.load(run / "genes" / f"gen_{gen:05d}.npz") as z:
        genes, mu, sigma = z["genes"], z["mu"], z["sigma"]
    signs = np.sign(genes[:, scale])
    rows, counts = np.unique(signs, axis=0, return_counts=True)
    major = rows[np.argmax(counts)]
    keep = np.all(signs == major, axis=1)
    if top < 1.0:
        score = np.where(keep, mu - 3.0 * sigma, -np.inf)
        k = max(1, int(round(top * keep.sum())))
        idx = np.argsort(-score)[:k]
        keep = np.zeros(len(mu), bool)
        keep[idx] = True
    c = genes[keep].mean(axis=0)
    c[scale] = major
    path = out / f"{prefix}-{tag}{gen}.json"
    save_genome(path, c, {"run": run.name, "generation": gen, "members": int(keep.sum()),
                          "of": len(mu)})
    print(path, int(keep.sum()), len(mu))
