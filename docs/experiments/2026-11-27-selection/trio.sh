#!/usr/bin/env bash
: "${NIGHT:?set NIGHT to the night runs' folder}"
: "${RISKEVO:?set RISKEVO to a riskevo checkout}"
cd "$RISKEVO"
A=$NIGHT/players/s4-crown850.json; B=$NIGHT/players/s5r-crown3100.json; C=$NIGHT/players/s3-crown1050.json
for f in $NIGHT/players/*.json $NIGHT/fresh/*.json $(ls $NIGHT/centroid/*-cent*.json); do
  l=$(basename $f .json)
  [ -f $NIGHT/trio/$l/diagnose.csv ] || .venv/bin/python -m arena diagnose $f $A $B $C --games 1000 --seed 7 --jobs 1 --out $NIGHT/trio/$l > /dev/null 2>&1
done
echo done
