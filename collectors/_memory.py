"""MemorySampler: one memory sample per training step (docs/FORMAT.md, `memory` records), and
the process RSS reader the system tracker shares."""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ._env import env_enabled
from ._timer import MyTimer

_STATM = "/proc/self/statm"


def rss_reader() -> Callable[[], int | None]:
    """A function returning this process's resident set size in bytes (None if unreadable).

    On Linux it reads `/proc/self/statm` (2 µs here; the very number psutil reports, which
    costs 8 µs because it builds a named tuple of every field); elsewhere psutil when it is
    installed; else a function that returns None.
    """
    try:
        page = os.sysconf("SC_PAGE_SIZE")
        fd = os.open(_STATM, os.O_RDONLY)
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass
    else:

        def statm_rss() -> int | None:
            try:
                fd = os.open(_STATM, os.O_RDONLY)  # reopened: /proc/self follows a fork
                try:
                    return int(os.read(fd, 256).split()[1]) * page
                finally:
                    os.close(fd)
            except (OSError, ValueError, IndexError):
                return None

        return statm_rss
    try:
        import psutil
    except ImportError:
        return lambda: None
    process = psutil.Process()

    def psutil_rss() -> int | None:
        try:
            return process.memory_info().rss
        except psutil.Error:
            return None

    return psutil_rss


class CudaStatsSource(Protocol):
    """Where MemorySampler reads CUDA allocator statistics (tests pass a fake)."""

    device: str  # for the metadata: "cuda:<i>", or "cuda" until the device is known

    def read(self) -> tuple[str, Mapping[str, int | None]] | None:
        """`("cuda:<i>", {allocated, reserved, peak, retries, ooms})` as the `mem` record's
        fields, or None while there is no CUDA memory to report (no GPU, or this process has
        not used CUDA yet)."""

    def reset_peak(self) -> None:
        """Start a new peak (`torch.cuda.reset_peak_memory_stats`)."""


class TorchCudaStats:
    """The caching allocator's statistics of one device, as `torch.cuda.memory_stats` names them.

    Read with `memory_stats_as_nested_dict`: `memory_stats` spends ~100 µs (measured here) in
    Python flattening some 120 keys into dotted names, for the five values a sample needs.

    It never initializes CUDA itself: a sampler that created a CUDA context before the
    program's `torch.cuda.set_device(local_rank)` would put one context of every rank on GPU 0.
    Until the program has used CUDA, `read()` returns None. With `device=None` the device is the
    current one when CUDA is first seen initialized.
    """

    def __init__(self, torch: Any, device: Any = None) -> None:
        self._cuda = torch.cuda
        self._index: int | None = None
        if isinstance(device, int):
            self._index = device
        elif device is not None:
            device = torch.device(device)
            if device.type != "cuda":
                raise ValueError(f"MemorySampler samples CUDA devices, not {device}")
            self._index = device.index  # None for "cuda": the current device
        self.device = "cuda" if self._index is None else f"cuda:{self._index}"

    def read(self) -> tuple[str, Mapping[str, int | None]] | None:
        cuda = self._cuda
        if not cuda.is_initialized():
            return None
        if self._index is None:
            self._index = cuda.current_device()
            self.device = f"cuda:{self._index}"
        stats = cuda.memory_stats_as_nested_dict(self._index)
        allocated = stats.get("allocated_bytes", {}).get("all", {})
        return self.device, {  # a statistic this allocator backend does not keep: None
            "allocated": allocated.get("current"),
            "reserved": stats.get("reserved_bytes", {}).get("all", {}).get("current"),
            "peak": allocated.get("peak"),
            "retries": stats.get("num_alloc_retries"),
            "ooms": stats.get("num_ooms"),
        }

    def reset_peak(self) -> None:
        self._cuda.reset_peak_memory_stats(self._index)  # called after a read: index known


def cuda_stats_source(device: Any = None) -> tuple[TorchCudaStats | None, str]:
    """The CUDA statistics source when the program uses torch and torch sees a GPU, with the
    device for the metadata (`"cpu"` without one)."""
    torch = sys.modules.get("torch")
    if torch is None and device is not None:
        import torch
    if torch is None:
        return None, "cpu"  # a program that never imported torch has no CUDA memory
    try:
        available, why = torch.cuda.is_available(), "torch.cuda.is_available() is False"
    except RuntimeError as exc:  # a broken driver
        available, why = False, f"CUDA unusable: {exc}"
    if not available:
        if device is not None:
            raise RuntimeError(f"MemorySampler(device={device!r}) but {why}")
        return None, "cpu"
    source = TorchCudaStats(torch, device)
    return source, source.device


def _int_or_null(value: int | None) -> str:
    return "null" if value is None else str(int(value))


class MemorySampler:
    """Writes one `mem` record per step of a MyTimer: CUDA allocator memory and process RSS.

    Usage::

        timer = MyTimer("runs/exp1")
        with MemorySampler(timer):
            for batch in loader:
                ...
                timer.step()   # the step that ends here is sampled here

    A sample is taken at each step boundary, for the step that ended there (a boundary that
    ends no step, such as `set_step(i)` right after `step()`, takes none), and goes to the file
    with the timer's own writes, so a crash loses what the timer loses. Reading the CUDA
    counters does not synchronize with the device.

    Args:
        timer: the MyTimer whose steps are sampled and whose run the records go to.
        device: the CUDA device to sample (`"cuda:1"`, 1, a torch.device); None: the current
            device once the program has used CUDA. Without CUDA the CUDA fields are null.
        reset_peak: call `torch.cuda.reset_peak_memory_stats()` after each sample, so `peak` is
            each step's own peak. Off by default: the peak counters are global, and other
            loggers (Lightning's, your own `max_memory_allocated()`) read the same ones.
        enabled: None reads `ENABLE_MEMORY_SAMPLER` (default on); a disabled timer disables it.
        source: where CUDA statistics come from (tests pass a fake); None reads torch.
    """

    def __init__(
        self,
        timer: MyTimer,
        *,
        device: Any = None,
        reset_peak: bool = False,
        enabled: bool | None = None,
        source: CudaStatsSource | None = None,
    ) -> None:
        if enabled is None:
            enabled = env_enabled("ENABLE_MEMORY_SAMPLER")
        self.enabled = bool(enabled) and timer.enabled
        self.timer = timer
        self.device = device
        self.reset_peak = reset_peak
        self._source = source
        self._attached = False
        self._file: Any = None

    def attach(self) -> MemorySampler:
        """Start sampling at the timer's next step boundary."""
        if not self.enabled or self._attached:
            return self
        if self._source is None:
            self._source, device_name = cuda_stats_source(self.device)
        else:
            device_name = self._source.device
        timer = self.timer
        self._meta_device = device_name
        self._read_rss = rss_reader()
        self._now = timer.writer.clock.now_unix_ns
        self._file = timer.writer.record_file("memory")
        self._attached = True
        timer.writer.update_metadata(memory={"device": device_name, "reset_peak": self.reset_peak})
        timer.add_step_callback(self._on_step)
        atexit.register(self.detach)
        return self

    def detach(self) -> None:
        """Write the samples still buffered and stop sampling."""
        if not self._attached:
            return
        self._attached = False
        self.timer.remove_step_callback(self._on_step)
        atexit.unregister(self.detach)
        self._flush()

    def __enter__(self) -> MemorySampler:
        return self.attach()

    def __exit__(self, *exc_info: object) -> None:
        self.detach()

    def _sample(self, step: int) -> str:
        """One `mem` record (a JSON line) of the memory in use now."""
        t = self._now()
        rss = _int_or_null(self._read_rss())
        source = self._source
        read = source.read() if source is not None else None
        if source is None or read is None:
            return (
                f'{{"k":"mem","step":{step},"t":{t},"device":"cpu","allocated":null,'
                f'"reserved":null,"peak":null,"retries":null,"ooms":null,"rss":{rss}}}\n'
            )
        device, stats = read
        if device != self._meta_device:  # the current device became known
            self._meta_device = device
            self.timer.writer.update_metadata(
                memory={"device": device, "reset_peak": self.reset_peak}
            )
        line = (
            f'{{"k":"mem","step":{step},"t":{t},"device":"{device}",'
            f'"allocated":{_int_or_null(stats["allocated"])},'
            f'"reserved":{_int_or_null(stats["reserved"])},'
            f'"peak":{_int_or_null(stats["peak"])},'
            f'"retries":{_int_or_null(stats["retries"])},'
            f'"ooms":{_int_or_null(stats["ooms"])},"rss":{rss}}}\n'
        )
        if self.reset_peak:
            source.reset_peak()
        return line

    def _on_step(self, new_step: int) -> None:
        timer = self.timer
        if timer.ended_step is not None:  # a boundary that ended no step gets no sample
            self._file.append(self._sample(timer.ended_step))
        if timer.unflushed_steps == 0:  # the timer has just written its file: so do we
            self._flush()

    def _flush(self) -> None:
        try:
            self._file.flush()
        except (OSError, ValueError) as exc:  # ValueError: the writer was closed first
            why = f"cannot write {self._file.path}: {exc}"
            self.timer.writer.collector_stopped("MemorySampler", self.timer.ended_step, why, exc)
            if self._attached:
                self._attached = False
                self.timer.remove_step_callback(self._on_step)
                atexit.unregister(self.detach)
