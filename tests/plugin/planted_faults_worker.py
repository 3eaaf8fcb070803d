"""Real CPU training loops with planted performance faults, for the findings tests.

    python planted_faults_worker.py LOGDIR

One run per scenario under LOGDIR, each a small MLP trained for STEPS steps with MyTimer spans
(data / forward / backward / optimizer) and a `profile_steps` window: `clean` (three times), and one
fault each, planted well above its finding's threshold.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

from collectors import MyTimer, RunWriter, profile_steps  # noqa: E402

STEPS = 30
OUTLIER_STEP = 25  # not next to the profiling window (steps 9-20), whose steps are left out
SCENARIOS = ("clean_a", "clean_b", "clean_c", "slow_data", "outlier_step", "dominant_op")


def train(run_dir: Path, scenario: str) -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    big = torch.randn(400_000)
    with RunWriter(run_dir, rank=0, world_size=1) as writer, MyTimer(writer, gpu=False) as timer:
        timer.set_step(0)
        with profile_steps(timer, skip_first=8, wait=1, warmup=1, active=10):
            for step in range(STEPS):
                timer.set_step(step)
                with timer.range("data"):
                    x, y = torch.randn(256, 64), torch.randint(0, 2, (256,))
                    if scenario == "slow_data":
                        time.sleep(0.010)  # a slow loader: decoding on the training process
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


def main() -> None:
    torch.set_num_threads(1)
    logdir = Path(sys.argv[1])
    for scenario in SCENARIOS:
        train(logdir / scenario, scenario)


if __name__ == "__main__":
    main()
