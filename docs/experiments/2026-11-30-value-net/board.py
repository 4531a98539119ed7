"""Record the bundled champion's self-play positions with the board itself beside the value
terms: per territory, whether the seat owns it and log(1 + armies) split by owner (the seat's,
another's), 3 x 42 numbers. For asking whether a value that sees more than the 48 terms keeps
learning from more games (the night's data) where the terms alone stop.

usage: board.py GAMES SEED OUT.npz [FIRST]   (games FIRST .. FIRST + GAMES - 1 of the seed)
"""
import sys
import time

import numpy as np
from numba import njit

from features.botfile import BotFile
from features.compiled import trace_linear_game
from features.search.value import NV, value_scratch, value_terms
from game.map import classic_map
from game.rules import layout as L
from game.rules.kernel import setup, step
from game.state import Rules, State


@njit(cache=True)
def replay(m, s, rules, rng, trace, scratch, x, b, seat_of):  # type: ignore[no-untyped-def]
    perm = setup(m, s, rules, rng)
    sc = s.sc
    last = np.full(s.pl.shape[0], -1, np.int64)
    n = 0
    nt = s.owner.shape[0]
    for i in range(trace.shape[0]):
        seat = sc[L.S_CURRENT]
        if sc[L.S_PHASE] == L.PH_FORTIFY and last[seat] != sc[L.S_TURNS] and n < x.shape[0]:
            last[seat] = sc[L.S_TURNS]
            value_terms(m, s, rules, seat, scratch)
            x[n, :] = scratch[:NV]
            for t in range(nt):
                a = np.log1p(s.armies[t]) / 4.0
                if s.owner[t] == seat:
                    b[n, t] = 1.0
                    b[n, nt + t] = a
                else:
                    b[n, 2 * nt + t] = a
            seat_of[n] = seat
            n += 1
        if step(m, s, rules, rng, trace[i, 1], trace[i, 2], trace[i, 3], trace[i, 4]) != L.E_OK:
            return perm, -1 - i
    return perm, n


games, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
mp, rl = classic_map(), Rules()
w = np.stack([BotFile.read("game/bots/files/champion.json").weights] * 4)
scratch = value_scratch(mp.kernel, 4)
nt = len(mp.territories)
xs, bs, ys, gs = [], [], [], []
t0 = time.time()
for g in range(first, first + games):
    ss = np.random.SeedSequence(seed, spawn_key=(g,))
    res, trace = trace_linear_game(w, ss, rl, mp, 100_000)
    st = State.empty(mp, 4, one_buffer=False)
    rows = len(trace) // 2 + 1
    x, b = np.zeros((rows, NV)), np.zeros((rows, 3 * nt), np.float32)
    seat_of = np.zeros(rows, np.int64)
    perm, n = replay(mp.kernel, st.kernel, rl.vector(), np.random.Generator(np.random.PCG64(ss)),
                     trace, scratch, x, b, seat_of)
    assert n >= 0
    xs.append(x[:n])
    bs.append(b[:n])
    ys.append((perm[seat_of[:n]] == res.winner).astype(np.float64))
    gs.append(np.full(n, g, np.int64))
np.savez(out, x=np.concatenate(xs), b=np.concatenate(bs), won=np.concatenate(ys),
         game=np.concatenate(gs))
print(f"{games} games seed {seed}: {sum(map(len, ys))} positions, {time.time() - t0:.0f} s")
