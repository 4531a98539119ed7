"""Experiment launcher: an evolve run whose hall is pre-filled with fixed genome files
(hall_every = 0: nobody else joins). usage: launch.py FILES(comma) -- evolve run args..."""
import sys
import numpy as np
import evolve.anchors as A
from features.genome import load_genome

files = sys.argv[1].split(",")
args = sys.argv[3:]
orig = A.Anchors.create.__func__


def create(cls, bots, compiled, n_genes, mu, sigma):
    a = orig(cls, bots, compiled, n_genes, mu, sigma)
    for i, f in enumerate(files):
        a.admit(load_genome(f)[0], -1 - i, mu, sigma, 99)
    return a


A.Anchors.create = classmethod(create)
from evolve.cli import main  # noqa: E402
sys.exit(main(args))
