"""TB_PERF_STORE as a URL (s3://, gs://, abfs://…: any fsspec filesystem): the store that Dask
workers on other hosts write and the serving process reads, with no shared file system.

Every process keeps its own local cache directory, memory-mapped as without a store, and the
store holds the same entries: a process that makes an entry (a worker parsing a trace,
building a rank's timeline piece, merging a run's analysis) writes it locally, then puts it in
the store; one that needs an entry it lacks fetches it into its local cache first. So the
serving process copies only what it shows (the merged analysis, the pieces of the ranks in
view, the traces of the ranks it opens), never a whole run.

Object stores cannot rename a folder: an entry's files are put first and its manifest
(`MANIFEST`: each file's size) last. An entry without a manifest does not exist yet; a fetched
file of another size than its manifest says (overwritten meanwhile) is a miss.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import json
import logging
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

MANIFEST = "manifest.json"
# requests a process makes of the store at once where it needs many entries (each waits a
# round trip: a run's 1,024 traces' metadata one after another waited 1,024 of them)
AT_ONCE = 8
# stores whose folders are implicit in object names: nothing to make before a write (s3fs'
# makedirs would create a missing bucket rather than fail); every other filesystem (file,
# sftp, hdfs, smb…) gets its folders made
_OBJECT_STORES = frozenset({"s3", "s3a", "gs", "gcs", "abfs", "abfss", "az", "adl", "oci", "oss"})
_TIME_KEYS = ("mtime", "LastModified", "last_modified", "updated", "modified", "created")


def is_url(location: str) -> bool:
    """Whether `location` is a URL (`scheme://…`) rather than a directory path."""
    head, sep, _ = location.partition("://")
    return bool(sep) and head.replace("+", "").replace("-", "").replace(".", "").isalnum()


class StoreError(OSError):
    """The store could not be read or written (its backend's own exception, as an OSError:
    callers treat it as an unwritable or unreadable cache)."""


class UrlStore:
    """The entries of the store at `url`, by section ("traces", "results", "summaries") and
    name. Every method raises StoreError for the backend's failures."""

    def __init__(self, url: str) -> None:
        import fsspec  # only for a URL store: not a dependency of local use

        self.url = url.rstrip("/")
        # no listings cache: entries are looked up by name as workers add them (a cached
        # listing would answer "absent" for one put since), and 1,024 ranks' entries listed
        # would stay in memory
        self._fs, root = fsspec.core.url_to_fs(self.url, use_listings_cache=False)
        self._root = root.rstrip("/")
        self._failing = False
        protocols = {self._fs.protocol} if isinstance(self._fs.protocol, str) else self._fs.protocol
        self._makes_folders = not _OBJECT_STORES.intersection(protocols)

    @staticmethod
    @functools.lru_cache(maxsize=8)
    def at(url: str) -> UrlStore:
        """The store at `url`, one object per process (fsspec keeps its connections)."""
        return UrlStore(url)

    @contextlib.contextmanager
    def _reached(self, writing: bool = False) -> Iterator[None]:
        """The backend's exceptions (botocore's, aiohttp's…) as StoreError, with one warning
        per outage (a store down fails every trace of a run). A read's FileNotFoundError,
        which callers tell apart, stays itself; a write's (no such bucket) is a failure."""
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            if isinstance(exc, FileNotFoundError) and not writing:
                raise
            if not self._failing:
                logger.warning(
                    "tb_perf: the store %s failed (%s: %s); what it misses is parsed and kept "
                    "in this process", self.url, type(exc).__name__, exc,
                )  # fmt: skip
            self._failing = True
            raise StoreError(f"store {self.url}: {type(exc).__name__}: {exc}") from exc
        if self._failing and writing:  # reads answer where writes fail (no such bucket)
            logger.info("tb_perf: the store %s takes writes again", self.url)
            self._failing = False

    def _path(self, section: str, *names: str) -> str:
        return "/".join((self._root, section, *names))

    def _make_folder(self, *names: str) -> None:
        if self._makes_folders:
            self._fs.makedirs("/".join((self._root, *names)), exist_ok=True)

    def writable(self) -> bool:
        """Whether the store takes a write now (a probe file, put and removed); if not, the
        outage's one warning."""
        probe = f"probe-{uuid.uuid4().hex}"
        try:
            with self._reached(writing=True):
                self._make_folder("probes")
                self._fs.pipe_file(self._path("probes", probe), b"")
                self._fs.rm_file(self._path("probes", probe))
        except StoreError:
            return False
        return True

    def has_entry(self, section: str, name: str) -> bool:
        with self._reached():
            return bool(self._fs.exists(self._path(section, name, MANIFEST)))

    def put_entry(self, section: str, name: str, folder: Path) -> None:
        """The files of the local entry `folder` as the entry `name`, its manifest last."""
        files = sorted(f for f in folder.iterdir() if f.is_file())
        with self._reached(writing=True):
            self._make_folder(section, name)
            for file in files:
                self._fs.put_file(str(file), self._path(section, name, file.name))
            manifest = {file.name: file.stat().st_size for file in files}
            self._fs.pipe_file(self._path(section, name, MANIFEST), json.dumps(manifest).encode())

    def read_entry_file(self, section: str, name: str, file: str) -> bytes | None:
        """One file of the entry `name` (its metadata, say); None if the entry is not whole."""
        with self._reached():
            if not self._fs.exists(self._path(section, name, MANIFEST)):
                return None
            return bytes(self._fs.cat_file(self._path(section, name, file)))

    def fetch_entry(self, section: str, name: str, into: Path) -> bool:
        """The entry `name` copied to the local folder `into / name` (staged, then renamed:
        local readers never see half of it); False if the store has no whole entry `name`."""
        source = self._path(section, name)
        with self._reached():
            try:
                manifest = json.loads(self._fs.cat_file(f"{source}/{MANIFEST}"))
            except FileNotFoundError:
                return False
            if not _valid_manifest(manifest):
                raise StoreError(f"{self.url}: entry {section}/{name} has a damaged manifest")
            into.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=into))
            try:
                files = list(manifest)  # in one call: a backend like s3fs gets them at once
                self._fs.get([f"{source}/{f}" for f in files], [str(staging / f) for f in files])
                if any((staging / f).stat().st_size != manifest[f] for f in files):
                    return False  # rewritten under us: the next fetch finds it whole
                try:
                    os.replace(staging, into / name)
                except OSError:
                    if not (into / name).is_dir():
                        raise  # else another thread fetched it first
            except FileNotFoundError:
                return False
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        return True

    def fetched(self, section: str, name: str, into: Path) -> bool:
        """`fetch_entry`, never raising: a store that fails has warned; a local folder that
        cannot take the entry warns here."""
        try:
            return self.fetch_entry(section, name, into)
        except StoreError:
            return False
        except OSError as exc:
            logger.warning("tb_perf: %s/%s not fetched from the store (%s)", section, name, exc)
            return False

    def put_file(self, section: str, name: str, data: bytes) -> str:
        """`data` as the file `name` of `section`; its URL."""
        with self._reached(writing=True):
            self._make_folder(section)
            self._fs.pipe_file(self._path(section, name), data)
        return f"{self.url}/{section}/{name}"

    def take_file(self, url: str) -> bytes:
        """The file `put_file` returned the URL of, removed from the store."""
        if not url.startswith(self.url + "/"):
            raise StoreError(f"{url} is not in the store {self.url}")
        path = self._root + url[len(self.url) :]
        with self._reached():
            data = bytes(self._fs.cat_file(path))
            self._fs.rm_file(path)
        return data

    def remove_older(self, section: str, seconds: float) -> None:
        """Remove the files of `section` last modified more than `seconds` ago (those a dead
        process left); never raises."""
        old_ns = time.time_ns() - int(seconds * 1e9)
        with contextlib.suppress(Exception):  # housekeeping: the backend's own exceptions
            for info in self._fs.ls(self._path(section), detail=True):
                modified = modified_ns(info)
                if info.get("type") == "file" and modified is not None and modified < old_ns:
                    self._fs.rm_file(info["name"])


def _valid_manifest(manifest: Any) -> bool:
    """A manifest names plain files (no folders: nothing is written outside the entry) with
    their sizes."""
    return isinstance(manifest, dict) and all(
        isinstance(name, str) and name and "/" not in name and "\\" not in name
        and name not in (".", "..") and isinstance(size, int) and size >= 0
        for name, size in manifest.items()
    )  # fmt: skip


def modified_ns(info: dict[str, Any]) -> int | None:
    """A file's modification time from an fsspec listing entry, in ns since the epoch (each
    filesystem names it differently), or None if it gives none."""
    for key in _TIME_KEYS:
        value = info.get(key)
        if isinstance(value, datetime.datetime):
            if value.tzinfo is None:
                value = value.replace(tzinfo=datetime.timezone.utc)
            return int(value.timestamp() * 1e9)
        if isinstance(value, (int, float)) and value > 0:  # s, ms or ns since the epoch
            return int(value * (1e9 if value < 1e11 else 1e6 if value < 1e14 else 1))
        if isinstance(value, str):
            try:
                return int(datetime.datetime.fromisoformat(value).timestamp() * 1e9)
            except ValueError:
                continue
    return None
