"""numba's compile shortcuts (`game.rules.numba_shortcuts`): each applies only to the numba source
it was written against, and each makes what numba's own code makes."""

from __future__ import annotations

import copy
from typing import Any

import numba
from numba import njit
from numba.core import analysis, inline_closurecall, ir_utils, ssa, targetconfig
from numba.core.compiler import Flags

from game.rules import numba_shortcuts as S
from game.rules.jit import inline_rule_kernel


class _Changed(inline_closurecall.InlineWorker):
    def inline_ir(self, *args: Any, **kwargs: Any) -> Any:
        return super().inline_ir(*args, **kwargs)  # type: ignore[no-untyped-call]


class _OwnEq(Flags):
    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = Flags.__hash__


def test_the_shortcuts_apply_only_to_the_sources_they_were_written_against() -> None:
    assert not S.inline_sources_known(_Changed)
    assert not S.ssa_source_known(inline_closurecall)
    assert (inline_closurecall.InlineWorker.inline_function is S._inline_fresh) \
        == S.INLINE_COPIES_SKIPPED
    assert (ssa._run_ssa is S._run_ssa_touched) == S.SSA_TOUCHED_ONLY
    assert not S.live_source_known(analysis.compute_dead_maps)
    assert (analysis.compute_live_map is S._live_map_bits) == S.LIVE_BITS
    assert (ir_utils.compute_live_map is S._live_map_bits) == S.LIVE_BITS  # type: ignore[attr-defined]
    assert not S.flags_sources_known(_OwnEq)
    assert (targetconfig.TargetConfig.__eq__ is S._flags_eq) == S.FLAGS_KEYED_FAST
    if numba.__version__ == "0.68.1":  # the version read and measured: the shortcuts are on
        assert S.INLINE_COPIES_SKIPPED and S.SSA_TOUCHED_ONLY and S.LIVE_BITS
        assert S.FLAGS_KEYED_FAST


@inline_rule_kernel
def _twice(x: int) -> int:
    y = x
    for _ in range(2):
        y = y + x if y < 1000 else y
    return y


def _outer(a: int) -> Any:
    return _twice(a) + _twice(a + 1) * 3 + _twice(_twice(a))


def test_a_kernel_folding_calls_computes_the_same_with_and_without_the_inliner_shortcut() -> None:
    shortcut: Any = njit(_outer)
    saved = inline_closurecall.InlineWorker.inline_function
    try:
        inline_closurecall.InlineWorker.inline_function = S._inline_fresh  # type: ignore[method-assign]
        got = [shortcut(a) for a in range(-3, 40)]
    finally:
        inline_closurecall.InlineWorker.inline_function = saved  # type: ignore[method-assign]
    assert getattr(inline_closurecall, "copy").deepcopy is not S._Uncopied.deepcopy  # noqa: B009
    assert got == [_outer(a) for a in range(-3, 40)]


def _reassigning(n: int, flags: Any) -> int:
    """Variables assigned in branches, loops and after breaks: phi nodes at several joins."""
    a = b = c = 0
    for i in range(n):
        if flags[i % 3]:
            a = i
            continue
        b = a + i
        if b > 7:
            c = b
            break
        a = b - 1
    else:
        c = -1
    while c > 0:
        c -= 2
        if c == 3:
            a = c
    return a + b + c


def _dump(blocks: dict[int, Any]) -> list[tuple[int, list[str]]]:
    return [(label, [str(stmt) for stmt in blk.body]) for label, blk in blocks.items()]


def _ssa_inputs(kernel: Any, *args: Any) -> list[dict[int, Any]]:
    """The blocks numba hands SSA reconstruction while compiling `kernel` afresh (uncached)."""
    seen: list[dict[int, Any]] = []

    def recording(blocks: dict[int, Any]) -> Any:
        seen.append(copy.deepcopy(blocks))
        return S.NUMBA_RUN_SSA(blocks)

    saved = ssa._run_ssa
    try:
        ssa._run_ssa = recording
        njit(_nrt=False)(kernel).compile(tuple(numba.typeof(a) for a in args))
    finally:
        ssa._run_ssa = saved
    return seen


def _scope_state(blocks: dict[int, Any]) -> tuple[Any, ...]:
    scope = next(iter(blocks.values())).scope
    return (sorted(scope.localvars._con), sorted((k, sorted(v)) for k, v in
                                                  scope.var_redefinitions.items()))


def test_ssa_shortcut_makes_numbas_blocks_statement_for_statement() -> None:
    from game.bots import continent
    from game.bots.kernels import make_bot_work
    from game.map import classic_map
    from game.state import State

    assert S.NUMBA_RUN_SSA is not S._run_ssa_touched  # the comparison is with numba's own
    m = classic_map().kernel
    kernels = {
        "_reassigning": _ssa_inputs(_reassigning, 5, (True, False, True)),
        "continent.attack": _ssa_inputs(continent.attack.py_func, m,
                                        State.empty(classic_map(), 4).kernel, 0, make_bot_work(m)),
    }
    assert max(sum(len(b.body) for b in blocks.values())
               for blocks in kernels["continent.attack"]) > 500  # a folded body
    for name, inputs in kernels.items():
        rewritten = 0
        for blocks in inputs:
            before = _dump(blocks)
            theirs = copy.deepcopy(blocks)
            numba_made = S.NUMBA_RUN_SSA(theirs)
            ours = S._run_ssa_touched(blocks)
            assert _dump(ours) == _dump(numba_made), name
            assert _scope_state(ours) == _scope_state(numba_made), name  # fresh names alike
            rewritten += _dump(numba_made) != before
        assert rewritten >= 1, name  # SSA did rewrite this kernel


def test_a_kernel_compiled_with_either_ssa_computes_what_python_does() -> None:
    cases = [(n, (f, not f, n % 2 == 0)) for n in range(12) for f in (True, False)]
    expected = [_reassigning(n, flags) for n, flags in cases]
    saved = ssa._run_ssa
    try:
        for run_ssa in (S.NUMBA_RUN_SSA, S._run_ssa_touched):
            ssa._run_ssa = run_ssa
            compiled = njit(_reassigning)  # a fresh dispatcher, compiled under run_ssa
            assert [compiled(n, flags) for n, flags in cases] == expected
    finally:
        ssa._run_ssa = saved


def _live_map_checks(kernel: Any, *args: Any) -> list[tuple[int, int, bool]]:
    """Per call of numba's liveness while compiling `kernel` afresh (uncached): (blocks,
    variables, whether the shortcut's live sets equal numba's)."""
    seen: list[tuple[int, int, bool]] = []

    def comparing(cfg: Any, blocks: Any, usemap: Any, defmap: Any) -> Any:
        theirs = S.NUMBA_LIVE_MAP(cfg, blocks, usemap, defmap)
        ours = S._live_map_bits(cfg, blocks, usemap, defmap)
        n_vars = len(set().union(*usemap.values(), *defmap.values()))
        seen.append((len(blocks), n_vars, ours == theirs))
        return theirs

    saved = analysis.compute_live_map, ir_utils.compute_live_map  # type: ignore[attr-defined]
    try:
        analysis.compute_live_map = ir_utils.compute_live_map = comparing  # type: ignore[attr-defined]
        njit(_nrt=False)(kernel).compile(tuple(numba.typeof(a) for a in args))
    finally:
        analysis.compute_live_map, ir_utils.compute_live_map = saved  # type: ignore[attr-defined]
    return seen


def test_liveness_shortcut_finds_numbas_live_variables() -> None:
    from game.bots import continent
    from game.bots.kernels import make_bot_work
    from game.map import classic_map
    from game.state import State

    m = classic_map().kernel
    for name, calls in {
        "_reassigning": _live_map_checks(_reassigning, 5, (True, False, True)),
        "continent.attack": _live_map_checks(continent.attack.py_func, m,
                                             State.empty(classic_map(), 4).kernel, 0,
                                             make_bot_work(m)),
    }.items():
        assert calls and all(same for _, _, same in calls), name
    assert max(n_vars for _, n_vars, _ in calls) > 500  # a folded body's variables


def test_a_kernel_compiled_with_either_liveness_computes_what_python_does() -> None:
    cases = [(n, (f, not f, n % 2 == 0)) for n in range(12) for f in (True, False)]
    expected = [_reassigning(n, flags) for n, flags in cases]
    saved = analysis.compute_live_map, ir_utils.compute_live_map  # type: ignore[attr-defined]
    try:
        for live in (S.NUMBA_LIVE_MAP, S._live_map_bits):
            analysis.compute_live_map = ir_utils.compute_live_map = live  # type: ignore[attr-defined]
            compiled = njit(_reassigning)  # a fresh dispatcher, compiled under this liveness
            assert [compiled(n, flags) for n, flags in cases] == expected
    finally:
        analysis.compute_live_map, ir_utils.compute_live_map = saved  # type: ignore[attr-defined]


def _flags(**set_: Any) -> Any:
    f = Flags()
    for name, value in set_.items():
        setattr(f, name, value)
    return f


def test_flags_shortcut_hashes_and_compares_as_numba_does() -> None:
    kinds = [_flags(), _flags(nrt=True), _flags(nrt=False), _flags(nrt=True, boundscheck=True),
             _flags(boundscheck=False), _flags(fastmath=True), _flags(nrt=True, fastmath=False),
             _flags(error_model="numpy"), _flags(error_model="python"), _OwnEq(), 3, None]
    for a in kinds:
        if isinstance(a, targetconfig.TargetConfig):
            assert S._flags_hash(a) == S.NUMBA_FLAGS_HASH(a)
            for b in kinds:
                assert S._flags_eq(a, b) == S.NUMBA_FLAGS_EQ(a, b), (a, b)
    assert S._flags_eq(kinds[0], kinds[2]) and not S._flags_eq(kinds[0], kinds[1])
