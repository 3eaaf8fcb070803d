"""A real many-rank run recorded by the collectors in one process: one thread per rank, each
with its own RunWriter and MyTimer, a small torch step, and a `threading.Barrier` as the
collective every rank waits in (an `all_reduce` span), so ranks wait for the slowest as under
DDP. Timer files only (no traces), to keep ingest fast.

`write_independent_run`: ranks that never wait for each other (inference replicas, say), one of
them slow in one step, so that a finding is about that rank alone; each rank also runs a
GpuTracker (the process side: this machine has no GPU) and a MemorySampler whose CUDA
statistics come from `RankCudaStats` (rank r allocates r + 1 times 64 MiB), so the Memory and
GPU tabs have many ranks to chart.

Planted: `STRAGGLER` works `STRAGGLER_DELAY_S` longer every step (×4 in `STRAGGLER_WORST`), so
the others wait for it there; every rank is slow in `SLOW_STEP` (a checkpoint, say); ranks
differ by a small per-rank skew.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

from collectors import GpuTracker, MemorySampler, MyTimer, RunWriter

WORLD_SIZE = 256
STEPS = 20
STRAGGLER = 37
STRAGGLER_DELAY_S = 0.08  # well above the step-time spread of 256 threads on 2 loaded cores
STRAGGLER_WORST = (12, 13)
SLOW_STEP = 16
SLOW_STEP_DELAY_S = 0.3
SKEW_S = 0.0002  # rank r sleeps (r % 8) x this more per step
BARRIER_TIMEOUT_S = 60
INDEPENDENT_WORLD_SIZE = 20
INDEPENDENT_STEPS = 12
INDEPENDENT_STEP_S = 0.03
SLOW_RANK, SLOW_RANK_STEP, SLOW_RANK_DELAY_S = 7, 8, 0.4


def _record_ranks(
    run_dir: Path, world_size: int, rank_loop: Callable[[int, MyTimer], None]
) -> None:
    """Run `rank_loop(rank, timer)` in one thread per rank, each rank with its own RunWriter and
    MyTimer, then close them; the first exception of a rank is raised here."""
    writers = [RunWriter(run_dir, rank=r, world_size=world_size) for r in range(world_size)]
    timers = [MyTimer(w, gpu=False) for w in writers]
    failures: list[BaseException] = []

    def guarded(rank: int) -> None:
        try:
            rank_loop(rank, timers[rank])
        except BaseException as exc:  # reported by the caller, not lost in the thread
            failures.append(exc)

    threads = [threading.Thread(target=guarded, args=(r,)) for r in range(world_size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for timer, writer in zip(timers, writers, strict=True):
        timer.close()
        writer.close()
    if failures:
        raise failures[0]


RECORDED_RUN = Path(__file__).resolve().parents[1] / "fixtures" / "many_ranks" / "many_ranks"


def write_many_rank_run(run_dir: Path, world_size: int = WORLD_SIZE, steps: int = STEPS) -> None:
    import torch

    barrier = threading.Barrier(world_size, timeout=BARRIER_TIMEOUT_S)

    def rank_loop(rank: int, timer: MyTimer) -> None:
        weight, batch = torch.randn(16, 16), torch.randn(8, 16)
        try:
            for step in range(steps):
                timer.set_step(step)
                with timer.range("forward"):
                    torch.relu(batch @ weight).sum()
                    delay = (rank % 8) * SKEW_S
                    if rank == STRAGGLER:
                        delay += STRAGGLER_DELAY_S * (4 if step in STRAGGLER_WORST else 1)
                    if step == SLOW_STEP:
                        delay += SLOW_STEP_DELAY_S
                    time.sleep(delay)
                with timer.range("all_reduce"):
                    barrier.wait()
            timer.step()
        except BaseException:
            barrier.abort()  # the other ranks stop waiting for this one
            raise

    _record_ranks(run_dir, world_size, rank_loop)


class RankCudaStats:
    """MemorySampler's CUDA statistics for one rank of `write_independent_run` (no GPU here):
    a constant allocation of (rank + 1) x 64 MiB."""

    device = "cuda:0"

    def __init__(self, rank: int) -> None:
        self.allocated = (rank + 1) << 26

    def read(self) -> tuple[str, dict[str, int]]:
        return self.device, {"allocated": self.allocated, "reserved": self.allocated + (32 << 20),
                             "peak": self.allocated, "retries": 0, "ooms": 0}  # fmt: skip

    def reset_peak(self) -> None:
        pass


def write_independent_run(run_dir: Path) -> None:
    def rank_loop(rank: int, timer: MyTimer) -> None:
        tracker = GpuTracker(timer.writer, interval_s=0.1)
        with tracker, MemorySampler(timer, source=RankCudaStats(rank)):
            for step in range(INDEPENDENT_STEPS):
                timer.set_step(step)
                with timer.range("forward"):
                    slow = rank == SLOW_RANK and step == SLOW_RANK_STEP
                    time.sleep(INDEPENDENT_STEP_S + (SLOW_RANK_DELAY_S if slow else 0))
            timer.step()

    _record_ranks(run_dir, INDEPENDENT_WORLD_SIZE, rank_loop)


def independent_logdir(tmp_path_factory) -> Path:
    """A logdir holding the run `independent` (`write_independent_run`) as recorded by
    tests/fixtures/many_ranks/generate.py: which ranks' steps stand out must not be the load."""
    logdir = tmp_path_factory.mktemp("independent")
    shutil.copytree(RECORDED_RUN.parent / "independent", logdir / "independent")
    return logdir


TRACED_WORLD_SIZE = 20
_TRACE = Path(__file__).resolve().parents[2] / "sample_runs" / "ddp_traced" / "plugins" / "tb_perf"


def traced_logdir(tmp_path_factory) -> Path:
    """A logdir holding the run `traced20`: the real torch.profiler window of the sample run
    `ddp_traced` (rank 0, steps 7-11) as the trace of each of 20 ranks, as a user's own traces
    with no collector files; rank r's clock starts r ms later."""
    logdir = tmp_path_factory.mktemp("traced20")
    run = logdir / "traced20"
    run.mkdir()
    with gzip.open(_TRACE / "rank0.vm.31213.steps7-11.pt.trace.json.gz") as source:
        trace = json.load(source)
    trace.pop("tb_perf")
    for rank in range(TRACED_WORLD_SIZE):
        trace["distributedInfo"] = {**trace["distributedInfo"], "rank": rank,
                                    "world_size": TRACED_WORLD_SIZE}  # fmt: skip
        trace["baseTimeNanoseconds"] += 1_000_000
        path = run / f"worker{rank}.pt.trace.json.gz"
        with gzip.open(path, "wt") as out:
            json.dump(trace, out)
        # a finished job's traces: files written seconds ago are taken as still being written,
        # and the run's version changes once they settle (what the page shows would then
        # depend on how fast the test got there)
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    return logdir


_made: dict[int, Path] = {}


def many_rank_logdir(tmp_path_factory) -> Path:
    """A logdir holding the run `many_ranks` as recorded by tests/fixtures/many_ranks/
    generate.py, copied once per test session (the plugin and the browser tests share it)."""
    key = id(tmp_path_factory)
    if key not in _made:
        logdir = tmp_path_factory.mktemp("many_ranks")
        shutil.copytree(RECORDED_RUN, logdir / "many_ranks")
        _made[key] = logdir
    return _made[key]
