# The planning version of session 19's players ($NIGHT/players) the way a run makes one
# (`evolve plan`, margins 0.1, 0.2, 0.4, 3,000 fit games, 300 check games per bot, seed 7),
# written to $EXP/plan/; then seed 43's champions of generations 1,150 and 2,200 ($EXP/s43-gN.json,
# from `evolve export runs/s43 --gen N`).
cd "$RISKEVO"
for b in s23-g100 s23-g200 s23-g300 s23-g500 s23-g700 s23-g1060 s4-g300 s4-g500 s4-g890; do
  [ -f "$EXP/plan/$b.json" ] && continue
  nice -n 8 .venv/bin/python -m evolve plan "$NIGHT/players/$b.json" --seed 7 \
    --margin 0.1 --margin 0.2 --margin 0.4 --out "$EXP/plan/$b.json"
done
.venv/bin/python -m evolve plan "$EXP/s43-g1150.json" --seed 8 --out "$EXP/s43-g1150-plan.json"
.venv/bin/python -m evolve plan "$EXP/s43-g2200.json" --seed 9 --out "$EXP/s43-g2200-plan.json"
