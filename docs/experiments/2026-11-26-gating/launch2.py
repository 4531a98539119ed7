"""Experiment launcher: generation 0 = the genome INIT and 255 mutated copies of it (each gene
stepped with probability 0.3 by its mutation sigma). usage: launch2.py INIT -- evolve args..."""
import sys
import evolve.strategy as S
from evolve import ga
from features.genome import load_genome

init = load_genome(sys.argv[1])[0]
args = sys.argv[3:]


def initial(self, rng):
    n, g = self.cfg.run.population, len(init)
    step = rng.normal(size=(n, g)) * self.plugin.sigma * (rng.random((n, g)) < 0.3)
    step[0] = 0.0
    step[:, self.plugin.scale] = 0.0
    return ga.individuals(init + step)


S.GeneticAlgorithm.initial = initial
from evolve.cli import main  # noqa: E402
sys.exit(main(args))
