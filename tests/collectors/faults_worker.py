"""A real CPU training loop with every step-driven collector on, for the fault tests.

    python faults_worker.py RUN_DIR STEPS FAULT

FAULT is one of:
- `pause:STEP:PHASE`: print `paused STEP PHASE` and wait to be killed, at PHASE of step STEP:
  `forward` (inside the forward span), `boundary` (right after the step's records were
  written) or `flush` (half-way through writing the step's timer lines: a torn write).
- `fsize:BYTES`: once the collectors are set up, no file may grow past BYTES (RLIMIT_FSIZE,
  SIGXFSZ ignored): writes fail with EFBIG, as on a full disk.
- `devfull`: every record file is a symlink to /dev/full: every write fails with ENOSPC.
- `vanish:STEP`: the run directory is deleted at the start of step STEP, and the step waits
  1.1 s: record files check once a second that their run still exists.
- `dist`: one rank of a gloo job (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT from the
  environment) that all-reduces its gradients every step.
- `none`: no fault.

At the end it prints `loss <hex>` (the last step's loss) and, but in `dist`, `baseline <hex>`:
the same training without collectors, which must give the same loss.
"""

import os
import resource
import shutil
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

from collectors import (  # noqa: E402
    GpuTracker,
    MemorySampler,
    ModuleProfiler,
    MyTimer,
    RunWriter,
)

RECORD_KINDS = ("timer", "memory", "modules", "system", "compile")


def make_model() -> tuple[torch.nn.Module, torch.optim.Optimizer, torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 32), torch.randn(64, 1)
    return model, optimizer, x, y


def train_plain(steps: int) -> float:
    model, optimizer, x, y = make_model()
    for _ in range(steps):
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def pause(step: int, phase: str) -> None:
    print(f"paused {step} {phase}", flush=True)
    time.sleep(600)


class TornWrites:
    """Stands in for a record file's OS file: writes half of what it is given, then pauses."""

    def __init__(self, raw, step: int) -> None:
        self._raw, self._step = raw, step

    def write(self, data: bytes) -> int:
        self._raw.write(data[: len(data) // 2])
        pause(self._step, "flush")
        return len(data)

    def __getattr__(self, name: str):
        return getattr(self._raw, name)


def main() -> None:
    run_dir, steps, fault = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    kind, _, arg = fault.partition(":")
    distributed = kind == "dist"
    if distributed:
        import torch.distributed as dist

        dist.init_process_group("gloo")
    torch.set_num_threads(1)
    writer = RunWriter(run_dir)
    if kind == "devfull":
        for record_kind in RECORD_KINDS:
            os.symlink("/dev/full", writer.data_dir / f"{writer.file_prefix}.{record_kind}.jsonl")
    model, optimizer, x, y = make_model()
    timer = MyTimer(writer, gpu=False, scalar_interval_s=0)
    memory = MemorySampler(timer).attach()
    modules = ModuleProfiler(model, timer, gpu=False, flush_every_steps=2).attach()
    system = GpuTracker(writer, interval_s=0.01).start()
    if kind == "fsize":
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (int(arg), resource.RLIM_INFINITY))
    pause_step, pause_phase = -1, ""
    if kind == "pause":
        pause_step, pause_phase = int(arg.split(":")[0]), arg.split(":")[1]
    for step in range(steps):
        if kind == "vanish" and step == int(arg):
            shutil.rmtree(run_dir)
            time.sleep(1.1)
        timer.set_step(step)
        with timer.range("data"):
            batch, target = x.clone(), y.clone()
        with timer.range("forward"):
            loss = torch.nn.functional.mse_loss(model(batch), target)
            if step == pause_step and pause_phase == "forward":
                pause(step, "forward")
        with timer.range("backward"):
            optimizer.zero_grad()
            loss.backward()
            if distributed:
                for param in model.parameters():
                    dist.all_reduce(param.grad)
                    param.grad /= dist.get_world_size()
        with timer.range("optimizer"):
            optimizer.step()
        if step == pause_step and pause_phase == "flush":
            timer._file._file = TornWrites(timer._file._file, step)
        timer.step()
        if step == pause_step and pause_phase == "boundary":
            pause(step, "boundary")
        time.sleep(0.002)  # a few GpuTracker samples per run
    system.stop()
    modules.detach()
    memory.detach()
    timer.close()
    writer.close()
    print(f"loss {loss.item().hex()}", flush=True)
    if distributed:
        dist.destroy_process_group()
    else:
        print(f"baseline {train_plain(steps).hex()}", flush=True)


if __name__ == "__main__":
    main()
