"""A real CPU training loop with a planted leak, recorded by MyTimer and MemorySampler, gets
`memory_leak` with the leak's size per step; the same loop without the leak gets no memory
finding. Each loop runs in its own process (its RSS is the process's):

    python tests/plugin/test_memory_leak.py RUN_DIR LEAK_BYTES [STEPS [INTERVAL_S]]

With INTERVAL_S, GpuTracker samples the process (and GPUs, where NVML has some) that often.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

LEAK_BYTES = 1024**2  # one tensor of 1 MiB kept every step
STEPS = 60


def train(
    run_dir: Path, leak_bytes: int, steps: int = STEPS, interval_s: float | None = None
) -> None:
    """A small MLP trained on random batches; every step keeps `leak_bytes` of tensor alive
    (the way a list of losses with their graphs would)."""
    import contextlib

    import torch

    from collectors import GpuTracker, MemorySampler, MyTimer

    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    kept = []
    with contextlib.ExitStack() as stack:
        timer = stack.enter_context(MyTimer(run_dir, gpu=False))
        stack.enter_context(MemorySampler(timer))
        if interval_s is not None:
            stack.enter_context(GpuTracker(timer.writer, interval_s=interval_s))
        for _ in range(steps):
            with timer.range("forward"):
                x, y = torch.randn(64, 256), torch.randint(0, 10, (64,))
                loss = torch.nn.functional.cross_entropy(model(x), y)
            with timer.range("backward"):
                loss.backward()
            with timer.range("optimizer"):
                optimizer.step()
                optimizer.zero_grad()
            if leak_bytes:
                kept.append(torch.ones(leak_bytes // 4))  # float32, every page written
            timer.step()


def run_loops(
    logdir: Path, scenarios: dict[str, int], steps: int = STEPS, interval_s: float | None = None
) -> None:
    """One process per scenario (run name -> leaked bytes per step), all at once."""
    extra = [] if interval_s is None else [str(interval_s)]
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, str(logdir / name), str(leak), str(steps), *extra]
        )
        for name, leak in scenarios.items()
    ]
    assert [p.wait(timeout=300) for p in procs] == [0] * len(procs)


@pytest.fixture(scope="module")
def loop_logdir(tmp_path_factory) -> Path:
    logdir = tmp_path_factory.mktemp("memory_loops")
    run_loops(logdir, {"leak": LEAK_BYTES, "clean": 0})
    return logdir


def test_planted_leak_is_found_with_its_size(loop_logdir, make_client):
    client = make_client(loop_logdir)
    (leak,) = [f for f in client.json("findings", run="leak")["findings"]
               if f["kind"] == "memory_leak"]  # fmt: skip
    slope = leak["evidence"]["slope"]["value"]
    assert slope == pytest.approx(LEAK_BYTES, rel=0.2)
    assert leak["evidence"]["series"]["value"] == "rss" and leak["ranks"] == [0]
    memory = client.json("memory", run="leak")
    (rank,) = memory["ranks"]
    assert rank["device"] == "cpu" and rank["allocated"] is None
    assert rank["steps"] == list(range(STEPS)) and rank["trend"]["leak"] is True
    assert rank["rss"][-1] - rank["rss"][0] > (STEPS - 10) * LEAK_BYTES


def test_same_loop_without_leak_is_quiet(loop_logdir, make_client):
    client = make_client(loop_logdir)
    kinds = {f["kind"] for f in client.json("findings", run="clean")["findings"]}
    assert not kinds & {"memory_leak", "fragmentation", "memory_peak"}
    (rank,) = client.json("memory", run="clean")["ranks"]
    assert rank["trend"]["leak"] is False
    assert abs(rank["trend"]["slope"]) < 16 * 1024  # allocator creep: a few KB a step at most


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    args = sys.argv[1:]
    train(
        Path(args[0]), int(args[1]), int(args[2]) if len(args) > 2 else STEPS,
        float(args[3]) if len(args) > 3 else None,
    )  # fmt: skip
