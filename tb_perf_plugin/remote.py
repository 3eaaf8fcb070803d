"""A logdir on another filesystem (an fsspec URL such as s3://, gs://, hdfs://, memory://),
analysed through a local mirror of its run files.

Every reader works on local files: trace tables are memory-mapped from the cache, SQLite
exports open read-only and immutable, cProfile files are parsed in a subprocess. So rather
than teaching each reader fsspec, the files discovery and ingest use (everything under
`plugins/tb_perf/`, torch.profiler traces, snapshots, dropped profiles) are copied into a
staging folder under the cache directory, and the mirror is analysed like any logdir.
tfevents files are mirrored empty: only their presence and time are used. Other files
(checkpoints, images) are never copied.

A sync copies only files whose size or modification time changed (to a temporary name, then
renamed), removes files that disappeared, and stops at a byte budget. It runs on its own
thread, one at a time; an unreachable remote keeps the last mirror and logs one warning until
it answers again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from .discovery import is_tfevents_name, is_trace_candidate
from .ingest.cache_dir import default_cache_dir
from .ingest.readers import DROPPED_SUFFIXES, is_snapshot_name
from .ingest.url_store import modified_ns

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = int(float(os.environ.get("TB_PERF_REMOTE_MAX_MB", "16384")) * 1e6)
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+)://")
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+://)[^/@]*@")
_MANIFEST = ".tb_perf_mirror.json"
_CHUNK = 1 << 20


def is_remote(logdir: str) -> bool:
    """A URL with a scheme other than file:// (TensorBoard hands such logdirs to gfile)."""
    match = _URL.match(logdir)
    return match is not None and match.group(1).lower() != "file"


def local_path(logdir: str) -> str:
    """A local logdir as a path: `file:///runs` is `/runs`; anything else as given."""
    if logdir.lower().startswith("file://"):
        return urllib.parse.unquote(urllib.parse.urlsplit(logdir).path)
    return logdir


def _mirrored(relative: str) -> bool:
    """Whether discovery or ingest reads this file (as a relative, '/'-separated path)."""
    name = relative.rsplit("/", 1)[-1]
    return (
        "/plugins/tb_perf/" in f"/{relative}"
        or is_trace_candidate(name)  # JSON traces are told by content, after the copy
        or is_snapshot_name(name)
        or name.lower().endswith(DROPPED_SUFFIXES)
        or is_tfevents_name(name)
    )


def _safe_relative(root: str, path: str) -> str | None:
    """`path` relative to `root`, or None if it is not a plain path below it."""
    root = root.rstrip("/")
    if not path.startswith(root + "/"):
        return None
    relative = path[len(root) + 1 :]
    parts = relative.split("/")
    if any(part in ("", ".", "..") or "\\" in part or "\0" in part for part in parts):
        return None
    return relative


class RemoteMirror:
    """The run files of the logdir at `url`, kept copied below `local_root`."""

    def __init__(
        self,
        url: str,
        staging_dir: str | os.PathLike | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        min_interval_s: float = 5.0,
    ) -> None:
        self.url = url
        self.shown_url = _USERINFO.sub(r"\1***@", url)  # in messages: no password
        key = hashlib.sha256(url.encode()).hexdigest()[:16]
        root = Path(staging_dir) if staging_dir is not None else default_cache_dir() / "remote"
        self.local_root = str(root / key)
        self.max_bytes = max_bytes
        self.min_interval_s = min_interval_s
        self.problems: list[str] = []  # of the last sync: files left out, why
        self.generation = 0  # counts syncs that changed the mirror
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._synced_at = float("-inf")
        self._failing = False
        self._versions: dict[str, list[int | None]] | None = None  # relative -> [size, mtime]

    def refresh(self, wait_s: float | None) -> None:
        """Start a sync unless one ran in the last `min_interval_s` or is running, and wait
        for it up to `wait_s` seconds (None: until done)."""
        with self._lock:
            due = time.monotonic() - self._synced_at > self.min_interval_s
            if (self._thread is None or not self._thread.is_alive()) and due:
                self._thread = threading.Thread(
                    target=self.sync, name="tb_perf_remote_sync", daemon=True
                )
                self._thread.start()
            thread = self._thread
        if thread is not None:
            thread.join(wait_s)

    def sync(self) -> bool:
        """Bring the mirror up to date; False (and one warning per outage) if the remote
        could not be listed or read. Never raises."""
        try:
            self._sync()
        except Exception as exc:  # fsspec backends raise their own types (botocore, aiohttp)
            if not self._failing:
                logger.warning(
                    "tb_perf: remote logdir %s unreachable (%s: %s); showing the last copy in "
                    "%s, retrying every %.0f s",
                    self.shown_url, type(exc).__name__, exc, self.local_root, self.min_interval_s,
                )  # fmt: skip
            self._failing = True
            return False
        finally:
            self._synced_at = time.monotonic()
        if self._failing:
            logger.info("tb_perf: remote logdir %s reachable again", self.shown_url)
        self._failing = False
        return True

    def _sync(self) -> None:
        import fsspec  # only for remote logdirs: not a dependency of local use

        fs, root = fsspec.core.url_to_fs(self.url)
        listing = fs.find(root, detail=True, withdirs=False)
        remote: dict[str, tuple[str, int, int | None]] = {}
        for path, info in sorted(listing.items()):
            relative = _safe_relative(root, path)
            if relative is not None and _mirrored(relative) and info.get("type") != "directory":
                remote[relative] = (path, int(info.get("size") or 0), modified_ns(info))
        self._make_root()
        versions = self._load_versions()
        budget, left_out, failed = self.max_bytes, [], []
        try:
            before = dict(versions)
            for relative in [r for r in versions if r not in remote]:
                self._remove(relative)
                del versions[relative]
            for relative, (path, size, modified) in remote.items():
                copied = not is_tfevents_name(relative.rsplit("/", 1)[-1])
                if copied and size > budget:
                    left_out.append(relative)
                    continue
                budget -= size if copied else 0
                target = os.path.join(self.local_root, *relative.split("/"))
                if versions.get(relative) == [size, modified] and os.path.exists(target):
                    continue
                try:
                    _copy(fs, path, target, size if copied else 0, modified)
                except OSError as exc:  # gone since the listing (renamed into place), unwritable
                    failed.append(f"{relative} ({type(exc).__name__}: {exc})")
                    continue
                versions[relative] = [size, modified]
        finally:  # what was copied stays known if the remote fails half-way
            self._save_versions(versions)
            if versions != before:
                self.generation += 1
        problems = []
        if left_out:
            problems.append(
                f"{len(left_out)} remote files over the {self.max_bytes / 1e6:.0f} MB mirror "
                f"budget (TB_PERF_REMOTE_MAX_MB) not copied, e.g. {left_out[0]}"
            )
        if failed:
            problems.append(
                f"{len(failed)} files not copied (tried again next time), e.g. {failed[0]}"
            )
        for problem in problems:
            if problem not in self.problems:
                logger.warning("tb_perf: remote logdir %s: %s", self.shown_url, problem)
        self.problems = problems

    def _make_root(self) -> None:
        """The staging folder; a temporary one (with one warning) if the cache directory
        cannot be written."""
        try:
            os.makedirs(self.local_root, exist_ok=True)
        except OSError as exc:
            fallback = tempfile.mkdtemp(prefix="tb-perf-remote-")
            logger.warning(
                "tb_perf: cannot create the remote logdir's mirror in %s (%s); using %s (set "
                "TB_PERF_CACHE_DIR)", self.local_root, exc.strerror or exc, fallback,
            )  # fmt: skip
            self.local_root = fallback

    def _remove(self, relative: str) -> None:
        """Remove a mirrored file and the folders it leaves empty (an empty `plugins/tb_perf`
        would still make a run)."""
        parts = relative.split("/")
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(self.local_root, *parts))
        for depth in range(len(parts) - 1, 0, -1):
            try:
                os.rmdir(os.path.join(self.local_root, *parts[:depth]))
            except OSError:  # not empty (or gone)
                break

    def _load_versions(self) -> dict[str, list[int | None]]:
        if self._versions is None:
            try:
                with open(os.path.join(self.local_root, _MANIFEST)) as handle:
                    self._versions = dict(json.load(handle))
            except (OSError, ValueError, TypeError):
                self._versions = {}
        return self._versions

    def _save_versions(self, versions: dict[str, list[int | None]]) -> None:
        handle, partial = tempfile.mkstemp(prefix=_MANIFEST, dir=self.local_root)
        with os.fdopen(handle, "w") as out:
            json.dump(versions, out)
        os.replace(partial, os.path.join(self.local_root, _MANIFEST))


def _copy(fs: Any, path: str, target: str, size: int, modified: int | None) -> None:
    """`size` bytes of the remote file into `target` (written aside, then renamed), with the
    remote's modification time, so a file still being written looks live here too."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    handle, partial = tempfile.mkstemp(prefix=".", suffix=".part", dir=os.path.dirname(target))
    try:
        with os.fdopen(handle, "wb") as out:
            if size:
                with fs.open(path, "rb") as source:
                    left = size
                    while left > 0:
                        chunk = source.read(min(_CHUNK, left))
                        if not chunk:
                            break
                        out.write(chunk)
                        left -= len(chunk)
        if modified is not None:
            os.utime(partial, ns=(modified, modified))
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise
