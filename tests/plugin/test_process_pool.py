"""The local process pool (`executor.ProcessPool`) under tasks that never end (issue 40): a
task past its limit is killed with its worker and fails as OverLimit, the pool goes on; runs
are served in turn, so one run's queue never holds another's back; stopping never waits for a
task, at shutdown or when the interpreter exits on SIGTERM. Assertions are on order and
outcome, never on durations; a watchdog turns a hang into a failure."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tb_perf_plugin import executor
from tb_perf_plugin.errors import OverLimit
from tb_perf_plugin.executor import ProcessPool
from tests.conftest import REPO
from tests.fuzz._fuzz import watchdog

HANG_S = 60


def spin(_: int) -> int:
    while True:
        pass


def pid(_: int) -> int:
    return os.getpid()


def wait_for(path: str) -> str:
    """Block until `path` exists (the test's release of the worker)."""
    while not os.path.exists(path):
        time.sleep(0.01)
    return path


def append(path: str, label: str) -> str:
    with open(path, "a") as out:
        out.write(label + "\n")
    return label


def _gone(worker_pid: int) -> bool:
    deadline = time.monotonic() + HANG_S
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{worker_pid}/stat") as stat:
                if stat.read().split(")")[-1].split()[0] == "Z":
                    return True  # a zombie: killed, not yet reaped by its parent
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_a_task_past_its_limit_is_killed_with_its_worker_and_the_pool_goes_on():
    """The tasks timed besides `spin` are `os.getpid`: unpickling it imports nothing, so no
    load on the machine brings it near the 1 s limit (this module's functions would import
    the module in each fresh worker, within the task's time)."""
    pool = ProcessPool(max_workers=1, task_limit_s=1.0)
    try:
        with watchdog(HANG_S):
            worker = pool.submit(os.getpid).result()
            with pytest.raises(OverLimit, match=r"longer than the 1 s limit.*TB_PERF_TASK_LIMIT_S"):
                pool.submit(spin, 0).result()
            assert _gone(worker)
            after = pool.submit(os.getpid).result()
            assert after != worker  # a fresh worker
    finally:
        pool.shutdown()


def test_runs_are_served_in_turn(tmp_path):
    """One worker, held; run A queues five tasks, then run B one (each from its own thread,
    as the server's jobs do): B's task runs second, not after all of A's."""
    release, order = str(tmp_path / "release"), str(tmp_path / "order")
    pool = ProcessPool(max_workers=1)
    try:
        with watchdog(HANG_S):
            held = pool.submit(wait_for, release)
            futures: dict[str, list] = {"a": [], "b": []}
            submitted = threading.Semaphore(0)

            def run(name: str, count: int) -> None:  # a job's thread: alive till its tasks end
                futures[name] = [pool.submit(append, order, f"{name}{i}") for i in range(count)]
                submitted.release()
                for future in futures[name]:
                    future.result()

            threads = [threading.Thread(target=run, args=job) for job in (("a", 5), ("b", 1))]
            for thread in threads:
                thread.start()
                submitted.acquire()  # a's tasks are queued before b's
            Path(release).touch()
            held.result()
            for thread in threads:
                thread.join()
    finally:
        pool.shutdown()
    assert Path(order).read_text().split() == ["a0", "b0", "a1", "a2", "a3", "a4"]


def test_a_long_task_does_not_hold_the_only_worker(monkeypatch):
    """One worker, spinning on run A's task far within its limit: run B's task gets a worker
    of its own once A's is in overtime, and the extra worker goes once it is idle."""
    monkeypatch.setattr(executor, "OVERTIME_S", 0.5)
    pool = ProcessPool(max_workers=1, task_limit_s=600)
    try:
        with watchdog(HANG_S):
            long = [None]

            def run_a() -> None:
                long[0] = pool.submit(spin, 0)

            thread = threading.Thread(target=run_a)
            thread.start()
            thread.join()
            assert pool.submit(pid, 0).result() > 0
            assert not long[0].done()
            assert pool.submit(pid, 1).result() > 0
    finally:
        pool.shutdown(cancel_futures=True)


def test_shutdown_stops_a_spinning_worker_and_fails_its_task():
    pool = ProcessPool(max_workers=2)
    with watchdog(HANG_S):
        workers = [pool.submit(pid, i).result() for i in range(2)]
        spinning = [pool.submit(spin, i) for i in range(3)]  # two running, one queued
        time.sleep(0.2)
        pool.shutdown(wait=True, cancel_futures=True)
        assert all(_gone(w) for w in workers)
        assert all(f.done() for f in spinning)
        with pytest.raises(RuntimeError, match="after shutdown"):
            pool.submit(pid, 0)


EXITING_SERVER = textwrap.dedent(
    """
    import concurrent.futures, os, signal, sys, time
    from tb_perf_plugin.executor import ProcessPool
    from tests.plugin.test_process_pool import pid, spin

    def exit_on_term(number, frame):  # what TensorBoard's handler does
        sys.exit(0)

    signal.signal(signal.SIGTERM, exit_on_term)
    pool = ProcessPool(max_workers=2)
    workers = [pool.submit(pid, i).result() for i in range(2)]
    jobs = concurrent.futures.ThreadPoolExecutor(2)  # joined at exit, as the server's jobs
    waiting = [jobs.submit(lambda: pool.submit(spin, 0).result()) for _ in range(2)]
    time.sleep(0.5)
    print(*workers, flush=True)
    while True:
        time.sleep(1)
    """
)


SPINNING_SERVER = textwrap.dedent(
    """
    import time
    from tb_perf_plugin.executor import ProcessPool
    from tests.plugin.test_process_pool import pid, spin

    pool = ProcessPool(max_workers=2)
    workers = [pool.submit(pid, i).result() for i in range(2)]
    spinning = [pool.submit(spin, i) for i in range(2)]
    time.sleep(0.5)
    print(*sorted(set(workers)), flush=True)
    time.sleep(3600)
    """
)


@contextlib.contextmanager
def _server(script: str) -> Iterator[tuple[subprocess.Popen, list[int]]]:
    """`script` run as a server process, with the worker pids it prints once they spin; killed
    at the end if still there, within the watchdog."""
    server = subprocess.Popen(
        [sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        with watchdog(HANG_S):
            assert server.stdout is not None
            yield server, [int(w) for w in server.stdout.readline().split()]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_workers_end_when_the_server_is_killed():
    """SIGKILL leaves the server no time to stop its workers; their forkserver outlives the
    server while they do (they count as its clients), so they notice by themselves."""
    with _server(SPINNING_SERVER) as (server, workers):
        assert workers
        server.kill()
        server.wait()
        assert all(_gone(w) for w in workers)


def test_the_server_exits_on_sigterm_while_its_workers_spin():
    """SIGTERM while every worker spins and threads of jobs wait on them (TensorBoard's handler
    calls sys.exit; concurrent.futures then joins those threads): the process exits and takes
    its workers with it."""
    with _server(EXITING_SERVER) as (server, workers):
        assert len(workers) == 2
        server.send_signal(signal.SIGTERM)
        assert server.wait() == 0
        assert all(_gone(w) for w in workers)


def test_a_second_shutdown_writes_to_no_other_file():
    """Once the feeding thread is gone its wake-up pipe is closed, and the numbers of its
    descriptors are free for other files: a second shutdown (the exit hook after an explicit
    one) must not write there."""
    pool = ProcessPool(max_workers=1)
    with watchdog(HANG_S):
        assert pool.submit(pid, 0).result() > 0
        number = pool._wake_write  # the pool's wake-up descriptor, to be reused below
        pool.shutdown()
        read, write = os.pipe()
        os.dup2(write, number)  # another file now has that number
        try:
            os.set_blocking(read, False)
            pool.shutdown()
            with pytest.raises(BlockingIOError):
                os.read(read, 1)
        finally:
            for fd in (read, write, number):
                os.close(fd)
