"""executor.submitted_ahead: a run's per-rank tasks are submitted a window ahead of the one
taken, their arguments made as they are submitted, and come back in order."""

import concurrent.futures
import threading

from tb_perf_plugin.executor import InlineExecutor, parallelism, submitted_ahead


def test_calls_are_made_a_window_ahead_and_taken_in_order():
    made: list[int] = []
    taken: list[tuple[int, int]] = []

    def calls():
        for rank in range(20):
            made.append(rank)  # the rank's arguments made now
            yield pow, (rank, 2)

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        window = 2 * parallelism(pool) + 1
        for rank, future in enumerate(submitted_ahead(pool, calls())):
            assert len(made) <= rank + window  # never every rank's arguments at once
            taken.append((rank, future.result()))
    assert taken == [(rank, rank**2) for rank in range(20)]
    assert made == list(range(20))


def test_a_failed_call_fails_its_own_future_only():
    def calls():
        yield int, ("1",)
        yield int, ("not a number",)
        yield int, ("3",)

    futures = list(submitted_ahead(InlineExecutor(), calls()))
    assert futures[0].result() == 1 and futures[2].result() == 3
    assert isinstance(futures[1].exception(), ValueError)


def test_workers_are_kept_busy():
    """With two workers, the next tasks are already submitted while one is taken."""
    started = threading.Semaphore(0)
    release = threading.Event()

    def task(rank: int) -> int:
        started.release()
        release.wait(10)
        return rank

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = submitted_ahead(pool, ((task, (rank,)) for rank in range(10)))
        first = next(futures)
        assert started.acquire(timeout=10) and started.acquire(timeout=10)  # both workers busy
        release.set()
        assert [first.result(), *(f.result() for f in futures)] == list(range(10))
