"""One kernel family compiled in this process, with numba's compile events per function.

Run at the commit the page names, from the checkout, with an empty cache:
    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python docs/experiments/2026-11-29-cold-start/fam.py greedy
FAMILY: greedy (a league game), rate, web, bot:NAME (one bot's warm-up game).
Times are inclusive (a function's time holds the callees it compiled).
"""
import resource
import sys
import time

import numpy as np
from numba.core import event


class Rec(event.Listener):
    def __init__(self):
        self.t = {}; self.stack = []
    def on_start(self, ev):
        self.stack.append(time.process_time())
    def on_end(self, ev):
        t0 = self.stack.pop()
        name = getattr(ev.data.get('dispatcher'), '__qualname__', None) or str(ev.data.get('dispatcher'))
        # exclusive time: subtract nested
        d = time.process_time() - t0
        self.t.setdefault(name, []).append(d)
        if name in ('step','attack','place','fortify','decide','compiled_decide'):
            sigs.setdefault(name, []).append(str(ev.data.get('args')))

fam = sys.argv[1]
sigs = {}
rec = Rec()
event.register("numba:compile", rec)
t0 = time.process_time(); w0 = time.perf_counter()
if fam == "greedy":
    from features.compiled import play_linear_games
    from features.genome import LAYOUT, random_genomes
    w = random_genomes(LAYOUT, 4, np.random.default_rng(0)).reshape(1, 4, -1)
    play_linear_games(w, [np.random.SeedSequence(0)])
elif fam == "web":
    from arena.web.warm import main
    main([])
elif fam.startswith("bot:"):
    from arena.web.warm import warm_one
    warm_one(fam[4:])
elif fam == "rate":
    import trueskill
    from evolve.rater import kernel_params

    from evolve import trueskill_kernel as tk
    tk.rate_games(np.zeros(2), np.ones(2), np.zeros(2, dtype=np.bool_), np.array([[0, 1]]),
                  np.array([[1, 2]], dtype=np.int32), kernel_params(trueskill.TrueSkill()))
cpu = time.process_time() - t0
print(f"FAMILY {fam}: cpu {cpu:.1f} s wall {time.perf_counter()-w0:.1f} s "
      f"children {resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime:.1f} s")
tops = sorted(((sum(v), k, len(v)) for k, v in rec.t.items()), reverse=True)[:25]
for s, k, n in tops:
    print(f"  {s:7.1f} s  x{n}  {k}")

for k, v in sigs.items():
    for x in v: print('SIG', k, x)
