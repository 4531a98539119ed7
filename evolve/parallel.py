"""Where tasks run: joblib (loky, threading, sequential) or joblib's dask backend."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import Any

from joblib import Parallel, delayed, parallel_config

from evolve.config import ConfigError, ParallelSection

# Seconds to reach a dask scheduler: a live one answers at once, a wrong address should fail
# fast rather than after distributed's default 30 s.
CONNECT_TIMEOUT_S = 10
# Seconds between a loky worker's checks that the run that started it is still alive.
PARENT_POLL_S = 1.0


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL_S)
        if os.getppid() != parent:
            # The run died without shutting us down (kill -9): nobody will collect a result,
            # and loky would keep this ~200 MB process waiting for work.
            os._exit(1)


def watch_parent(parent: int) -> None:
    """Loky worker initializer: exit this worker when process `parent` (the run) is gone."""
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="riskevo-parent-watchdog").start()


class Runner:
    """Runs (function, args) tasks and yields results in task order; reuse across generations.

    One task per batch: the callers size their tasks (league.chunk_bounds), and joblib's
    automatic batching would glue the small last chunks back together.

    Use as a context manager: the worker pool (or dask client) lives until exit.
    """

    def __init__(self, cfg: ParallelSection) -> None:
        self.cfg = cfg
        self._stack = ExitStack()
        self._parallel: Parallel | None = None
        self.n_workers = 1

    def __enter__(self) -> Runner:
        cfg = self.cfg
        n_jobs = cfg.n_jobs if cfg.n_jobs > 0 else (os.cpu_count() or 1)
        backend = "sequential" if cfg.backend != "dask" and n_jobs == 1 else cfg.backend
        if backend == "dask":
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise ConfigError("config field parallel.backend: 'dask' needs the optional "
                                  "extra (pip install 'riskevo[dask]')") from None
            try:
                if cfg.scheduler:
                    client = self._stack.enter_context(
                        Client(cfg.scheduler, timeout=CONNECT_TIMEOUT_S))
                else:
                    cluster = self._stack.enter_context(LocalCluster(
                        n_workers=n_jobs, threads_per_worker=1, processes=True,
                        dashboard_address=None))
                    client = self._stack.enter_context(Client(cluster))
            except OSError as e:  # includes TimeoutError: nobody listening at the address
                self._stack.close()
                reason = " ".join(str(e).split())
                if cfg.scheduler:
                    raise ConfigError(f"parallel.scheduler: cannot connect to {cfg.scheduler} "
                                      f"({reason})") from None
                raise ConfigError(f"parallel.backend: cannot start a local dask cluster "
                                  f"({reason})") from None
            n_jobs = max(1, sum(client.nthreads().values()))
            self._stack.enter_context(parallel_config(backend="dask"))
            self._parallel = self._stack.enter_context(
                Parallel(n_jobs=-1, return_as="generator", batch_size=1))
        else:
            if backend == "loky":  # our workers watch for our death: a kill -9 must not
                self._stack.enter_context(parallel_config(  # leave them running
                    backend="loky", initializer=watch_parent, initargs=(os.getpid(),)))
            self._parallel = self._stack.enter_context(Parallel(
                n_jobs=n_jobs, backend=None if backend == "loky" else backend,
                return_as="generator", batch_size=1))
        self.n_workers = n_jobs
        return self

    def __exit__(self, *exc: object) -> None:
        self._parallel = None
        self._stack.close()

    def run(self, tasks: Iterable[tuple[Callable[..., Any], tuple[Any, ...]]]) -> Iterator[Any]:
        """Results of the tasks, in task order, as they become available."""
        if self._parallel is None:
            raise RuntimeError("Runner used outside its with-block")
        return iter(self._parallel(delayed(fn)(*args) for fn, args in tasks))
