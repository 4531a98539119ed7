#!/usr/bin/env bash
# resume both night runs (bit-identical resume) and the crowning watcher
cd /work/main
for s in 3 4; do
  nohup nice -n 10 .venv/bin/python -m evolve run --name night-s$s --seed $s --n-jobs 1 --runs-dir /work/night >> /work/night/night-s$s.out 2>&1 &
done
pgrep -f watch.sh >/dev/null || nohup bash /work/night/watch.sh >> /work/night/watch.out 2>&1 &
