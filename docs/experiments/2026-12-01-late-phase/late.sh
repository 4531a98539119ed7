#!/usr/bin/env bash
# late.sh SEED [GAMES SIGMA END]: copy a default run's first hour ($NIGHTS/nSEED-1h, 2,092
# generations) to $OUT/lSEED and resume it to generation END (3138) with
# run.games_per_individual = GAMES (32) and variation.sigma_scale = SIGMA (0.5), in the checkout
# $TREE patched with late.patch (those two fields may then change on resume; experiment only).
set -eu
s=$1; games=${2:-32}; sigma=${3:-0.5}; end=${4:-3138}
NIGHTS=${NIGHTS:-runs}; OUT=${OUT:-runs/late}; TREE=${TREE:-.}
d=$OUT/l$s; rm -rf "$d"; mkdir -p "$OUT"
cp -a "$NIGHTS/n$s-1h" "$d"; rm -f "$d"/champion*.json
out=$(cd "$OUT" && pwd)
sed -i "s/^games_per_individual = 16/games_per_individual = $games/; \
s/^sigma_scale = 1.0/sigma_scale = $sigma/; s#^runs_dir = .*#runs_dir = \"$out\"#" "$d/config.toml"
cd "$TREE"
PYTHONPATH=$TREE .venv/bin/python -m evolve run --name "l$s" --runs-dir "$out" \
  --set run.generations="$end" > "$out/l$s.out" 2>&1
