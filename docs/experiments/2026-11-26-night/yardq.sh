#!/usr/bin/env bash
# Yardstick queue: pop "LABEL BOTFILE SEED GAMES" lines from yard/queue, play them against 3x hard,
# append "LABEL result-line" to yard/results. Sleeps when the queue is empty.
: "${NIGHT:?set NIGHT to the night runs' folder}"
: "${RISKEVO:?set RISKEVO to a riskevo checkout}"
: "${DOM_BUILD:?set DOM_BUILD to the Domination build folder}"
: "${DOMINATION_SRC:?set DOMINATION_SRC to Domination's source checkout}"
cd "$RISKEVO"
Q=$NIGHT/yard/queue; R=$NIGHT/yard/results
while true; do
  line=$(head -n 1 $Q 2>/dev/null)
  if [ -z "$line" ]; then sleep 30; continue; fi
  sed -i 1d $Q
  set -- $line
  out=$(WORK=$DOM_BUILD REBUILD=0 RISKEVO=$RISKEVO bash ../shared/domination/run_bridge.sh \
        $DOMINATION_SRC $4 $2 hard --seed $3 2>/dev/null | tail -n 1)
  echo "$1 seed=$3 $out" >> $R
done
