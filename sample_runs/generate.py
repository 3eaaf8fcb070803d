"""Regenerate the demo logdir with the collectors on real (small, CPU) torch training jobs.

    python sample_runs/generate.py                 # every scenario
    python sample_runs/generate.py --scenario slow_data

Each scenario is one run directory beside this script. Multi-rank scenarios start their ranks
as separate processes with the environment torchrun would give them (RANK, WORLD_SIZE,
LOCAL_RANK, MASTER_ADDR, MASTER_PORT) and train with DistributedDataParallel over gloo.
Later scenarios are added here without changing the earlier ones.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def launch(scenario: str, world_size: int, out_dir: Path) -> None:
    """Start `world_size` worker processes the way torchrun would and wait for all of them."""
    if out_dir.exists():
        shutil.rmtree(out_dir)
    port = _free_port()
    procs = []
    for rank in range(world_size):
        env = dict(
            os.environ,
            RANK=str(rank),
            LOCAL_RANK=str(rank),
            WORLD_SIZE=str(world_size),
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(port),
            OMP_NUM_THREADS="1",
        )
        cmd = [sys.executable, __file__, "--worker", scenario, "--out", str(out_dir)]
        procs.append(subprocess.Popen(cmd, env=env))
    codes = [p.wait() for p in procs]
    if any(codes):
        raise SystemExit(f"scenario {scenario}: worker exit codes {codes}")


def sample_model():
    """The demo model: a small MLP classifier of 64 features (benchmarks time it too)."""
    from torch import nn

    return nn.Sequential(
        nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2)
    )


def timed_train_step(timer, model, optimizer, loss_fn, next_batch):
    """One training step with the demo's spans: data, forward, backward, optimizer."""
    with timer.range("data"):
        x, y = next_batch()
    with timer.range("forward"):
        loss = loss_fn(model(x), y)
    with timer.range("backward"):
        loss.backward()
    with timer.range("optimizer"):
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    return loss


def worker_slow_data(out_dir: Path, per_sample_s: tuple[float, float] = (0.0004, 0.0006)) -> None:
    """A small MLP classifier under DDP whose DataLoader is slow (it decodes each sample
    slowly, rank 1 more so): the Overview should show `data` dominating the step."""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader, Dataset
    from torch.utils.data.distributed import DistributedSampler

    from collectors import MyTimer, RunWriter

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)

    class SlowDecodeDataset(Dataset):
        def __init__(self, n: int, per_sample_s: float) -> None:
            gen = torch.Generator().manual_seed(1)
            self.x = torch.randn(n, 64, generator=gen)
            self.y = (self.x[:, :8].sum(dim=1) > 0).long()
            self.per_sample_s = per_sample_s

        def __len__(self) -> int:
            return len(self.x)

        def __getitem__(self, i: int):
            time.sleep(self.per_sample_s)  # stands in for JPEG decoding / augmentation
            return self.x[i], self.y[i]

    dataset = SlowDecodeDataset(2560, per_sample_s=per_sample_s[rank % 2])
    loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset, seed=0))
    model = DistributedDataParallel(sample_model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = torch.nn.CrossEntropyLoss()

    with RunWriter(out_dir) as writer, MyTimer(writer, gpu=False) as timer:
        batches = iter(loader)
        for step in range(len(loader)):
            timer.set_step(step)
            loss = timed_train_step(timer, model, optimizer, loss_fn, batches.__next__)
            writer.add_scalar("loss", loss.item(), step)
        timer.step()
    dist.destroy_process_group()


def worker_fast_data(out_dir: Path) -> None:
    """`slow_data` after the fix: the same job with decoding 20x faster, the comparison pair's
    candidate (Compare: ddp_slow_data -> ddp_fast_data is faster, mostly data loading)."""
    worker_slow_data(out_dir, per_sample_s=(0.00002, 0.00003))


def worker_traced(out_dir: Path) -> None:
    """The demo MLP under DDP with its clocks synced at start and end and two torch.profiler
    windows of five steps each (gzipped traces per rank). DDP's small buckets and a per-step
    loss all_reduce put three all_reduce calls in every step: 30 inside the windows."""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    from collectors import MyTimer, RunWriter, profile_steps, sync_clocks

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(rank)
    batches = [(torch.randn(64, 64, generator=gen), torch.randint(0, 2, (64,), generator=gen))]
    model = DistributedDataParallel(sample_model(), bucket_cap_mb=0.2)  # two gradient buckets
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = torch.nn.CrossEntropyLoss()

    with RunWriter(out_dir) as writer, MyTimer(writer, gpu=False) as timer:
        sync_clocks(writer)
        with profile_steps(
            timer, skip_first=4, wait=2, warmup=1, active=5, repeat=2, record_shapes=True
        ):
            for step in range(24):
                timer.set_step(step)
                loss = timed_train_step(timer, model, optimizer, loss_fn, lambda: batches[0])
                with timer.range("log_loss"):
                    mean_loss = loss.detach().clone()
                    dist.all_reduce(mean_loss)
                    writer.add_scalar("loss", mean_loss.item() / dist.get_world_size(), step)
            timer.step()
        sync_clocks(writer)  # a second exchange: the metadata gets drift too
    dist.destroy_process_group()


def worker_modules(out_dir: Path) -> None:
    """A small transformer classifier under DDP with ModuleProfiler on (forward and backward of
    every module, per step) and its DataLoader waits measured by timed_loader: the Modules tab
    shows the tree; self-attention and the feed-forward layers hold most of the time."""
    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader, TensorDataset

    from collectors import ModuleProfiler, MyTimer, RunWriter, timed_loader

    class Classifier(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Linear(16, 64)
            layer = nn.TransformerEncoderLayer(64, 4, 128, dropout=0.1, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = nn.Linear(64, 2)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.encoder(self.embed(x)).mean(dim=1))

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(rank)
    data = TensorDataset(torch.randn(30 * 16, 32, 16, generator=gen),
                         torch.randint(0, 2, (30 * 16,), generator=gen))  # fmt: skip
    loader = DataLoader(data, batch_size=16)
    model = Classifier()
    ddp = DistributedDataParallel(model)
    optimizer = torch.optim.AdamW(ddp.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    with RunWriter(out_dir) as writer, MyTimer(writer, gpu=False) as timer:
        with ModuleProfiler(model, timer, record_shapes=True):
            for x, y in timed_loader(loader, timer):
                with timer.range("forward"):
                    loss = loss_fn(ddp(x), y)
                with timer.range("backward"):
                    loss.backward()
                with timer.range("optimizer"):
                    optimizer.step()
                    optimizer.zero_grad(set_to_none=True)
                timer.step()
    dist.destroy_process_group()


def worker_leak(out_dir: Path) -> None:
    """The demo MLP under DDP with MemorySampler and GpuTracker on, where rank 1 keeps 1 MiB of
    features from every step "for a later plot": its memory grows by a mebibyte a step, and
    the Memory tab's leak finding names it (rank 0 stays flat)."""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    from collectors import GpuTracker, MemorySampler, MyTimer, RunWriter

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(rank)
    batch = (torch.randn(64, 64, generator=gen), torch.randint(0, 2, (64,), generator=gen))
    model = DistributedDataParallel(sample_model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = torch.nn.CrossEntropyLoss()
    kept = []
    with RunWriter(out_dir) as writer, MyTimer(writer, gpu=False) as timer:
        with GpuTracker(writer, interval_s=0.25), MemorySampler(timer):
            for step in range(60):
                timer.set_step(step)
                timed_train_step(timer, model, optimizer, loss_fn, lambda: batch)
                if rank == 1:
                    kept.append(torch.randn(256, 1024, generator=gen))  # 1 MiB, never freed
                time.sleep(0.03)  # a slower step, so the tracker samples a few times per step
            timer.step()
    dist.destroy_process_group()


def measured_matmul_peak(size: int = 512, repeats: int = 20) -> float:
    """This CPU's fp32 matmul FLOP/s on one thread, measured: CPUs have no entry in the peak
    table, so the compiled scenario passes this as FlopsCounter's peak."""
    import torch

    a, b = torch.randn(size, size), torch.randn(size, size)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - started)
    return 2 * size**3 / best


def worker_compiled(out_dir: Path) -> None:
    """The demo MLP under DDP, `torch.compile`d without dynamic shapes and fed batches whose
    size changes every few steps (variable-length buckets): CompileMonitor records every
    recompilation and the recompilation finding names the function; FlopsCounter counts step 1
    against this CPU's measured matmul peak (MFU per rank in the Overview); rank 0 also runs
    under cProfile, and its profile is imported into the run (the Python tab)."""
    import cProfile

    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    from collectors import CompileMonitor, FlopsCounter, MyTimer, RunWriter

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(rank)
    peak = measured_matmul_peak()
    model = DistributedDataParallel(torch.compile(sample_model(), backend="eager", dynamic=False))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = torch.nn.CrossEntropyLoss()
    sizes = [32, 48, 64, 80, 96, 112, 128]  # a new batch size every 4 steps: 7 graphs
    profiler = cProfile.Profile() if rank == 0 else None
    with RunWriter(out_dir) as writer, MyTimer(writer, gpu=False) as timer:
        flops = FlopsCounter(timer, peak_flops=peak)
        with CompileMonitor(timer):
            if profiler is not None:
                profiler.enable()
            for step in range(28):
                timer.set_step(step)
                batch = sizes[step // 4]

                def next_batch(batch: int = batch) -> tuple[torch.Tensor, torch.Tensor]:
                    x = torch.randn(batch, 64, generator=gen)
                    return x, torch.randint(0, 2, (batch,), generator=gen)

                with flops.count():
                    timed_train_step(timer, model, optimizer, loss_fn, next_batch)
            timer.step()
            if profiler is not None:
                profiler.disable()
        flops.close()
        if profiler is not None:
            imported = writer.data_dir / "imported"
            imported.mkdir(exist_ok=True)
            profiler.dump_stats(imported / f"rank{rank}.train.prof")
    dist.destroy_process_group()


def worker_pipeline(out_dir: Path) -> None:
    """Text-to-image-style inference on each rank — a text encoder, a transformer denoiser run 4
    times per prompt, a decoder — with only the denoiser (DIT) and decoder (VAE) stages
    profiled through `profile_task` (as `PROFILE_TASK_TYPES=DIT,VAE` would select): each gets
    traces of two invocations and per-operator statistics (the Tasks tab)."""
    import torch

    from collectors import MyTimer, RunWriter, TaskProfiler

    torch.manual_seed(0)
    text = torch.nn.Embedding(1000, 64)
    dit = torch.nn.TransformerEncoderLayer(64, 4, 256, dropout=0.0, batch_first=True)
    vae = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.Linear(256, 48))
    ops = r"^aten::(linear|addmm|bmm|_softmax|scaled_dot_product.*|gelu|layer_norm)$"
    with RunWriter(out_dir) as writer, MyTimer(writer, gpu=False) as timer, torch.no_grad():
        tasks = TaskProfiler(timer, types="DIT,VAE", ops=ops)
        for prompt in range(6):
            timer.set_step(prompt)
            with timer.range("text_encoder"), tasks.task("TEXT"):
                context = text(torch.randint(0, 1000, (4, 16)))
            latent = torch.randn(4, 16, 64)
            for _ in range(4):
                with timer.range("denoise"), tasks.task("DIT"):
                    latent = dit(latent + context)
            with timer.range("decode"), tasks.task("VAE"):
                vae(latent)
        timer.step()
        tasks.close()


SCENARIOS = {
    # name: (world size, worker function); the run directory is sample_runs/ddp_<name>
    "slow_data": (2, worker_slow_data),
    "traced": (2, worker_traced),
    "modules": (2, worker_modules),
    "leak": (2, worker_leak),
    "fast_data": (2, worker_fast_data),
    "compiled": (2, worker_compiled),
    "pipeline": (2, worker_pipeline),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenario",
        choices=sorted(SCENARIOS),
        action="append",
        help="scenario to regenerate (repeatable; default: all)",
    )
    parser.add_argument("--worker", choices=sorted(SCENARIOS), help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        SCENARIOS[args.worker][1](args.out)
        return
    for name in args.scenario or sorted(SCENARIOS):
        world_size, _ = SCENARIOS[name]
        started = time.perf_counter()
        launch(name, world_size, HERE / f"ddp_{name}")
        print(f"{name}: {world_size} ranks in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
