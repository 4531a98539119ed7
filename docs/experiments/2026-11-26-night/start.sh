#!/usr/bin/env bash
# resume the night runs (bit-identical resume) and the crowning watcher; one core each, so
# start at most two: night-s4 (plain seed 4), s4-restart (seed 4 from gen 4,060 with
# restart_after=1000), night-s5r (seed 5, restart_after=1000), night-s3 (plain seed 3)
: "${NIGHT:?set NIGHT to the night runs' folder}"
: "${RISKEVO:?set RISKEVO to a riskevo checkout}"
cd "$RISKEVO"
for r in ${RUNS:-s4-restart night-s5r}; do
  nohup nice -n 10 .venv/bin/python -m evolve run --name $r --n-jobs 1 --runs-dir $NIGHT >> $NIGHT/$r.out 2>&1 &
done
pgrep -f watch.sh >/dev/null || nohup bash $NIGHT/watch.sh >> $NIGHT/watch.out 2>&1 &
