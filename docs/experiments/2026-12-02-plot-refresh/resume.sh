#!/usr/bin/env bash
# resume.sh SRC LABEL PLOT_EVERY: copy the run folder SRC (here: checkpoint 1716 of a night run,
# a default run but for league.seats_from) to runs/pab/LABEL, resume it on one core with plots
# refreshed every PLOT_EVERY generations (0: never), stop it after generation 1756 (before its
# end step) and print the sum and median of those 40 generations' wall_s.
set -u
src=$1; L=$2; every=$3
rm -rf runs/pab/$L; mkdir -p runs/pab; cp -a "$src" runs/pab/$L
.venv/bin/python -m evolve run --runs-dir runs/pab --name $L --generations 2000 --n-jobs 1 \
  --set output.plot_every=$every > runs/pab/$L.out 2>&1 &
pid=$!
until grep -q '"generation": 1756,' runs/pab/$L/log.jsonl; do sleep 5; done
while kill -INT $pid 2>/dev/null; do sleep 8; done  # stop; skip the end step
python3 - $L <<'P'
import json, statistics, sys
L = sys.argv[1]
rows = [json.loads(x) for x in open(f"runs/pab/{L}/log.jsonl") if x.startswith('{"generation"')]
w = [r["wall_s"] for r in rows if 1716 < r["generation"] <= 1756]
print(L, len(w), "gens: sum %.1f median %.2f" % (sum(w), statistics.median(w)))
P
