"""The planning champion a default run of seed SEED makes when it stops at generation GEN
(evolve.planfit.plan_run with today's [plan] defaults), from the run's champion.json.
usage: planrun.py SEED GEN CHAMPION OUT"""
import sys, time
from pathlib import Path
from evolve.config import load_config
from evolve.planfit import plan_run
seed, gen, champ, out = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
t = time.time()
print(plan_run(champ, out, load_config(overrides={"run.seed": seed}), gen), f"({time.time() - t:.0f} s)", flush=True)
