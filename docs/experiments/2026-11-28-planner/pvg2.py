"""planner (row 0) vs 3 opponents over several setting variants; paired seeds; greedy baseline once."""
import sys, time, json, numpy as np
from features.genome import load_genome
from features.search.player import PlanSettings
from features.compiled import play_mixed_games
from evolve.stats import wilson_interval
bot, opp, n, seed0 = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
variants = [json.loads(v) for v in sys.argv[5:]]
w, _ = load_genome(bot); wo, _ = load_genome(opp)
W = np.stack([w, wo, wo, wo]); pol = np.zeros((n, 4), np.int32); Ws = np.repeat(W[None], n, 0)
seeds = [np.random.SeedSequence(seed0, spawn_key=(i,)) for i in range(n)]
place0, r0, _ = play_mixed_games(Ws, pol, seeds); wg = int((place0[:, 0] == 1).sum())
print(f"greedy {wg/n:.3f} {wilson_interval(wg, n)} rounds {r0.mean():.1f}", flush=True)
for over in variants:
    d = PlanSettings().as_dict()
    for k, v in over.items():
        if k.startswith("value."): d["value"][k] = v
        else: d[k] = v
    ps = PlanSettings.from_dict(d)
    plans = np.zeros((n, 4, len(ps.vector()))); plans[:, 0] = ps.vector()
    t = time.time(); place, r, c = play_mixed_games(Ws, pol, seeds, plans=plans); tp = time.time() - t
    wp = int((place[:, 0] == 1).sum()); lo, hi = wilson_interval(wp, n)
    both = int(((place[:, 0] == 1) & (place0[:, 0] == 1)).sum())
    print(f"{json.dumps(over)}: plan {wp/n:.3f} [{lo:.3f},{hi:.3f}] (+{wp-both} -{wg-both} vs greedy) rounds {r.mean():.1f} {tp/n*1000:.0f} ms/game", flush=True)
