"""Real CPU training loops with planted performance faults, for the findings tests.

    python planted_faults_worker.py LOGDIR
    python planted_faults_worker.py LOGDIR --distributed (clean_pair | straggler)

The second form is one rank of a two-process gloo job (RANK, WORLD_SIZE, MASTER_ADDR and
MASTER_PORT from the environment, as torchrun sets them), whose ranks all-reduce their
gradients every step; in `straggler`, rank 1 works 40 ms longer each step.

One run per scenario under LOGDIR, each a small MLP trained for STEPS steps with MyTimer spans
(data / forward / backward / optimizer) and a `profile_steps` window: `clean` (three times), and one
fault each, planted well above its finding's threshold.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402
from torch.utils.data import BatchSampler, DataLoader, Dataset, SequentialSampler  # noqa: E402

from collectors import MyTimer, RunWriter, profile_steps  # noqa: E402

STEPS = 30
OUTLIER_STEP = 25  # not next to the profiling window (steps 9-20), whose steps are left out
SCENARIOS = ("clean_a", "clean_b", "clean_c", "slow_data", "outlier_step", "dominant_op")


class Samples(Dataset):
    """Random samples, each taking `per_sample_s` to produce (decoding, augmentation); fetched
    a batch of indices at a time."""

    def __init__(self, n: int, per_sample_s: float) -> None:
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
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    big = torch.randn(400_000)
    # a DataLoader without workers whose samples take 40 µs each to "decode": 10 ms a batch
    per_sample_s = 40e-6 if scenario == "slow_data" else 0.0
    samples = Samples(STEPS * 256, per_sample_s)
    sampler = BatchSampler(SequentialSampler(samples), batch_size=256, drop_last=False)
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
                    time.sleep(0.150)  # e.g. a checkpoint written inside the loop
            timer.step()


def train_distributed(run_dir: Path, scenario: str) -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    with RunWriter(run_dir) as writer, MyTimer(writer, gpu=False) as timer:
        timer.set_step(0)
        with profile_steps(timer, skip_first=4, wait=1, warmup=1, active=12):
            for step in range(STEPS):
                timer.set_step(step)
                with timer.range("data"):
                    x, y = torch.randn(256, 64), torch.randint(0, 2, (256,))
                with timer.range("forward"):
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    # a step long enough that scheduling noise on a shared 2-core runner
                    # (a few ms, now and then on one rank) stays small against it
                    time.sleep(0.020)
                    if scenario == "straggler" and rank == 1:
                        time.sleep(0.040)  # a slower host, or more data on this rank
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


def main() -> None:
    torch.set_num_threads(1)
    logdir = Path(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[2] == "--distributed":
        train_distributed(logdir / sys.argv[3], sys.argv[3])
        return
    for scenario in SCENARIOS:
        train(logdir / scenario, scenario)


if __name__ == "__main__":
    main()
