"""savecost.py DIR: CPU seconds of one checkpoint write as 0.23.0 (19d0f2b) made it after every
generation, on a resumed night's state (DIR/n92c: seed 92's config.toml, log.jsonl,
champion.json and checkpoints/ckpt_08367.npz), with its log cut to 2,000 records and whole."""
import sys
import time

from evolve.breeding import ga, records
from evolve.checkpoint import Checkpoint, save_checkpoint
from evolve.config import fingerprint
from evolve.evolution import Evolution
from evolve.plugin import load_plugin
from evolve.run_cmd import build_parser, resolve_config

cfg, folder, name = resolve_config(build_parser().parse_args(
    ["--name", "n92c", "--runs-dir", sys.argv[1]]))
evo = Evolution(cfg, load_plugin(cfg), folder, name)
assert evo.resume()
print("generation", evo.generation, "log records", len(evo.logbook))
for cut in (2000, 8368):
    for _ in range(3):
        c0, w0 = time.process_time(), time.perf_counter()
        log = records.flat_records(evo.logbook)[:cut]
        c1 = time.process_time()
        mu, sigma = evo.ratings()
        arrays = {**evo.strategy.state(),
                  **records.hall_of_fame_arrays(evo.hall_of_fame, evo.plugin.n_genes),
                  **evo.proven.arrays(evo.plugin.n_genes), **evo.anchors.arrays(),
                  **evo.value.arrays()}
        ck = Checkpoint(generation=cut - 1, genes=ga.to_array(evo.pop), mu=mu, sigma=sigma,
                        names=evo.plugin.names, rng_state=dict(evo.rng.bit_generator.state),
                        config=fingerprint(evo.cfg), arrays=arrays, log=log)
        save_checkpoint(folder.checkpoints, ck, 100)
        c2, w2 = time.process_time(), time.perf_counter()
        print(f"log {cut}: records {c1 - c0:.3f} s CPU, whole write {c2 - c0:.3f} s CPU "
              f"({w2 - w0:.3f} s wall)")
