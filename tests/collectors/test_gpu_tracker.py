"""GpuTracker: the sampling thread, its file and its rates with a fake GPU backend; the NVML
backend against a fake pynvml module (no NVML driver here); the real no-NVML path."""

from __future__ import annotations

import inspect
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from collectors import GpuTracker, NvmlBackend, RunWriter
from collectors._system import GPU_FIELDS

REPO = Path(__file__).resolve().parents[2]


class FakeGpus:
    """GPUs whose counters change at every call (also run in subprocesses, from its source)."""

    name = "fake"

    def __init__(self, count=2, broken=()):
        self.count = count
        self.broken = set(broken)
        self.calls = 0

    def devices(self):
        return [
            {"index": i, "name": f"Fake GPU {i}", "uuid": f"GPU-{i}", "mem_total": 80 << 30}
            for i in range(self.count)
        ]

    def sample(self, index):
        if index in self.broken:
            raise RuntimeError("GPU has fallen off the bus")
        self.calls += 1
        n = self.calls
        return {"util": n % 101, "mem_util": n % 7, "mem_used": n << 20, "mem_total": 80 << 30,
                "power_w": 100.5 + n, "sm_clock_mhz": 1410, "temp_c": 40 + n % 30,
                "pcie_tx": None, "pcie_rx": None}  # fmt: skip


def system_lines(run_dir: Path) -> list[bytes]:
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob("rank0.*.system.jsonl")
    return path.read_bytes().splitlines(keepends=True)


def system_records(run_dir: Path) -> list[dict]:
    lines = system_lines(run_dir)
    assert json.loads(lines[0]) == {"schema": "tb_perf.system", "version": 1}
    assert all(line.endswith(b"\n") for line in lines)  # whole lines only
    return [json.loads(line) for line in lines[1:]]


def metadata(run_dir: Path) -> dict:
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob("rank0.*.meta.json")
    return json.loads(path.read_text())


def wait_for(predicate, timeout: float = 60.0) -> None:
    """Until `predicate()`; the timeout only ends a test that would hang (a busy machine may
    delay the sampling thread by seconds: never part of a verdict)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def tracker_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "tb_perf-GpuTracker"]


def test_records_arrive_while_running_with_changing_gpu_values(tmp_path):
    with RunWriter(tmp_path) as writer:
        backend = FakeGpus()
        with GpuTracker(writer, interval_s=0.05, backend=backend):
            wait_for(lambda: len(system_lines(tmp_path)) >= 4)  # header + 3 samples, live
        records = system_records(tmp_path)
    assert len(records) >= 3
    for record in records:
        assert list(record) == ["k", "t", "cpu_pct", "rss", "gpus"]
        assert record["k"] == "sys" and record["cpu_pct"] >= 0 and record["rss"] > 10 << 20
        assert [g["index"] for g in record["gpus"]] == [0, 1]
        assert all(list(g) == ["index", *GPU_FIELDS] for g in record["gpus"])
    used = [g["mem_used"] for r in records for g in r["gpus"]]
    assert used == sorted(used) and len(set(used)) == len(used)  # a new value every call
    assert records[0]["gpus"][0]["power_w"] == 101.5
    times = [r["t"] for r in records]
    assert times == sorted(times)
    assert abs(times[0] - time.time_ns()) < 60 * 10**9
    assert metadata(tmp_path)["system"] == {
        "interval_s": 0.05,
        "gpu_backend": "fake",
        "gpu_reason": None,
        "gpus": FakeGpus().devices(),
        "pcie": False,
    }


def test_samples_reach_the_file_as_taken_and_never_faster_than_the_interval(tmp_path):
    with RunWriter(tmp_path) as writer:
        began = time.monotonic()
        tracker = GpuTracker(writer, interval_s=0.2, backend=FakeGpus()).start()
        wait_for(lambda: len(system_lines(tmp_path)) >= 4)  # in the file while still running
        tracker.stop()
        elapsed = time.monotonic() - began
    times = [r["t"] for r in system_records(tmp_path)]
    assert times == sorted(set(times))
    # a late sample skips the ticks it overran instead of bursting: at most one per interval
    assert len(times) <= elapsed / 0.2 + 1


def test_stop_is_prompt_and_start_stop_are_idempotent(tmp_path):
    with RunWriter(tmp_path) as writer:
        tracker = GpuTracker(writer, interval_s=30, backend=FakeGpus())
        assert not tracker.running and tracker_threads() == []  # nothing before start()
        tracker.start()
        tracker.start()
        assert tracker.running and len(tracker_threads()) == 1
        time.sleep(0.05)
        began = time.monotonic()
        tracker.stop()
        assert time.monotonic() - began < 15  # well under the 30 s interval: it did not wait
        tracker.stop()
        assert not tracker.running and tracker_threads() == []
        tracker.interval_s = 0.02
        with tracker:  # starts again after a stop
            wait_for(lambda: len(system_lines(tmp_path)) >= 3)
        assert tracker_threads() == []


def test_without_nvml_the_cpu_side_is_recorded_and_the_reason_given(tmp_path):
    if "pynvml" in sys.modules or _importable("pynvml"):
        pytest.skip("pynvml is installed here")
    with RunWriter(tmp_path) as writer:
        with GpuTracker(writer, interval_s=0.02, gpus=[0]):
            wait_for(lambda: len(system_lines(tmp_path)) >= 3)
    records = system_records(tmp_path)
    assert all(r["gpus"] == [] and r["rss"] > 0 for r in records)
    system = metadata(tmp_path)["system"]
    assert system["gpu_backend"] is None and system["gpus"] == []
    assert system["gpu_reason"] == "pynvml is not installed"


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def test_cpu_pct_follows_a_busy_thread(tmp_path):
    with RunWriter(tmp_path) as writer:
        with GpuTracker(writer, interval_s=0.3, backend=FakeGpus(count=0)):
            wall, cpu = time.monotonic(), time.thread_time()
            while len(system_lines(tmp_path)) < 4:  # busy through at least 3 whole intervals
                sum(range(1000))
            wall, cpu = time.monotonic() - wall, time.thread_time() - cpu
        records = system_records(tmp_path)
    # what this thread got of a core, however busy the machine; the process uses at least that
    share_pct = 100 * cpu / wall
    busy = max(r["cpu_pct"] for r in records)
    assert 0.5 * share_pct <= busy <= 100 * os.cpu_count() + 50, (
        [r["cpu_pct"] for r in records],
        share_pct,
    )
    assert metadata(tmp_path)["system"]["gpu_reason"] == "fake sees no GPU"


def test_selected_gpus_and_a_failing_gpu(tmp_path, caplog):
    backend = FakeGpus(count=3, broken={2})
    with RunWriter(tmp_path) as writer, caplog.at_level(logging.WARNING, logger="tb_perf"):
        with GpuTracker(writer, interval_s=0.02, gpus=[2, 0, 7], backend=backend):
            wait_for(lambda: len(system_lines(tmp_path)) >= 3)
    record = system_records(tmp_path)[0]
    assert [g["index"] for g in record["gpus"]] == [0, 2]
    assert record["gpus"][0]["util"] is not None
    assert record["gpus"][1] == {"index": 2, **dict.fromkeys(GPU_FIELDS)}  # kept going
    assert [d["index"] for d in metadata(tmp_path)["system"]["gpus"]] == [0, 2]
    assert "no GPU [7]" in caplog.text
    assert caplog.text.count("fallen off the bus") == 1  # once, not once per sample


def test_a_closed_writer_ends_the_thread_with_one_log_line(tmp_path, caplog):
    writer = RunWriter(tmp_path)
    tracker = GpuTracker(writer, interval_s=0.02, backend=FakeGpus())
    with caplog.at_level(logging.WARNING, logger="tb_perf"):
        tracker.start()
        wait_for(lambda: len(system_lines(tmp_path)) >= 2)
        writer.close()
        wait_for(lambda: not tracker.running)
        tracker.stop()
    assert caplog.text.count("GpuTracker stopped: cannot write") == 1


def test_disabled_tracker_starts_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ENABLE_GPU_TRACKER", "0")
    with RunWriter(tmp_path) as writer:
        with GpuTracker(writer, backend=FakeGpus()) as tracker:
            assert not tracker.running and tracker_threads() == []
    assert not list(writer.data_dir.glob("*.system.jsonl"))
    with pytest.raises(ValueError, match="interval_s"):
        GpuTracker(writer, interval_s=0)


def _tracking_script(run_dir: Path, then: str) -> str:
    return (
        f"{inspect.getsource(FakeGpus)}\n"
        "import time\n"
        "from collectors import GpuTracker, RunWriter\n"
        f"writer = RunWriter({str(run_dir)!r})\n"
        "GpuTracker(writer, interval_s=0.1, backend=FakeGpus()).start()\n"
        f"{then}\n"
    )


def test_samples_written_before_a_sigkill_survive(tmp_path):
    script = _tracking_script(tmp_path, "time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=REPO)
    try:
        wait_for(lambda: list((tmp_path / "plugins" / "tb_perf").glob("*.system.jsonl")), 30)
        time.sleep(1.5)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    records = system_records(tmp_path)  # whole lines, parseable
    assert len(records) >= 8  # ~15 taken: everything but the last fraction of a second
    assert metadata(tmp_path)["closed_unix_ns"] is None


def test_interpreter_exit_stops_the_thread_cleanly(tmp_path):
    script = _tracking_script(tmp_path, "time.sleep(0.35)")
    began = time.monotonic()
    subprocess.run([sys.executable, "-c", script], cwd=REPO, check=True, timeout=30)
    assert time.monotonic() - began < 10
    assert len(system_records(tmp_path)) >= 2
    assert metadata(tmp_path)["closed_unix_ns"] is not None


# --- NvmlBackend against a fake pynvml ------------------------------------------------------


class FakeNVMLError(Exception):
    def __init__(self, value: str) -> None:
        self.value = value

    def __str__(self) -> str:
        return self.value


def fake_pynvml(*, init_error: str | None = None, unsupported: tuple[str, ...] = ()):
    """A pynvml module with two GPUs; calls named in `unsupported` raise NVMLError."""
    nvml = types.ModuleType("pynvml")
    nvml.NVMLError = FakeNVMLError
    nvml.NVML_CLOCK_SM, nvml.NVML_TEMPERATURE_GPU = 1, 0
    nvml.NVML_PCIE_UTIL_TX_BYTES, nvml.NVML_PCIE_UTIL_RX_BYTES = 0, 1
    nvml.inits = 0

    def call(name, result):
        def function(*args):
            if name in unsupported:
                raise FakeNVMLError("Not Supported")
            return result(*args) if callable(result) else result

        setattr(nvml, name, function)

    def init():
        if init_error:
            raise FakeNVMLError(init_error)
        nvml.inits += 1

    nvml.nvmlInit = init
    call("nvmlDeviceGetCount", 2)
    call("nvmlDeviceGetHandleByIndex", lambda i: f"handle{i}")
    call("nvmlDeviceGetName", lambda h: b"NVIDIA H100 80GB HBM3" if h == "handle0" else "H100")
    call("nvmlDeviceGetUUID", lambda h: f"GPU-{h}")
    memory = types.SimpleNamespace(total=80 << 30, used=3 << 30, free=77 << 30)
    call("nvmlDeviceGetMemoryInfo", memory)
    call("nvmlDeviceGetUtilizationRates", types.SimpleNamespace(gpu=87, memory=35))
    call("nvmlDeviceGetPowerUsage", 312_500)  # mW
    call("nvmlDeviceGetClockInfo", lambda h, clock: 1980 if clock == 1 else None)
    call("nvmlDeviceGetTemperature", lambda h, sensor: 61 if sensor == 0 else None)
    call("nvmlDeviceGetPcieThroughput", lambda h, counter: (1000, 250)[counter])  # KB/s
    return nvml


@pytest.fixture
def nvml_module(monkeypatch):
    def install(**kwargs):
        module = fake_pynvml(**kwargs)
        monkeypatch.setitem(sys.modules, "pynvml", module)
        monkeypatch.setattr(NvmlBackend, "_initialized", False)  # a fresh process's NVML
        return module

    return install


def test_nvml_backend_reads_and_converts_every_counter(nvml_module):
    nvml = nvml_module()
    backend = NvmlBackend(pcie=True)
    NvmlBackend()
    assert nvml.inits == 1  # nvmlInit once per process
    assert backend.devices() == [
        {"index": 0, "name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-handle0", "mem_total": 80 << 30},
        {"index": 1, "name": "H100", "uuid": "GPU-handle1", "mem_total": 80 << 30},
    ]
    assert backend.sample(1) == {
        "util": 87,
        "mem_util": 35,
        "mem_used": 3 << 30,
        "mem_total": 80 << 30,
        "power_w": 312.5,
        "sm_clock_mhz": 1980,
        "temp_c": 61,
        "pcie_tx": 1000 * 1024,
        "pcie_rx": 250 * 1024,
    }
    assert NvmlBackend().sample(0)["pcie_tx"] is None  # PCIe only when asked for


def test_nvml_errors_give_nulls_per_counter(nvml_module):
    nvml_module(unsupported=("nvmlDeviceGetPowerUsage", "nvmlDeviceGetPcieThroughput",
                             "nvmlDeviceGetUUID"))  # fmt: skip
    backend = NvmlBackend(pcie=True)
    assert backend.devices()[0]["uuid"] is None
    values = backend.sample(0)
    assert values["power_w"] is values["pcie_tx"] is values["pcie_rx"] is None
    assert values["util"] == 87 and values["temp_c"] == 61


def test_tracker_over_fake_nvml_and_over_a_driver_that_is_not_loaded(tmp_path, nvml_module):
    nvml_module()
    with RunWriter(tmp_path / "ok") as writer:
        with GpuTracker(writer, interval_s=0.02, pcie=True):
            wait_for(lambda: len(system_lines(tmp_path / "ok")) >= 3)
    system = metadata(tmp_path / "ok")["system"]
    assert system["gpu_backend"] == "nvml" and system["gpu_reason"] is None
    assert [g["index"] for g in system["gpus"]] == [0, 1] and system["pcie"] is True
    gpus = system_records(tmp_path / "ok")[0]["gpus"]
    assert [g["power_w"] for g in gpus] == [312.5, 312.5] and gpus[0]["pcie_rx"] == 256000

    nvml_module(init_error="Driver Not Loaded")
    with RunWriter(tmp_path / "nodriver") as writer:
        with GpuTracker(writer, interval_s=0.02):
            wait_for(lambda: len(system_lines(tmp_path / "nodriver")) >= 2)
    system = metadata(tmp_path / "nodriver")["system"]
    assert system["gpu_backend"] is None and system["gpu_reason"] == "NVML: Driver Not Loaded"
    assert system_records(tmp_path / "nodriver")[0]["gpus"] == []
