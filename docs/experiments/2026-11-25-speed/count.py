# Usage: python count.py TREE  (decisions per round, us per decision, rounds/s of a source tree)
import sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
from features.compiled import trace_linear_game, play_linear_game
from features.genome import LAYOUT, hand_set_genome, random_genomes
n = 60
rng = np.random.default_rng(1)
for which in ("random", "hand"):
    W = random_genomes(LAYOUT, 4 * n, rng).reshape(n, 4, -1) if which == "random" else np.broadcast_to(hand_set_genome(), (n, 4, LAYOUT.size)).copy()
    play_linear_game(W[0], 1)
    acts = rounds = 0; kinds = np.zeros(8, int)
    t0 = time.process_time()
    for g in range(n):
        out = play_linear_game(W[g], 100 + g)
        acts += out.actions; rounds += out.rounds
    dt = time.process_time() - t0
    for g in range(n):
        _, tr = trace_linear_game(W[g], 100 + g)
        kinds += np.bincount(tr[:, 1], minlength=8)[:8]
    print(which, "decisions/round", round(acts / rounds, 1), "us/decision", round(1e6 * dt / acts, 2), "rounds/s", round(rounds / dt), "kinds/round", np.round(kinds / rounds, 1))
