"""Write a plan-league playoff candidate as a planning bot file.

usage: candidate.py RUN_FOLDER GENERATION OUT.json   (the run's genes/gen_G.npz must exist)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from planleague import _save

run, gen, out = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
rec = next(r for r in map(json.loads, (run / "log.jsonl").read_text().splitlines())
           if r["generation"] == gen)
i = rec["playoff"]["candidate"]
genes = np.load(run / "genes" / f"gen_{gen:05d}.npz")["genes"][i]
_save(out, genes, {"run": run.name, "generation": gen, "candidate": i,
                   "playoff": rec["playoff"]})
print(f"{out}: generation {gen}'s candidate {i}, playoff {rec['playoff']['candidate_wins']}")
