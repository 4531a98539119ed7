#!/usr/bin/env bash
# Yardstick queue: each line "BOT GAMES SEED" of $EXP/queue.txt is played once against 3x
# Domination hard through the bridge; result lines go to $EXP/yard-results.txt.
# EXP: the experiment folder; RISKEVO: the checkout; DOM_BUILD, DOMINATION_SRC: the bridge's
# build folder and Domination's source (docs/experiments/README.md).
cd "$RISKEVO"
export WORK=$DOM_BUILD REBUILD=0
touch "$EXP/yard-done.txt"
while true; do
  line=$(grep -v -F -x -f "$EXP/yard-done.txt" "$EXP/queue.txt" 2>/dev/null | head -1)
  [ -z "$line" ] && { sleep 20; continue; }
  set -- $line
  out=$(bash ../shared/domination/run_bridge.sh "$DOMINATION_SRC" "$2" "$1" hard --seed "$3" 2>/dev/null | grep '^bot=')
  echo "$out seed=$3" >> "$EXP/yard-results.txt"
  echo "$line" >> "$EXP/yard-done.txt"
done
