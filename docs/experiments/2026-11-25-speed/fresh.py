# Usage: python fresh.py TREE random|hand N  (decide per kind on carried summaries, features.players.carry)
"""Per-kind cost of `decide` in the compiled loop as it runs since summaries are carried.

For every snapshot of N real games whose decision is a placement or an attack: load it, decide,
step and `carry` (untimed in effect: the same work runs with do=False), then decide once more in
the position reached, timed when the summaries are fresh there; reported per kind of that second
decision, minus the same loop without it. Inlined copies of decide and step, as in `_turns`.
"""
import sys, time, statistics
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")
import numpy as np
from numba import njit
from features.compiled import _decide_inline, _step_inline
from features.work import make_work
from features.players import carry, M_FRESH
from game.state import State
from game import layout as L

from snapshots import fx, genomes, m, mp, rules, snapshots
which = sys.argv[2] if len(sys.argv) > 2 else "random"
n = int(sys.argv[3]) if len(sys.argv) > 3 else 30
W = genomes(which, n)
S, WR, _ = snapshots(W)
phase = S["sc"][:, L.S_PHASE]


@njit(_nrt=False)  # no reference counting, as the rule kernels (game/jit.py)
def run(m, fx, rules, S_owner, S_armies, S_cards, S_pl, S_sc, S_ev, WR, idx, s, work, rng,
        do, want, counts):
    acc = 0
    for i in idx:
        for t in range(s.owner.shape[0]):  # element loops: a slice copy needs numba's runtime
            s.owner[t] = S_owner[i, t]; s.armies[t] = S_armies[i, t]
        for t in range(s.cards.shape[0]): s.cards[t] = S_cards[i, t]
        for q in range(s.pl.shape[0]):
            for k in range(s.pl.shape[1]): s.pl[q, k] = S_pl[i, q, k]
        for t in range(s.sc.shape[0]): s.sc[t] = S_sc[i, t]
        for t in range(s.ev.shape[0]): s.ev[t] = S_ev[i, t]
        work.players.memo[:] = 0
        seat, ph = s.sc[L.S_CURRENT], s.sc[L.S_PHASE]
        kind, a, b, c = _decide_inline(m, fx, s, rules, WR[i], work)
        pre_a, pre_b, pre_q = 0, 0, 0
        if kind == L.A_ATTACK:
            pre_a, pre_b, pre_q = s.armies[a], s.armies[b], s.owner[b]
        _step_inline(m, s, rules, rng, kind, a, b, c)
        carry(m, s, seat, ph, kind, a, b, pre_a, pre_b, pre_q, work.players)
        if work.players.memo[M_FRESH] != 0 and s.sc[L.S_PHASE] == want:
            counts[0] += 1
            if do:
                k2, a2, b2, c2 = _decide_inline(m, fx, s, rules, WR[i], work)
                acc += k2 + a2
    return acc


s = State.empty(mp, 4).kernel; work = make_work(m, 4)
args = (S["owner"], S["armies"], S["cards"], S["pl"], S["sc"], S["ev"])
idx = np.nonzero((phase == L.PH_REINFORCE) | (phase == L.PH_ATTACK))[0]
print(f"{which}: {len(phase)} decisions in {n} games")
for want, nm in ((L.PH_REINFORCE, "reinforce"), (L.PH_ATTACK, "attack")):
    ts = {True: [], False: []}
    cnt = np.zeros(1, np.int64)
    for rep in range(15):
        for do in (True, False):
            g = np.random.Generator(np.random.PCG64(5))
            cnt[0] = 0
            t0 = time.process_time()
            run(m, fx, rules, *args, WR, idx, s, work, g, do, want, cnt)
            ts[do].append(time.process_time() - t0)
    d = max(0.0, statistics.median(ts[True]) - statistics.median(ts[False]))
    print(f"{nm:10s} fresh decisions {cnt[0]:7d}  decide {1e6 * d / cnt[0]:.2f} us"
          f"  (loop {statistics.median(ts[False]):.4f} s)")
