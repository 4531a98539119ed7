"""Fit the value weights by logistic regression of 'this seat wins the game' on the value terms
of positions from greedy self-play (Monte Carlo targets, as TD(1)): positions at the end of each
attack phase (fortify decision) and at each turn's first reinforcement."""
import sys, json, numpy as np
from features.genome import load_genome
from features.linear import LinearPlayer
from features.search.value import NV, NAMES, value_terms
from game.decision import DecisionKind
from game.engine import play_game
from game.map import classic_map
from game.state import Rules
MAP = classic_map(); RV = Rules().vector()
bot, games, seed0, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
w, _ = load_genome(bot)

class Rec(LinearPlayer):
    def __init__(self, w):
        super().__init__(w); self.att = []; self.turn = []; self.last = -1
    def act(self, view, decision):
        k = decision.kind
        st = view.kernel_state()
        if k is DecisionKind.FORTIFY or (k is DecisionKind.REINFORCE and int(st.kernel.sc[15]) != self.last):
            buf = np.zeros(NV + 8)
            value_terms(MAP.kernel, st.kernel, RV, st.current, buf)
            (self.att if k is DecisionKind.FORTIFY else self.turn).append(buf[:NV].copy())
            if k is DecisionKind.REINFORCE: self.last = int(st.kernel.sc[15])
        return super().act(view, decision)

X = {"attack": [], "round": []}; Y = {"attack": [], "round": []}
for g in range(games):
    ps = [Rec(w) for _ in range(4)]
    o = play_game(ps, seed=seed0 + g)
    for i, p in enumerate(ps):
        y = 1.0 if o.winner == i else 0.0
        X["attack"] += p.att; Y["attack"] += [y] * len(p.att)
        X["round"] += p.turn; Y["round"] += [y] * len(p.turn)

def logit(X, y, l2=1e-3, iters=50):
    X = np.c_[np.ones(len(X)), X]; b = np.zeros(X.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-X @ b)); W = p * (1 - p)
        H = X.T @ (X * W[:, None]) + l2 * np.eye(X.shape[1]); g = X.T @ (y - p) - l2 * b
        b += np.linalg.solve(H, g)
    return b
res = {}
for h in ("attack", "round"):
    x = np.array(X[h]); y = np.array(Y[h])
    keep = [i for i in range(NV) if NAMES[i] != "value.won"]
    b = logit(x[:, keep], y)
    wv = {NAMES[i]: float(b[1 + j]) for j, i in enumerate(keep)}
    res[h] = {"n": len(y), "base": float(y.mean()), "weights": wv}
    print(h, len(y), json.dumps({k: round(v, 2) for k, v in wv.items()}))
json.dump(res, open(out, "w"), indent=1)
