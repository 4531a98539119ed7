"""The one place that says how rule kernels are compiled, and how Python calls them per step."""

from __future__ import annotations

import copy
import hashlib
import inspect
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from numba import njit, typeof
from numba.core import inline_closurecall, types
from numba.experimental import structref

# numba folds an `inline="always"` call by building the callee's IR afresh, then deep-copying
# it twice, each block copy dragging the callee's whole variable table: most of the kernels'
# compile time (numba issue 8989, https://github.com/numba/numba/issues/8989). The fresh IR is
# used once and the second copy is thrown away by its only caller, so for the numba source
# read and measured here (the same optimised code, half the compile) the copies are skipped;
# any other source compiles as numba ships it.
_INLINE_SOURCES = {
    "inline_function": "1b53f183258e659da3c7dd47a5cd6dfb342016a03e20a079fb24f469d7c6d1e1",
    "inline_ir": "26fd2b7600c9d9295c925c2dd4d498929ef6ae43c09bf285298255527da5362b",
}


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
    for name, digest in _INLINE_SOURCES.items():
        try:
            src = inspect.getsource(getattr(worker, name))
        except (AttributeError, OSError, TypeError):
            return False
        if hashlib.sha256(src.encode()).hexdigest() != digest:
            return False
    return True


INLINE_COPIES_SKIPPED = inline_sources_known()
if INLINE_COPIES_SKIPPED:
    inline_closurecall.InlineWorker.inline_function = _inline_fresh  # type: ignore[method-assign]

# Kernels take the map and the state as named tuples of arrays. With numba's reference counting
# on, every array taken out of a tuple costs an atomic incref/decref pair; profiling showed that
# to be most of a game's time (2.8 us against 0.57 us per step). Kernels that allocate nothing
# are compiled without it; the few that allocate (setup, placements, path search) keep it.
_NO_REFCOUNT: dict[str, Any] = {"cache": True, "_nrt": False}  # numba's private flag, named once
rule_kernel = njit(**_NO_REFCOUNT)
# Small helpers folded into their caller (which must be a rule kernel too).
inline_rule_kernel = njit(inline="always", **_NO_REFCOUNT)
allocating_kernel = njit(cache=True)


def bind(kernel: Any, *fixed: Any, rest: tuple[Any, ...] = ()) -> Callable[..., Any]:
    """`kernel` with its leading arguments fixed, called without numba's per-call typing.

    A numba dispatcher types every argument on every call; for a named tuple that costs about
    0.7 us (it fingerprints the class and its field names), which a Python game loop would pay
    at every step. The compiled version for these argument types is looked up (or compiled)
    once here. `rest` holds example values of the arguments still to pass, typically ints;
    later calls must pass values of the same types.
    """
    entry = kernel.compile(tuple(typeof(a) for a in (*fixed, *rest)))
    return partial(entry, *fixed)


@structref.register
class RngBoxType(types.StructRef):
    """numba type of `RngBox`."""

    def preprocess_fields(self, fields: Any) -> Any:
        """Plain (non-literal) field types."""
        return tuple((n, types.unliteral(t)) for n, t in fields)


class RngBox(structref.StructRefProxy):
    """A numpy Generator in a box that compiled code opens for free.

    numba unboxes a `Generator` argument through ctypes casts of its function pointers, about
    5 us per call: most of a Python-loop step. A boxed generator is passed as one pointer, and
    draws inside compiled code advance the very generator that was boxed.
    """

    def __new__(cls, rng: np.random.Generator) -> RngBox:
        # numba's default builds an uncached constructor in every process; this one is cached.
        return _new_box(rng)


structref.define_proxy(RngBox, RngBoxType, ["rng"])


@njit(cache=True)
def _new_box(rng: np.random.Generator) -> RngBox:
    return RngBox(rng)


__all__ = ["INLINE_COPIES_SKIPPED", "RngBox", "allocating_kernel", "bind", "inline_rule_kernel",
           "inline_sources_known", "rule_kernel"]
