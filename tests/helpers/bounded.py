"""Calls that must not hang: a reader handed a FIFO fails at once instead of waiting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def within(seconds: float, fn: Callable[[], T]) -> T:
    """`fn()`'s result, or AssertionError when it has not returned in `seconds` (it is left
    running in a daemon thread, so a hung read fails the test instead of stalling the suite)."""
    out: list[T] = []
    err: list[BaseException] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as e:  # noqa: BLE001 - raised again in the caller
            err.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still running after {seconds} s (a blocking read?)"
    if err:
        raise err[0]
    return out[0]
