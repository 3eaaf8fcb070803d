"""Work that may take long (reading a run, building its timeline, loading a snapshot) as jobs
on a small thread pool, one per (run, kind) and version of the files read; results kept per
key, newest version first. A caller waits a while for its job, then gets the kept result of an
older version (a live run) or `Progress`.

Starts no thread in its constructor: the pool is created by the first job.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import functools
import itertools
import logging
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import ExecutorUnavailable, Progress, TbPerfError

logger = logging.getLogger(__name__)

Key = tuple[str, str]  # (run name, kind of result)


@dataclass
class Job:
    """One job's version (`signature`), progress and future."""

    signature: tuple | None  # None once it failed: `digest` tells its version then
    total_bytes: int
    serial: int  # later jobs read newer versions of the run's files
    keep: bool = True  # whether the pool keeps the result (else a cache of the caller's does)
    future: concurrent.futures.Future | None = None
    done_bytes: int = 0
    digest: tuple[int, int] | None = None

    def advance(self, n: int) -> None:
        self.done_bytes += n

    def reads(self, signature: tuple) -> bool:
        """Whether this job is of the version `signature`."""
        if self.signature is not None:
            return self.signature == signature
        return self.digest == _digest(signature)

    def failed(self, error: BaseException) -> None:
        """It failed with `error`: it keeps the error's text, and its version as a digest. It
        stays listed as long as its run is unchanged, and a signature holds a tuple per file
        of the run (a refused run of 50,000 files: 6 MB)."""
        self.future = _error_only(error)
        if self.signature is not None:
            self.digest, self.signature = _digest(self.signature), None


def _digest(signature: tuple) -> tuple[int, int]:
    """What tells a signature from another (its hash: paths' hashes are salted per process)."""
    return len(signature), hash(signature)


class JobPool:
    """Jobs and their kept results. Thread-safe."""

    def __init__(self, on_executor_lost: Callable[[], None]) -> None:
        """`on_executor_lost`: called when a job failed with `ExecutorUnavailable` (not the
        files' fault: the next request reconnects and retries)."""
        self._on_executor_lost = on_executor_lost
        self._lock = threading.Lock()
        # key -> (signature, result, job serial) of the newest version read
        self._results: dict[Key, tuple[tuple, Any, int]] = {}
        self._jobs: dict[Key, Job] = {}
        self._serial = itertools.count()
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    def result(
        self,
        key: Key,
        signature: tuple,
        total_bytes: int,
        work: Callable[[Job], Any],
        wait_s: float | None,
        keep: bool = True,
    ) -> Any:
        """The kept result of `work` for this version, else `work`'s result within `wait_s`
        seconds (None: until done), else an older version's kept result, else raises
        `Progress`. `keep` False leaves the result to a cache of the caller's."""
        started = None
        with self._lock:
            kept = self._results.get(key)
            if kept is not None and kept[0] == signature:
                return kept[1]
            job = self._jobs.get(key)
            if job is None or not job.reads(signature):
                if job is not None and job.future is not None:
                    job.future.cancel()  # an older version's job, if not started: never needed
                job = self._jobs[key] = Job(signature, total_bytes, next(self._serial), keep)
                started = job
                if self._pool is None:
                    self._pool = concurrent.futures.ThreadPoolExecutor(
                        max_workers=4, thread_name_prefix="tb_perf_job"
                    )
                job.future = self._pool.submit(work, job)
        if started is not None:  # outside the lock: a job already done calls back at once
            assert started.future is not None
            started.future.add_done_callback(lambda f: self._finished(key, started, f))
        while True:
            assert job.future is not None
            try:
                return job.future.result(timeout=wait_s)
            except concurrent.futures.TimeoutError:
                if kept is not None:  # a live run: the newest version read so far
                    return kept[1]
                raise Progress(job.done_bytes, job.total_bytes) from None
            except concurrent.futures.CancelledError:  # superseded: the newer version answers
                with self._lock:
                    newer, kept = self._jobs.get(key), self._results.get(key)
                if newer is None:
                    assert kept is not None
                    return kept[1]
                job = newer

    def kept(self, key: Key) -> Any | None:
        """The newest result kept for `key` (of whichever version), None if none."""
        with self._lock:
            found = self._results.get(key)
        return None if found is None else found[1]

    def forget_runs_except(self, names: Iterable[str]) -> None:
        """Drop the results of runs no longer discovered."""
        keep = set(names)
        with self._lock:
            for key in [k for k in self._results if k[0] not in keep]:
                del self._results[key]

    def _finished(self, key: Key, job: Job, future: concurrent.futures.Future) -> None:
        """Keep a job's result when it is newer than the one kept, even if a newer job is
        under way: a run that changes faster than it is read still shows its newest version."""
        if future.cancelled():
            return
        error = future.exception()
        if isinstance(error, ExecutorUnavailable):
            with self._lock:
                if self._jobs.get(key) is job:
                    del self._jobs[key]
            self._on_executor_lost()
            return
        if error is not None:  # stays listed: requests for its version get its error's text
            with self._lock:
                job.failed(error)
            return_freed_memory()
            return
        with self._lock:
            if self._jobs.get(key) is job:
                del self._jobs[key]
            kept = self._results.get(key)
            if job.keep and (kept is None or kept[2] < job.serial):
                assert job.signature is not None  # only a failed job's is None
                self._results[key] = (job.signature, future.result(), job.serial)
        return_freed_memory()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, None elsewhere (other C libraries, other systems)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def return_freed_memory() -> None:
    """Hand the free pages of the heap back to the system after a job. glibc keeps what a job
    freed for the process' next allocations (the transient of a run's analysis: about 200 kB
    a rank), which the serving process' RSS would carry for as long as it runs."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


class _Failed(concurrent.futures.Future):
    """A failed job's settled future: its error's type and text only, raised as a fresh error
    by every `result()`. The error itself keeps its traceback, whose frames keep the job's data
    (a bomb's objects, a run's every file) alive; and one error object raised again and again
    gathers every caller's frames on its traceback (each request's locals: the run's
    signature, a tuple per file), for as long as the job stays listed."""

    def __init__(self, error: TbPerfError) -> None:
        super().__init__()
        self._type, self._message = type(error), error.message
        self.set_exception(self._fresh())

    def _fresh(self) -> TbPerfError:
        return self._type(self._message)

    def result(self, timeout: float | None = None) -> Any:
        raise self._fresh()

    def exception(self, timeout: float | None = None) -> BaseException | None:
        return self._fresh()


def _error_only(error: BaseException) -> concurrent.futures.Future:
    """A settled future that raises `error`'s type and text only (`_Failed`). Errors that are
    not the files' are logged here, with their traceback, before it goes."""
    if isinstance(error, TbPerfError) and not isinstance(error, Progress):
        return _Failed(error)
    logger.error("tb_perf: a job failed", exc_info=error)
    return _Failed(TbPerfError(f"internal error ({type(error).__name__}); see the TensorBoard log"))
