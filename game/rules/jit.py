"""The one place that says how rule kernels are compiled, and how Python calls them per step."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from numba import njit, typeof
from numba.core import types
from numba.experimental import structref

# numba's compile-time shortcuts apply before any kernel here compiles.
from game.rules import numba_shortcuts  # noqa: F401

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


__all__ = ["RngBox", "allocating_kernel", "bind", "inline_rule_kernel", "rule_kernel"]
