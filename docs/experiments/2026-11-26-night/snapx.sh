#!/usr/bin/env bash
# copy polish-x/champion.json to snap/stepNNN.json whenever a new one is crowned
: "${NIGHT:?set NIGHT to the night runs' folder}"
while true; do
  s=$(python3 -c "import json;print('%03d'%json.load(open('$NIGHT/polish-x/champion.json'))['meta']['step'])" 2>/dev/null)
  [ -n "$s" ] && [ ! -f $NIGHT/polish-x/snap/step$s.json ] && cp $NIGHT/polish-x/champion.json $NIGHT/polish-x/snap/step$s.json
  sleep 20
done
