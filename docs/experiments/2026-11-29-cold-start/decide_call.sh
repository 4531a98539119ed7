#!/bin/bash
# Usage: decide_call.sh BASE_TREE CALL_TREE  (two checkouts of one commit, each with .venv; in
# CALL_TREE the loop in features/compiled.py calls `decide(...)` instead of `_decide_inline(...)`).
# Per tree, twice and alternately: an empty numba cache, the engine and bots families compiled
# first (as `make venv` orders them), the CPU of compiling the loop family, speed.py's rounds/s.
# Then six alternations of speed.py (300 games x 5 batches) on the warm caches.
set -u
base=$1; call=$2; out=${OUT:-decide_call.txt}
declare -A cache
for tree in "$base" "$call" "$base" "$call"; do
  c=$(mktemp -d); cache[$tree]=$c; cd "$tree"
  export NUMBA_CACHE_DIR=$c PYTHONPATH=$tree
  .venv/bin/python -m arena.warmup engine >/dev/null 2>&1
  .venv/bin/python -m arena.warmup bots >/dev/null 2>&1
  /usr/bin/time -o "$c/t" -f "%U %S" .venv/bin/python -m arena.warmup loop >/dev/null 2>&1
  echo "$tree loop compile user+sys $(cat "$c/t") $(.venv/bin/python \
    docs/experiments/2026-11-29-cold-start/speed.py 200 | tail -1)" >> "$out"
done
for i in 1 2 3 4 5 6; do
  for tree in "$base" "$call"; do
    cd "$tree"; export NUMBA_CACHE_DIR=${cache[$tree]} PYTHONPATH=$tree
    echo "$tree $(.venv/bin/python docs/experiments/2026-11-29-cold-start/speed.py 300 | tail -1)" >> "$out"
  done
done
