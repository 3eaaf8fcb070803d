"""One rank of a real CPU training job that the soak test serves while it writes.

    python live_worker.py RUN_DIR --rank R --world-size W --steps N --step-s S

The demo MLP trained for N steps, each at least S seconds long (the rest of the step is a
`data` wait), with MyTimer spans (data / forward / backward / optimizer), MemorySampler, a
loss scalar, and `profile_steps` windows of two steps every six steps: new steps, memory
samples and trace files land in the run while it trains. The rank comes from RANK /
WORLD_SIZE (as torchrun sets them); no process group: ranks start independently, so a test can
start one later. Prints `step N` after each step's files are flushed.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

from collectors import MemorySampler, MyTimer, RunWriter, profile_steps  # noqa: E402
from sample_runs.generate import sample_model, timed_train_step  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--step-s", type=float, required=True)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    batch = (torch.randn(64, 64, generator=gen), torch.randint(0, 2, (64,), generator=gen))
    model = sample_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = torch.nn.CrossEntropyLoss()

    def next_batch():
        time.sleep(args.step_s)  # a DataLoader wait: the job writes at a training job's pace
        return batch

    with RunWriter(args.run_dir) as writer, MyTimer(writer, gpu=False) as timer:
        with MemorySampler(timer), profile_steps(timer, wait=3, warmup=1, active=2, repeat=0):
            for step in range(args.steps):
                timer.set_step(step)
                loss = timed_train_step(timer, model, optimizer, loss_fn, next_batch)
                writer.add_scalar("loss", loss.item(), step)
                timer.step()
                print(f"step {step}", flush=True)


if __name__ == "__main__":
    main()
