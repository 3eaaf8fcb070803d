"""On-disk cache of what is derived from a run's tables (its timeline with its zoom levels, its
analysis, module data, and every other result the store computes per run version), beside the
trace cache, so a TensorBoard restart answers every route without computing anything again.

An entry is a pickle (protocol 5) whose numpy buffers are written out of band into one file,
memory-mapped on load: arrays come back read-only and shared with the page cache, the way the
trace cache's columns do, at the cost of one file descriptor per entry. Large columns of
strings are stored as their distinct values and codes (`_ResultPickler.reducer_override`). The
run's trace tables are not copied in: a result that holds them (the timeline does) stores each
as its index among the run's traces (found by the trace's path), and gets that trace's tables
back, opened when the result is loaded. Loading admits
only what results are made of (tb_perf_plugin's classes, listed numpy, pandas and builtin
names): the cache directory is outside the logdir but may be shared.

The key is the result's kind, the run version it was computed from (`RunStore.derived`'s
signature: every file's path, size and modification time, which also covers the trace
readers' versions through the tables they read), a fingerprint of tb_perf_plugin's own source
files (any change of the code that computes a result misses) and the numpy, pandas and Python
versions. Results of a run whose files are still being written are not stored. An entry that
cannot be read is a miss (one warning) and is computed and stored again.

At a store URL (TB_PERF_STORE=s3://…) entries live in the local cache directory and in the
store, as the trace cache's do: one stored here is put there, one missing here is fetched.
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import io
import json
import logging
import mmap
import os
import pickle
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..ingest.cache import IN_USE_NS
from ..ingest.cache_dir import evict_lru, located
from ..ingest.tables import TraceTables
from ..ingest.url_store import AT_ONCE
from .cache_keys import entry_name, still_written
from .read import TraceFile

logger = logging.getLogger(__name__)

_SECTION = "results"  # the cache's folder, locally and in a store

# A run's traces, in its order: its whole list, or those of some ranks by their index in it (a
# worker storing one rank's timeline piece)
RunTraces = Sequence[TraceFile] | Mapping[int, TraceFile]


def _indexed(traces: RunTraces) -> Mapping[int, TraceFile]:
    return traces if isinstance(traces, Mapping) else dict(enumerate(traces))


DEFAULT_MAX_BYTES = int(float(os.environ.get("TB_PERF_CACHE_MAX_MB", "4096")) * 1e6)
_ALIGN = 64  # out-of-band buffers start at multiples of this (numpy's widest alignment need)

# Globals a result's pickle may name. A function is called with what the pickle says and some
# classes do work when called (pandas' ExcelWriter opens a file), so outside tb_perf_plugin
# (whose classes start and write nothing when made) each name or module is listed.
_GLOBALS = frozenset({
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
    ("numpy._core.numeric", "_frombuffer"), ("numpy.core.numeric", "_frombuffer"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("pandas", "DataFrame"), ("pandas", "Series"), ("pandas", "Index"),
    ("pandas", "RangeIndex"), ("pandas", "MultiIndex"), ("pandas", "CategoricalIndex"),
    ("pandas", "Categorical"), ("pandas", "CategoricalDtype"), ("pandas", "StringDtype"),
    ("pandas", "Timestamp"), ("pandas", "Timedelta"), ("pandas", "BooleanDtype"),
    *(("pandas", f"{kind}{bits}Dtype") for kind in ("Int", "UInt") for bits in (8, 16, 32, 64)),
    ("pandas", "Float32Dtype"), ("pandas", "Float64Dtype"),
    ("builtins", "slice"), ("builtins", "complex"), ("builtins", "frozenset"),
    ("builtins", "set"), ("builtins", "bytearray"), ("builtins", "range"),
})  # fmt: skip
# ...and modules whose classes and functions are all made to rebuild pickled data
_MODULES = (
    "numpy.dtypes", "pandas.arrays", "pandas.core.arrays", "pandas.core.dtypes",
    "pandas.core.indexes", "pandas.core.internals", "pandas._libs",
)  # fmt: skip


class _RefusedGlobal(pickle.UnpicklingError):
    pass


class _ResultUnpickler(pickle.Unpickler):
    """Admits tb_perf_plugin's classes and the listed numpy, pandas and builtin names (of
    modules already imported: nothing is imported on a pickle's say), so a hostile entry can
    build objects of those, never run code of its choosing; the run's trace tables by
    index."""

    def __init__(self, data: bytes, buffers: list[memoryview], traces: RunTraces):
        super().__init__(io.BytesIO(data), buffers=buffers)
        self._traces = _indexed(traces)

    def find_class(self, module: str, name: str) -> Any:
        listed = (module, name) in _GLOBALS or module.startswith(_MODULES)
        listed |= module == __name__ and name in ("_decoded_frame", "_decoded_dataclass")
        ours = module.startswith("tb_perf_plugin.")
        found = getattr(sys.modules.get(module), name, None)  # never imports
        if found is not None and (listed or (ours and isinstance(found, type))):
            return found
        raise _RefusedGlobal(f"{module[:200]}.{name[:200]}")

    def persistent_load(self, pid: Any) -> Any:
        if isinstance(pid, tuple) and len(pid) == 2 and pid[0] == "trace":
            index = pid[1]
            if isinstance(index, int) and index in self._traces:
                return self._traces[index]  # the run's handle: opened when used (`TraceFile`)
        raise _RefusedGlobal(f"persistent id {repr(pid)[:200]}")


class _ResultPickler(pickle.Pickler):
    """Writes the run's traces (their tables, or a loaded result's handles) as their index
    (`persistent_load` gives back the run's handle, `TraceFile`)."""

    def __init__(self, file: Any, traces: RunTraces, buffers: list[pickle.PickleBuffer]) -> None:
        super().__init__(file, protocol=5, buffer_callback=buffers.append)
        self._trace_index = {t.path: i for i, t in _indexed(traces).items()}

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, (TraceTables, TraceFile)):  # a loaded result holds the latter
            index = self._trace_index.get(obj.path if isinstance(obj, TraceFile) else obj.meta.path)
            if index is None:
                raise pickle.PicklingError("a trace's tables that are not the run's")
            return ("trace", index)
        return None

    def reducer_override(self, obj: Any) -> Any:
        """Columns of strings or other objects as their distinct values and an array of codes
        (out of band): unpickling a string per event was most of a large analysis' load time,
        taking distinct values by code is not. Frames of plain numpy or string columns, and
        dataclasses holding long lists of strings (pickle never offers lists themselves);
        anything else as usual."""
        if type(obj) is pd.DataFrame and len(obj) >= _CODED_MIN:
            return _frame_reduce(obj)
        if is_dataclass(obj) and not isinstance(obj, type):
            return _dataclass_reduce(obj)
        return NotImplemented


_CODED_MIN = 4096  # values; shorter columns pickle as usual


def _coded(values: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """(distinct values as an object array, int32 codes) of hashable values, each distinct
    object kept as it is (None stays None, a NaN stays that NaN); None if any is unhashable."""
    index: dict[Any, int] = {}
    try:
        codes = np.fromiter((index.setdefault(v, len(index)) for v in values), np.int32,
                            count=len(values))  # fmt: skip
    except TypeError:
        return None
    distinct = np.empty(len(index), dtype=object)
    distinct[:] = list(index)
    return distinct, codes


def _frame_reduce(frame: pd.DataFrame) -> Any:
    """A frame with a plain range index and unique column names as its columns (strings and
    objects coded); any other frame as pandas pickles it."""
    index = frame.index
    plain = type(index) is pd.RangeIndex and index.start == 0 and index.step == 1
    if not plain or not frame.columns.is_unique:
        return NotImplemented
    columns: list[tuple[Any, Any, bool, Any]] = []  # name, dtype, coded, values
    for name in frame.columns:
        column = frame[name]
        dtype = column.dtype
        if isinstance(dtype, pd.StringDtype):
            codes, distinct = pd.factorize(column.array, use_na_sentinel=False)
            values: Any = (np.asarray(distinct, dtype=object), codes.astype(np.int32))
        elif dtype == np.dtype(object):
            values = _coded(column.to_numpy()) or column.to_numpy()
        else:
            values = column.to_numpy() if isinstance(dtype, np.dtype) else column.array
        columns.append((name, dtype, isinstance(values, tuple), values))
    return (_decoded_frame, (columns, len(frame)))


def _decoded_frame(columns: list[tuple[Any, Any, bool, Any]], rows: int) -> pd.DataFrame:
    data = {}
    for name, dtype, coded, values in columns:
        if coded:
            values = values[0][values[1]]
        # the dtype given again: pandas would make object columns of strings "str" columns
        data[name] = pd.Series(values, dtype=dtype, copy=False)
    return pd.DataFrame(data, index=pd.RangeIndex(rows), copy=False)


def _dataclass_reduce(obj: Any) -> Any:
    """A dataclass instance with a list of >= _CODED_MIN strings among its fields as its
    fields, those lists coded; any other as usual."""
    state = {f.name: getattr(obj, f.name) for f in fields(obj)}
    long_lists = [k for k, v in state.items() if type(v) is list and len(v) >= _CODED_MIN
                  and all(type(x) is str for x in v)]  # fmt: skip
    if not long_lists:
        return NotImplemented
    for key in long_lists:
        state[key] = _coded(state[key])
    return (_decoded_dataclass, (type(obj), state, long_lists))


def _decoded_dataclass(cls: Any, state: dict[str, Any], coded: list[str]) -> Any:
    if not (isinstance(cls, type) and is_dataclass(cls)):  # a pickle names `cls`: only these
        raise _RefusedGlobal(f"{cls!r:.200} as a dataclass")
    obj = object.__new__(cls)
    for key, value in state.items():
        if key in coded:
            value = value[0][value[1]].tolist()
        object.__setattr__(obj, key, value)  # a frozen dataclass's too
    return obj


def result_key(kind: str, signature: tuple, settings: tuple = ()) -> str:
    """The entry of a result: its kind, run version and reading settings, this code, and the
    libraries its pickle is made of."""
    return entry_name(kind, _version(signature), settings, np.__version__, pd.__version__)


@functools.lru_cache(maxsize=4)
def _version(signature: tuple) -> str:
    """A run version's digest, made once per version rather than once per result of it (each
    rank's timeline piece is one: hashing a 1,024-file signature per rank took 1.1 s)."""
    return hashlib.sha256(repr(signature).encode()).hexdigest()


@dataclass(frozen=True)
class Stored:
    """A result from the cache (any value, None included)."""

    value: Any


@dataclass
class CacheCounts:
    """What the cache did in this process (the tests' and benchmarks' view of it)."""

    hits: int = 0
    misses: int = 0
    stored: int = 0


class ResultCache:
    """Derived results by kind and run version. Thread-safe; a cache directory that cannot be
    written means results are computed again on every start (the trace cache warns once)."""

    def __init__(
        self,
        location: str | os.PathLike | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        settings: tuple = (),
    ) -> None:
        """`location`: a cache directory or a store URL (`TraceCache`'s); `settings`: what
        else the results depend on (the store's file size limit and whether links are
        followed), part of every key."""
        _, local, self.url_store = located(location)
        self.root = local / _SECTION
        self.max_bytes = max_bytes
        self.settings = settings
        self.counts = CacheCounts()
        self._lock = threading.Lock()

    def load(self, kind: str, signature: tuple, traces: RunTraces) -> Stored | None:
        """The stored result of `kind` for this run version, None on a miss."""
        entry = self.root / result_key(kind, signature, self.settings)
        if not entry.is_dir() and not self._fetched(entry.name):
            self._count("misses")
            return None
        try:
            result = _read_entry(entry, traces)
            os.utime(entry)  # recently used
        except Exception as exc:  # a damaged or foreign entry: computed again, stored over
            logger.warning("tb_perf: cached %s result unreadable (%s); computing it", kind, exc)
            shutil.rmtree(entry, ignore_errors=True)
            self._count("misses")
            return None
        self._count("hits")
        return Stored(result)

    def store(self, kind: str, signature: tuple, result: Any, traces: RunTraces) -> Stored | None:
        """Store `result` and load it back as a restart will (memory-mapped, read-only: the
        one form results are served in); None where it is not stored (a live run's, one that
        cannot be pickled, an unwritable cache)."""
        if still_written(signature):
            return None
        entry = self.root / result_key(kind, signature, self.settings)
        self.store_as(entry.name, kind, result, traces)
        if not entry.is_dir():
            return None
        try:
            return Stored(_read_entry(entry, traces))
        except Exception as exc:  # evicted meanwhile, or a result this loader refuses
            logger.warning("tb_perf: %s result not served from the cache (%s)", kind, exc)
            return None

    def store_as(self, name: str, kind: str, result: Any, traces: RunTraces) -> bool:
        """Store `result` (of `kind`) as the entry `name` (`result_key`, computed by whoever
        knows the run version: a worker storing a rank's piece is handed the name), here and
        in the store if there is one; False where it is not stored (in the store: where
        another process looks for it)."""
        entry = self.root / name
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=self.root))
        except OSError:
            return False
        try:
            _write_entry(staging, result, traces)
            os.replace(staging, entry)
        except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
            shutil.rmtree(staging, ignore_errors=True)
            if not entry.is_dir():  # else another process stored it first
                logger.debug("tb_perf: %s result not cached (%s)", kind, exc)
                return False
        self._count("stored")
        published = self._published(entry)
        evict_lru(self.root, self.max_bytes, time.time_ns() - IN_USE_NS)  # as the trace cache
        return published

    def _published(self, entry: Path) -> bool:
        """Put the local `entry` in the store, if there is one; whether it is there."""
        if self.url_store is None:
            return True
        try:
            self.url_store.put_entry(_SECTION, entry.name, entry)
        except OSError:  # the store down (it warned), evicted here meanwhile
            return False
        return True

    def fetch(self, names: list[str]) -> None:
        """Copy the entries `names` lacks here from the store, AT_ONCE at a time (a tile's
        ranks wait for about one round trip, not one each)."""
        missing = [n for n in names if not (self.root / n).is_dir()]
        if self.url_store is None or not missing:
            return
        with concurrent.futures.ThreadPoolExecutor(min(len(missing), AT_ONCE)) as pool:
            list(pool.map(self._fetched, missing))

    def _fetched(self, name: str) -> bool:
        """Whether the entry `name` was copied here from the store (none: False)."""
        return self.url_store is not None and self.url_store.fetched(_SECTION, name, self.root)

    def _count(self, what: str) -> None:
        with self._lock:
            setattr(self.counts, what, getattr(self.counts, what) + 1)


def _write_entry(folder: Path, result: Any, traces: RunTraces) -> None:
    buffers: list[pickle.PickleBuffer] = []
    data = io.BytesIO()
    _ResultPickler(data, traces, buffers).dump(result)
    index = []
    with open(folder / "buffers.bin", "wb") as out:
        for buffer in buffers:
            raw = buffer.raw()
            offset = -out.tell() % _ALIGN
            out.write(b"\0" * offset)
            index.append([out.tell(), raw.nbytes])
            out.write(raw)
    (folder / "result.pickle").write_bytes(data.getvalue())
    (folder / "buffers.json").write_text(json.dumps(index))


def _read_entry(folder: Path, traces: RunTraces) -> Any:
    index = json.loads((folder / "buffers.json").read_text())
    data = (folder / "result.pickle").read_bytes()
    with open(folder / "buffers.bin", "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if any(not 0 <= offset <= offset + n <= size for offset, n in index):
            raise ValueError("buffers.bin is shorter than its index says")
        mapped = memoryview(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) if size else b"")
        views = [mapped[offset : offset + n] for offset, n in index]
    return _ResultUnpickler(data, views, traces).load()
