#!/usr/bin/env bash
# The yardstick rows of ../2026-12-02-champion-check.md: the bundled champion against 3x one
# Domination AI, 250 games a bridge seed; appends one line a seed to results.txt.
#   OPP=hard SEEDS="7764 ... 7771" run.sh      OPP=average SEEDS="7772 7773 7774 7775" run.sh
# Environment: RISKEVO (a riskevo checkout with .venv), DOMINATION_SRC (Domination's source),
# DOM_BUILD (the bridge's build folder), SHARED (the folder holding domination/run_bridge.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$RISKEVO"
export WORK=$DOM_BUILD REBUILD=0
label=champ${OPP:+-$OPP}
[[ ${OPP:-hard} == hard ]] && label=champ
for seed in ${SEEDS}; do
  line=$(bash "$SHARED/domination/run_bridge.sh" "$DOMINATION_SRC" 250 champion "${OPP:-hard}" \
    --seed "$seed" 2>/dev/null | grep '^bot=')
  echo "$label seed=$seed $line" >> "$here/results.txt"
done
