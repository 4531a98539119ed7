# The planning version of every player in $NIGHT/players (and $NIGHT/s4-850.json), written to
# $EXP/plan/ by `evolve plan` (3,000 fit games, the check at 300 games per bot, seed 1).
cd "$RISKEVO"
for p in "$NIGHT"/players/*.json "$NIGHT"/s4-850.json; do
  b=$(basename "$p" .json)
  [ -f "$EXP/plan/$b.json" ] && continue
  .venv/bin/python -m evolve plan "$p" --seed 1 --out "$EXP/plan/$b.json"
done
