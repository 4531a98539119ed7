"""A run's game length over 50-generation windows (mean rounds, % capped, median seconds a
generation, from log.jsonl) beside the population mean of the genes that moved in seed 4's
stalemate drift (from genes/gen_NNNNN.npz).

usage: drift.py RUN_DIR FIRST_GEN LAST_GEN
"""
from __future__ import annotations

import json
import statistics as st
import sys
from pathlib import Path

import numpy as np

GENES = ("attack.threshold", "attack.first_conquest", "reinforce.need", "cards.trade_at")
W = 50

run, first, last = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
recs = [json.loads(line) for line in (run / "log.jsonl").open() if line.startswith("{")]
by: dict[int, list[dict]] = {}
for r in recs:
    if "mean_rounds" in r and first <= r["generation"] <= last:
        by.setdefault(r["generation"] // W * W, []).append(r)
print("| generations | mean rounds | capped % | s a generation (median) | "
      + " | ".join(GENES) + " |")
print("|---" * (4 + len(GENES)) + "|")
for g in sorted(by):
    rs = by[g]
    path = run / "genes" / f"gen_{g:05d}.npz"
    genes = ["" for _ in GENES]
    if path.exists():
        with np.load(path) as z:
            names = list(z["names"])
            genes = [f"{z['genes'][:, names.index(n)].mean():.2f}" for n in GENES]
    print(f"| {g:,}-{g + W - 1:,} | {st.mean(x['mean_rounds'] for x in rs):.1f} | "
          f"{100 * st.mean(x['capped_fraction'] for x in rs):.1f} | "
          f"{st.median(x['wall_s'] for x in rs):.2f} | " + " | ".join(genes) + " |")
