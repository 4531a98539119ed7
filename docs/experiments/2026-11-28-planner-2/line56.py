"""The progress line's measure exactly: eval_games against game.bots.GAUNTLET rotated over the
seats (evolve.rotation.rotated_opponents), GAMES games, seeds SeedSequence(SEED, (i,)); and the
same against 3x the bundled champion. usage: line56.py GAMES SEED PLAYER..."""
import sys, json, numpy as np
from evolve.plugin import eval_games
from evolve.rotation import rotated_opponents
from features.search.player import read_bot
from game.bots import GAUNTLET
n, seed = int(sys.argv[1]), int(sys.argv[2])
seeds = [np.random.SeedSequence(seed, spawn_key=(i,)) for i in range(n)]
for f in sys.argv[3:]:
    w, _, _ = read_bot(f)
    r = {}
    for label, opp in (("line", GAUNTLET), ("line_champion", ("champion",))):
        r[label] = float((eval_games(w, rotated_opponents(opp, n, 3), seeds, None, None) == 0).mean())
    print(f, json.dumps(r), flush=True)
