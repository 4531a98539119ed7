"""CPU of numba's three LLVM steps per code library while warm-up parts compile: the
per-function passes, the module passes (run once the library's callees are linked in) and the
machine code. Run with an empty cache:

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python docs/experiments/2026-11-29-compile-once/llvm.py bots loop
"""
import collections
import sys
import time

from numba.core import codegen

STEPS = {"function passes": (codegen.CPUCodeLibrary, "_optimize_functions"),
         "module passes": (codegen.CPUCodeLibrary, "_optimize_final_module"),
         "machine code": (codegen.JITCodeLibrary, "_finalize_specific")}
cpu: dict = {k: collections.defaultdict(float) for k in STEPS}


def timed(step, cls, name):
    orig = getattr(cls, name)

    def run(self, *args):
        t = time.process_time()
        try:
            return orig(self, *args)
        finally:
            cpu[step][self.name] += time.process_time() - t
    setattr(cls, name, run)


for step, (cls, name) in STEPS.items():
    timed(step, cls, name)

import arena.warmup as W  # noqa: E402  (after the patches: the kernels compile on first use)

t0 = time.process_time()
for part in sys.argv[1:]:
    W.PARTS[part]()
print(f"parts {' '.join(sys.argv[1:])}: CPU {time.process_time() - t0:.1f} s")
libs = set().union(*cpu.values())
print(f"{len(libs)} libraries; " + ", ".join(f"{k} {sum(v.values()):.1f} s" for k, v in cpu.items()))
for lib in sorted(libs, key=lambda n: -sum(v[n] for v in cpu.values()))[:12]:
    print(f"  {lib[:40]:40s} " + " ".join(f"{cpu[k][lib]:6.2f}" for k in STEPS))
