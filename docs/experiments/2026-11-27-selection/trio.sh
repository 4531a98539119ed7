#!/usr/bin/env bash
cd /work/main
A=/work/night/players/s4-crown850.json; B=/work/night/players/s5r-crown3100.json; C=/work/night/players/s3-crown1050.json
for f in /work/night/players/*.json /work/night/fresh/*.json $(ls /work/night/centroid/*-cent*.json); do
  l=$(basename $f .json)
  [ -f /work/night/trio/$l/diagnose.csv ] || .venv/bin/python -m arena diagnose $f $A $B $C --games 1000 --seed 7 --jobs 1 --out /work/night/trio/$l > /dev/null 2>&1
done
echo done
