# Usage: NUMBA_CACHE_DIR=$(mktemp -d) python perfmap.py TREE random|hand N, then perf record -p PID
# once it writes $SPEEDPROF/go (its pid; SPEEDPROF defaults to runs/speedprof); perf report --sort sym names the numba functions.
"""Play games under perf with a perf map of every numba function (sizes from address order)."""
import os, sys, time, gc
sys.path.insert(0, sys.argv[1])
import numpy as np
from features.compiled import play_linear_games
from features.genome import LAYOUT, random_genomes, hand_set_genome
import numba.core.registry
OUT = os.environ.get("SPEEDPROF", "runs/speedprof")  # the dumps perf is pointed at
n = int(sys.argv[3]) if len(sys.argv) > 3 else 300
if sys.argv[2] == "hand":
    W = np.broadcast_to(hand_set_genome(), (n, 4, LAYOUT.size)).copy()
else:
    W = random_genomes(LAYOUT, 4 * n, np.random.default_rng(1)).reshape(n, 4, -1)
seeds = np.random.SeedSequence(1).spawn(n)
play_linear_games(W[:1], seeds[:1])
from numba.core.dispatcher import Dispatcher
syms = {}
for obj in gc.get_objects():
    if isinstance(obj, Dispatcher):
        for cres in obj.overloads.values():
            lib = cres.library
            try:
                mod = lib._final_module
            except Exception:
                continue
            for fn in mod.functions:
                if fn.is_declaration:
                    continue
                try:
                    addr = lib._codegen._engine.get_function_address(fn.name)
                except Exception:
                    continue
                if addr:
                    syms[addr] = fn.name
import re
def short(name):
    m = re.search(r"_ZN(?:\d+[A-Za-z_]\w*?)+?(\d+)([A-Za-z_]\w*?)B\d", name)
    parts = re.findall(r"(\d+)", name[:0])
    # demangle the leading nested name
    i = name.find("_ZN")
    if i < 0: return name[:60]
    j = i + 3; out = []
    while j < len(name) and name[j].isdigit():
        k = j
        while name[k].isdigit(): k += 1
        L = int(name[j:k]); out.append(name[k:k+L]); j = k + L
    pre = "cpython." if "cpython" in name[:i+20] else ("cfunc." if name.startswith("cfunc") else "")
    return pre + ".".join(out)
addrs = sorted(syms)
with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:  # where perf looks for a JIT map
    for a, b in zip(addrs, addrs[1:] + [addrs[-1] + 65536]):
        f.write(f"{a:x} {min(b - a, 1 << 20):x} {short(syms[a])}\n")
print("symbols", len(addrs), flush=True)
import ctypes, json
os.makedirs(f"{OUT}/code", exist_ok=True)
idx = []
for a, b in zip(addrs, addrs[1:] + [addrs[-1] + 4096]):
    nm = short(syms[a])
    if nm.startswith(("features", "game")):
        size = min(b - a, 1 << 18)
        open(f"{OUT}/code/{a:x}.bin", "wb").write(ctypes.string_at(a, size))
        idx.append((a, size, nm))
json.dump(idx, open(f"{OUT}/code/index.json", "w"))
open(f"{OUT}/go", "w").write(str(os.getpid()))
t0 = time.process_time()
_, r, _ = play_linear_games(W, seeds)
print("rounds/s", r.sum() / (time.process_time() - t0))
