"""A real CPU training loop with a planted leak, recorded by MyTimer and MemorySampler, gets
`memory_leak` with the leak's size per step; the same loop without the leak gets no memory
finding. Each loop runs in its own process (its RSS is the process's):

    python tests/plugin/test_memory_leak.py RUN_DIR LEAK_BYTES

GpuTracker samples the process (and GPUs, where NVML has some) every TRACKER_INTERVAL_S.
tests/fixtures/planted/generate.py records `leak` and `no_leak` this way once; the tests (and
tests/e2e/test_memory.py) read that recording, so that the machine's load is not in them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LEAK_BYTES = 1024**2  # one tensor of 1 MiB kept every step
STEPS = 60
TRACKER_INTERVAL_S = 0.02  # GpuTracker's, in the recorded runs
RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "planted"


def train(run_dir: Path, leak_bytes: int) -> None:
    """A small MLP trained on random batches for STEPS steps; every step keeps `leak_bytes` of
    tensor alive (the way a list of losses with their graphs would)."""
    import torch

    from collectors import GpuTracker, MemorySampler, MyTimer

    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    kept = []
    with MyTimer(run_dir, gpu=False) as timer, MemorySampler(timer):
        with GpuTracker(timer.writer, interval_s=TRACKER_INTERVAL_S):
            for _ in range(STEPS):
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


def run_loops(logdir: Path, scenarios: dict[str, int]) -> None:
    """One process per scenario (run name -> leaked bytes per step), all at once."""
    procs = [
        subprocess.Popen([sys.executable, __file__, str(logdir / name), str(leak)])
        for name, leak in scenarios.items()
    ]
    codes = [p.wait(timeout=300) for p in procs]
    if codes != [0] * len(procs):
        raise RuntimeError(f"the loops exited with {codes}")


def recorded_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A logdir holding the recorded runs `leak` (LEAK_BYTES a step) and `no_leak`."""
    logdir = tmp_path_factory.mktemp("memory_loops")
    for run in ("leak", "no_leak"):
        shutil.copytree(RECORDED / run, logdir / run)
    return logdir


@pytest.fixture(scope="module")
def loop_logdir(tmp_path_factory) -> Path:
    return recorded_logdir(tmp_path_factory)


def test_planted_leak_is_found_with_its_size(loop_logdir, make_client):
    client = make_client(loop_logdir)
    found = client.json("findings", run="leak")["findings"]
    assert [f["kind"] for f in found if f["severity"] in ("warning", "critical")] == ["memory_leak"]
    (leak,) = [f for f in found if f["kind"] == "memory_leak"]
    slope = leak["evidence"]["slope"]["value"]
    assert slope == pytest.approx(LEAK_BYTES, rel=0.05)  # the tensors, and allocator overhead
    assert leak["evidence"]["series"]["value"] == "rss" and leak["ranks"] == [0]
    assert leak["steps"] == [STEPS // 10, STEPS - 1]  # after the warm-up's 10 %
    memory = client.json("memory", run="leak")
    (rank,) = memory["ranks"]
    assert rank["device"] == "cpu" and rank["allocated"] is None
    assert rank["steps"] == list(range(STEPS)) and rank["trend"]["leak"] is True
    assert rank["rss"][-1] - rank["rss"][0] > (STEPS - 10) * LEAK_BYTES


def test_same_loop_without_leak_is_quiet(loop_logdir, make_client):
    client = make_client(loop_logdir)
    kinds = {f["kind"] for f in client.json("findings", run="no_leak")["findings"]}
    assert not kinds & {"memory_leak", "fragmentation", "memory_peak"}
    (rank,) = client.json("memory", run="no_leak")["ranks"]
    assert rank["trend"]["leak"] is False
    assert abs(rank["trend"]["slope"]) < 16 * 1024  # allocator creep: a few KB a step at most


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    train(Path(sys.argv[1]), int(sys.argv[2]))
