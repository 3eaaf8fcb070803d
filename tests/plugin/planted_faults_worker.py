"""Real CPU training loops with planted performance faults, recorded once into
tests/fixtures/planted/ (its generate.py) for the findings tests.

    python planted_faults_worker.py LOGDIR
    python planted_faults_worker.py LOGDIR --distributed SCENARIO   (one of PAIR_SCENARIOS)

The second form is one rank of a two-process gloo job (RANK, WORLD_SIZE, MASTER_ADDR and
MASTER_PORT from the environment, as torchrun sets them; `run_pair` launches both), whose ranks
all-reduce their gradients every step; in `straggler` and `straggler_untraced` (the same without
torch.profiler), rank STRAGGLER works 40 ms longer each step, and 60 ms longer in
STRAGGLER_WORST_STEP.

One run per scenario under LOGDIR, each a small MLP trained for STEPS steps with MyTimer spans
(data / forward / backward / optimizer) and a `profile_steps` window: `clean` (three times), and one
fault each, planted well above its finding's threshold.

torch is imported where it is used: the tests import the constants only.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from collectors import MyTimer, RunWriter, profile_steps  # noqa: E402

if TYPE_CHECKING:
    import torch

STEPS = 30
OUTLIER_STEP = 25  # not next to the profiling window (steps 9-20), whose steps are left out
OUTLIER_S = 0.150  # on steps of ~3 ms
SCENARIOS = ("clean_a", "clean_b", "clean_c", "slow_data", "outlier_step", "dominant_op")
# straggler_untraced: the straggler pair without torch.profiler: MyTimer's collective spans only
PAIR_SCENARIOS = ("clean_pair", "straggler", "straggler_untraced")
PAIR_TRACED_STEPS = range(6, 18)  # the pairs' profile_steps window
SLOW_DATA_SAMPLE_S, BATCH_SIZE = 40e-6, 256  # slow_data: 10.24 ms of loading a batch
STRAGGLER = 1
STRAGGLER_DELAY_S = 0.040
# 20 ms more than in the other steps: far above a quiet machine's noise, too little for a
# step_outlier (1.5x the median step); traced, as the straggler rule reads traced steps
STRAGGLER_WORST_STEP, STRAGGLER_WORST_DELAY_S = 12, 0.060


class Samples:
    """Random samples, each taking `per_sample_s` to produce (decoding, augmentation); fetched
    a batch of indices at a time (a map-style dataset for DataLoader)."""

    def __init__(self, n: int, per_sample_s: float) -> None:
        import torch

        self.x = torch.randn(n, 64)
        self.y = torch.randint(0, 2, (n,))
        self.per_sample_s = per_sample_s

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, indices: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
        if self.per_sample_s:
            time.sleep(self.per_sample_s * len(indices))
        return self.x[indices], self.y[indices]


def train(run_dir: Path, scenario: str) -> None:
    import torch
    from torch.utils.data import BatchSampler, DataLoader, SequentialSampler

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    big = torch.randn(400_000)
    # a DataLoader without workers whose samples take 40 µs each to "decode": 10 ms a batch
    per_sample_s = SLOW_DATA_SAMPLE_S if scenario == "slow_data" else 0.0
    samples = Samples(STEPS * BATCH_SIZE, per_sample_s)
    sampler = BatchSampler(SequentialSampler(samples), batch_size=BATCH_SIZE, drop_last=False)
    batches = iter(DataLoader(samples, sampler=sampler, batch_size=None))
    with RunWriter(run_dir, rank=0, world_size=1) as writer, MyTimer(writer, gpu=False) as timer:
        timer.set_step(0)
        with profile_steps(timer, skip_first=8, wait=1, warmup=1, active=10):
            for step in range(STEPS):
                timer.set_step(step)
                with timer.range("data"):
                    x, y = next(batches)
                with timer.range("forward"):
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    if scenario == "dominant_op":
                        torch.sort(big)  # one op far above everything else in the step
                with timer.range("backward"):
                    loss.backward()
                with timer.range("optimizer"):
                    optimizer.step()
                    optimizer.zero_grad()
                if scenario == "outlier_step" and step == OUTLIER_STEP:
                    time.sleep(OUTLIER_S)  # e.g. a checkpoint written inside the loop
            timer.step()


def train_distributed(run_dir: Path, scenario: str) -> None:
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    first, last = PAIR_TRACED_STEPS[0], PAIR_TRACED_STEPS[-1]
    with RunWriter(run_dir) as writer, MyTimer(writer, gpu=False) as timer:
        timer.set_step(0)
        traced = (
            contextlib.nullcontext()
            if scenario == "straggler_untraced"
            else profile_steps(timer, skip_first=first - 2, wait=1, warmup=1,
                               active=last - first + 1)
        )  # fmt: skip
        with traced:
            for step in range(STEPS):
                timer.set_step(step)
                with timer.range("data"):
                    x, y = torch.randn(256, 64), torch.randint(0, 2, (256,))
                with timer.range("forward"):
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    # stand-in compute: a step long enough that a few ms of scheduling noise
                    # on one rank stays small against the planted delays
                    time.sleep(0.020)
                    if scenario.startswith("straggler") and rank == STRAGGLER:
                        # a slower host, or more data on this rank
                        worst = step == STRAGGLER_WORST_STEP
                        time.sleep(STRAGGLER_WORST_DELAY_S if worst else STRAGGLER_DELAY_S)
                with timer.range("backward"):
                    loss.backward()
                with timer.range("all_reduce"):
                    grads = torch.cat([p.grad.flatten() for p in model.parameters()])
                    dist.all_reduce(grads)
                with timer.range("optimizer"):
                    optimizer.step()
                    optimizer.zero_grad()
            timer.step()
    dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_pair(logdir: Path, scenario: str) -> None:
    """The two ranks of one `PAIR_SCENARIOS` gloo job, launched as torchrun would."""
    port, procs = _free_port(), []
    for rank in (0, 1):
        env = dict(
            os.environ, RANK=str(rank), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(port), OMP_NUM_THREADS="1",
        )  # fmt: skip
        command = [sys.executable, __file__, str(logdir), "--distributed", scenario]
        procs.append(subprocess.Popen(command, env=env))
    codes = [p.wait(timeout=300) for p in procs]
    if codes != [0, 0]:
        raise RuntimeError(f"{scenario}: the ranks exited with {codes}")


def main() -> None:
    import torch

    torch.set_num_threads(1)
    logdir = Path(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[2] == "--distributed":
        train_distributed(logdir / sys.argv[3], sys.argv[3])
        return
    for scenario in SCENARIOS:
        train(logdir / scenario, scenario)


if __name__ == "__main__":
    main()
