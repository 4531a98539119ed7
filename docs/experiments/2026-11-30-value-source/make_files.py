"""The files of the value-source comparison, from bot files committed beside other pages:
seed 72's four-hour weights (`v72-4h-place4.json`) each given another value, every file at
margin 0.1 (64 x 8, place 4), and the islands run's four-hour weights with its one-hour value
(margin 0.2, as both islands files) and seed 72's one-hour planning champion at place 4.
With FILEs, also a copy of each at 8 x 3 without placements (NAME-c83.json), as a run's
in-house check plays it (`inhouse.py`).

    python make_files.py DIR [FILE...]    # run from the checkout; writes DIR/*.json
"""
import json
import sys
from pathlib import Path

out = Path(sys.argv[1])
ex = Path("docs/experiments")


def read(path):
    return json.loads(Path(path).read_text())


h4 = read(ex / "2026-11-29-night-curve/v72-4h-place4.json")
plan = {**h4["plan"], "margin": 0.1}
values = {"fv-h4": h4, "fw1-h4": read(ex / "2026-11-29-one-hour-runs/vt72-plan.json"),
          "fi1-h4": read(ex / "2026-11-29-islands/isl72-1h-plan.json"),
          "fch-h4": read("game/bots/files/champion.json")}
for name, source in values.items():
    (out / f"{name}.json").write_text(json.dumps(
        {**h4, "plan": {**plan, "value": source["plan"]["value"]}}))
i1 = read(ex / "2026-11-29-islands/isl72-1h-plan.json")
i4 = read(ex / "2026-11-29-islands/isl72-4h-m02.json")
(out / "i4w-i1v.json").write_text(json.dumps({**i4, "plan": i1["plan"]}))
(out / "isl72-1h-plan.json").write_text(json.dumps(i1))
h1 = read(ex / "2026-11-29-one-hour-runs/vt72-plan.json")
(out / "v72-place4.json").write_text(json.dumps({**h1, "plan": {**h1["plan"], "place": 4}}))
(out / "v72-2h-place4.json").write_text(json.dumps(read(ex / "2026-11-29-night-curve/"
                                                          "v72-2h-place4.json")))
for f in map(Path, sys.argv[2:]):
    bot = read(f)
    plan = {k: v for k, v in bot["plan"].items() if k != "place"}
    (out / f"{f.stem}-c83.json").write_text(json.dumps(
        {**bot, "plan": {**plan, "rollouts": 8, "top_k": 3}}))
