"""Island statistics (evolve.breeding.islands.island_statistics, k = 4) of a run's latest
checkpoint; for a one-population run the same four blocks of its slots, as a baseline."""
import sys
from pathlib import Path

from evolve.breeding.islands import island_statistics
from evolve.checkpoint import list_checkpoints, load_checkpoint

for folder in sys.argv[1:]:
    g, path = list_checkpoints(Path(folder) / "checkpoints")[-1]
    ck = load_checkpoint(path)
    st = island_statistics(ck.genes, ck.mu, 4)
    print(f"{folder} generation {g}: spread {st['island_spread']:.3f} best "
          + " ".join(f"{x:.2f}" for x in st["island_mu_max"]))
