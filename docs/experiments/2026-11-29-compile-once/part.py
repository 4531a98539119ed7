"""CPU seconds to compile warm-up parts in this process (run with a fresh NUMBA_CACHE_DIR).

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python docs/experiments/2026-11-29-compile-once/part.py bots loop
"""
import sys, time
import arena.warmup as W
t0 = time.process_time()
for part in sys.argv[1:]:
    W.PARTS[part]()
print(f"CPU {time.process_time() - t0:.1f} s parts {sys.argv[1:]}", flush=True)
