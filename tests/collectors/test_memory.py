"""MemorySampler: one `mem` record per timer step on a real CPU loop, CUDA fields through a fake
statistics source, and the file's life cycle (flushes, detach, a closed writer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from collectors import MemorySampler, MyTimer, RunWriter
from collectors._memory import TorchCudaStats, cuda_stats_source, rss_reader
from tests.helpers import timer_records

MEM_FIELDS = ["k", "step", "t", "device", "allocated", "reserved", "peak", "retries", "ooms", "rss"]


def memory_records(run_dir: Path) -> list[dict]:
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob("rank0.*.memory.jsonl")
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"schema": "tb_perf.memory", "version": 1}
    return [json.loads(line) for line in lines[1:]]


def metadata(run_dir: Path) -> dict:
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob("rank0.*.meta.json")
    return json.loads(path.read_text())


def written(run_dir: Path, kind: str) -> int:
    """Records (lines after the header) of a rank-0 file that reached the OS."""
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob(f"rank0.*.{kind}.jsonl")
    return max(0, len(path.read_bytes().splitlines()) - 1)


def timer_steps(run_dir: Path) -> list[int]:
    return [r["step"] for r in timer_records(run_dir) if r["k"] == "step"]


class FakeCudaStats:
    """torch.cuda.memory_stats as a caching allocator would report it: allocated grows by 1 MiB
    a read, the peak is 2 MiB above it unless the peak was reset since the last read."""

    device = "cuda:1"

    def __init__(self, initialized_after: int = 0) -> None:
        self.reads = 0
        self.resets = 0
        self.initialized_after = initialized_after
        self._reset_since_read = False

    def read(self):
        self.reads += 1
        if self.reads <= self.initialized_after:
            return None  # the program has not used CUDA yet
        allocated = self.reads << 20
        peak = allocated if self._reset_since_read else allocated + (2 << 20)
        self._reset_since_read = False
        return self.device, {
            "allocated": allocated,
            "reserved": 64 << 20,
            "peak": peak,
            "retries": 0,
            "ooms": self.reads // 3,
        }

    def reset_peak(self) -> None:
        self.resets += 1
        self._reset_since_read = True


def test_cpu_loop_one_record_per_timer_step_with_rss(tmp_path):
    with RunWriter(tmp_path) as writer:
        timer = MyTimer(writer, gpu=False)
        with MemorySampler(timer):
            for _ in range(5):
                with timer.range("work"):
                    sum(range(1000))
                timer.step()
        timer.close()
    records = memory_records(tmp_path)
    assert [r["step"] for r in records] == timer_steps(tmp_path) == [0, 1, 2, 3, 4]
    for record in records:
        assert list(record) == MEM_FIELDS
        assert record["device"] == "cpu"
        assert record["allocated"] is record["peak"] is record["ooms"] is None
        assert record["rss"] > 10 << 20
    steps = {r["step"]: r for r in timer_records(tmp_path) if r["k"] == "step"}
    for record in records:  # sampled at the boundary that ended the step
        assert steps[record["step"]]["t1"] <= record["t"] < steps[record["step"]]["t1"] + 10**8
    assert metadata(tmp_path)["memory"] == {"device": "cpu", "reset_peak": False}


@pytest.mark.parametrize("style", ["step", "set_step", "set_step_and_step", "no_spans"])
def test_steps_match_the_timer_whatever_the_loop_style(tmp_path, style):
    timer = MyTimer(tmp_path, gpu=False)
    sampler = MemorySampler(timer).attach()
    for i in range(4):
        if style in ("set_step", "set_step_and_step"):
            timer.set_step(10 + i)
        if style != "no_spans":
            with timer.range("work"):
                pass
        if style != "set_step":
            timer.step()
    if style == "set_step":
        timer.set_step(14)  # ends step 13
    sampler.detach()
    timer.close()
    assert [r["step"] for r in memory_records(tmp_path)] == timer_steps(tmp_path)
    assert len(timer_steps(tmp_path)) >= 3


def test_leak_loop_shows_rss_growing(tmp_path):
    torch = pytest.importorskip("torch")
    kept = []
    timer = MyTimer(tmp_path, gpu=False)
    with MemorySampler(timer):
        for _ in range(40):
            with timer.range("step"):
                kept.append(torch.ones(1 << 18))  # 1 MiB, written: resident
            timer.step()
    timer.close()
    rss = [r["rss"] for r in memory_records(tmp_path)]
    assert len(rss) == 40
    assert rss[-1] - rss[0] > 30 << 20
    assert sum(b >= a for a, b in zip(rss, rss[1:], strict=False)) >= 35  # grows nearly every step


def test_cuda_fields_from_the_stats_source_and_peak_reset(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)
    source = FakeCudaStats(initialized_after=1)
    with MemorySampler(timer, reset_peak=True, source=source):
        for _ in range(4):
            with timer.range("work"):
                pass
            timer.step()
    timer.close()
    first, *cuda = memory_records(tmp_path)
    assert first["device"] == "cpu" and first["allocated"] is None  # before CUDA was used
    assert [r["device"] for r in cuda] == ["cuda:1"] * 3
    assert [r["allocated"] for r in cuda] == [2 << 20, 3 << 20, 4 << 20]
    assert [r["reserved"] for r in cuda] == [64 << 20] * 3
    assert [r["peak"] for r in cuda] == [4 << 20, 3 << 20, 4 << 20]  # reset after each sample
    assert [r["ooms"] for r in cuda] == [0, 1, 1]
    assert all(r["retries"] == 0 and r["rss"] > 0 for r in cuda)
    assert source.resets == 3  # only after CUDA samples
    assert metadata(tmp_path)["memory"] == {"device": "cuda:1", "reset_peak": True}


def test_records_reach_the_file_with_the_timers_flushes(tmp_path):
    timer = MyTimer(tmp_path, gpu=False, flush_every_steps=3)
    sampler = MemorySampler(timer).attach()
    counts = []
    for _ in range(7):
        with timer.range("work"):
            pass
        timer.step()
        counts.append((written(tmp_path, "timer"), written(tmp_path, "memory")))
    # (the timer's file also holds 3 spans per 3 steps)
    assert counts == [(0, 0), (0, 0), (6, 3), (6, 3), (6, 3), (12, 6), (12, 6)]
    sampler.detach()  # writes what is buffered
    assert len(memory_records(tmp_path)) == 7
    timer.step()  # detached: no more samples
    timer.close()
    assert len(memory_records(tmp_path)) == 7


def test_disabled_sampler_and_disabled_timer_write_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ENABLE_MEMORY_SAMPLER", "0")
    timer = MyTimer(tmp_path, gpu=False)
    with MemorySampler(timer) as sampler:
        timer.step()
        timer.step()
    assert not sampler.enabled
    timer.close()
    assert not list((tmp_path / "plugins" / "tb_perf").glob("*.memory.jsonl"))
    off_timer = MyTimer(tmp_path / "off", enabled=False)
    with MemorySampler(off_timer, enabled=True) as sampler:
        off_timer.step()
    assert not sampler.enabled


def test_a_closed_writer_turns_the_sampler_off_with_one_warning(tmp_path):
    writer = RunWriter(tmp_path)
    timer = MyTimer(writer, gpu=False)
    sampler = MemorySampler(timer).attach()
    timer.step()
    timer.step()
    writer.close()
    with pytest.warns(RuntimeWarning, match="MemorySampler stopped"):
        sampler._on_step(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sampler.detach()  # already detached itself: silent
    assert sampler._on_step not in timer._step_callbacks


def test_rss_reader_agrees_with_psutil():
    psutil = pytest.importorskip("psutil")
    if not os.path.exists("/proc/self/statm"):
        pytest.skip("no /proc here")
    process = psutil.Process()
    # read between two of psutil's readings, at a moment when no other thread of this process
    # (a test's job pool handing freed memory back, say) moved its RSS in between
    for _ in range(50):
        before = process.memory_info().rss
        ours = rss_reader()()
        after = process.memory_info().rss
        if abs(after - before) < 1 << 20:
            break
    assert min(before, after) - (4 << 20) <= ours <= max(before, after) + (4 << 20)


def test_no_cuda_and_no_torch_import_for_a_program_without_torch(tmp_path):
    code = (
        "import sys\n"
        "from collectors import MemorySampler, MyTimer\n"
        f"t = MyTimer({str(tmp_path)!r}, gpu=False)\n"
        "with MemorySampler(t):\n"
        "    t.start('a'); t.stop('a'); t.step()\n"
        "t.close()\n"
        "assert 'torch' not in sys.modules and 'psutil' not in sys.modules\n"
    )
    repo = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=repo)
    (record,) = memory_records(tmp_path)
    assert record["device"] == "cpu" and record["rss"] > 0


class FakeTorchCuda:
    """The torch.cuda calls TorchCudaStats makes, with the nested statistics torch returns."""

    def __init__(self) -> None:
        self.initialized = False
        self.current = 2
        self.calls: list[tuple] = []

    def is_initialized(self) -> bool:
        return self.initialized

    def current_device(self) -> int:
        self.calls.append(("current_device",))
        return self.current

    def memory_stats_as_nested_dict(self, index: int) -> dict:
        self.calls.append(("stats", index))
        stat = {"current": 5 << 20, "peak": 9 << 20, "allocated": 1, "freed": 0}
        pools = {"all": stat, "small_pool": stat, "large_pool": stat}
        return {"allocated_bytes": pools, "num_alloc_retries": 1, "num_ooms": 0}

    def reset_peak_memory_stats(self, index: int) -> None:
        self.calls.append(("reset", index))


def test_torch_cuda_stats_waits_for_the_program_to_use_cuda():
    torch = pytest.importorskip("torch")
    for name in [n for n in vars(FakeTorchCuda) if not n.startswith("_")]:
        assert callable(getattr(torch.cuda, name)), name  # the fake mimics torch's real API
    cuda = FakeTorchCuda()
    source = TorchCudaStats(type("FakeTorch", (), {"cuda": cuda, "device": torch.device}), None)
    assert source.device == "cuda"
    assert source.read() is None and cuda.calls == []  # never initializes CUDA itself
    cuda.initialized = True
    device, stats = source.read()
    assert device == source.device == "cuda:2"
    # this allocator keeps no reserved_bytes: null, not a crash
    assert stats == {"allocated": 5 << 20, "reserved": None, "peak": 9 << 20, "retries": 1,
                     "ooms": 0}  # fmt: skip
    cuda.current = 0
    source.read()
    source.reset_peak()
    assert cuda.calls == [("current_device",), ("stats", 2), ("stats", 2), ("reset", 2)]
    explicit = TorchCudaStats(type("FakeTorch", (), {"cuda": cuda, "device": torch.device}), 1)
    assert explicit.device == "cuda:1"
    with pytest.raises(ValueError, match="CUDA devices"):
        TorchCudaStats(type("FakeTorch", (), {"cuda": cuda, "device": torch.device}), "cpu")


def test_without_cuda_the_source_is_none_unless_a_device_was_asked_for():
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    assert cuda_stats_source() == (None, "cpu")
    with pytest.raises(RuntimeError, match="is_available"):
        cuda_stats_source("cuda:0")
