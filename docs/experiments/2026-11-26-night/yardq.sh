#!/usr/bin/env bash
# Yardstick queue: pop "LABEL BOTFILE SEED GAMES" lines from yard/queue, play them against 3x hard,
# append "LABEL result-line" to yard/results. Sleeps when the queue is empty.
cd /work/main
Q=/work/night/yard/queue; R=/work/night/yard/results
while true; do
  line=$(head -n 1 $Q 2>/dev/null)
  if [ -z "$line" ]; then sleep 30; continue; fi
  sed -i 1d $Q
  set -- $line
  out=$(WORK=/work/dom-build REBUILD=0 RISKEVO=/work/main bash /work/shared/domination/run_bridge.sh \
        /work/.mirror/andyglick+domination-from-svn/repo $4 $2 hard --seed $3 2>/dev/null | tail -n 1)
  echo "$1 seed=$3 $out" >> $R
done
