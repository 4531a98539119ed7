"""Where one warm-up part's compile goes: numba's pass events (exclusive CPU, with the LLVM time
spent while a pass is innermost) and each compiled dispatcher's exclusive CPU.

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python docs/experiments/2026-11-29-compile-once/prof.py loop bots

The first part named is profiled; the others are compiled first, unprofiled (their kernels are
then loaded from the cache like `make venv` orders them).
"""
import collections
import sys
import time

from numba.core import event

pt = time.process_time
llvm = {"depth": 0, "t0": 0.0, "total": 0.0}
pass_stack: list = []
pass_fn: collections.defaultdict = collections.defaultdict(float)
comp_stack: list = []
comp_excl: collections.defaultdict = collections.defaultdict(float)
comp_llvm: collections.defaultdict = collections.defaultdict(float)


class LLVMLock(event.Listener):
    def on_start(self, ev):
        if llvm["depth"] == 0:
            llvm["t0"] = pt()
        llvm["depth"] += 1

    def on_end(self, ev):
        llvm["depth"] -= 1
        if llvm["depth"] == 0:
            d = pt() - llvm["t0"]
            llvm["total"] += d
            if comp_stack:
                comp_stack[-1][3] += d


class RunPass(event.Listener):
    def on_start(self, ev):
        pass_stack.append([ev.data["name"].split(" [")[0], ev.data["qualname"], pt(), 0.0])

    def on_end(self, ev):
        name, q, t0, child = pass_stack.pop()
        d = pt() - t0
        pass_fn[(name, q)] += d - child
        if pass_stack:
            pass_stack[-1][3] += d


class Compile(event.Listener):
    def on_start(self, ev):
        d = ev.data.get("dispatcher")
        comp_stack.append([getattr(d, "__qualname__", str(d)), pt(), 0.0, 0.0])

    def on_end(self, ev):
        name, t0, child, ll = comp_stack.pop()
        d = pt() - t0
        comp_excl[name] += d - child
        comp_llvm[name] += ll
        if comp_stack:
            comp_stack[-1][2] += d


import arena.warmup as W  # noqa: E402  (after numba, before any kernel compiles)

for pre in sys.argv[2:]:
    W.PARTS[pre]()
event.register("numba:llvm_lock", LLVMLock())
event.register("numba:run_pass", RunPass())
event.register("numba:compile", Compile())
t0 = pt()
W.PARTS[sys.argv[1]]()
print(f"PART {sys.argv[1]}: CPU {pt() - t0:.1f} s, of it LLVM {llvm['total']:.1f} s")
print("(pass, function), exclusive CPU:")
for (k, q), v in sorted(pass_fn.items(), key=lambda x: -x[1])[:15]:
    print(f"  {v:6.1f} s  {k}  [{q}]")
print("dispatchers compiled, exclusive CPU (LLVM):")
for k, v in sorted(comp_excl.items(), key=lambda x: -x[1])[:10]:
    print(f"  {v:6.1f} s  ({comp_llvm[k]:5.1f})  {k}")
