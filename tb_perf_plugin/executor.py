"""Where per-file ingest work runs: one `concurrent.futures.Executor` seam.

`TB_PERF_EXECUTOR` (or the CLI's `--executor`, the plugin's `--tb_perf_executor`) picks it:
`process` (default: a local process pool, forkserver where available, else spawn — never fork
inside TensorBoard's threaded server), `thread`, `inline` (in the calling thread; for debugging
and tiny runs), or `dask://HOST:PORT`, the scheduler of a Dask cluster (the `dask` extra).
`TB_PERF_WORKERS` caps the local pools (default: the CPU count, at most 8). The process pool
is retired for a fresh one when a worker holds more than 1 GiB after a task (one big file's
memory goes back to the system) and replaced when a worker dies (the OOM killer), retrying
that worker's files once.
Local executors share this process' disk, so their tasks leave parsed traces in the trace cache,
and so do Dask workers when the cache is the store (`TB_PERF_STORE`: a directory they mount at
the same path, or a URL); other Dask workers return the tables packed (`ingest.transfer`) and
only this process caches them: `ingest.cache.TraceCache.read_all` makes that choice
(`shares_store`), so its callers only hand it the executor. Executors are created on first
use, not at import or in constructors.
"""

from __future__ import annotations

import collections
import concurrent.futures
import functools
import multiprocessing
import os
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .errors import ExecutorUnavailable, Unreadable
from .ingest.cache_dir import STORE_ENV, shared_store, store_problem
from .ingest.url_store import is_url

LOCAL_KINDS = ("process", "thread", "inline")
KINDS = (*LOCAL_KINDS, "dask://HOST:PORT")
DASK_SCHEME = "dask://"
DASK_CONNECT_TIMEOUT_S = 10


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


class DaskExecutor(concurrent.futures.Executor):
    """Tasks on the workers of a Dask cluster, through its scheduler at `address`. A task's
    own exception reaches the caller as raised; a worker lost while running it is Unreadable
    (that file only); a cluster that stops answering is ExecutorUnavailable (the whole read is
    tried again by a later request)."""

    def __init__(self, address: str) -> None:
        try:
            import distributed
        except ImportError as exc:
            raise ExecutorUnavailable(
                f"--executor {DASK_SCHEME}… needs Dask: pip install 'tb-perf[dask]' ({exc})"
            ) from exc
        problem = store_problem(os.environ.get(STORE_ENV, "").strip())
        if problem is not None:
            raise ExecutorUnavailable(problem)
        try:
            self._client = distributed.Client(
                address, timeout=DASK_CONNECT_TIMEOUT_S, set_as_default=False
            )
        except (OSError, TimeoutError) as exc:
            raise ExecutorUnavailable(
                f"cannot reach the Dask scheduler at {address} ({exc})"
            ) from exc
        self._address = address
        self._killed_worker = distributed.KilledWorker

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future:
        task = functools.partial(fn, **kwargs) if kwargs else fn
        remote = self._client.submit(_call, task, *args, pure=False)  # each runs, even repeated
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.add_done_callback(lambda f: f.cancelled() and remote.cancel())
        remote.add_done_callback(lambda done: self._settle(future, done))  # in another thread
        return future

    def _settle(self, future: concurrent.futures.Future, remote: Any) -> None:
        """Move the outcome of `remote`, a Dask future, to `future`, then release it: a worker
        keeps a result only until it is fetched, so its memory stays one task's, not the job's."""
        try:
            outcome = remote.result()
        except self._killed_worker as exc:
            outcome = _Raised(
                Unreadable(f"the Dask workers reading it died (out of memory?): {exc}")
            )
        except Exception as exc:  # the cluster's own failure (lost, closed, cancelled)
            reason = f"{type(exc).__name__}: {exc}"
            outcome = _Raised(
                ExecutorUnavailable(f"the Dask cluster at {self._address} failed ({reason})")
            )
        finally:
            remote.release()
        if not future.set_running_or_notify_cancel():
            return
        if isinstance(outcome, _Raised):
            future.set_exception(outcome.error)
        else:
            future.set_result(outcome)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._client.close()


@dataclass
class _Raised:
    """What a task raised, returned as its value so it is told apart from the cluster's own
    failures."""

    error: BaseException


def _call(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Runs on a worker."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        return _Raised(exc)


# A pool whose worker holds more than this after a task is retired for a fresh one, so the
# memory one big file took goes back to the system. Not `max_tasks_per_child`: recycling every
# worker costs small files half their time, and on CPython 3.11 a pool using it stops starting
# workers (gh-115634).
RETIRE_RSS_BYTES = 1 << 30
_PRELOADED = ["tb_perf_plugin.ingest.cache", "tb_perf_plugin.ingest.transfer"]


def _new_process_pool(max_workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """Forkserver where available (never fork inside TensorBoard's threaded server), with the
    parsers preloaded in the server so a fresh worker costs a fork, not the imports; else
    spawn."""
    context: multiprocessing.context.BaseContext
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOADED)
    else:
        context = multiprocessing.get_context("spawn")
    return concurrent.futures.ProcessPoolExecutor(max_workers=max_workers, mp_context=context)


@dataclass
class _Measured:
    """A task's outcome on a worker and the worker's resident memory after it."""

    value: Any
    error: BaseException | None
    rss_bytes: int


def _resident_bytes() -> int:
    """This process' resident memory now (Linux), else its peak (`ru_maxrss`)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak * (1 if sys.platform == "darwin" else 1024)


def _measured(task: Callable[[], Any]) -> _Measured:
    """Runs on a worker."""
    try:
        return _Measured(task(), None, _resident_bytes())
    except Exception as exc:
        return _Measured(None, exc, _resident_bytes())


class ProcessPool(concurrent.futures.Executor):
    """A local process pool that outlives its workers. A pool whose worker holds more than
    `retire_rss_bytes` after a task is retired (its workers finish what they hold, then exit)
    for a fresh one, so the memory one big file took returns to the system; a pool broken by
    a dying worker is replaced. A task whose worker died is run once more on the new pool (it
    may have died for another task's sake); dying again, it is Unreadable, as on the Dask path."""

    def __init__(self, max_workers: int, retire_rss_bytes: int = RETIRE_RSS_BYTES) -> None:
        self._max_workers = max_workers
        self._retire_rss_bytes = retire_rss_bytes
        self._lock = threading.Lock()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._retired: weakref.WeakSet = weakref.WeakSet()  # still finishing their tasks
        self._closed = False

    def _current(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if self._pool is None:
                self._pool = _new_process_pool(self._max_workers)
            return self._pool

    def _retire(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is not pool:
                return
            self._pool = None
            self._retired.add(pool)
        pool.shutdown(wait=False)  # its queued tasks still run

    def _replace(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._run(future, functools.partial(fn, *args, **kwargs), retries=1)
        return future

    def _run(
        self, future: concurrent.futures.Future, task: Callable[[], Any], retries: int
    ) -> None:
        pool = self._current()
        try:
            inner = pool.submit(_measured, task)
        except concurrent.futures.process.BrokenProcessPool:
            self._replace(pool)
            pool = self._current()
            inner = pool.submit(_measured, task)
        future.add_done_callback(lambda f: f.cancelled() and inner.cancel())
        inner.add_done_callback(lambda done: self._settle(future, done, pool, task, retries))

    def _settle(
        self,
        future: concurrent.futures.Future,
        inner: concurrent.futures.Future,
        pool: concurrent.futures.ProcessPoolExecutor,
        task: Callable[[], Any],
        retries: int,
    ) -> None:
        if inner.cancelled() or future.done():
            future.cancel()
            return
        error = inner.exception()
        if isinstance(error, concurrent.futures.process.BrokenProcessPool):
            self._replace(pool)
            if retries > 0:
                try:
                    self._run(future, task, retries - 1)
                    return
                except RuntimeError as exc:  # shut down meanwhile
                    error = exc
            else:
                error = Unreadable("the worker process reading it died (out of memory?)")
        value = None
        if error is None:
            measured = inner.result()
            value, error = measured.value, measured.error
            if measured.rss_bytes > self._retire_rss_bytes:
                self._retire(pool)
        if not future.set_running_or_notify_cancel():
            return
        if error is None:
            future.set_result(value)
        else:
            future.set_exception(error)

    def submit_alone(self, fn: Callable[..., Any], /, *args: Any) -> concurrent.futures.Future:
        """`fn(*args)` in a process of its own, which exits when it returns: for a task whose
        memory grows with the whole run rather than one file (the merge of a run's analysis),
        so that memory goes back to the system and the pool's workers stay at one file's
        working set. A process that dies fails the future (BrokenProcessPool)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            alone = _new_process_pool(1)
            self._retired.add(alone)  # shut down with the pool if still running then
        future = alone.submit(fn, *args)
        future.add_done_callback(lambda _: alone.shutdown(wait=False))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
            pools = [*self._retired, *([pool] if pool is not None else [])]
        for each in pools:  # waiting: no pool's manager thread is left closing at exit
            each.shutdown(wait=wait, cancel_futures=cancel_futures)


def submit_alone(
    executor: concurrent.futures.Executor, fn: Callable[..., Any], /, *args: Any
) -> concurrent.futures.Future:
    """`fn(*args)` in a process of its own on a local process pool (`ProcessPool.submit_alone`),
    else as any task of `executor`."""
    if isinstance(executor, ProcessPool):
        return executor.submit_alone(fn, *args)
    return executor.submit(fn, *args)


def parallelism(executor: concurrent.futures.Executor) -> int:
    """How many tasks `executor` runs at once: its workers (a Dask cluster's threads, as it
    has them now), 1 for the inline executor."""
    if isinstance(executor, ProcessPool):
        return executor._max_workers
    if isinstance(executor, DaskExecutor):
        return max(1, sum(executor._client.nthreads().values()))
    return max(1, getattr(executor, "_max_workers", 1))


def submitted_ahead(
    executor: concurrent.futures.Executor,
    calls: Iterable[tuple[Callable[..., Any], tuple]],
) -> Iterator[concurrent.futures.Future]:
    """The futures of `calls` ((function, arguments) each), in order, each call submitted (its
    arguments made: `calls` is consumed lazily) when it comes within twice the executor's
    parallelism of the one taken. A run's per-rank tasks then hold a window of ranks'
    arguments, not every rank's at once (which left the serving process 60 MB larger, as
    fragments, after a 256-rank timeline), and the workers never wait for work."""
    window = 2 * parallelism(executor) + 1
    pending: collections.deque[concurrent.futures.Future] = collections.deque()
    for fn, args in calls:
        pending.append(executor.submit(fn, *args))
        if len(pending) >= window:
            yield pending.popleft()
    yield from pending


def shares_store(executor: concurrent.futures.Executor, location: str) -> bool:
    """Whether tasks on `executor` write the caches at `location` (a directory or a store URL)
    that this process reads: a local executor's do; a Dask cluster's when `location` is the
    store (TB_PERF_STORE)."""
    if not isinstance(executor, DaskExecutor):
        return True
    store = shared_store()
    if store is None:
        return False
    if is_url(store):
        return store.rstrip("/") == location.rstrip("/")
    return os.path.realpath(store) == os.path.realpath(location)


def check_kind(kind: str) -> str:
    """`kind` normalised, or ValueError naming the choices (argparse's `type=`)."""
    kind = kind.strip()
    if kind.lower() in LOCAL_KINDS:
        return kind.lower()
    if kind.lower().startswith(DASK_SCHEME) and len(kind) > len(DASK_SCHEME):
        return kind
    raise ValueError(f"unknown executor {kind!r}; choose one of {', '.join(KINDS)}")


def _configured_workers() -> int | None:
    text = os.environ.get("TB_PERF_WORKERS", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ExecutorUnavailable(f"TB_PERF_WORKERS={text!r} is not a positive integer")
    return int(text)


def make_executor(
    kind: str | None = None, max_workers: int | None = None
) -> concurrent.futures.Executor:
    kind = check_kind(kind or os.environ.get("TB_PERF_EXECUTOR") or "process")
    if kind.lower().startswith(DASK_SCHEME):
        return DaskExecutor("tcp://" + kind[len(DASK_SCHEME) :])
    workers = max_workers or _configured_workers() or min(8, os.cpu_count() or 2)
    if kind == "process":
        return ProcessPool(workers)
    if kind == "thread":
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="tb_perf_ingest"
        )
    return InlineExecutor()


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
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None
