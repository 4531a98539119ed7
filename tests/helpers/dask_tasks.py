"""Tasks a test sends to a `dask worker` process: importable there by module name
(`tests.helpers.dask_tasks`), where a test file's own functions are not."""

from __future__ import annotations

import os
import time


def square_and_pid(i: int) -> tuple[int, int]:
    """A task slow enough to be cut by a kill: its result and the worker's pid."""
    time.sleep(0.1)
    return i * i, os.getpid()
