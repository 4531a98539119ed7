#!/usr/bin/env bash
# The in-house measures of the ranking page, each file on the same seeds, from a riskevo checkout
# ($RISKEVO, default .); the files are in $NIGHT (the nights page's eight hour files, the bundled
# champion as champ.json, 0.25.0's as old.json); appends one gauntlet row per file to $NIGHT/*.txt.
# yard also needs DOM_BUILD, DOMINATION_SRC and SHARED (the experiments index).
#   NIGHT=... measure.sh strat | c83 | cg | c83b | yard
set -euo pipefail
cd "${RISKEVO:-.}"
FILES="old champ d91-05h d91-1h d91-2h d91-4h d92-05h d92-1h d92-2h d92-4h f91-1h"
py=.venv/bin/python
row() { grep '^3x' | sed "s/^/$1 /"; }
case "$1" in
  strat)  # the files as written (64 x 8, place 4) against 3x strategist
    for f in $FILES; do
      $py -m arena gauntlet "$NIGHT/$f.json" --opponents strategist --games 800 --seed 501 \
        --jobs 2 --out "$NIGHT/strat-$f" | row "$f" >> "$NIGHT/strat.txt"; done ;;
  c83)  # at the check's search (8 x 3, no placements: c83/ made by c83.py) against the six bots
    for f in $FILES; do
      $py -m arena gauntlet "$NIGHT/c83/$f.json" --games 800 --seed 801 --jobs 2 \
        --out "$NIGHT/c83-$f" | row "$f" >> "$NIGHT/c83.txt"; done ;;
  cg)  # as written, against 3x the bundled champion played greedily (champ-greedy.json)
    for f in $FILES; do
      $py -m arena gauntlet "$NIGHT/$f.json" --opponents "$NIGHT/champ-greedy.json" --games 700 \
        --seed 601 --jobs 2 --out "$NIGHT/cg-$f" | row "$f" >> "$NIGHT/cg.txt"; done ;;
  c83b)  # seed 92's four hours at 8 x 3, 2,000 games more a bot
    for f in d92-1h d92-2h d92-05h d92-4h; do
      $py -m arena gauntlet "$NIGHT/c83/$f.json" --games 2000 --seed 901 --jobs 2 \
        --out "$NIGHT/c83b-$f" | row "$f" >> "$NIGHT/c83b.txt"; done ;;
  yard)  # seed 92's hour and two hours against 3x hard on fresh bridge seeds 7729-7736
    export WORK=$DOM_BUILD REBUILD=0
    for seed in 7729 7730 7731 7732 7733 7734 7735 7736; do
      for f in d92-1h d92-2h; do
        line=$(bash "$SHARED/domination/run_bridge.sh" "$DOMINATION_SRC" 250 "$NIGHT/$f.json" hard \
          --seed "$seed" 2>/dev/null | grep '^bot=')
        echo "$f seed=$seed $line" >> "$NIGHT/yard.txt"; done; done ;;
  *) echo "usage: measure.sh strat|c83|cg|c83b|yard" >&2; exit 2 ;;
esac
