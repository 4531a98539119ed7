"""A run's planning champion with another fit: plan_champion as plan_run calls it (the [plan]
defaults, seed SEED) but on GAMES fit games and, when given, the one self share SELF_SHARE
(the mixed fits of this page ran with 0.25, then the default). Runs in the checkout.
usage: bigfit.py BOT GAMES SEED OUT [SELF_SHARE]"""
import sys, json, time
from pathlib import Path
from evolve.planfit import plan_champion
from evolve.config import load_config
from features.genome import save_genome
from features.search.player import read_bot
bot, games, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
share = float(sys.argv[5]) if len(sys.argv) > 5 else None
p = load_config().plan
w, meta, _ = read_bot(Path(bot))
t = time.time()
plan, meta, res = plan_champion(w, meta, bot, games=games, check_games=p.check_games, seed=seed,
                                horizon=p.horizon, rollouts=p.rollouts, top_k=p.top_k,
                                margins=p.margins, refits=0, self_shares=p.self_share if share is None else [share])
save_genome(out, w, meta, plan=plan)
print(out, games, f"{time.time()-t:.0f}s", res.words(), flush=True)
print(json.dumps({k: round(v, 3) for k, v in plan["value"].items()}), flush=True)
