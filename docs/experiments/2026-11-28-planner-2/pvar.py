"""Planning settings variants of one bot file, in-house: gauntlet mean (3x each bot) and vs 3x
its greedy self, the same seeded games for every variant (seat rotated).
usage: pvar.py BOT N SEED '{"rollouts": 16}' ..."""
import sys, json, time, numpy as np
from features.search.player import read_bot, PlanSettings
from evolve.planfit import check
from features.compiled import play_mixed_games
bot, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w, meta, ps = read_bot(bot)
seeds = [np.random.SeedSequence(seed + 1, spawn_key=(i,)) for i in range(n)]
seat = np.arange(n) % 4
def selfplay(vec):
    ws = np.repeat(np.stack([w] * 4)[None], n, 0); pol = np.zeros((n, 4), np.int32)
    plans = np.zeros((n, 4, len(vec))); plans[np.arange(n), seat] = vec
    place, _, _ = play_mixed_games(ws, pol, seeds, plans=plans)
    return float((place[np.arange(n), seat] == 1).mean())
for v in sys.argv[4:]:
    d = ps.as_dict(); d.update(json.loads(v)); p = PlanSettings.from_dict(d)
    t = time.time(); c = check(w, p.vector(), n, seed)
    print(f"{v}: gauntlet plan {c.plan_mean:.3f} greedy {c.greedy_mean:.3f} self {selfplay(p.vector()):.3f} ({time.time()-t:.0f}s)", flush=True)
