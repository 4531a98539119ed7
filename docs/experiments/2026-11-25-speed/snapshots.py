"""Shared by kinds.py and fresh.py: the genomes of a batch and a snapshot before every decision.

Import after putting the tree to measure first on sys.path.
"""
import numpy as np
from features.compiled import trace_linear_game
from features.genome import LAYOUT, hand_set_genome, load_genome, random_genomes
from features.kernels import feature_context
from game.kernel import setup, step
from game.map import classic_map
from game.state import Rules, State

mp = classic_map(); m = mp.kernel; fx = feature_context(m); rules = Rules().vector()


def genomes(which, n):
    """n x 4 genomes: random, the hand-set genome, or a genome file's."""
    if which == "random":
        return random_genomes(LAYOUT, 4 * n, np.random.default_rng(1)).reshape(n, 4, -1)
    g = hand_set_genome() if which == "hand" else load_genome(which)[0]
    return np.broadcast_to(g, (n, 4, LAYOUT.size)).copy()


def snapshots(W):
    """Replay games 100.. of W: (state arrays before every decision, its weights, its action)."""
    snaps = {k: [] for k in ("owner", "armies", "cards", "pl", "sc", "ev")}
    wrow, acts = [], []
    for gi in range(W.shape[0]):
        seed = 100 + gi
        _out, tr = trace_linear_game(W[gi], seed)
        s = State.empty(mp, 4).kernel
        r = np.random.Generator(np.random.PCG64(seed))
        perm = setup(m, s, rules, r)
        for row in tr:
            for k in snaps: snaps[k].append(getattr(s, k).copy())
            wrow.append(W[gi, perm[row[0]]]); acts.append(row[1:].copy())
            assert step(m, s, rules, r, int(row[1]), int(row[2]), int(row[3]), int(row[4])) == 0
    S = {k: np.stack(v) for k, v in snaps.items()}
    return S, np.stack(wrow), np.stack(acts).astype(np.int64)
