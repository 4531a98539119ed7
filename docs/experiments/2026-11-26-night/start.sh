#!/usr/bin/env bash
# resume the night runs (bit-identical resume) and the crowning watcher; one core each, so
# start at most two: night-s4 (plain seed 4), s4-restart (seed 4 from gen 4,060 with
# restart_after=1000), night-s5r (seed 5, restart_after=1000), night-s3 (plain seed 3)
cd /work/main
for r in ${RUNS:-s4-restart night-s5r}; do
  nohup nice -n 10 .venv/bin/python -m evolve run --name $r --n-jobs 1 --runs-dir /work/night >> /work/night/$r.out 2>&1 &
done
pgrep -f watch.sh >/dev/null || nohup bash /work/night/watch.sh >> /work/night/watch.out 2>&1 &
