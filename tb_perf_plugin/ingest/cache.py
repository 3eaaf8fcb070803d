"""On-disk cache of parsed trace tables, outside the logdir.

An entry is a folder of one file of every column, back to back (memory-mapped on load, once,
so a warm open costs almost nothing, shares pages between processes and holds one file
descriptor per trace, not one per column) plus a JSON file with the trace's metadata, string
table and where each column lies. Every timeline file goes through it: Kineto traces and
imported Nsight Systems exports and event CSVs (`readers.TIMELINE_KINDS`). Its key is the
file's path, size, mtime, kind, the version of that kind's reader (`readers.READERS`) and the
entry format: a changed file, a new reader or a new format misses. Entries are written to a
temporary folder and renamed, so readers never see half an entry. Least-recently-used entries
are evicted past a size cap.

A process holds a run's traces as `CachedTrace` handles and opens their tables on use; the last
OPEN_TRACES opened stay mapped (`_OpenTraces`), so what it maps, and the file descriptors that
takes, follow the traces in use, not the run's ranks.

Callers make one call, read-through: `TraceCache.read` for one file (read here on a miss) and
`TraceCache.read_all` for a run's files (each miss one task on an executor: a local one stores
the tables itself, a remote one sends them back packed and they are stored here).

A cache at a store URL (TB_PERF_STORE=s3://…, `url_store`) keeps its entries in this process'
local cache directory and in the store: an entry made here is put there too, one missing here
is fetched from there on open. Dask workers store into it, and `read_all` reads only the
entries' metadata: the serving process copies the traces it opens, not the run.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import json
import logging
import mmap
import os
import shutil
import sys
import tempfile
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import Unreadable
from ..executor import completed_ahead, shares_store
from .cache_dir import evict_lru, located
from .readers import FileKind, read_timeline_file, reader_version
from .tables import TraceMeta, TraceTables
from .transfer import DEFAULT_MAX_RESULT_BYTES, parse_packed, unpack
from .url_store import AT_ONCE, StoreError

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = int(float(os.environ.get("TB_PERF_CACHE_MAX_MB", "4096")) * 1e6)
DEFAULT_MAX_FILE_BYTES = 4 << 30
IN_USE_NS = 600 * 10**9  # an entry used this recently is not evicted (its run is in use)
_TABLES = ("slices", "memory")
_SECTION = "traces"  # the cache's folder, locally and in a store
_META_FILE = "meta.json"


ENTRY_FORMAT = 2  # 2: the columns in one file (1: a .npy file per column)
_COLUMNS_FILE = "columns.bin"
_ALIGN = 64  # each column starts at a multiple of this in the columns file
_COLUMN_KINDS = "biuf"  # bool, signed, unsigned, float: nothing else is stored or read back
# traces kept mapped after their last use (a rank's few traces, asked for again and again in a
# pass): each holds a file descriptor, about 35 kB (its names, meta and column views) and the
# pages read of it. Every trace of a run held open was 36 MB and 1,024 descriptors (many
# systems' default limit) at 1,024 ranks.
OPEN_TRACES = 8


def cache_key(path: str, kind: FileKind = FileKind.KINETO) -> str:
    st = os.stat(path)
    identity = (
        os.path.abspath(path), st.st_size, st.st_mtime_ns, kind.value, reader_version(kind),
        ENTRY_FORMAT,
    )  # fmt: skip
    return hashlib.sha256("\0".join(map(str, identity)).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class TraceFacts:
    """What a stored trace is known by without opening its tables: its metadata and rows."""

    meta: TraceMeta
    slices: int
    memory_events: int

    @staticmethod
    def of(tables: TraceTables) -> TraceFacts:
        return TraceFacts(tables.meta, len(tables.slices["start"]), len(tables.memory["ts"]))


@dataclass(frozen=True)
class CachedTrace:
    """Where the trace cache keeps a trace's tables, opened on use (`open`): how a run holds
    its traces, so that only the traces in use are mapped."""

    location: str  # the cache's (`TraceCache.location`)
    key: str
    path: str
    kind: FileKind
    max_file_bytes: int
    # what views ask of every trace of a run, known without opening it
    slices: int  # rows of its slice table
    memory_events: int  # rows of its memory table
    world_size: int | None  # as its distributedInfo says

    def open(self) -> TraceTables:
        """The tables, mapped (shared with whoever has them open). An entry gone since (evicted,
        deleted under a running server) is parsed again here and stored; `Unreadable` if the
        trace file is gone too."""
        cache = TraceCache(self.location)
        tables = cache._cached(self.key, self.path)
        if tables is not None:
            return tables
        try:
            return cache.read(self.path, self.kind, self.max_file_bytes)
        except OSError as exc:
            name = os.path.basename(self.path)
            raise Unreadable(
                f"{name}: its parsed tables left the trace cache and the file cannot be read "
                f"again ({exc.strerror or exc})"
            ) from None

    def release_pages(self) -> None:
        """`TraceTables.release_pages` of the tables if they are open (never opens them)."""
        tables = _OPEN.peek(str(TraceCache(self.location).traces_dir / self.key))
        if tables is not None:
            tables.release_pages()


@dataclass(frozen=True)
class TraceRead:
    """One file's outcome in `TraceCache.read_all`: its metadata and what to hold it by (where
    the cache keeps it; its tables where the cache could not store them), or why there are
    none."""

    path: str
    kind: FileKind
    meta: TraceMeta | None
    held: CachedTrace | TraceTables | None
    error: Unreadable | OSError | None = None


class TraceCache:
    """Parsed traces by file identity. Falls back to parsing every time (with one warning) when
    the cache directory cannot be written."""

    _warned_unwritable = False
    _warned_too_small = False
    _warn_lock = threading.Lock()

    def __init__(
        self, location: str | os.PathLike | None = None, max_bytes: int = DEFAULT_MAX_BYTES
    ) -> None:
        """`location`: a cache directory or a store URL (default: `default_location`); what
        tasks on other processes are handed to open the same cache."""
        self.location, self.root, self.url_store = located(location)
        self.traces_dir = self.root / _SECTION
        self.max_bytes = max_bytes

    def read(
        self,
        path: str,
        kind: FileKind = FileKind.KINETO,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    ) -> TraceTables:
        """The tables of `path`, a timeline file of `kind`: from the cache when present, else
        read in this thread and stored. Raises what the reader raises (`Unreadable`, OSError)."""
        return self._read(cache_key(path, kind), path, kind, max_file_bytes)

    def _read(self, key: str, path: str, kind: FileKind, max_file_bytes: int) -> TraceTables:
        """`read` under `key`, taken before reading: a file that changes meanwhile misses."""
        return self._cached(key, path) or self._keep(
            key, path, read_timeline_file(path, max_file_bytes, kind)
        )

    def read_all(
        self,
        files: Iterable[tuple[str, FileKind]],
        max_file_bytes: int,
        executor: concurrent.futures.Executor,
    ) -> Iterator[TraceRead]:
        """Each (path, kind) of `files` as each is ready: those in the cache first (their
        metadata read, the tables left unopened), then one executor task per other file (a few
        submitted at a time: `completed_ahead`), in the order they finish. A task on an
        executor that shares the cache (a local one; Dask on the store) stores the tables and
        tells their `TraceFacts`; one on another Dask cluster sends them back packed, stored
        here. A file's own failure (`Unreadable`,
        OSError) is its TraceRead's `error`; the executor's (`ExecutorUnavailable`) is
        raised."""
        shared = shares_store(executor, self.location)
        keyed = []
        for path, kind in files:
            try:
                keyed.append((path, kind, cache_key(path, kind)))
            except OSError:
                yield TraceRead(path, kind, None, None, Unreadable("disappeared while reading"))
        misses = []
        for (path, kind, key), facts in zip(keyed, self._facts_of(keyed), strict=True):
            if facts is not None:
                yield self._held(path, kind, key, facts, max_file_bytes)
            else:
                misses.append((path, kind, key))
        del keyed
        calls = (
            ((ingest_to_cache, path, self.location, max_file_bytes, kind) if shared
             else (parse_packed, path, max_file_bytes, kind, DEFAULT_MAX_RESULT_BYTES),
             (path, kind, key))
            for path, kind, key in misses
        )  # fmt: skip
        for future, (path, kind, key) in completed_ahead(executor, calls):
            try:
                result = future.result()
                if isinstance(result, bytes):
                    result = _unpacked(result, path)
                if isinstance(result, TraceTables):  # not stored by the task: stored here
                    tables = self._keep(key, path, result)
                    stored = self._stored(path, kind, key, tables, max_file_bytes)
                    yield TraceRead(path, kind, tables.meta, stored or tables)
                else:
                    yield self._held(path, kind, key, result, max_file_bytes)
            except (Unreadable, OSError) as exc:
                yield TraceRead(path, kind, None, None, exc)

    def held(self, path: str, kind: FileKind, max_file_bytes: int) -> TraceTables | CachedTrace:
        """What a process holds of the trace at `path`: where the cache keeps it (read through
        the cache, `read`), else its tables (an unwritable cache)."""
        key = cache_key(path, kind)
        tables = self._read(key, path, kind, max_file_bytes)
        return self._stored(path, kind, key, tables, max_file_bytes) or tables

    def _held(
        self, path: str, kind: FileKind, key: str, facts: TraceFacts, max_file_bytes: int
    ) -> TraceRead:
        trace = self._trace(path, kind, key, facts, max_file_bytes)
        return TraceRead(path, kind, facts.meta, trace)

    def _trace(
        self, path: str, kind: FileKind, key: str, facts: TraceFacts, max_file_bytes: int
    ) -> CachedTrace:
        return CachedTrace(
            self.location, key, path, kind, max_file_bytes, facts.slices, facts.memory_events,
            facts.meta.world_size,
        )  # fmt: skip

    def _stored(
        self, path: str, kind: FileKind, key: str, tables: TraceTables, max_file_bytes: int
    ) -> CachedTrace | None:
        """Where the cache keeps `tables` (read from `path`, under `key`); None if it does not
        (they could not be stored)."""
        if tables.mapping is None and not (self.traces_dir / key).is_dir():
            return None
        return self._trace(path, kind, key, TraceFacts.of(tables), max_file_bytes)

    def _facts_of(self, keyed: list[tuple[str, FileKind, str]]) -> Iterator[TraceFacts | None]:
        """`facts` of each (path, kind, key), in order; from a store at a URL, AT_ONCE at a
        time."""
        if self.url_store is None:
            return (self.facts(key, path) for path, _, key in keyed)
        with concurrent.futures.ThreadPoolExecutor(AT_ONCE) as pool:
            return iter(list(pool.map(lambda k: self.facts(k[2], k[0]), keyed)))

    def facts(self, key: str, path: str) -> TraceFacts | None:
        """The `TraceFacts` of the entry `key` (of the trace at `path`) from its metadata file,
        here or in the store; None if neither has it (or it is unreadable: parsed again)."""
        try:
            # a str, not a Path: pathlib interns every part, a key a trace, and the interpreter's
            # table of interned strings never shrinks
            local = os.path.join(self.traces_dir, key, _META_FILE)
            saved: bytes | str | None
            if os.path.isfile(local):
                with open(local) as file:
                    saved = file.read()
            elif self.url_store is not None:
                saved = self.url_store.read_entry_file(_SECTION, key, _META_FILE)
            else:
                return None
        except StoreError:  # it warned
            return None
        except OSError as exc:
            logger.warning("tb_perf: cache entry for %s unreadable (%s); re-parsing", path, exc)
            return None
        try:
            return None if saved is None else _facts(json.loads(saved), path)
        except (ValueError, KeyError, TypeError) as exc:
            logger.warning("tb_perf: cache entry for %s unreadable (%s); re-parsing", path, exc)
            return None

    def _cached(self, key: str, path: str) -> TraceTables | None:
        """The stored tables of `path` under `key` (`cache_key`), memory-mapped; None on a
        miss."""
        entry = self.traces_dir / key
        mapped = _OPEN.get(str(entry))
        if mapped is not None:
            return mapped
        if not entry.is_dir() and not self._fetched(key):
            return None
        try:
            tables = _read_entry(entry, path)
            os.utime(entry)  # recently used
        except (OSError, ValueError, KeyError) as exc:
            logger.warning("tb_perf: cache entry for %s unreadable (%s); re-parsing", path, exc)
            return None
        return _OPEN.add(str(entry), tables)

    def published(self, key: str) -> bool:
        """Whether the entry `key` is where other processes look: in the store, if the cache
        has one (unreachable: False)."""
        try:
            return self.url_store is None or self.url_store.has_entry(_SECTION, key)
        except OSError:
            return False

    def _fetched(self, key: str) -> bool:
        """Whether the entry `key` was copied here from the store (none: False)."""
        return self.url_store is not None and self.url_store.fetched(_SECTION, key, self.traces_dir)

    def _keep(self, key: str, path: str, tables: TraceTables) -> TraceTables:
        """Store `path`'s tables under `key`; the stored copy, memory-mapped, so the parsed
        arrays can be freed (the tables themselves where the cache cannot be written)."""
        self.put_tables(key, tables)
        return self._cached(key, path) or tables

    def writable(self) -> bool:
        """Whether entries can be stored, here and in the store if there is one; if not, the
        one warning. Executor tasks store without warning (`ingest_to_cache`): a pool of N
        processes would warn N times."""
        try:
            self.traces_dir.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self.traces_dir):
                pass
        except OSError as exc:
            self._warn_unwritable(exc)
            return False
        return self.url_store is None or self.url_store.writable()

    def put(self, path: str, kind: FileKind, tables: TraceTables) -> bool:
        """Cache `tables`, read elsewhere from the file at `path`, under that file's key, so
        the next read of it comes from the cache; False if the cache is not writable."""
        return self.put_tables(cache_key(path, kind), tables)

    def put_tables(self, key: str, tables: TraceTables, *, warn: bool = True) -> bool:
        """Store `tables` as the entry `key`, here and in the store if the cache has one;
        whether it is there (a store that failed: one warning, the local entry kept)."""
        if not self._put_local(key, tables, warn):
            return False
        if self.url_store is None:
            return True
        try:
            self.url_store.put_entry(_SECTION, key, self.traces_dir / key)
        except OSError:  # the store down (it warned), evicted here meanwhile
            return False
        return True

    def _put_local(self, key: str, tables: TraceTables, warn: bool) -> bool:
        try:
            self.traces_dir.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=self.traces_dir))
            try:
                index = _write_columns(staging / _COLUMNS_FILE, tables)
                meta = {
                    "meta": dataclasses.asdict(tables.meta), "names": tables.names,
                    "columns": index,
                }  # fmt: skip
                (staging / _META_FILE).write_text(json.dumps(meta))
                os.replace(staging, self.traces_dir / key)
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
                if (self.traces_dir / key).is_dir():
                    return True  # another process stored the same entry first
                raise
        except OSError as exc:
            if warn:
                self._warn_unwritable(exc)
            return False
        self.evict()
        return True

    def evict(self) -> None:
        """Remove least-recently-used entries until the cache is under its size cap, but none
        used in the last IN_USE_NS: a run bigger than the cap stays whole while it is read and
        shown (evicted under it, its traces were parsed again at every open). Warn (once)
        when that keeps the cache over its cap."""
        used_since = time.time_ns() - IN_USE_NS
        if evict_lru(self.traces_dir, self.max_bytes, used_since) > self.max_bytes:
            with TraceCache._warn_lock:
                if not TraceCache._warned_too_small:
                    TraceCache._warned_too_small = True
                    logger.warning(
                        "tb_perf: the trace cache (%s, %d MB) is smaller than the runs being "
                        "read: it holds them beyond its cap while they are used; raise "
                        "TB_PERF_CACHE_MAX_MB",
                        self.traces_dir, self.max_bytes // 1_000_000,
                    )  # fmt: skip

    def _warn_unwritable(self, exc: OSError) -> None:
        with TraceCache._warn_lock:
            if not TraceCache._warned_unwritable:
                TraceCache._warned_unwritable = True
                logger.warning(
                    "tb_perf: cache directory %s is not writable (%s); traces are parsed on "
                    "every start and kept in memory only (set TB_PERF_CACHE_DIR)",
                    self.root,
                    exc,
                )


class _OpenTraces:
    """The entries mapped now, by folder: whoever opens an entry another holder still has open
    (a run read again, a timeline piece and an analysis pass) shares its mapping instead of
    mapping the file once more; the last `capacity` opened are kept open, the rest close
    when their last holder lets go."""

    def __init__(self, capacity: int = OPEN_TRACES) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._mapped: weakref.WeakValueDictionary[str, TraceTables] = weakref.WeakValueDictionary()
        self._recent: OrderedDict[str, TraceTables] = OrderedDict()

    def get(self, folder: str) -> TraceTables | None:
        with self._lock:
            tables = self._mapped.get(folder)
            if tables is not None:
                self._keep(folder, tables)
            return tables

    def peek(self, folder: str) -> TraceTables | None:
        """The tables open from `folder`, if any, left where they are in the recent ones."""
        with self._lock:
            return self._mapped.get(folder)

    def add(self, folder: str, tables: TraceTables) -> TraceTables:
        """`tables` opened from `folder`, or the ones already open there (kept, not mapped
        twice)."""
        with self._lock:
            tables = self._mapped.setdefault(folder, tables)
            self._keep(folder, tables)
            return tables

    def _keep(self, folder: str, tables: TraceTables) -> None:
        self._recent[folder] = tables
        self._recent.move_to_end(folder)
        while len(self._recent) > self.capacity:
            self._recent.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._recent.clear()
            self._mapped.clear()


_OPEN = _OpenTraces()


def _write_columns(file: Path, tables: TraceTables) -> list[dict[str, Any]]:
    """Every column of `tables` into `file`, each at a multiple of _ALIGN; their index."""
    index = []
    with open(file, "wb") as out:
        for table in _TABLES:
            for column, values in getattr(tables, table).items():
                values = np.ascontiguousarray(values)
                if values.dtype.kind not in _COLUMN_KINDS:
                    raise TypeError(f"column {table}.{column} is {values.dtype}, not numeric")
                out.write(b"\0" * (-out.tell() % _ALIGN))
                index.append({
                    "table": table, "column": column, "dtype": values.dtype.str,
                    "shape": list(values.shape), "offset": out.tell(),
                })  # fmt: skip
                out.write(values.tobytes())
    return index


def _read_entry(entry: Path, path: str) -> TraceTables:
    """An entry's tables: its columns file mapped once, read-only, each column a view of it.
    A column the index places outside the file, or of a type never stored, makes the entry
    unreadable (ValueError): it is parsed again."""
    saved = json.loads((entry / _META_FILE).read_text())
    meta = TraceMeta(**{**saved["meta"], "path": path})
    tables: dict[str, dict[str, np.ndarray]] = {table: {} for table in _TABLES}
    mapping = None
    with open(entry / _COLUMNS_FILE, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size:
            mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    buffer = mapping if mapping is not None else b""
    for item in saved["columns"]:
        dtype = np.dtype(item["dtype"])
        shape = tuple(int(n) for n in item["shape"])
        offset = int(item["offset"])
        count = int(np.prod(shape, dtype=np.int64))
        if dtype.kind not in _COLUMN_KINDS or item["table"] not in tables or offset < 0:
            raise ValueError(f"column {item['table']}.{item['column']}: not a stored column")
        if offset + count * dtype.itemsize > size:
            raise ValueError(f"column {item['table']}.{item['column']} ends past the file")
        values = np.frombuffer(buffer, dtype, count, offset) if count else np.zeros(0, dtype)
        tables[item["table"]][item["column"]] = values.reshape(shape)
    # one string object per distinct name across the run's traces (its ranks share most names)
    names = list(map(sys.intern, saved["names"]))
    return TraceTables(meta, names, tables["slices"], tables["memory"], mapping)


def _facts(saved: dict[str, Any], path: str) -> TraceFacts:
    """An entry's `TraceFacts` from its metadata file's contents (`saved`)."""
    rows = {(c["table"], c["column"]): int(c["shape"][0]) for c in saved["columns"]}
    meta = TraceMeta(**{**saved["meta"], "path": path})
    return TraceFacts(meta, rows.get(("slices", "start"), 0), rows.get(("memory", "ts"), 0))


def ingest_to_cache(
    path: str, location: str, max_file_bytes: int, kind: FileKind = FileKind.KINETO
) -> TraceFacts | TraceTables:
    """Executor task: parse `path`, a timeline file of `kind`, into the cache at `location`.
    Returns the stored trace's facts (nothing big crosses the process boundary), or its
    tables where they could not be stored (the caller stores them, or warns)."""
    cache = TraceCache(location)
    key = cache_key(path, kind)
    facts = cache.facts(key, path)
    if facts is not None and cache.published(key):
        return facts
    tables = read_timeline_file(path, max_file_bytes, kind)
    return TraceFacts.of(tables) if cache.put_tables(key, tables, warn=False) else tables


def _unpacked(message: bytes, path: str) -> TraceTables:
    try:
        return unpack(message, path)
    except ValueError as exc:
        raise Unreadable(f"its executor task sent back bad tables ({exc})") from None
