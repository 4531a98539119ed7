"""CMA-ES over the planner's value weights at fixed greedy weights: fitness = planner wins
in paired seeded games against 3 copies of the same greedy player (par 0.25)."""
import sys, json, time, numpy as np
from deap import cma, base, creator
from features.genome import load_genome
from features.search.player import PlanSettings
from features.search.value import NAMES, NV, default_weights
from features.compiled import play_mixed_games
bot, games, gens, lam, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
w, _ = load_genome(bot)
W = np.stack([w]*4); pol = np.zeros((games, 4), np.int32); Ws = np.repeat(W[None], games, 0)
base_ps = PlanSettings()
def fitness(vw, gen):
    ps = PlanSettings(value=tuple(float(x) for x in vw))
    plans = np.zeros((games, 4, len(ps.vector()))); plans[:, 0] = ps.vector()
    seeds = [np.random.SeedSequence(9000 + gen, spawn_key=(i,)) for i in range(games)]
    place, _, _ = play_mixed_games(Ws, pol, seeds, plans=plans)
    return float((place[:, 0] == 1).mean())
creator.create("F", base.Fitness, weights=(1.0,)); creator.create("I", list, fitness=creator.F)
np.random.seed(5)  # deap.cma draws from numpy's global generator (the run also seeded random, unused)
x0 = default_weights(); x0[-1] = 10.0
strat = cma.Strategy(centroid=list(x0[:-1]), sigma=0.5, lambda_=lam)
log = []
for g in range(gens):
    pop = strat.generate(creator.I)
    for ind in pop:
        vw = list(ind) + [10.0]
        ind.fitness.values = (fitness(vw, g),)
    strat.update(pop)
    best = max(pop, key=lambda i: i.fitness.values[0])
    rec = {"gen": g, "best": best.fitness.values[0], "mean": float(np.mean([i.fitness.values[0] for i in pop])),
           "centroid": dict(zip(NAMES[:-1], map(float, strat.centroid))), "best_w": dict(zip(NAMES[:-1], map(float, best)))}
    log.append(rec); print(json.dumps(rec), flush=True)
    json.dump(log, open(out, "w"), indent=1)
