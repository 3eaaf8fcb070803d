"""GpuTracker: this process's CPU and memory and the GPUs' NVML counters, sampled from a
background thread (docs/FORMAT.md, `system` records)."""

from __future__ import annotations

import atexit
import json
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any, Protocol

from ._env import env_enabled
from ._memory import rss_reader
from ._writer import RunWriter

logger = logging.getLogger("tb_perf")
GPU_FIELDS = (
    "util", "mem_util", "mem_used", "mem_total", "power_w", "sm_clock_mhz", "temp_c", "pcie_tx",
    "pcie_rx",
)  # fmt: skip


class GpuBackend(Protocol):
    """Reads GPU counters for GpuTracker (NVML in production, a fake in tests)."""

    name: str

    def devices(self) -> list[dict[str, Any]]:
        """The GPUs it can read: `[{index, name, uuid, mem_total}]`."""

    def sample(self, index: int) -> dict[str, float | int | None]:
        """The GPU_FIELDS of GPU `index` now; a value it cannot read is None. Must be cheap."""


class NvmlBackend:
    """GPU counters through NVML (`pynvml`, from the nvidia-ml-py package).

    Only calls that cost microseconds are made per sample (utilization, memory, power, SM clock,
    temperature); the PCIe throughput calls take a sampling window inside the driver and are
    made only with `pcie=True`. A counter the GPU or driver does not offer reads None.
    Raises ImportError or `pynvml.NVMLError` when NVML cannot be used.
    """

    name = "nvml"
    _init_lock = threading.Lock()
    _initialized = False  # nvmlInit once per process; never shut down (others may share it)

    def __init__(self, pcie: bool = False) -> None:
        import pynvml

        self._nvml = pynvml
        self._pcie = pcie
        with NvmlBackend._init_lock:
            if not NvmlBackend._initialized:
                pynvml.nvmlInit()
                NvmlBackend._initialized = True
        count = pynvml.nvmlDeviceGetCount()
        self._handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(count)]

    def _read(self, call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except self._nvml.NVMLError:
            return None

    def devices(self) -> list[dict[str, Any]]:
        nvml = self._nvml
        found = []
        for index, handle in enumerate(self._handles):
            name = self._read(nvml.nvmlDeviceGetName, handle)
            uuid = self._read(nvml.nvmlDeviceGetUUID, handle)
            memory = self._read(nvml.nvmlDeviceGetMemoryInfo, handle)
            found.append(
                {
                    "index": index,
                    "name": name.decode() if isinstance(name, bytes) else name,
                    "uuid": uuid.decode() if isinstance(uuid, bytes) else uuid,
                    "mem_total": None if memory is None else int(memory.total),
                }
            )
        return found

    def sample(self, index: int) -> dict[str, float | int | None]:
        nvml, read, handle = self._nvml, self._read, self._handles[index]
        rates = read(nvml.nvmlDeviceGetUtilizationRates, handle)
        memory = read(nvml.nvmlDeviceGetMemoryInfo, handle)
        power_mw = read(nvml.nvmlDeviceGetPowerUsage, handle)
        values: dict[str, float | int | None] = {
            "util": None if rates is None else rates.gpu,
            "mem_util": None if rates is None else rates.memory,
            "mem_used": None if memory is None else int(memory.used),
            "mem_total": None if memory is None else int(memory.total),
            "power_w": None if power_mw is None else power_mw / 1000,
            "sm_clock_mhz": read(nvml.nvmlDeviceGetClockInfo, handle, nvml.NVML_CLOCK_SM),
            "temp_c": read(nvml.nvmlDeviceGetTemperature, handle, nvml.NVML_TEMPERATURE_GPU),
            "pcie_tx": None,
            "pcie_rx": None,
        }
        if self._pcie:
            for key, counter in (
                ("pcie_tx", nvml.NVML_PCIE_UTIL_TX_BYTES),
                ("pcie_rx", nvml.NVML_PCIE_UTIL_RX_BYTES),
            ):
                kb_per_s = read(nvml.nvmlDeviceGetPcieThroughput, handle, counter)
                values[key] = None if kb_per_s is None else kb_per_s * 1024
        return values


def _nvml_backend(pcie: bool) -> tuple[GpuBackend | None, str | None]:
    """NvmlBackend, or None and why not (for the metadata's `gpu_reason`)."""
    try:
        return NvmlBackend(pcie=pcie), None
    except ImportError:
        return None, "pynvml is not installed"
    except Exception as exc:  # noqa: BLE001 - NVMLError ("Driver Not Loaded"), an older pynvml
        return None, f"NVML: {exc}"


class GpuTracker:
    """Samples this process's CPU use and RSS and the GPUs' counters in a background thread.

    Usage::

        writer = RunWriter("runs/exp1")
        with GpuTracker(writer):        # or tracker.start() ... tracker.stop()
            train()

    One `sys` record per `interval_s` (default 1 s, NVML's own averaging window), each written
    as soon as it is taken, so the samples before a crash survive. The thread starts in
    `start()` and is stopped and joined by `stop()`, at the end of a `with` block or at
    interpreter exit; `stop()` returns promptly, without waiting out the interval. Without NVML
    only the CPU side is recorded and the metadata says why.

    Args:
        writer: the RunWriter whose run the records go to.
        interval_s: the time between samples.
        gpus: NVML indices of the GPUs to watch (NVML numbers every GPU of the machine,
            ignoring CUDA_VISIBLE_DEVICES); None watches all. On a machine shared by several
            ranks, give each rank its own GPU or let one rank per node track.
        pcie: also read PCIe throughput (slow calls: each waits inside the driver).
        enabled: None reads `ENABLE_GPU_TRACKER` (default on).
        backend: the GPU backend (tests pass a fake); None tries NVML at `start()`.
    """

    def __init__(
        self,
        writer: RunWriter,
        *,
        interval_s: float = 1.0,
        gpus: Sequence[int] | None = None,
        pcie: bool = False,
        enabled: bool | None = None,
        backend: GpuBackend | None = None,
    ) -> None:
        if interval_s <= 0:
            raise ValueError(f"interval_s must be > 0, not {interval_s}")
        if enabled is None:
            enabled = env_enabled("ENABLE_GPU_TRACKER")
        self.enabled = bool(enabled) and writer.enabled
        self.writer = writer
        self.interval_s = interval_s
        self.gpus = None if gpus is None else [int(i) for i in gpus]
        self.pcie = pcie
        self.backend = backend
        self._thread: threading.Thread | None = None
        self._stop_event = threading.Event()
        self._last_perf = self._last_cpu = 0  # the previous sample's clocks (set by _run)

    @property
    def running(self) -> bool:
        """Whether the sampling thread runs (it ends by itself if the file cannot be written)."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> GpuTracker:
        """Open the GPU backend, write the metadata and start sampling (no-op if running)."""
        if not self.enabled or self._thread is not None:
            return self
        reason = None
        if self.backend is None:
            self.backend, reason = _nvml_backend(self.pcie)
        backend = self.backend
        devices: list[dict[str, Any]] = []
        if backend is not None:
            try:
                devices = backend.devices()
            except Exception as exc:  # noqa: BLE001 - a driver error: track the CPU side only
                devices, reason = [], f"{backend.name}: {exc}"
        if self.gpus is not None and backend is not None:
            found = [d["index"] for d in devices]
            missing = sorted(set(self.gpus) - set(found))
            if missing:
                logger.warning("GpuTracker: no GPU %s (%s sees %s)", missing, backend.name, found)
            devices = [d for d in devices if d["index"] in self.gpus]
        if backend is not None and not devices:
            reason = f"{backend.name} sees no GPU" + (f" of {self.gpus}" if self.gpus else "")
        self._indices = [d["index"] for d in devices]
        self._file = self.writer.record_file("system")
        self.writer.update_metadata(
            system={
                "interval_s": self.interval_s,
                "gpu_backend": backend.name if backend is not None and devices else None,
                "gpu_reason": reason,
                "gpus": devices,
                "pcie": self.pcie,
            }
        )
        self._read_rss = rss_reader()
        self._unreadable: set[int] = set()  # GPUs whose failure was logged (once each)
        self._stop_event.clear()
        self._thread = threading.Thread(target=self._run, name="tb_perf-GpuTracker", daemon=True)
        self._thread.start()
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        """Stop sampling and wait for the thread (a sample under way finishes); safe twice."""
        thread = self._thread
        if thread is None:
            return
        self._stop_event.set()
        thread.join(timeout=10.0)  # a sample takes microseconds, unless a GPU call hangs
        if thread.is_alive():  # a backend call hung: leave the daemon thread behind
            logger.warning("GpuTracker: sampling thread did not stop (a GPU call hangs?)")
        self._thread = None
        atexit.unregister(self.stop)

    def __enter__(self) -> GpuTracker:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _sample(self) -> dict[str, Any]:
        """One `sys` record (without `k`) of the state now; CPU use since the previous one."""
        now_perf, now_cpu = time.perf_counter_ns(), time.process_time_ns()
        wall_ns = now_perf - self._last_perf
        cpu_pct = round(100 * (now_cpu - self._last_cpu) / wall_ns, 2) if wall_ns > 0 else None
        self._last_perf, self._last_cpu = now_perf, now_cpu
        gpus = []
        backend = self.backend
        for index in self._indices:  # none without a backend
            values: dict[str, float | int | None] = {}
            try:
                if backend is not None:
                    values = backend.sample(index)
            except Exception as exc:  # a GPU that fell off the bus must not end the tracker
                if index not in self._unreadable:
                    self._unreadable.add(index)
                    logger.warning("GpuTracker: GPU %d unreadable: %s", index, exc)
                values = {}
            gpus.append({"index": index, **{key: values.get(key) for key in GPU_FIELDS}})
        return {
            "t": self.writer.clock.to_unix_ns(now_perf),
            "cpu_pct": cpu_pct,
            "rss": self._read_rss(),
            "gpus": gpus,
        }

    def _run(self) -> None:
        self._last_perf, self._last_cpu = time.perf_counter_ns(), time.process_time_ns()
        next_at = time.monotonic() + self.interval_s
        while not self._stop_event.wait(max(0.0, next_at - time.monotonic())):
            line = json.dumps({"k": "sys", **self._sample()}, separators=(",", ":")) + "\n"
            try:
                self.writer.write_now(self._file, line)  # one write() per sample
            except ValueError as exc:  # the writer was closed before the tracker
                logger.warning("GpuTracker stopped: cannot write %s: %s", self._file.path, exc)
                return
            except OSError as exc:
                why = f"cannot write {self._file.path}: {exc}"
                self.writer.collector_stopped("GpuTracker", None, why, exc)
                return
            next_at += self.interval_s
            late = time.monotonic() - next_at
            if late > 0:  # a slow sample: skip the ticks it overran instead of bursting
                next_at += (late // self.interval_s + 1) * self.interval_s
