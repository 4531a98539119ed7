#!/usr/bin/env bash
# keep every crowned champion of the night runs, named by the generation it was crowned in
: "${NIGHT:?set NIGHT to the night runs' folder}"
while true; do
  for r in $NIGHT/night-s*/; do
    f=$r/champion.json; [ -f "$f" ] || continue
    mkdir -p $r/crowned
    g=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("meta",d).get("crowned_generation","") if isinstance(d,dict) else "")' "$f" 2>/dev/null)
    [ -n "$g" ] && [ ! -f $r/crowned/gen$(printf %05d $g).json ] && cp "$f" $r/crowned/gen$(printf %05d $g).json
  done
  sleep 20
done
