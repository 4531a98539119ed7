"""One warm-up family from an empty cache, its parts in lanes as `arena.warmup` runs them:
wall seconds of all, then (part, CPU s, wall s) each.

    .venv/bin/python docs/experiments/2026-11-29-compile-once/fam.py web
"""
import os, sys, tempfile, time
import arena.warmup as W
stages = {"web": ((("bots",), ("engine", "plan")), (("web",),)), "first": ((("loop",),),)}[sys.argv[1]]
with tempfile.TemporaryDirectory() as cache:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    t0 = time.monotonic()
    done = W.run_stages(stages, env=env)
    print(round(time.monotonic() - t0), [(c.part, round(c.cpu, 1), round(c.wall, 1)) for c in done])
