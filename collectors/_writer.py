"""RunWriter: one rank's files in a run directory (run format v1, see docs/FORMAT.md)."""

from __future__ import annotations

import atexit
import contextlib
import errno
import json
import os
import platform
import re
import secrets
import socket
import sys
import threading
import time
import warnings
from datetime import datetime
from pathlib import Path
from typing import Any

from ._clock import Clock
from ._rank import RankInfo, detect_rank
from ._tfevents import TfEventsWriter

FORMAT_VERSION = 1
PLUGIN_SUBDIR = os.path.join("plugins", "tb_perf")
SCALAR_TAG_PREFIX = "tb_perf/"
UNLINK_CHECK_NS = 1_000_000_000  # how often a record file checks that its run still exists
# The metadata file is padded with spaces to a multiple of this: when the disk is full, a
# rewrite in place (the blocks are already allocated) can still say which collector stopped.
METADATA_BLOCK = 4096
_FAILURE_WORDS = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EFBIG: "file size limit reached",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "read-only file system",
    errno.ENOENT: "run directory deleted",
}


def _safe_host(host: str) -> str:
    return re.sub(r"[^A-Za-z0-9-]+", "-", host).strip("-") or "host"


class RecordFile:
    """An append-only JSON-lines file; lines reach the OS only at `flush()` (a step boundary).

    A write that fails (full disk, file size limit) is cut back to the last whole line and
    raised once; the file then drops what it is given, so it never holds a torn or spliced
    line. A file whose run directory was deleted raises FileNotFoundError rather than fill a
    file no one can see (checked at most once a second: `fstat` costs up to ~10 µs here).
    """

    def __init__(self, path: Path, schema: str) -> None:
        self.path = path
        self._pending: list[str] = []
        self._error: OSError | None = None  # the write that failed; nothing written after it
        self._open_error: OSError | None = None  # raised by the first flush, like a write's
        self._next_unlink_check_ns = 0
        try:
            self._file: Any = open(path, "ab", buffering=0)
        except OSError as exc:  # permissions, a deleted run: its owner turns off at its flush
            self._file, self._open_error = None, exc
        self._size = self._file.tell() if self._file is not None else 0  # of whole lines written
        if self._size == 0:
            self._pending.append(json.dumps({"schema": schema, "version": FORMAT_VERSION}) + "\n")

    def append(self, line: str) -> None:
        """Queue one complete JSON document followed by a newline."""
        self._pending.append(line)

    def flush(self) -> None:
        if not self._pending:
            return
        data = "".join(self._pending).encode()
        self._pending.clear()
        if self._error is not None:
            return  # raised once already: its owner has turned itself off
        if self._open_error is not None:
            self._error = self._open_error
            raise self._error
        written = 0
        try:
            now = time.monotonic_ns()
            if now >= self._next_unlink_check_ns:
                self._next_unlink_check_ns = now + UNLINK_CHECK_NS
                if os.fstat(self._file.fileno()).st_nlink == 0:  # the run was deleted
                    raise FileNotFoundError(errno.ENOENT, "run directory deleted", str(self.path))
            while written < len(data):  # one write() system call, unless the disk fills up
                written += self._file.write(data[written:])
        except OSError as exc:
            self._error = exc
            if written:
                with contextlib.suppress(OSError):  # /dev/full and pipes cannot be truncated
                    os.ftruncate(self._file.fileno(), self._size)
            raise
        self._size += written

    def close(self) -> None:
        self._next_unlink_check_ns = 0
        try:
            self.flush()
        finally:
            if self._file is not None:
                self._file.close()


class _NullRecordFile(RecordFile):
    """The record file of a disabled writer: takes lines and drops them."""

    def __init__(self, path: Path) -> None:  # opens nothing
        self.path = path

    def append(self, line: str) -> None:
        pass

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def failure_reason(exc: BaseException) -> str:
    """A few words on why a write failed, as the plugin shows them ("disk full")."""
    if isinstance(exc, OSError) and exc.errno in _FAILURE_WORDS:
        return _FAILURE_WORDS[exc.errno]
    if isinstance(exc, ValueError):
        return "the run writer was closed"
    return str(exc) or type(exc).__name__


class RunWriter:
    """Creates the run directory and owns this rank's files in it.

    Every rank of a job points its RunWriter at the same `run_dir`; each writes its own files under
    `plugins/tb_perf/`, named with rank, host, pid and a writer id (start time and a random part:
    two writers never share files, and the plugin tells jobs run into one directory apart). The
    scalars rank (rank 0 unless told otherwise) also writes the run's tfevents file so
    TensorBoard lists the run and plots `tb_perf/` scalars. Closed by `close()`, by leaving a
    `with` block, or at interpreter exit.

    A writer made with `enabled=False` (what a disabled MyTimer holds) creates nothing and drops
    what it is given; one whose run directory cannot be created warns and becomes such a writer.
    Collectors given a disabled writer do nothing.
    """

    def __init__(
        self,
        run_dir: str | os.PathLike | None = None,
        *,
        rank: int | None = None,
        world_size: int | None = None,
        scalars_rank: int = 0,
        enabled: bool = True,
    ) -> None:
        info = detect_rank()
        if rank is not None or world_size is not None:
            info = RankInfo(
                info.rank if rank is None else rank,
                info.world_size if world_size is None else world_size,
                info.local_rank,
                "explicit",
            )
        if not 0 <= info.rank < info.world_size:
            raise ValueError(f"rank {info.rank} is outside world size {info.world_size}")
        self.rank_info = info
        self.enabled = enabled
        if run_dir is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            run_dir = Path("runs") / f"{stamp}_{_safe_host(socket.gethostname())}"
        self.run_dir = Path(run_dir)
        self.data_dir = self.run_dir / PLUGIN_SUBDIR
        # The clock every timestamp of this rank goes through (skewed by TB_PERF_CLOCK_SKEW).
        self.clock = Clock.from_env()
        self.anchor = self.clock.anchor()
        started_s = self.anchor["unix_ns"] // 10**9
        self.writer_id = (
            time.strftime("%Y%m%dT%H%M%S", time.gmtime(started_s)) + "-" + secrets.token_hex(3)
        )
        host = socket.gethostname()
        self.file_prefix = f"rank{info.rank}.{_safe_host(host)}.{os.getpid()}.{self.writer_id}"
        self._metadata: dict[str, Any] = {
            "schema": "tb_perf.meta",
            "version": FORMAT_VERSION,
            "writer_id": self.writer_id,
            "rank": info.rank,
            "world_size": info.world_size,
            "local_rank": info.local_rank,
            "rank_source": info.source,
            "host": host,
            "pid": os.getpid(),
            "argv": sys.argv,
            "python": platform.python_version(),
            "torch": _torch_versions(),
            "clock": self.anchor,
            "clock_sync": None,
            "started_unix_ns": self.anchor["unix_ns"],
            "closed_unix_ns": None,
            "stopped": {},
        }
        self._lock = threading.Lock()
        self._files: dict[str, RecordFile] = {}
        self._scalars: TfEventsWriter | None = None
        self._closed = not enabled
        self._write_failed = False  # this writer's own writes failed once: warned
        if not enabled:
            return
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            if info.rank == scalars_rank:
                self._scalars = TfEventsWriter(self.run_dir)
        except OSError as exc:
            self.enabled, self._closed = False, True
            warnings.warn(
                f"RunWriter: cannot create run {self.run_dir}: {exc}; nothing is recorded, "
                "training goes on",
                RuntimeWarning,
                stacklevel=2,
            )
            return
        self._write_metadata()
        atexit.register(self.close)

    @property
    def rank(self) -> int:
        return self.rank_info.rank

    @property
    def world_size(self) -> int:
        return self.rank_info.world_size

    def to_unix_ns(self, monotonic_ns: int) -> int:
        """Convert a perf_counter_ns reading of this process to Unix-epoch ns."""
        return self.clock.to_unix_ns(monotonic_ns)

    @property
    def metadata(self) -> dict[str, Any]:
        """A copy of this rank's metadata; change it with `update_metadata`."""
        with self._lock:
            return dict(self._metadata)

    def record_file(self, kind: str) -> RecordFile:
        """The append-only file of one record kind (`timer`, ...) for this rank, opened once."""
        path = self.data_dir / f"{self.file_prefix}.{kind}.jsonl"
        if not self.enabled:
            return _NullRecordFile(path)
        with self._lock:
            if self._closed:
                raise RuntimeError(f"RunWriter for {self.run_dir} is closed")
            if kind not in self._files:
                self._files[kind] = RecordFile(path, f"tb_perf.{kind}")
            return self._files[kind]

    def write_now(self, record_file: RecordFile, lines: str) -> None:
        """Append complete lines to one of this writer's record files and write them at once,
        from any thread (a background sampler): `flush()` and `close()` may run meanwhile."""
        if not self.enabled:
            return
        with self._lock:
            if self._closed:
                raise ValueError(f"RunWriter for {self.run_dir} is closed")
            record_file.append(lines)
            record_file.flush()

    def add_scalar(self, tag: str, value: float, step: int) -> None:
        """Write a scalar under `tb_perf/<tag>` (on the scalars rank only; a no-op elsewhere)."""
        if self._scalars is not None and not self._closed:
            try:
                self._scalars.add_scalar(SCALAR_TAG_PREFIX + tag, value, step)
            except OSError as exc:  # no more scalars; the timer files still hold every step
                scalars, self._scalars = self._scalars, None
                with contextlib.suppress(OSError):
                    scalars.close()
                with self._lock:
                    self._record_stop("scalars", step, failure_reason(exc))
                self._warn_once(os.path.basename(scalars.path), exc)

    def update_metadata(self, **fields: Any) -> None:
        """Merge fields into this rank's metadata file (rewritten atomically)."""
        if not self.enabled:
            return
        with self._lock:
            self._metadata.update(fields)
            self._write_metadata()

    def collector_stopped(
        self, collector: str, step: int | None, why: str, exc: BaseException | None = None
    ) -> None:
        """A collector turned itself off (its file cannot be written, an API it needs is
        missing): warn once, and record why (`exc` in a few words, else `why`) and at which
        step in the metadata, so the plugin says where the data ends. Written now if the
        metadata file can be, else with the next metadata write that succeeds."""
        if not self.enabled:
            return
        reason = failure_reason(exc) if exc is not None else why
        with self._lock:
            if not self._record_stop(collector, step, reason):
                return
            warnings.warn(
                f"{collector} stopped at step {step}: {why}; training goes on",
                RuntimeWarning,
                stacklevel=3,
            )
            if not self._closed:
                self._write_metadata()

    def _record_stop(self, collector: str, step: int | None, reason: str) -> bool:
        """Note in the metadata (not written here) that `collector` stopped; False if it had."""
        stopped = self._metadata["stopped"]
        if collector in stopped:
            return False
        stopped[collector] = {"reason": reason, "step": step, "at_unix_ns": time.time_ns()}
        return True

    def _write_metadata(self) -> None:
        path = self.data_dir / f"{self.file_prefix}.meta.json"
        data = json.dumps(self._metadata, default=str).encode()
        data += b" " * (-len(data) % METADATA_BLOCK)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError as exc:  # the previous metadata file stays whole; tried again next time
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            if not self._rewrite_in_place(path, data):
                self._warn_once(path.name, exc)

    def _rewrite_in_place(self, path: Path, data: bytes) -> bool:
        """On a full disk, overwrite the metadata file's own blocks (not atomic: a reader may
        see it half-written once, and reads it again)."""
        try:
            with open(path, "r+b") as file:
                room = os.fstat(file.fileno()).st_size
                if len(data) > room:
                    return False
                file.write(data + b" " * (room - len(data)))
            return True
        except OSError:
            return False

    def _warn_once(self, name: str, exc: OSError) -> None:
        """The first failure of the writer's own writes (metadata, scalars, a record file's
        last lines at close) is a warning, never an error: training goes on."""
        if not self._write_failed:
            self._write_failed = True
            warnings.warn(
                f"RunWriter: cannot write {name} of run {self.run_dir}: {exc}; training goes on",
                RuntimeWarning,
                stacklevel=4,
            )

    def flush(self) -> None:
        with self._lock:
            for record_file in self._files.values():
                record_file.flush()

    def close(self) -> None:
        """Flush and close every file and mark this rank finished; safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for record_file in self._files.values():
                try:
                    record_file.close()
                except OSError as exc:  # lines of a collector that was never closed
                    self._warn_once(record_file.path.name, exc)
            if self._scalars is not None:
                with contextlib.suppress(OSError):
                    self._scalars.close()
            self._metadata["closed_unix_ns"] = self.clock.now_unix_ns()
            self._write_metadata()
        atexit.unregister(self.close)

    def __enter__(self) -> RunWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _torch_versions() -> dict[str, Any] | None:
    """torch, CUDA and device facts, if the program imported torch (never imported from here)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    facts: dict[str, Any] = {"version": torch.__version__, "cuda": torch.version.cuda}
    try:
        if torch.cuda.is_available():
            facts["devices"] = [
                torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())
            ]
    except RuntimeError as exc:  # a broken driver must not stop training
        facts["cuda_error"] = str(exc)
    return facts
