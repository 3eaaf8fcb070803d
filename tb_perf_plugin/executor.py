"""Where per-file ingest work runs: one `concurrent.futures.Executor` seam.

`TB_PERF_EXECUTOR` (or the CLI's `--executor`, the plugin's `--tb_perf_executor`) picks it:
`process` (default: a local process pool, forkserver where available, else spawn — never fork
inside TensorBoard's threaded server), `thread`, `inline` (in the calling thread; for debugging
and tiny runs), or `dask://HOST:PORT`, the scheduler of a Dask cluster (the `dask` extra).
`TB_PERF_WORKERS` caps the local pools (default: the CPU count, at most 8). The process pool
(`ProcessPool`) serves the runs' tasks in turn, kills a task past `TB_PERF_TASK_LIMIT_S`
(default 600 s) with its worker, replaces a worker that holds more than 1 GiB after a task (one
big file's memory goes back to the system) or dies (the OOM killer, retrying its file once),
and stops within a second or so however busy its workers are.
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
import concurrent.futures.process
import concurrent.futures.thread  # its exit hook registered before any pool's (see _started_locked)
import functools
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from .errors import ExecutorUnavailable, OverLimit, Unreadable
from .ingest.cache_dir import STORE_ENV, shared_store, store_problem
from .ingest.url_store import is_url

T = TypeVar("T")
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


# A worker holding more than this after a task is replaced by a fresh one, so the memory one
# big file took goes back to the system. Not after every task: a fresh worker for each costs
# small files half their time.
RETIRE_RSS_BYTES = 1 << 30
TASK_LIMIT_ENV = "TB_PERF_TASK_LIMIT_S"
# The longest a task may run on a local worker: far past a real one's (a 4 GiB trace parses
# in about a minute, the merge of 4,096 ranks' summaries takes 33 s), so only a task that
# would never end meets it.
DEFAULT_TASK_LIMIT_S = 600.0
STOP_GRACE_S = 1.0  # how long a stopping worker may take to exit before it is killed
# A task running longer than this no longer counts against the pool's size while others wait:
# up to twice as many workers, so long tasks (one run's, say) never hold every worker.
OVERTIME_S = 30.0
_PRELOADED = ["tb_perf_plugin.ingest.cache", "tb_perf_plugin.ingest.transfer"]


def _process_context() -> multiprocessing.context.BaseContext:
    """Forkserver where available (never fork inside TensorBoard's threaded server), with the
    parsers preloaded in the server so a fresh worker costs a fork, not the imports; else
    spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOADED)
        return context
    return multiprocessing.get_context("spawn")


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


def _exit_with_the_server(lifeline: Connection) -> None:
    """End this worker once the server is gone, even killed before it could stop its workers
    (a forkserver's children keep the forkserver alive, so PR_SET_PDEATHSIG never fires):
    nothing is ever sent on `lifeline`; its end of file is the server's exit."""
    try:
        lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)


def _serve(connection: Connection, lifeline: Connection) -> None:
    """A worker's life: run each task sent until the connection closes or the server is gone.
    Ctrl-C in the terminal reaches the whole process group: the server stops its workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_the_server, args=(lifeline,), daemon=True).start()
    try:
        connection.send_bytes(b"")  # ready: a task's time starts when it is sent
    except OSError:
        return
    while True:
        try:
            payload = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            measured = _measured(pickle.loads(payload))
            answer = pickle.dumps(measured, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # a task or a result that does not pickle
            answer = pickle.dumps(_Measured(None, exc, _resident_bytes()))
        try:
            connection.send_bytes(answer)
        except OSError:
            return


@dataclass
class _Task:
    future: concurrent.futures.Future
    payload: bytes  # the pickled call
    group: int  # the thread that submitted it: one job, i.e. one run's read
    retries: int
    alone: bool = False


_Outcome = tuple[_Task, BaseException | None, Any]  # a task to settle: its error or its value


class _Worker:
    """One worker process and the task it runs."""

    def __init__(
        self,
        context: multiprocessing.context.BaseContext,
        lifeline: Connection,
        alone: bool,
    ) -> None:
        self.connection, child = multiprocessing.Pipe()
        self.process = context.Process(  # type: ignore[attr-defined]
            target=_serve, args=(child, lifeline), daemon=True, name="tb_perf_worker"
        )
        self.process.start()
        child.close()
        self.alone = alone
        self.ready = False  # said so: its boot (the forkserver's first start) is not a task's
        self.task: _Task | None = None
        self.started: float | None = None  # when its task was sent

    def stop(self) -> None:
        """Ask it to exit (it does once its task, if any, is done)."""
        self.connection.close()


class ProcessPool(concurrent.futures.Executor):
    """Local worker processes, one task at a time each, fed by one thread of this process.
    - Fair: tasks wait here in one queue per submitting thread (a job of the server: one
      run's read), served in turn, so one run's thousand files never hold back another run.
    - Bounded: a task running past `task_limit_s` is killed with its worker and fails as
      OverLimit (that file's error); the worker is replaced.
    - A worker holding more than `retire_rss_bytes` after a task is replaced, so the memory
      one big file took returns to the system; one that dies (the OOM killer) is replaced and
      its task run once more (it may have died for another's sake); dying again, Unreadable.
    - Stopping (`shutdown`, or the interpreter exiting on SIGTERM or Ctrl-C, before
      concurrent.futures joins its threads) kills the busy workers and fails their tasks, so
      it never waits for a task that does not end; idle workers get STOP_GRACE_S to exit.
    The thread and the workers start with the first task, not in the constructor."""

    def __init__(
        self,
        max_workers: int,
        retire_rss_bytes: int = RETIRE_RSS_BYTES,
        task_limit_s: float | None = None,
    ) -> None:
        self._max_workers = max_workers
        self._retire_rss_bytes = retire_rss_bytes
        self._task_limit_s = task_limit_s if task_limit_s is not None else _task_limit_s()
        self._lock = threading.Lock()
        self._queues: dict[int, collections.deque[_Task]] = {}
        self._workers: list[_Worker] = []
        self._leaving: list[_Worker] = []  # told to stop, not yet exited
        self._context: multiprocessing.context.BaseContext | None = None
        # the workers' ends, and this process' (never written: closed, the workers exit)
        self._lifeline: tuple[Connection, Connection] | None = None
        self._thread: threading.Thread | None = None
        self._wake_read, self._wake_write = -1, -1
        self._closed = False

    # --- submitting ----------------------------------------------------------------------

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future:
        return self._queued(functools.partial(fn, *args, **kwargs), alone=False)

    def submit_alone(self, fn: Callable[..., Any], /, *args: Any) -> concurrent.futures.Future:
        """`fn(*args)` in a process of its own, which exits when it returns: for a task whose
        memory grows with the whole run rather than one file (the merge of a run's analysis),
        so that memory goes back to the system and the pool's workers stay at one file's
        working set. It starts at once, beside the workers; a process that dies fails the
        future (BrokenProcessPool)."""
        return self._queued(functools.partial(fn, *args), alone=True)

    def _queued(self, call: Callable[[], Any], alone: bool) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            payload = pickle.dumps(call, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # as ProcessPoolExecutor: through the future
            future.set_exception(exc)
            return future
        task = _Task(future, payload, threading.get_ident(), retries=0 if alone else 1, alone=alone)
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._started_locked()
            self._queues.setdefault(-1 if alone else task.group, collections.deque()).append(task)
            self._wake_locked()
        return future

    def _started_locked(self) -> None:
        if self._thread is not None:
            return
        self._context = _process_context()
        self._lifeline = multiprocessing.Pipe(duplex=False)
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)
        self._thread = threading.Thread(target=self._serve, name="tb_perf_pool", daemon=True)
        self._thread.start()
        # Before concurrent.futures joins its threads at exit (the server's jobs wait on these
        # tasks): a plain atexit handler would run after that join, which would never return.
        # These hooks run last registered first: concurrent.futures.thread's was at import.
        register = getattr(threading, "_register_atexit", None)
        if register is not None:
            try:
                register(functools.partial(_stop_at_exit, weakref.ref(self)))
            except RuntimeError:  # the interpreter is already exiting
                pass

    def _wake_locked(self) -> None:
        """Wake the feeding thread (under the lock: its pipe is closed, and its number may be
        another file's, once the thread is gone)."""
        if self._wake_write < 0:
            return
        try:
            os.write(self._wake_write, b"x")
        except BlockingIOError:  # already woken
            pass

    # --- the feeding thread --------------------------------------------------------------

    def _serve(self) -> None:
        while True:
            with self._lock:
                settled = self._assign_locked()
                if self._closed and not self._queues and not any(w.task for w in self._workers):
                    break
                waited: list[Any] = [self._wake_read]
                for worker in [*self._workers, *self._leaving]:
                    waited.append(worker.process.sentinel)
                    if worker.task is not None or not worker.ready:
                        waited.append(worker.connection)
                timeout = self._next_deadline_locked()
            self._settle(settled)
            ready = set(multiprocessing.connection.wait(waited, timeout))
            if self._wake_read in ready:
                os.read(self._wake_read, 1 << 12)
            with self._lock:
                settled = self._collect_locked(ready)
            self._settle(settled)
        with self._lock:
            workers, self._workers = [*self._workers, *self._leaving], []
            self._leaving = []
        _stopped(workers)
        with self._lock:
            wake, self._wake_read, self._wake_write = (self._wake_read, self._wake_write), -1, -1
        for fd in wake:
            os.close(fd)
        if self._lifeline is not None:
            for end in self._lifeline:
                end.close()

    def _assign_locked(self) -> list[_Outcome]:
        """Hand queued tasks to idle workers (starting workers up to the limit), the next
        task from each submitter in turn; a task alone gets a process of its own at once."""
        settled: list[_Outcome] = []
        alone = self._queues.pop(-1, None)
        while alone:
            task = alone.popleft()
            if not task.future.cancelled():
                worker = self._new_worker_locked(alone=True)
                if isinstance(worker, BaseException):
                    settled.append((task, worker, None))
                else:
                    self._sent_locked(worker, task)
        capacity = self._capacity_locked()
        while self._queues:
            idle = next((w for w in self._workers if w.task is None and not w.alone), None)
            if idle is None and sum(not w.alone for w in self._workers) >= capacity:
                break
            group, queue = next(iter(self._queues.items()))
            task = queue.popleft()
            del self._queues[group]
            if queue:
                self._queues[group] = queue  # its next task waits for the other groups'
            if task.future.cancelled():
                continue
            found = idle or self._new_worker_locked(alone=False)
            if isinstance(found, BaseException):
                settled.append((task, found, None))
            else:
                self._sent_locked(found, task)
        idle_workers = [w for w in self._workers if w.task is None and not w.alone]
        extra = max(0, sum(not w.alone for w in self._workers) - capacity)
        for worker in idle_workers[:extra]:
            self._retired_locked(worker)  # extra workers, no longer needed
        return settled

    def _capacity_locked(self) -> int:
        """How many workers the pool may have now: `max_workers`, and one more for each task
        running past OVERTIME_S, up to twice as many."""
        now = time.monotonic()
        overtime = sum(
            w.started is not None and now - w.started > OVERTIME_S
            for w in self._workers
            if not w.alone
        )
        return min(2 * self._max_workers, self._max_workers + overtime)

    def _new_worker_locked(self, alone: bool) -> _Worker | BaseException:
        """A started worker, or why none could start (the task fails with it)."""
        assert self._context is not None and self._lifeline is not None
        try:
            worker = _Worker(self._context, self._lifeline[0], alone)
        except Exception as exc:  # no processes left, a broken forkserver
            return ExecutorUnavailable(f"cannot start a worker process ({exc})")
        self._workers.append(worker)
        return worker

    def _sent_locked(self, worker: _Worker, task: _Task) -> None:
        """`task` to `worker`, now if it is ready, else once it says so; if it died meanwhile,
        its sentinel tells and the task fails as that worker's (retried once)."""
        worker.task = task
        if not worker.ready:
            return
        worker.started = time.monotonic()
        try:
            worker.connection.send_bytes(task.payload)
        except OSError:
            pass

    def _next_deadline_locked(self) -> float | None:
        """Seconds until a task reaches its limit, or, while tasks wait, its overtime."""
        now = time.monotonic()
        deadlines = [w.started + self._task_limit_s for w in self._workers if w.started is not None]
        if self._queues:
            deadlines += [
                w.started + OVERTIME_S
                for w in self._workers
                if w.started is not None and w.started + OVERTIME_S > now
            ]
        return max(0.0, min(deadlines) - now) if deadlines else None

    def _collect_locked(self, ready: set) -> list[_Outcome]:
        """Workers ready, answers, deaths and tasks past their limit, as (task, error, value)
        to settle."""
        settled: list[_Outcome] = []
        now = time.monotonic()
        for worker in list(self._workers):
            if worker.connection in ready and self._heard_locked(worker, settled):
                continue
            task = worker.task
            if worker.process.sentinel in ready or not worker.process.is_alive():
                self._removed_locked(worker)
                if task is not None:
                    settled += self._died_locked(task)
            elif task and worker.started is not None and now - worker.started >= self._task_limit_s:
                worker.process.kill()
                self._removed_locked(worker)
                settled.append((task, OverLimit(
                    f"reading it took longer than the {self._task_limit_s:g} s limit for one "
                    f"task ({TASK_LIMIT_ENV} raises it): stopped"), None))  # fmt: skip
        for worker in list(self._leaving):
            if not worker.process.is_alive():
                worker.process.join()
                self._leaving.remove(worker)
        return settled

    def _heard_locked(self, worker: _Worker, settled: list[_Outcome]) -> bool:
        """What `worker` said: ready (its task, if one waits, is sent) or its task's answer
        (settled; the worker retired if it is alone or holds too much). False: it said
        nothing, having died."""
        try:
            message = worker.connection.recv_bytes()
        except (EOFError, OSError):
            return False
        if not worker.ready:
            worker.ready = True
            if worker.task is not None:
                self._sent_locked(worker, worker.task)
            return True
        try:
            measured: _Measured = pickle.loads(message)
        except Exception as exc:  # an answer that does not unpickle
            measured = _Measured(None, exc, 0)
        if worker.task is not None:
            settled.append((worker.task, measured.error, measured.value))
        worker.task, worker.started = None, None
        if worker.alone or measured.rss_bytes > self._retire_rss_bytes:
            self._retired_locked(worker)
        return True

    def _retired_locked(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        worker.stop()
        self._leaving.append(worker)

    def _removed_locked(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        worker.process.join()
        worker.connection.close()

    def _died_locked(self, task: _Task) -> list[_Outcome]:
        if task.alone:
            return [(task, concurrent.futures.process.BrokenProcessPool(
                "the process of a task alone died (out of memory?)"), None)]  # fmt: skip
        if self._closed:
            return [(task, Unreadable("not read: the server is stopping"), None)]
        if task.retries > 0:
            task.retries -= 1
            self._queues.setdefault(task.group, collections.deque()).appendleft(task)
            return []
        return [(task, Unreadable("the worker process reading it died (out of memory?)"), None)]

    @staticmethod
    def _settle(settled: list[_Outcome]) -> None:
        """Outside the lock: a future's callbacks may submit again."""
        for task, error, value in settled:
            if not task.future.set_running_or_notify_cancel():
                continue
            if error is None:
                task.future.set_result(value)
            else:
                task.future.set_exception(error)

    # --- stopping ------------------------------------------------------------------------

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking tasks. `cancel_futures`: queued tasks are cancelled, running ones fail
        and their workers are killed; else the tasks finish first. Idle workers are asked to
        exit, and killed after STOP_GRACE_S. `wait`: return once the workers are gone."""
        with self._lock:
            self._closed = True
            thread = self._thread
            queued: list[_Task] = []
            if cancel_futures:
                queued = [task for queue in self._queues.values() for task in queue]
                self._queues.clear()
                for worker in self._workers:
                    if worker.task is not None:
                        worker.process.kill()
            self._wake_locked()
        for task in queued:
            task.future.cancel()
        if wait and thread is not None:
            thread.join()


def _stop_at_exit(pool: weakref.ref[ProcessPool]) -> None:
    found = pool()
    if found is not None:
        found.shutdown(wait=True, cancel_futures=True)


def _stopped(workers: list[_Worker]) -> None:
    """Each worker asked to exit, killed if still there after STOP_GRACE_S; all reaped."""
    for worker in workers:
        worker.stop()
    deadline = time.monotonic() + STOP_GRACE_S
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()


def _task_limit_s() -> float:
    text = os.environ.get(TASK_LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_TASK_LIMIT_S
    try:
        limit = float(text)
    except ValueError:
        limit = 0.0
    if not limit > 0:
        raise ExecutorUnavailable(f"{TASK_LIMIT_ENV}={text!r} is not a positive number of seconds")
    return limit


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
    window = _ahead(executor)
    pending: collections.deque[concurrent.futures.Future] = collections.deque()
    for fn, args in calls:
        pending.append(executor.submit(fn, *args))
        if len(pending) >= window:
            yield pending.popleft()
    yield from pending


def completed_ahead(
    executor: concurrent.futures.Executor, calls: Iterable[tuple[tuple, T]]
) -> Iterator[tuple[concurrent.futures.Future, T]]:
    """`submitted_ahead` in the order the tasks finish: each call of `calls` ((function,
    *arguments), tag) submitted within the same window, its future and tag yielded as each
    ends. A run of 50,000 one-byte traces submitted at once held every task's future, call
    and outcome until the last one ended (13 kB a file on a thread pool, 3.5 kB on the
    process pool: 360 MB, kept as a fragmented heap)."""
    pending: dict[concurrent.futures.Future, T] = {}
    window = 0  # asked of the executor once there is work (of a Dask cluster: a round trip)
    for call, tag in calls:
        window = window or _ahead(executor)
        pending[executor.submit(*call)] = tag
        if len(pending) >= window:
            yield from _first_done(pending)
    while pending:
        yield from _first_done(pending)


def _first_done(
    pending: dict[concurrent.futures.Future, T],
) -> Iterator[tuple[concurrent.futures.Future, T]]:
    """The futures of `pending` done now (at least one, waited for), each with its tag,
    taken out of it."""
    done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
    for future in done:
        yield future, pending.pop(future)


def _ahead(executor: concurrent.futures.Executor) -> int:
    """How many tasks are submitted and not yet taken at most: twice the executor's
    parallelism and one, so its workers never wait for work."""
    return 2 * parallelism(executor) + 1


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
