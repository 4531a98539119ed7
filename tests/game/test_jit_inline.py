"""The compile seam's inliner shortcut (`game.rules.jit`): it applies only to the numba source it
was written against, and a kernel compiled with it computes what numba's own inliner makes."""

from __future__ import annotations

from typing import Any

import numba
from numba import njit
from numba.core import inline_closurecall

from game.rules import jit


class _Changed(inline_closurecall.InlineWorker):
    def inline_ir(self, *args: Any, **kwargs: Any) -> Any:
        return super().inline_ir(*args, **kwargs)  # type: ignore[no-untyped-call]


def test_the_shortcut_applies_only_to_the_source_it_was_written_against() -> None:
    assert not jit.inline_sources_known(_Changed)
    applied = inline_closurecall.InlineWorker.inline_function is jit._inline_fresh
    assert applied == jit.INLINE_COPIES_SKIPPED
    if numba.__version__ == "0.68.1":  # the version read and measured: the shortcut is on
        assert jit.INLINE_COPIES_SKIPPED


@jit.inline_rule_kernel
def _twice(x: int) -> int:
    y = x
    for _ in range(2):
        y = y + x if y < 1000 else y
    return y


def _outer(a: int) -> Any:
    return _twice(a) + _twice(a + 1) * 3 + _twice(_twice(a))


def test_a_kernel_folding_calls_computes_the_same_with_and_without_it() -> None:
    shortcut: Any = njit(_outer)
    saved = inline_closurecall.InlineWorker.inline_function
    try:
        inline_closurecall.InlineWorker.inline_function = jit._inline_fresh  # type: ignore[method-assign]
        got = [shortcut(a) for a in range(-3, 40)]
    finally:
        inline_closurecall.InlineWorker.inline_function = saved  # type: ignore[method-assign]
    assert getattr(inline_closurecall, "copy").deepcopy is not jit._Uncopied.deepcopy  # noqa: B009
    assert got == [_outer(a) for a in range(-3, 40)]
