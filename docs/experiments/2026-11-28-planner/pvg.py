"""planner (row 0) vs 3 opponents; prints win rate of row 0 and of greedy same weights in the same seeds."""
import sys, time, json, numpy as np
from features.genome import load_genome
from features.search.player import PlanSettings
from features.search.value import NAMES
from features.compiled import play_mixed_games
from game.bots import COMPILED_BOTS
from evolve.stats import wilson_interval
bot = sys.argv[1]; opp = sys.argv[2]; n = int(sys.argv[3]); seed0 = int(sys.argv[4])
over = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
w, _ = load_genome(bot)
d = PlanSettings().as_dict(); 
for k, v in over.items():
    if k.startswith("value."): d["value"][k] = v
    else: d[k] = v
ps = PlanSettings.from_dict(d)
W = np.stack([w]*4); pol = np.zeros(4, np.int32)
if opp in COMPILED_BOTS: pol[1:] = COMPILED_BOTS[opp]
else:
    wo, _ = load_genome(opp); W[1:] = wo
seeds = [np.random.SeedSequence(seed0, spawn_key=(i,)) for i in range(n)]
Ws = np.repeat(W[None], n, 0); P = np.repeat(pol[None], n, 0)
plans = np.zeros((n, 4, len(ps.vector()))); plans[:, 0] = ps.vector()
t = time.time(); place, r, c = play_mixed_games(Ws, P, seeds, plans=plans); tp = time.time() - t
t = time.time(); place0, r0, c0 = play_mixed_games(Ws, P, seeds); tg = time.time() - t
wp = int((place[:, 0] == 1).sum() - 0); wg = int((place0[:, 0] == 1).sum())
lo, hi = wilson_interval(wp, n); lo0, hi0 = wilson_interval(wg, n)
print(f"{json.dumps(over)} vs {opp}: plan {wp/n:.3f} [{lo:.3f},{hi:.3f}] greedy {wg/n:.3f} [{lo0:.3f},{hi0:.3f}] "
      f"rounds {r.mean():.1f}/{r0.mean():.1f} capped {c.mean():.3f} time {tp:.1f}s/{tg:.1f}s", flush=True)
