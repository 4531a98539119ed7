"""Four shortcuts through numba's compiler for the kernels' large folded bodies, each applied
only to the numba source it was written against (sha256 of that source) and each producing the
IR numba's own code produces; any other numba compiles as it ships.

- The inliner: numba folds an `inline="always"` call by building the callee's IR afresh, then
  deep-copying it twice, each block copy dragging the callee's whole variable table (numba issue
  8989, https://github.com/numba/numba/issues/8989). The fresh IR is used once and the second
  copy is thrown away by its only caller, so the copies are skipped.
- SSA reconstruction: for each variable assigned more than once numba rewrites every statement
  of the function twice, though only the blocks that name the variable can change (numba's
  `ssa._run_ssa`). A kernel with hundreds of such variables and thousands of statements spends
  seconds there; the shortcut rewrites only the blocks that name the variable, in the same
  order, so fresh names and phi nodes come out the same.
- Liveness: numba's `analysis.compute_live_map` iterates set unions over every variable of the
  function at every block to a fixed point, and runs after each of thousands of IR changes a
  large kernel goes through; the shortcut runs the same fixed points on bit sets (Python
  ints, a bit per variable), so the unions are word operations, and returns the same sets.
- Compile flags as keys: numba's `TargetConfig.__hash__` hashes the sorted option names (the
  same for every instance) and `__eq__` builds both instances' dicts of every option, so each
  lookup keyed by flags compares dicts along the whole chain of equal hashes; the shortcut
  hashes the same names without the dicts, and compares two instances of one class on the
  options either has set (the others read their defaults on both).
"""

from __future__ import annotations

import copy
import hashlib
import inspect
from collections import defaultdict
from typing import Any

from numba.core import analysis, errors, inline_closurecall, ir, ir_utils, ssa, targetconfig

_INLINE_SOURCES = {
    "inline_function": "1b53f183258e659da3c7dd47a5cd6dfb342016a03e20a079fb24f469d7c6d1e1",
    "inline_ir": "26fd2b7600c9d9295c925c2dd4d498929ef6ae43c09bf285298255527da5362b",
}
_cfg_of: Any = analysis.compute_cfg_from_blocks  # as numba's SSA pass computes it
_SSA_SOURCE = "d20accd92757fef663a43e78d0ee88fe01d9333379eda463c9e15f0e7785e490"
_LIVE_SOURCE = "713c4c094977e93b7ade48a478eb9b94168786ad9b440906b8e95b7fc0487a2a"
_FLAGS_SOURCES = {
    "__hash__": "4d15a6c75137a983e7f9228bc5f4c23dd10f3c8062501ef80456d25a1bd3eb3d",
    "__eq__": "6d8774572d07d38134b11796fa2bbcd54192c62b2dfdeaf53723e91543a7e268",
    "values": "12a29dc810f6a91beed3ce8a4c2071b278e37cc9031733f0deea8849bcb78611",
}


def _digest(obj: Any) -> str | None:
    try:
        return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()
    except (OSError, TypeError):
        return None


class _Uncopied:
    """Stands in for the `copy` module inside numba's inliner: deepcopy returns its argument."""

    @staticmethod
    def deepcopy(x: Any, memo: Any = None) -> Any:
        return x


def _inline_fresh(self: Any, caller_ir: Any, block: Any, i: int, function: Any,
                  arg_typs: Any = None) -> Any:
    """numba's `InlineWorker.inline_function` without copying the IR it has just built."""
    callee_ir = self.run_untyped_passes(function)
    inline_closurecall.copy = _Uncopied  # type: ignore[attr-defined,assignment]
    try:
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                              arg_typs=arg_typs)
    finally:
        inline_closurecall.copy = copy  # type: ignore[attr-defined]


def inline_sources_known(worker: type = inline_closurecall.InlineWorker) -> bool:
    """True when numba's inliner is the source `_inline_fresh` was written against."""
    return all(_digest(getattr(worker, name, None)) == digest
               for name, digest in _INLINE_SOURCES.items())


def _run_ssa_touched(blocks: dict[int, ir.Block]) -> dict[int, ir.Block]:
    """numba's `ssa._run_ssa`, rewriting for each variable only the blocks that name it.

    A block that names no violator passes through numba's two rewrites unchanged (its
    statements come back as they went in), and phi nodes land only where the reaching
    definitions say; a block given a phi is copied first, as numba's rewrite copies every
    block.
    """
    if not blocks:
        return {}
    cfg = _cfg_of(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    cache_list_vars = ssa._CacheListVars()
    scope = ssa._get_scope(blocks)
    naming: defaultdict[str, list[int]] = defaultdict(list)  # violator -> its blocks, in order
    for label, blk in blocks.items():
        names = {var.name for stmt in blk.body for var in stmt.list_vars()}
        for name in names.intersection(violators):
            naming[name].append(label)
    for varname in violators:
        part = {label: blocks[label] for label in naming[varname]}
        states: dict[str, Any] = {"scope": scope, "varname": varname,
                                  "defmap": defaultdict(list)}
        part = ssa._run_block_rewrite(part, states, ssa._FreshVarHandler())
        defmap = states["defmap"]
        phimap: defaultdict[int, list[ir.Assign]] = defaultdict(list)
        states = {"scope": scope, "varname": varname, "defmap": defmap, "phimap": phimap,
                  "cfg": cfg, "phi_locations": ssa._compute_phi_locations(df_plus, defmap)}
        part = ssa._run_block_rewrite(part, states, ssa._FixSSAVars(cache_list_vars))
        for label, philist in phimap.items():
            if label not in part:
                old = blocks[label]
                part[label] = ir.Block(scope=old.scope, loc=old.loc)
                part[label].body = list(old.body)
            part[label].body = philist + part[label].body
        blocks = {label: part.get(label, blk) for label, blk in blocks.items()}
    if _cfg_of(blocks) != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def ssa_source_known(module: Any = ssa) -> bool:
    """True when numba's SSA module is the source `_run_ssa_touched` was written against."""
    return _digest(module) == _SSA_SOURCE


def _live_map_bits(cfg: Any, blocks: dict[int, ir.Block], var_use_map: dict[int, set[str]],
                   var_def_map: dict[int, set[str]]) -> dict[int, set[str]]:
    """numba's `analysis.compute_live_map` (the variables live at each block's entry) on bit
    sets: the same two monotone fixed points from the same starting sets, so the same least
    solution."""
    topo = cfg.topo_order()
    index: dict[str, int] = {}
    names: list[str] = []

    def bits(vs: set[str]) -> int:
        b = 0
        for n in vs:
            i = index.get(n)
            if i is None:
                i = index[n] = len(names)
                names.append(n)
            b |= 1 << i
        return b

    use = {o: bits(var_use_map[o]) for o in blocks}
    defs = {o: bits(var_def_map[o]) for o in blocks}
    # Every variable used or defined in a block that reaches this one (numba's `def_reach`).
    reach: defaultdict[int, int] = defaultdict(int)
    changed = True
    while changed:
        changed = False
        for o in topo:
            r = reach[o] | defs[o] | use[o]
            changed |= r != reach[o]
            reach[o] = r
            for succ, _ in cfg.successors(o):
                x = reach[succ] | r
                changed |= x != reach[succ]
                reach[succ] = x
    live = dict(use)
    changed = True
    while changed:
        changed = False
        for o in reversed(topo):
            here = live[o]
            for pred, _ in cfg.predecessors(o):
                x = live[pred] | (here & reach[pred] & ~defs[pred])
                changed |= x != live[pred]
                live[pred] = x
    out: dict[int, set[str]] = {}
    for o in blocks:
        b, got = live[o], set()
        while b:
            low = b & -b
            got.add(names[low.bit_length() - 1])
            b ^= low
        out[o] = got
    return out


def live_source_known(fn: Any = analysis.compute_live_map) -> bool:
    """True when numba's liveness is the source `_live_map_bits` was written against."""
    return _digest(fn) == _LIVE_SOURCE


def _flags_hash(self: Any) -> int:
    """numba's `TargetConfig.__hash__` (the hash of `sorted(self.values())`, which sorts that
    dict's keys: the option names) without building the dict."""
    return hash(tuple(sorted(self.options)))


def _flags_eq(self: Any, other: Any) -> Any:
    """numba's `TargetConfig.__eq__` (every option's value alike, as a dict compares them) for
    two instances of one class reading only the options either set: the others are both their
    default."""
    if type(other) is not type(self):
        return NUMBA_FLAGS_EQ(self, other)  # type: ignore[no-untyped-call]
    for name in self._values.keys() | other._values.keys():
        mine, theirs = getattr(self, name), getattr(other, name)
        if not (mine is theirs or mine == theirs):
            return False
    return True


def flags_sources_known(cls: type = targetconfig.TargetConfig) -> bool:
    """True when numba's flags compare and hash as the source the shortcut was written against."""
    return all(_digest(getattr(cls, name, None)) == digest
               for name, digest in _FLAGS_SOURCES.items())


INLINE_COPIES_SKIPPED = inline_sources_known()
if INLINE_COPIES_SKIPPED:
    inline_closurecall.InlineWorker.inline_function = _inline_fresh  # type: ignore[method-assign]
NUMBA_RUN_SSA = ssa._run_ssa  # numba's own, for the tests' comparison
SSA_TOUCHED_ONLY = ssa_source_known()
if SSA_TOUCHED_ONLY:
    ssa._run_ssa = _run_ssa_touched
NUMBA_LIVE_MAP = analysis.compute_live_map  # numba's own, for the tests' comparison
LIVE_BITS = live_source_known()
if LIVE_BITS:  # postproc reads it from analysis, ir_utils imported it by name
    analysis.compute_live_map = _live_map_bits
    ir_utils.compute_live_map = _live_map_bits  # type: ignore[attr-defined]
NUMBA_FLAGS_EQ = targetconfig.TargetConfig.__eq__  # numba's own, and for the tests' comparison
NUMBA_FLAGS_HASH = targetconfig.TargetConfig.__hash__
FLAGS_KEYED_FAST = flags_sources_known()
if FLAGS_KEYED_FAST:
    targetconfig.TargetConfig.__hash__ = _flags_hash  # type: ignore[method-assign]
    targetconfig.TargetConfig.__eq__ = _flags_eq  # type: ignore[method-assign]

__all__ = ["INLINE_COPIES_SKIPPED", "SSA_TOUCHED_ONLY", "inline_sources_known",
           "ssa_source_known"]
