# Usage: python kinds.py TREE random|hand|GENOME.json N  (decide and step cost per decision kind)
"""Per-decision-kind cost of the compiled loop: snapshots of real games, kernels timed in isolation."""
import sys, time, statistics
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")
import numpy as np
from numba import njit
from features.decide import decide
from features.work import make_work
from game.kernel import step
from game.state import State
from game import layout as L

from snapshots import fx, genomes, m, mp, rules, snapshots
which = sys.argv[2] if len(sys.argv) > 2 else "random"
n = int(sys.argv[3]) if len(sys.argv) > 3 else 30
W = genomes(which, n)
S, WR, A = snapshots(W)
phase = S["sc"][:, L.S_PHASE]
rounds_total = None

@njit
def load(S_owner, S_armies, S_cards, S_pl, S_sc, S_ev, i, s):
    s.owner[:] = S_owner[i]; s.armies[:] = S_armies[i]; s.cards[:] = S_cards[i]
    s.pl[:, :] = S_pl[i]; s.sc[:] = S_sc[i]; s.ev[:] = S_ev[i]

@njit
def run_decide(m, fx, rules, S_owner, S_armies, S_cards, S_pl, S_sc, S_ev, WR, idx, s, work, do):
    acc = 0
    for i in idx:
        load(S_owner, S_armies, S_cards, S_pl, S_sc, S_ev, i, s)
        if do:
            k, a, b, c = decide(m, fx, s, rules, WR[i], work)
            acc += k + a
    return acc

@njit
def run_step(m, rules, S_owner, S_armies, S_cards, S_pl, S_sc, S_ev, A, idx, s, rng, do):
    acc = 0
    for i in idx:
        load(S_owner, S_armies, S_cards, S_pl, S_sc, S_ev, i, s)
        if do:
            acc += step(m, s, rules, rng, A[i, 0], A[i, 1], A[i, 2], A[i, 3])
    return acc

s = State.empty(mp, 4).kernel; work = make_work(m, 4); g = np.random.default_rng(5)
args = (S["owner"], S["armies"], S["cards"], S["pl"], S["sc"], S["ev"])
names = {L.PH_SETUP: "setup place", L.PH_TRADE: "trade", L.PH_REINFORCE: "reinforce", L.PH_ATTACK: "attack",
         L.PH_OCCUPY: "occupy", L.PH_FORTIFY: "fortify"}
tot = 0.0; rows = []
for ph, nm in names.items():
    idx = np.nonzero(phase == ph)[0]
    if len(idx) == 0: continue
    res = {}
    for what in ("decide", "step"):
        ts = {True: [], False: []}
        for rep in range(5):
            for do in (True, False):
                t0 = time.process_time()
                for _ in range(3):
                    if what == "decide":
                        run_decide(m, fx, rules, *args, WR, idx, s, work, do)
                    else:
                        run_step(m, rules, *args, A, idx, s, g, do)
                ts[do].append((time.process_time() - t0) / 3)
        res[what] = max(0.0, statistics.median(ts[True]) - statistics.median(ts[False]))
    rows.append((nm, len(idx), res["decide"], res["step"]))
    tot += res["decide"] + res["step"]
print(f"{which}: {len(phase)} decisions in {n} games")
print(f"{'kind':12s} {'count':>7s} {'decide us':>10s} {'step us':>8s} {'share':>6s}")
for nm, c, d, st_ in rows:
    print(f"{nm:12s} {c:7d} {1e6*d/c:10.2f} {1e6*st_/c:8.2f} {100*(d+st_)/tot:5.1f}%")
print(f"total {tot:.3f} s")
