"""The files of the common-value comparison: seed 72's greedy champions at one, two and four
hours (`g72h1.json`, `g72h2.json`, `g72h4.json`: the planning champions of the one-hour-runs
and night-curve pages without their `plan`)
each given one planning champion's `plan` (its value; 64 x 8, place 4, margin 0.1), and the
four-hour weights with the run's learned value (`value.mean` of generation 8,367's checkpoint).

    python make_files.py DIR RUN_FOLDER   # DIR holds g72h1/h2/h4.json, v72-place4.json,
                                          # v72-4h-place4.json; writes fv-*, fw1-*, rv-h4
"""
import json
import sys
from pathlib import Path

import numpy as np

from features.search.value import NAMES

d, run = Path(sys.argv[1]), Path(sys.argv[2])


def read(name):
    return json.loads((d / name).read_text())


def write(name, weights, plan):
    (d / name).write_text(json.dumps({**read(weights), "plan": plan}))


for tag, planning, hours in (("fv", "v72-4h-place4.json", ("h1", "h4")),
                             ("fw1", "v72-place4.json", ("h1", "h2", "h4"))):
    plan = {**read(planning)["plan"], "margin": 0.1}
    for h in hours:
        write(f"{tag}-{h}.json", f"g72{h}.json", plan)
mean = np.load(run / "checkpoints" / "ckpt_08367.npz")["value.mean"]
write("rv-h4.json", "g72h4.json",
      {**read("fw1-h4.json")["plan"], "value": dict(zip(NAMES, map(float, mean), strict=True))})
