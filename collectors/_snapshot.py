"""MemorySnapshotter: CUDA allocator history over named regions, dumped as snapshot pickles
into the run (docs/FORMAT.md, "Memory snapshots")."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Literal, Protocol

from ._env import env_enabled
from ._timer import MyTimer
from ._writer import RunWriter

logger = logging.getLogger("tb_perf")
PICKLE_PROTOCOL = 4  # protocol 5 (Python 3.14's default) breaks older snapshot readers


def sanitize_region(name: str) -> str:
    """A region name as it appears in a file name: `[A-Za-z0-9_-]`, at most 64 characters."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:64] or "region"


class MemoryApi(Protocol):
    """The torch calls the snapshotter makes (tests pass a fake)."""

    def record_memory_history(self, enabled: Literal["state", "all"] | None, **kwargs: Any) -> None:
        """`torch.cuda.memory._record_memory_history`: `"all"` starts, None stops."""

    def snapshot(self) -> Any:
        """`torch.cuda.memory._snapshot()`: plain dicts and lists."""

    def attach_oom_observer(self, observer: Callable[..., None]) -> None:
        """`torch._C._cuda_attach_out_of_memory_observer` (there is no detach)."""


class _NoMemoryApi:
    """The MemoryApi of a snapshotter that is off: never called."""

    def record_memory_history(self, enabled: Literal["state", "all"] | None, **kwargs: Any) -> None:
        pass

    def snapshot(self) -> Any:
        return None

    def attach_oom_observer(self, observer: Callable[..., None]) -> None:
        pass


class TorchMemoryApi:
    """MemoryApi through torch's private memory-history functions (CUDA builds only)."""

    def __init__(self) -> None:
        import torch

        self._memory = torch.cuda.memory
        # bound by CUDA builds of torch only, and torch/_C/__init__.pyi does not declare it
        self._attach = torch._C._cuda_attach_out_of_memory_observer  # type: ignore[attr-defined]

    def record_memory_history(self, enabled: Literal["state", "all"] | None, **kwargs: Any) -> None:
        self._memory._record_memory_history(enabled, **kwargs)

    def snapshot(self) -> Any:
        return self._memory._snapshot()

    def attach_oom_observer(self, observer: Callable[..., None]) -> None:
        self._attach(observer)


def _cuda_unavailable_reason() -> str | None:
    try:
        import torch
    except ImportError:
        return "torch is not installed"
    try:
        if not torch.cuda.is_available():
            return "torch.cuda.is_available() is False"
    except RuntimeError as exc:
        return f"CUDA unusable: {exc}"
    return None


class MemorySnapshotter:
    """Records the CUDA allocator's history over named regions and dumps a snapshot at the end
    of each, for PyTorch's memory viewer and the plugin's snapshot view.

    Usage::

        snap = MemorySnapshotter(timer)        # on when ENABLE_MEMORY_SNAPSHOT=1
        with snap.region("first_steps"):
            for _ in range(3):
                train_step()
        # -> plugins/tb_perf/<prefix>.snapshot.first_steps.0.pickle

    Regions nest: recording starts at the outermost `start()` and stops at the outermost
    `stop()`; every `stop()` dumps `torch.cuda.memory._snapshot()` (pickle protocol 4, written
    to `.tmp` and renamed) as `<prefix>.snapshot.<region>.<n>.pickle`, with `<n>` counting the
    dumps of that region from 0. A nested region's snapshot holds the history since the
    outermost start (at most `max_entries` events, the latest ones).

    Recording history costs time on every allocation and memory for the events (several KB
    each); PyTorch quotes ~2 µs per allocation for Python stacks, which has not been measured
    on a GPU here. `stacks="all"` adds C++ frames and can make a dump take minutes.

    Without CUDA it does nothing and says so once in the `tb_perf` log.

    Args:
        writer_or_timer: a RunWriter, or a MyTimer whose run the snapshots go to.
        max_entries: the length of the history ring buffer.
        stacks: `"python"` or `"all"` (Python and C++ frames).
        enabled: None reads `ENABLE_MEMORY_SNAPSHOT` (default off).
        dump_on_oom: also dump a snapshot named `oom` when the CUDA allocator runs out of
            memory (at the first MAX_OOM_DUMPS = 3 OOMs; history is held only while a region
            records). PyTorch offers no way to remove that observer: after `close()` it does
            nothing.
        memory_api: the torch calls (tests pass a fake); None uses torch's.
    """

    def __init__(
        self,
        writer_or_timer: RunWriter | MyTimer,
        *,
        max_entries: int = 100_000,
        stacks: str = "python",
        enabled: bool | None = None,
        dump_on_oom: bool = False,
        memory_api: MemoryApi | None = None,
    ) -> None:
        if stacks not in ("python", "all"):
            raise ValueError(f"stacks must be 'python' or 'all', not {stacks!r}")
        if max_entries < 1:
            raise ValueError(f"max_entries must be >= 1, not {max_entries}")
        if enabled is None:
            enabled = env_enabled("ENABLE_MEMORY_SNAPSHOT", default=False)
        self.max_entries = max_entries
        self.stacks = stacks
        self.dump_on_oom = dump_on_oom
        self.writer = (
            writer_or_timer if isinstance(writer_or_timer, RunWriter) else writer_or_timer.writer
        )
        enabled = enabled and self.writer.enabled  # a disabled timer holds a disabled writer
        self.files: list[str] = []  # the snapshots written, in order
        self._open: list[str] = []
        self._counts: dict[str, int] = {}
        self._api: MemoryApi = _NoMemoryApi() if memory_api is None else memory_api
        if enabled and memory_api is None:
            reason = _cuda_unavailable_reason()
            if reason is None:
                self._api = TorchMemoryApi()
            else:
                logger.warning("MemorySnapshotter: no CUDA (%s); no snapshots are taken", reason)
                enabled = False
        self.enabled = bool(enabled)
        if self.enabled and dump_on_oom:
            self._api.attach_oom_observer(_oom_observer(weakref.ref(self)))

    def start(self, name: str) -> None:
        """Open region `name`; the outermost one starts recording the allocator's history."""
        if not self.enabled:
            return
        if not self._open:
            self._api.record_memory_history("all", max_entries=self.max_entries, stacks=self.stacks)
        self._open.append(name)

    def stop(self, name: str) -> None:
        """Close region `name` (the innermost open one) and dump its snapshot."""
        if not self.enabled:
            return
        if not self._open:
            raise ValueError(f"stop({name!r}) but no region is open")
        if self._open[-1] != name:
            raise ValueError(f"stop({name!r}) but the innermost open region is {self._open[-1]!r}")
        try:
            self.dump(name)
        finally:
            if self._open:  # else a failed dump has closed the snapshotter
                self._open.pop()
                if not self._open:
                    self._api.record_memory_history(None)

    @contextlib.contextmanager
    def region(self, name: str) -> Iterator[None]:
        """`with snap.region("warmup"):` = `start("warmup")` ... `stop("warmup")`."""
        self.start(name)
        try:
            yield
        finally:
            self.stop(name)

    def dump(self, name: str) -> str | None:
        """Write a snapshot now, under region name `name`; its path, or None if disabled or the
        write failed (the snapshotter then turns itself off)."""
        if not self.enabled:
            return None
        region = sanitize_region(name)
        data_dir = self.writer.data_dir
        while True:
            n = self._counts.get(region, 0)
            self._counts[region] = n + 1
            path = data_dir / f"{self.writer.file_prefix}.snapshot.{region}.{n}.pickle"
            if not path.exists():  # another snapshotter of this writer took the number
                break
        tmp = path.with_name(path.name + ".tmp")
        snapshot = self._api.snapshot()
        import pickle  # here: `import collectors` stays cheap

        try:
            with open(tmp, "wb") as f:
                pickle.dump(snapshot, f, protocol=PICKLE_PROTOCOL)
            os.replace(tmp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(tmp)
            logger.warning("MemorySnapshotter stopped: cannot write %s: %s", path, exc)
            self.close()
            return None
        self.files.append(str(path))
        return str(path)

    def close(self) -> None:
        """Stop recording (regions still open are dropped) and turn off; safe to call twice."""
        if not self.enabled:
            return
        self.enabled = False
        if self._open:
            self._open.clear()
            self._api.record_memory_history(None)


MAX_OOM_DUMPS = 3  # a loop that catches OOMs (a batch-size search) must not fill the disk


def _oom_observer(ref: weakref.ref[MemorySnapshotter]) -> Callable[..., None]:
    """The function torch calls on a CUDA OOM `(device, alloc, device_allocated,
    device_free)`: dumps a snapshot named `oom` while its snapshotter is alive and on, for the
    first MAX_OOM_DUMPS OOMs. Called inside the allocator: it never raises."""
    dumps = 0

    def observer(*_args: Any) -> None:
        nonlocal dumps
        snapshotter = ref()
        if snapshotter is None or not snapshotter.enabled or dumps >= MAX_OOM_DUMPS:
            return
        dumps += 1
        try:
            snapshotter.dump("oom")
        except Exception:  # noqa: BLE001 - the OOM itself is what the job must see
            logger.warning("MemorySnapshotter: the OOM snapshot failed", exc_info=True)

    return observer
