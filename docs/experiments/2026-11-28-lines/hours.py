"""The generation a run had reached at each half hour of its summed generation wall time
(log.jsonl's wall_s: the games, ratings, playoffs and evaluations, not start-up or the end
step), and the proven champion then.

usage: hours.py RUN_FOLDER
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

t, marks, crowned, gen = 0.0, [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0], [-1], -1
for line in (Path(sys.argv[1]) / "log.jsonl").read_text().splitlines():
    r = json.loads(line)
    t, gen = t + r["wall_s"], r["generation"]
    if r.get("playoff") and r["playoff"]["crowned"]:
        crowned.append(gen)
    while marks and t >= marks[0] * 3600:
        print(f"{marks.pop(0):g} h: generation {gen}, champion crowned in {crowned[-1]}")
print(f"end: generation {gen} at {t / 3600:.2f} h, champion crowned in {crowned[-1]}")
