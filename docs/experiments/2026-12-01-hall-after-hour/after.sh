#!/usr/bin/env bash
# after.sh SEED MODE [END]: copy a default run's first hour ($NIGHTS/nSEED-1h, 2,092 generations)
# to $OUT/<MODE-initial>SEED and resume it to generation END (2877) with one anchor seat in every
# league game (league.seats = 1). MODE hall: the anchor is the proven champion (hall_size 1);
# MODE bots: one of the six bundled gauntlet bots (league.bots, hall_size 0).
# $TREE is a checkout patched with after.patch (those league fields may change on resume, the
# hall is cut to league.hall_size, new bots start at the initial rating; experiment only).
set -eu
s=$1; mode=$2; end=${3:-2877}
NIGHTS=${NIGHTS:-runs}; OUT=${OUT:-runs/after}; TREE=${TREE:-.}
case $mode in
  hall) name=h$s; hall=1; bots='[]';;
  bots) name=b$s; hall=0
        bots='["continent", "planner", "hunter", "distributor", "bully", "strategist"]';;
  *) echo "after.sh: MODE must be hall or bots, got $mode" >&2; exit 2;;
esac
d=$OUT/$name; rm -rf "$d"; mkdir -p "$OUT"
cp -a "$NIGHTS/n$s-1h" "$d"; rm -f "$d"/champion*.json
out=$(cd "$OUT" && pwd)
sed -i "s/^seats = 0/seats = 1/; s/^hall_size = 8/hall_size = $hall/; s/^bots = \[\]/bots = $bots/; \
s#^runs_dir = .*#runs_dir = \"$out\"#" "$d/config.toml"
cd "$TREE"
PYTHONPATH=$TREE .venv/bin/python -m evolve run --name "$name" --runs-dir "$out" \
  --set run.generations="$end" > "$out/$name.out" 2>&1
