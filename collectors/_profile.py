"""profile_steps: torch.profiler windows chosen by the window scheduler, written into the run.

Each window becomes `<run>/plugins/tb_perf/<prefix>.steps<first>-<last>.pt.trace.json.gz`,
written under a temporary name and renamed when complete, with the collectors' step numbers as
`ProfilerStep#N` ranges and a `tb_perf` metadata key (docs/FORMAT.md).
"""

from __future__ import annotations

import atexit
import contextlib
import gzip
import json
import logging
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from time import perf_counter_ns
from typing import Any

from ._mirror import RecordFunctionMirror
from ._schedule import CaptureBusy, Schedule, WindowScheduler
from ._timer import MyTimer
from ._writer import RunWriter

logger = logging.getLogger(__name__)


class _ProfilerSession:
    """Kineto runs one profiler session per process, and exporting one session's trace while
    another starts crashes torch (seen: a segfault in export_chrome_trace). Every backend of the
    process claims the session before it prepares: the claim waits for the exports in flight,
    and is refused (CaptureBusy) while another backend records."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._exports: set[threading.Thread] = set()
        self._owner: TorchProfilerBackend | None = None

    def claim(self, backend: TorchProfilerBackend) -> None:
        with self._lock:
            exporting = list(self._exports)
        for thread in exporting:
            thread.join()
        with self._lock:
            if self._owner not in (None, backend):
                raise CaptureBusy(f"torch.profiler is recording {self._owner.describe()}")
            self._owner = backend

    def release(self, backend: TorchProfilerBackend) -> None:
        with self._lock:
            if self._owner is backend:
                self._owner = None

    def exporting(self, thread: threading.Thread) -> None:
        with self._lock:
            self._exports.add(thread)

    def exported(self, thread: threading.Thread) -> None:
        with self._lock:
            self._exports.discard(thread)


_SESSION = _ProfilerSession()
TRACE_METADATA_KEY = "tb_perf"
TRACE_METADATA_VERSION = 1
_GZIP_LEVEL = 6  # zlib's default: level 9 takes about twice as long for ~5 % smaller traces


class TorchProfilerBackend:
    """A `CaptureBackend` that records windows with torch.profiler.

    `stop()` disables the profiler on the training thread (torch waits for the device there,
    once per window); converting the window to JSON, compressing and renaming it happen on a
    short-lived thread, joined before the next window is prepared and at `close()`. How long
    each part took is recorded per window in the metadata (the steps it delayed show it too).
    With a timer, the timer's spans are mirrored into the trace while a window records.

    Windows of steps by default. Other users (windowed capture, task profiling) count something
    else: with `label`, a window's trace is `<prefix>.<label>.<first>-<last>.pt.trace.json.gz`,
    its ranges `<label>#<n>` instead of `ProfilerStep#<n>`, and its `tb_perf` key holds
    `window: {label, first, last}` instead of step numbers. `trace_metadata` adds fields to the
    `tb_perf` key; `metadata_key` is where the windows go in the rank's metadata (None: nowhere,
    the owner records them); `on_window(window)` is called on the export thread once a window's
    file is written (or failed).
    """

    def __init__(
        self,
        writer: RunWriter,
        *,
        timer: MyTimer | None = None,
        cuda: bool | None = None,
        record_shapes: bool = False,
        with_stack: bool = False,
        profile_memory: bool = False,
        with_flops: bool = False,
        label: str | None = None,
        trace_metadata: dict[str, Any] | None = None,
        metadata_key: str | None = "profiler",
        on_window: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        import torch
        from torch.autograd.profiler import record_function
        from torch.profiler import ProfilerActivity

        # torch.profiler's first prepare_trace() imports torch._inductor (1.3 s on a 2-core
        # machine): pay that here, before the loop, rather than inside a training step.
        hasattr(torch, "_inductor")
        self._torch = torch
        self._record_function = record_function
        self.writer = writer
        self.timer = timer
        self.cuda_status = _cuda_status(torch, cuda)
        self.activities = [ProfilerActivity.CPU]
        if self.cuda_status == "on":
            self.activities.append(ProfilerActivity.CUDA)
        self._options: dict[str, bool] = dict(
            record_shapes=record_shapes,
            with_stack=with_stack,
            profile_memory=profile_memory,
            with_flops=with_flops,
        )
        self.label = label
        self._range_format = "ProfilerStep#{}" if label is None else label + "#{}"
        self._trace_metadata = dict(trace_metadata or {})
        self._metadata_key = metadata_key
        self._on_window = on_window
        self.windows: list[dict[str, Any]] = []  # one entry per window ended, as in metadata
        self._prof: Any = None
        self._started = False
        self._step_range: Any = None
        self._mirror: RecordFunctionMirror | None = None
        self._trace_to_collectors_ns = 0
        self._costs_ns: dict[str, int] = {}
        self._export_thread: threading.Thread | None = None
        self._export_failed = False  # warned once: a full disk fails every later window too
        self._lock = threading.Lock()

    # --- CaptureBackend ----------------------------------------------------------------------

    def prepare(self) -> None:
        self._wait_for_export()
        _SESSION.claim(self)
        began = perf_counter_ns()
        try:
            options = self._options
            self._prof = self._torch.profiler.profile(
                activities=self.activities,
                record_shapes=options["record_shapes"],
                with_stack=options["with_stack"],
                profile_memory=options["profile_memory"],
                with_flops=options["with_flops"],
            )
            self._prof.prepare_trace()
        except BaseException:
            _SESSION.release(self)
            raise
        self._costs_ns = {"prepare": perf_counter_ns() - began}

    def start(self, step: int) -> None:
        began = perf_counter_ns()
        self._prof.start_trace()
        self._costs_ns["start"] = perf_counter_ns() - began
        self._started = True
        # The collectors' clock minus the clock Kineto stamps events with (time.time_ns()).
        self._trace_to_collectors_ns = self.writer.clock.now_unix_ns() - time.time_ns()
        if self.timer is not None and not any(
            isinstance(m, RecordFunctionMirror) for m in self.timer.mirrors
        ):
            self._mirror = RecordFunctionMirror()
            self.timer.add_mirror(self._mirror)
        self._open_step(step)

    def step(self, step: int) -> None:
        self._close_step()
        self._open_step(step)

    def stop(self, first_step: int, last_step: int) -> None:
        self._close_step()
        self._remove_mirror()
        window = self._window(first_step, last_step)
        self._prof.add_metadata_json(
            TRACE_METADATA_KEY,
            json.dumps(
                {
                    "version": TRACE_METADATA_VERSION,
                    "rank": self.writer.rank,
                    "world_size": self.writer.world_size,
                    "prefix": self.writer.file_prefix,
                    **(window if self.label is None else {"window": window}),
                    "trace_to_collectors_ns": self._trace_to_collectors_ns,
                    **self._trace_metadata,
                }
            ),
        )
        prof, self._prof, self._started = self._prof, None, False
        began = perf_counter_ns()
        try:
            prof.stop_trace()
        finally:
            _SESSION.release(self)
        costs = {**self._costs_ns, "stop": perf_counter_ns() - began}
        self._wait_for_export()
        self._export_thread = thread = threading.Thread(
            target=self._export,
            args=(prof, first_step, last_step, costs),
            name=f"tb_perf trace export steps {first_step}-{last_step}",
            daemon=True,
        )
        _SESSION.exporting(thread)
        thread.start()

    def cancel(self) -> None:
        self._close_step()
        self._remove_mirror()
        prof, self._prof, started, self._started = self._prof, None, self._started, False
        try:
            if prof is not None:
                if not started:  # a prepared profiler is released by a start and a stop
                    prof.start_trace()
                prof.stop_trace()
        finally:
            _SESSION.release(self)

    def close(self) -> None:
        self._wait_for_export()

    # --- helpers -------------------------------------------------------------------------------

    def _open_step(self, step: int) -> None:
        self._step_range = self._record_function(self._range_format.format(step))
        self._step_range.__enter__()

    def _close_step(self) -> None:
        if self._step_range is not None:
            self._step_range.__exit__(None, None, None)
            self._step_range = None

    def _remove_mirror(self) -> None:
        mirror, self._mirror = self._mirror, None
        if mirror is not None:
            if self.timer is not None:  # (a mirror is of the timer's spans)
                self.timer.remove_mirror(mirror)
            mirror.close_all()  # spans open across the window's end

    def describe(self) -> str:
        """What this backend records, for the message of a window skipped meanwhile."""
        return f"{self.label} windows" if self.label is not None else "step windows"

    def _wait_for_export(self) -> None:
        if self._export_thread is not None:
            self._export_thread.join()
            self._export_thread = None

    def _window(self, first_step: int, last_step: int) -> dict[str, Any]:
        """A window's numbers: steps, or the counts of what `label` names."""
        if self.label is None:
            return {"first_step": first_step, "last_step": last_step}
        return {"label": self.label, "first": first_step, "last": last_step}

    def trace_path(self, first_step: int, last_step: int) -> Path:
        """Where a window's trace goes; `.<n>` is inserted if step numbers were reused."""
        if self.label is None:
            stem = f"{self.writer.file_prefix}.steps{first_step}-{last_step}"
        else:
            stem = f"{self.writer.file_prefix}.{self.label}.{first_step}-{last_step}"
        path = self.writer.data_dir / f"{stem}.pt.trace.json.gz"
        n = 1
        while path.exists():
            path = self.writer.data_dir / f"{stem}.{n}.pt.trace.json.gz"
            n += 1
        return path

    def _export(self, prof: Any, first_step: int, last_step: int, costs_ns: dict[str, int]) -> None:
        """Write one window (on the export thread); a failure is logged, never raised."""
        began = perf_counter_ns()
        window = self._window(first_step, last_step)
        final = self.trace_path(first_step, last_step)
        partial = final.with_name(final.name + ".tmp")
        fd, raw = tempfile.mkstemp(prefix="tb_perf_", suffix=".json")
        os.close(fd)
        try:
            prof.export_chrome_trace(raw)
            with open(raw, "rb") as src, open(partial, "wb") as dst:
                gz_file = gzip.GzipFile(
                    filename="", mode="wb", compresslevel=_GZIP_LEVEL, fileobj=dst, mtime=0
                )
                with gz_file as gz:
                    shutil.copyfileobj(src, gz, 1 << 20)
            os.replace(partial, final)
            window.update(file=final.name, bytes=final.stat().st_size)
        except Exception as exc:
            if not self._export_failed:
                self._export_failed = True
                logger.warning(
                    "profile_steps: writing the trace of steps %d-%d failed; training goes on "
                    "(later failures only in the windows' metadata)",
                    first_step,
                    last_step,
                    exc_info=True,
                )
            window["error"] = f"{type(exc).__name__}: {exc}"
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(raw)
            _SESSION.exported(threading.current_thread())
        costs_ns["export"] = perf_counter_ns() - began
        window.update({f"{part}_ms": round(ns / 1e6, 3) for part, ns in costs_ns.items()})
        with self._lock:
            self.windows.append(window)
            if self._metadata_key is not None:
                key = self._metadata_key
                info = {**self.writer.metadata.get(key, {}), "windows": list(self.windows)}
                self.writer.update_metadata(**{key: info})
        if self._on_window is not None:
            try:
                self._on_window(dict(window))
            except Exception:
                logger.warning("a trace-window callback failed; training goes on", exc_info=True)


def _cuda_status(torch: Any, cuda: bool | None) -> str:
    """The metadata's `cuda` field: "on", or "off" with the reason. Never initializes CUDA."""
    if cuda is False:
        return "off"
    try:
        available = torch.cuda.is_available()
    except RuntimeError as exc:  # a broken driver must not stop training
        available, reason = False, f"CUDA unusable: {exc}"
    else:
        reason = "torch.cuda.is_available() is False"
    if available:
        return "on"
    if cuda is True:
        raise RuntimeError(f"profile_steps(cuda=True) but {reason}")
    return f"off ({reason})"


class StepProfiler:
    """What `profile_steps` returns: started by `start()` or `with`, stopped by `stop()`.

    With a timer, the timer's `step()` / `set_step()` drive it; with only a writer, call
    `step()` (or `set_step(n)`) at each step boundary.
    """

    def __init__(
        self,
        scheduler: WindowScheduler | None = None,
        backend: TorchProfilerBackend | None = None,
        timer: MyTimer | None = None,
    ) -> None:
        self.scheduler = scheduler
        self.backend = backend
        self.timer = timer
        self._step = 0
        self._running = False

    @property
    def windows(self) -> list[dict[str, Any]]:
        """The windows written so far, as in the metadata (`file` or `error`, times)."""
        return list(self.backend.windows) if self.backend is not None else []

    def start(self) -> StepProfiler:
        if self._running or self.scheduler is None or self.scheduler.done:
            return self
        self._running = True
        if self.timer is not None:
            self.timer.add_step_callback(self.scheduler.begin_step)
            if self.timer.current_step is not None:
                self.scheduler.begin_step(self.timer.current_step)
        else:
            self.scheduler.begin_step(self._step)
        atexit.register(self.stop)
        return self

    def step(self) -> None:
        """End the current step and begin the next (without a timer)."""
        self.set_step(self._step + 1)

    def set_step(self, step: int) -> None:
        """Say that step `step` begins now (without a timer)."""
        if self.timer is not None:
            raise RuntimeError(
                "profile_steps follows its timer's steps: call timer.step() / timer.set_step()"
            )
        self._step = int(step)
        if self._running and self.scheduler is not None:  # (it runs only with a scheduler)
            self.scheduler.begin_step(self._step)

    def stop(self) -> None:
        """Write the window under way (up to the current step) and wait for its file."""
        scheduler = self.scheduler
        if not self._running or scheduler is None:  # (it runs only with a scheduler)
            return
        self._running = False
        atexit.unregister(self.stop)
        if self.timer is not None:
            self.timer.remove_step_callback(scheduler.begin_step)
        scheduler.close()

    def __enter__(self) -> StepProfiler:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def profile_steps(
    timer: MyTimer | None = None,
    *,
    writer: RunWriter | None = None,
    skip_first: int = 0,
    wait: int = 1,
    warmup: int = 1,
    active: int = 3,
    repeat: int = 1,
    ranks: Iterable[int] | None = None,
    cuda: bool | None = None,
    record_shapes: bool = False,
    with_stack: bool = False,
    profile_memory: bool = False,
    with_flops: bool = False,
) -> StepProfiler:
    """Record windows of training steps with torch.profiler into the run, per rank.

    Usage::

        timer = MyTimer(run_dir)
        with profile_steps(timer, wait=1, warmup=1, active=3, repeat=2):
            for batch in loader:
                ...
                timer.step()        # the profiler follows the timer's steps

    Steps count from the first step under way while it runs (the timer's step at `start()` if
    one has begun, else its next `set_step()` / `step()`; call `timer.set_step(0)` before a loop
    that only calls `step()` to count its first step): skip `skip_first`, then `repeat` cycles
    (0: until stopped) of `wait` idle, `warmup` and `active` recorded steps, as in
    torch.profiler.schedule. `ranks` limits capturing to those ranks (None: all). CPU activity
    is always recorded, CUDA when available (`cuda=False` turns it off, `True` requires it);
    `record_shapes`, `with_stack`, `profile_memory` and `with_flops` go to torch.profiler.
    Without a timer, pass `writer=` and call `step()` on the returned object. A disabled timer
    (`ENABLE_TIMER=0`) or writer disables this too. Steps outside windows cost one scheduler
    call each; no host-device synchronization is added per step.
    """
    if timer is not None and writer is None:
        writer = timer.writer
    elif timer is not None or writer is None:
        raise TypeError("profile_steps needs a timer or a writer= (one of them)")
    schedule = Schedule(skip_first, wait, warmup, active, repeat)
    if not writer.enabled:  # a disabled timer's writer is disabled too
        return StepProfiler(timer=timer)
    ranks = None if ranks is None else sorted(set(ranks))
    info: dict[str, Any] = {
        "backend": "torch.profiler",
        "schedule": {
            "skip_first": skip_first,
            "wait": wait,
            "warmup": warmup,
            "active": active,
            "repeat": repeat,
        },
        "ranks": ranks,
        "captures": ranks is None or writer.rank in ranks,
        "windows": [],
    }
    if not info["captures"]:
        writer.update_metadata(profiler=info)
        return StepProfiler(timer=timer)
    backend = TorchProfilerBackend(
        writer,
        timer=timer,
        cuda=cuda,
        record_shapes=record_shapes,
        with_stack=with_stack,
        profile_memory=profile_memory,
        with_flops=with_flops,
    )
    info["activities"] = [a.name for a in backend.activities]
    info["cuda"] = backend.cuda_status
    writer.update_metadata(profiler=info)
    scheduler = WindowScheduler(backend, schedule, rank=writer.rank, ranks=ranks)
    return StepProfiler(scheduler, backend, timer)
