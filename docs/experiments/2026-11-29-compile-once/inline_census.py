"""How many times numba's inliner copies each kernel into each caller, and the IR statements
each copy brings (the callee's own inlined kernels included).

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python docs/experiments/2026-11-29-compile-once/inline_census.py bots loop
"""
import collections, sys
import numba.core.inline_closurecall as ic
cnt = collections.Counter(); stm = collections.Counter()
orig = ic.InlineWorker.inline_ir
def inline_ir(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs=None):
    n = sum(len(b.body) for b in callee_ir.blocks.values())
    key = (caller_ir.func_id.func_qualname, callee_ir.func_id.func_qualname)
    cnt[key] += 1; stm[key] += n
    return orig(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs)
ic.InlineWorker.inline_ir = inline_ir
import arena.warmup as W
for p in sys.argv[1:]:
    W.PARTS[p]()
tot = collections.Counter()
for (a, b), n in stm.items():
    tot[a] += n
print("caller totals:", tot.most_common(8))
for (a, b), n in sorted(stm.items(), key=lambda kv: -kv[1])[:45]:
    print(f"{n:7d} stmts {cnt[(a,b)]:4d}x  {a} <- {b}")
