"""Where tasks run: joblib (loky, threading, sequential) or a dask cluster's futures."""

from __future__ import annotations

import contextlib
import os
import sys
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
# Seconds a dask run waits while no worker is connected before it gives up: a restarted or new
# `dask worker` within this time takes the lost chunks over and the results do not change.
# Read at each wait (a test shortens it).
NO_WORKER_TIMEOUT_S = 60.0
# Seconds between two looks at the scheduler's workers while none is connected.
WORKER_POLL_S = 0.25
# Worker losses in a row (no result in between) a run survives by replaying the lost tasks.
MAX_REPLAYS = 3
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


class WorkersLostError(RuntimeError):
    """The dask cluster had no worker for too long, or lost the run's tasks (one-line message)."""


class _WorkerWatch:
    """A thread that cancels the client's tasks once no worker has been connected for
    `timeout` seconds, so that a run waiting on them stops instead of hanging."""

    def __init__(self, client: Any, timeout: float) -> None:
        self.client, self.timeout = client, timeout
        self.lost = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="riskevo-dask-watch")
        self._thread.start()

    def _workers(self) -> int:
        try:
            return len(self.client.nthreads())
        except Exception:  # the scheduler itself is gone or not answering: no workers either
            return 0

    def _loop(self) -> None:
        from distributed import Future

        since: float | None = None
        while not self._stop.wait(min(1.0, self.timeout / 4)):
            if self._workers():
                since = None
                continue
            since = since if since is not None else time.monotonic()
            if time.monotonic() - since >= self.timeout:
                self.lost = True
                with contextlib.suppress(Exception):  # the tasks are lost either way
                    self.client.cancel([Future(k, self.client) for k in list(self.client.futures)])

    def close(self) -> None:
        """Stop watching."""
        self._stop.set()
        self._thread.join(timeout=5)


class _DaskCalls:
    """A joblib `Parallel` call on a dask client's own futures: every task submitted at once,
    the results yielded in task order; the scheduler moves the tasks of a lost worker to the
    others, or to the next one to connect. Not joblib's dask backend: it runs every task in
    this process when the cluster has one thread (its n_jobs == 1 shortcut), and its own 10 s
    wait for a worker ends in a traceback."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def __enter__(self) -> _DaskCalls:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __call__(self, jobs: Iterable[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]]
                 ) -> Iterator[Any]:
        futures = [self.client.submit(fn, *args, pure=False, **kw) for fn, args, kw in jobs]
        return self._results(futures)

    def _results(self, futures: list[Any]) -> Iterator[Any]:
        try:
            for f in futures:
                yield f.result()
        except BaseException:  # a loss, or the caller stopped early: nothing left to compute
            with contextlib.suppress(Exception):
                self.client.cancel(futures)
            raise


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
        self._watch: _WorkerWatch | None = None
        self._client: Any = None
        self._lost_errors: tuple[type[BaseException], ...] = ()
        self._new_parallel: Callable[[], Parallel] = Parallel
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
                        host="127.0.0.1", dashboard_address=None))  # no open ports
                    client = self._stack.enter_context(Client(cluster))
            except OSError as e:  # includes TimeoutError: nobody listening at the address
                self._stack.close()
                reason = " ".join(str(e).split())
                if cfg.scheduler:
                    raise ConfigError(f"parallel.scheduler: cannot connect to {cfg.scheduler} "
                                      f"({reason})") from None
                raise ConfigError(f"parallel.backend: cannot start a local dask cluster "
                                  f"({reason})") from None
            self._client = client
            try:
                self._await_workers()
            except WorkersLostError as e:
                self._stack.close()
                raise ConfigError(f"parallel.scheduler: {e} (start `dask worker "
                                  f"{cfg.scheduler or 'ADDRESS'}`)") from None
            n_jobs = max(1, sum(client.nthreads().values()))
            self._watch = _WorkerWatch(client, NO_WORKER_TIMEOUT_S)
            self._stack.callback(self._watch.close)
            self._lost_errors = _dask_lost_errors()
            self._new_parallel = lambda: _DaskCalls(client)
        else:
            if backend == "loky":  # our workers watch for our death: a kill -9 must not
                self._stack.enter_context(parallel_config(  # leave them running
                    backend="loky", initializer=watch_parent, initargs=(os.getpid(),)))
                self._lost_errors = _loky_lost_errors()
            self._new_parallel = lambda: Parallel(
                n_jobs=n_jobs, backend=None if backend == "loky" else backend,
                return_as="generator", batch_size=1)
        self._parallel = self._new_parallel().__enter__()
        self._stack.callback(self._close_parallel)
        self.n_workers = n_jobs
        return self

    def _close_parallel(self) -> None:
        if self._parallel is not None:
            self._parallel.__exit__(None, None, None)
            self._parallel = None

    def __exit__(self, *exc: object) -> None:
        self._stack.close()
        self._parallel = None
        self._watch = None
        self._client = None

    def run(self, tasks: Iterable[tuple[Callable[..., Any], tuple[Any, ...]]]) -> Iterator[Any]:
        """Results of the tasks, in task order, as they become available.

        A worker lost mid-way costs only the tasks not yet returned: they run again (on a
        fresh loky pool, or the dask workers left), giving the same results as the tasks are
        deterministic; after `MAX_REPLAYS` losses in a row without a result in between, or
        with no dask worker left, WorkersLostError (one line).
        """
        if self._parallel is None:
            raise RuntimeError("Runner used outside its with-block")
        return self._replaying(list(tasks))

    def _replaying(self, tasks: list[tuple[Callable[..., Any], tuple[Any, ...]]]
                   ) -> Iterator[Any]:
        done, losses = 0, 0
        while done < len(tasks):
            assert self._parallel is not None  # noqa: S101 - run checks; for mypy
            # joblib's own wait for a dask worker is 10 s and ends in a traceback: ours first
            # (WorkersLostError after NO_WORKER_TIMEOUT_S); a worker lost again before joblib
            # looks is one more loss below.
            self._await_workers()
            results: Iterator[Any] = iter(())
            try:
                results = iter(self._parallel(delayed(fn)(*args) for fn, args in tasks[done:]))
                if self._watch is not None:
                    results = self._guarded(results)
                for r in results:
                    yield r
                    done, losses = done + 1, 0
                return
            except GeneratorExit:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
                raise
            except self._lost_errors + (WorkersLostError,) as e:  # noqa: RUF005 - mypy types it
                no_workers = self._watch is not None and self._watch.lost
                losses += 1
                if no_workers or losses > MAX_REPLAYS:
                    if isinstance(e, WorkersLostError):
                        raise
                    raise WorkersLostError(f"workers lost {losses} times in a row "
                                           f"({type(e).__name__})") from None
                print(f"warning: a worker was lost ({type(e).__name__}); playing the "
                      f"{len(tasks) - done} tasks not yet returned again (same results)",
                      file=sys.stderr, flush=True)
                if self._watch is None:  # loky: the broken pool is replaced
                    self._close_parallel()
                    self._parallel = self._new_parallel().__enter__()

    def _await_workers(self) -> None:
        """Dask: return once the scheduler has a worker; WorkersLostError (one line) after
        NO_WORKER_TIMEOUT_S seconds without one. Nothing for the other backends."""
        if self._client is None:
            return
        timeout = NO_WORKER_TIMEOUT_S
        end = time.monotonic() + timeout
        warned = False
        while True:
            try:
                if self._client.scheduler_info(n_workers=-1).get("workers"):
                    return
            except Exception:  # noqa: BLE001 - the scheduler not answering: no worker either
                pass
            if time.monotonic() >= end:
                where = self.cfg.scheduler or "the local dask cluster"
                raise WorkersLostError(f"no dask worker connected to {where} for "
                                       f"{timeout:g} s")
            if not warned:
                print(f"warning: no dask worker connected; waiting up to {timeout:g} s for "
                      "one", file=sys.stderr, flush=True)
                warned = True
            time.sleep(WORKER_POLL_S)

    def _guarded(self, results: Iterator[Any]) -> Iterator[Any]:
        """Dask results, with lost workers or tasks turned into one WorkersLostError."""
        where = self.cfg.scheduler or "the local dask cluster"
        try:
            yield from results
        except self._lost_errors as e:
            if self._watch is not None and self._watch.lost:
                raise WorkersLostError(f"no dask worker connected to {where} for "
                                       f"{NO_WORKER_TIMEOUT_S:g} s") from None
            reason = " ".join(str(e).split())[:200]
            raise WorkersLostError(f"{where} lost the run's tasks ({type(e).__name__}: "
                                   f"{reason})") from None


def _loky_lost_errors() -> tuple[type[BaseException], ...]:
    """What joblib's loky backend raises when a worker process dies (kill -9, OOM killer)."""
    from joblib.externals.loky.process_executor import BrokenProcessPool

    return (BrokenProcessPool,)


def _dask_lost_errors() -> tuple[type[BaseException], ...]:
    """What distributed raises for tasks whose workers or scheduler went away."""
    import asyncio

    from distributed import CancelledError, TimeoutError
    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    return (CancelledError, asyncio.CancelledError, KilledWorker, CommClosedError, TimeoutError,
            OSError)
