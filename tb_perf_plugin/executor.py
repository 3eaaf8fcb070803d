"""Where per-file ingest work runs: one `concurrent.futures.Executor` seam.

`TB_PERF_EXECUTOR` (or the CLI's `--executor`) picks it: `process` (default: a local process
pool, forkserver where available, else spawn — never fork inside TensorBoard's threaded
server), `thread`, or `inline` (in the calling thread; for debugging and tiny runs). A Dask
cluster will plug in here as one more kind. Executors are created on first use, not at import or
in constructors.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import threading
from collections.abc import Callable
from typing import Any

KINDS = ("process", "thread", "inline")


class InlineExecutor(concurrent.futures.Executor):
    """Runs each task at submit time in the calling thread."""

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as pools do
            future.set_exception(exc)
        return future


def make_executor(
    kind: str | None = None, max_workers: int | None = None
) -> concurrent.futures.Executor:
    kind = (kind or os.environ.get("TB_PERF_EXECUTOR") or "process").strip().lower()
    workers = max_workers or max(1, min(8, (os.cpu_count() or 2)))
    if kind == "process":
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context)
    if kind == "thread":
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="tb_perf_ingest"
        )
    if kind == "inline":
        return InlineExecutor()
    raise ValueError(f"unknown executor {kind!r}; choose one of {', '.join(KINDS)}")


class LazyExecutor:
    """An executor made on the first `get()`, shut down by `shutdown()`; thread-safe."""

    def __init__(self, kind: str | None = None) -> None:
        self.kind = kind
        self._executor: concurrent.futures.Executor | None = None
        self._lock = threading.Lock()

    def get(self) -> concurrent.futures.Executor:
        with self._lock:
            if self._executor is None:
                self._executor = make_executor(self.kind)
            return self._executor

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
