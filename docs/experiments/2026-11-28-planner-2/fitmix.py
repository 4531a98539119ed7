"""Fit the attack-horizon value of BOT on positions of games against mixed opponents.
usage: fitmix.py BOT GAMES SEED OUT [self_share]"""
import sys, json, time
import numpy as np
from features.linear import LinearPlayer
from features.search.value import NV, NAMES, TERMS, value_terms
from features.search.player import PlanSettings, read_bot
from features.genome import save_genome
from evolve.planfit import fit_logistic
from game.decision import DecisionKind
from game.engine import play_game
from game.layout import S_TURNS
from game.map import classic_map
from game.state import Rules
from game.bots import BOTS, GAUNTLET

bot, games, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
self_share = float(sys.argv[5]) if len(sys.argv) > 5 else 0.25
weights, meta, _ = read_bot(bot)
board, rules = classic_map(), Rules(); rv = rules.vector()
class Rec(LinearPlayer):
    def __init__(self):
        super().__init__(weights); self.rows = []; self.turn = -1
    def act(self, view, decision):
        st = view.kernel_state(); turn = int(st.kernel.sc[S_TURNS])
        if decision.kind is DecisionKind.FORTIFY and turn != self.turn:
            self.turn = turn
            buf = np.zeros(NV + len(board.kernel.bonus))
            value_terms(board.kernel, st.kernel, rv, st.current, buf)
            self.rows.append(buf[:NV].copy())
        return super().act(view, decision)
g = np.random.default_rng(seed)
xs, ys = [], []
t0 = time.time()
for i in range(games):
    seats = []
    for k in range(4):
        if k == 0 or g.random() < self_share:
            seats.append(Rec())
        else:
            seats.append(BOTS[GAUNTLET[int(g.integers(len(GAUNTLET)))]]())
    order = g.permutation(4)
    seats = [seats[j] for j in order]
    res = play_game(seats, seed=np.random.SeedSequence(seed, spawn_key=(i,)), rules=rules, map=board)
    for j, p in enumerate(seats):
        if isinstance(p, Rec):
            xs += p.rows; ys += [1.0 if res.winner == j else 0.0] * len(p.rows)
x, y = np.array(xs), np.array(ys)
keep = [i for i, t in enumerate(TERMS) if t.name != "won"]
b = fit_logistic(x[:, keep], y)
vals = {NAMES[i]: float(b[1 + j]) for j, i in enumerate(keep)}
print(f"{len(y)} positions of {games} games in {time.time()-t0:.0f}s", json.dumps({k: round(v, 2) for k, v in vals.items()}))
plan = PlanSettings(rollouts=8, top_k=3, horizon="attack").as_dict(); plan["value"].update(vals)
save_genome(out, weights, dict(meta), plan=PlanSettings.from_dict(plan).as_dict())
