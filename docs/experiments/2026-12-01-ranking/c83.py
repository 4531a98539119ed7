"""Copies of the planning files at the in-house check's search: NIGHT/c83/NAME.json with
plan.rollouts 8, plan.top_k 3 and plan.place 0; and NIGHT/champ-greedy.json, the bundled
champion without its plan (it plays greedily). usage: NIGHT=... python c83.py"""
import json
import os
from pathlib import Path

night = Path(os.environ["NIGHT"])
(night / "c83").mkdir(exist_ok=True)
FILES = "old champ d91-05h d91-1h d91-2h d91-4h d92-05h d92-1h d92-2h d92-4h f91-1h"
for f in FILES.split():
    d = json.loads((night / f"{f}.json").read_text())
    d["plan"].update(rollouts=8, top_k=3, place=0)
    (night / "c83" / f"{f}.json").write_text(json.dumps(d, indent=1))
d = json.loads((night / "champ.json").read_text())
d.pop("plan")
(night / "champ-greedy.json").write_text(json.dumps(d, indent=1))
