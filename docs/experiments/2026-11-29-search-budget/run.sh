#!/usr/bin/env bash
# The yardstick rows of ../2026-11-29-search-budget.md: each LABEL:FILE (a copy of the bundled
# champion with plan.rollouts and plan.top_k changed) against 3x Domination hard, 250 games a
# bridge seed, every setting on the same seeds; appends one line per batch to results.txt.
#   SEEDS="7101 ... 7108" run.sh c8x3:champ-8x3.json c64x8:champ-64x8.json
# Environment: RISKEVO (a riskevo checkout with .venv), DOMINATION_SRC (Domination's source),
# DOM_BUILD (the bridge's build folder), SHARED (the folder holding domination/run_bridge.sh).
set -euo pipefail
cd "$RISKEVO"
export WORK=$DOM_BUILD REBUILD=0
for seed in ${SEEDS}; do
  for lf in "$@"; do
    label=${lf%%:*}; file=${lf#*:}
    line=$(bash "$SHARED/domination/run_bridge.sh" "$DOMINATION_SRC" "${GAMES:-250}" "$file" hard \
      --seed "$seed" 2>/dev/null | grep '^bot=')
    echo "$label seed=$seed $line" >> results.txt
  done
done
