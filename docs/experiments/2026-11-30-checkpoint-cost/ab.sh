#!/usr/bin/env bash
# ab.sh VARIANT TREE [END]: resume a copy of seed 92's night ($NIGHT/n92) at generation 8,367 to
# END (8468) with the riskevo checkout TREE; each progress line stamped with the clock, in
# $OUT/VARIANT/out.txt.
set -u
v=$1; tree=$2; end=${3:-8468}; NIGHT=${NIGHT:-runs/night}; OUT=${OUT:-runs/ab}
d=$OUT/$v; rm -rf "$d"; mkdir -p "$d/n92/checkpoints" "$d/n92/genes"
cp -a "$NIGHT"/n92/{config.toml,log.jsonl,champion.json} "$d/n92/"
cp -a "$NIGHT/n92/checkpoints/ckpt_08367.npz" "$d/n92/checkpoints/"
d=$(cd "$d" && pwd)
cd "$tree"
PYTHONPATH=$tree .venv/bin/python -u -m evolve run --name n92 --runs-dir "$d" \
  --generations "$end" --set plan.games=0 --set output.plot_every=0 2>&1 |
  while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done > "$d/out.txt"
