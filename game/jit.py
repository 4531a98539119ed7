"""The one place that says how rule kernels are compiled."""

from __future__ import annotations

from typing import Any

from numba import njit

# Kernels take the map and the state as tuples of arrays. With numba's reference counting on,
# every array taken out of a tuple costs an atomic incref/decref pair; profiling showed that to
# be most of a game's time (2.8 us against 0.57 us per step). Kernels that allocate nothing are
# compiled without it; the few that allocate (setup, placements, path search) keep it.
_NO_REFCOUNT: dict[str, Any] = {"cache": True, "_nrt": False}  # numba's private flag, named once
rule_kernel = njit(**_NO_REFCOUNT)
# Small helpers folded into their caller (which must be a rule kernel too).
inline_rule_kernel = njit(inline="always", **_NO_REFCOUNT)
allocating_kernel = njit(cache=True)

__all__ = ["allocating_kernel", "inline_rule_kernel", "rule_kernel"]
