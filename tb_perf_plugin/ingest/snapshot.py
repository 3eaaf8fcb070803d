"""CUDA caching-allocator snapshots (`torch.cuda.memory._snapshot()` pickles) to typed tables.

Public API (the plugin never imports torch):

- `read_snapshot(path, max_bytes, *, max_object_bytes=None) -> Snapshot`: load a snapshot
  pickle through `RestrictedUnpickler`, which refuses every global (no class or function is
  ever looked up, so nothing in the file can run), into columnar tables. Raises
  `errors.Unreadable` with a message naming the problem: not a regular file, over the size
  limit, a refused global, a pickle that would build more objects than its size allows (a
  pickle bomb), truncated or corrupt data, not a pickle, or a pickle of something other than a
  snapshot. A failed read keeps nothing it loaded alive (its exception holds no data).
- `check_pickle(data, max_object_bytes) -> int` (safe_pickle.py): the pre-check every load
  goes through (memo indices, declared lengths, and the memory the unpickler would build,
  before it builds any).
- `readers.is_snapshot_name(name) -> bool`: `*.pickle` / `*.pkl`, the names discovery picks up
  (beside the other file kinds, without this module's numpy and pandas).
- `Snapshot`: the tables (pandas DataFrames, int64 bytes / addresses / times) - `segments`,
  `blocks`, `history` (legacy per-block allocation history), `trace` (every device's
  `device_traces` entries, times as int64 ns or, where the file has no times, entry indices:
  `time_unit`), `frames` (unique `filename, line, name`) with stacks interned into
  `stack_offsets` / `stack_frames`, `annotations` (2.5+ `external_annotations`), and
  `allocator_settings`.
- `RestrictedUnpickler` (safe_pickle.py): the unpickler itself (the benchmark's floor loads
  with it too).

Formats read: legacy (torch <= 2.0: blocks with `history: [{addr, real_size, frames}]`, no
block addresses, the at-OOM dump's `device_traces` with only a `snapshot` entry), 2.1-2.4
(segments + `device_traces` with `time_us`), 2.5+ (`allocator_settings`,
`external_annotations`, `compile_context`, `user_metadata`), and the plain list of segments
`torch.cuda.memory_snapshot()` returns. Formulas over these tables:
`tb_perf_plugin/analysis/memory_snapshot.py` and docs/ANALYSIS.md ("Memory snapshots").

Limits (a hostile file must not take the server's memory or inflate its answers): the objects
a pickle may build (`PICKLE_BYTES_PER_BYTE` per byte of the file, see `check_pickle`), at most
`MAX_DEVICES` devices and `MAX_CATEGORIES` distinct trace actions, block states and segment
types, frame texts cut to `MAX_TEXT_CHARS`, trace times within +-2^62 ns.
"""

from __future__ import annotations

import io
import os
import pickle
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import chain, islice, repeat
from operator import itemgetter, methodcaller
from typing import Any

import numpy as np
import pandas as pd

from ..errors import Unreadable
from .files import check_size, open_input
from .safe_pickle import PickleBomb, RefusedGlobal, RestrictedUnpickler, check_pickle

# Trace actions torch writes (c10/cuda/CUDACachingAllocator.h, TraceEntry::Action); codes are
# their index here. Actions a newer torch adds get the next codes when met.
ACTIONS = (
    "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free",
    "segment_map", "segment_unmap", "snapshot", "oom",
)  # fmt: skip
_FRAME_KEY = itemgetter("filename", "line", "name")
BLOCK_STATES = ("active_allocated", "active_pending_free", "inactive")
NO_STACK = -1  # stack id of an entry recorded without frames

MAX_DEVICES = 256  # device indices 0..255 (device_traces lists, segment devices)
MAX_CATEGORIES = 64  # distinct trace actions, block states, segment types (each)
MAX_CATEGORY_CHARS = 100  # longer action / state / segment type texts are cut
MAX_TEXT_CHARS = 1000  # longer frame file names and function names are cut (ending in "…")
MAX_SETTINGS = 256  # values of the allocator settings kept (the rest left out)
MAX_TIME_NS = 2**62  # trace times (time_us x 1000) beyond +-MAX_TIME_NS: not a snapshot


@dataclass
class Snapshot:
    """One snapshot's tables. Row order: segments as in the file; blocks by segment, in
    address order; `trace` by device, then file order (`index` is the entry's position in its
    device's list). Stack `s` is `frames.iloc[stack_frames[stack_offsets[s]:stack_offsets[s +
    1]]]`, innermost frame first; `NO_STACK` (-1) means no frames were recorded."""

    path: str
    format: str  # "legacy" | "2.1-2.4" | "2.5+" | "segment_list"
    time_unit: str  # "ns" (trace `time_us` x 1000, Unix epoch) | "index" (entry index)
    devices: list[int]
    segments: pd.DataFrame
    blocks: pd.DataFrame
    history: pd.DataFrame
    trace: pd.DataFrame
    frames: pd.DataFrame
    stack_offsets: np.ndarray
    stack_frames: np.ndarray
    annotations: pd.DataFrame
    allocator_settings: dict[str, Any] | None
    file_bytes: int
    # derived tables of analysis/memory_snapshot.py, computed once per snapshot
    derived: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def stack_length(self, stack_id: int) -> int:
        """How many frames a stack has (0 for NO_STACK)."""
        if stack_id < 0:
            return 0
        return int(self.stack_offsets[stack_id + 1] - self.stack_offsets[stack_id])

    def stack(self, stack_id: int, max_frames: int | None = None) -> list[dict[str, Any]]:
        """The frames of one stack as JSON-ready dicts, innermost first (the first
        `max_frames` of them, if given)."""
        if stack_id < 0:
            return []
        lo, hi = int(self.stack_offsets[stack_id]), int(self.stack_offsets[stack_id + 1])
        if max_frames is not None:
            hi = min(hi, lo + max(max_frames, 0))
        rows = self.frames.iloc[self.stack_frames[lo:hi]]
        return [
            {"filename": f, "line": int(n), "name": m}
            for f, n, m in zip(rows["filename"], rows["line"], rows["name"], strict=True)
        ]


def read_snapshot(path: str, max_bytes: int, *, max_object_bytes: int | None = None) -> Snapshot:
    """Load and tabulate one snapshot pickle; `max_bytes` bounds the file size,
    `max_object_bytes` the objects unpickling may build (default: `pickle_budget` of the
    file's size; the loaded snapshot takes about that much while it is tabulated).

    Every refusal is an `Unreadable` raised outside any exception handler, from a frame that
    holds no loaded data: a caller that keeps the exception (or its traceback) keeps nothing
    the failed read built."""
    name = os.path.basename(path)
    loaded, file_bytes = _load(path, name, max_bytes, max_object_bytes)
    try:
        return _tabulate(loaded, path, file_bytes)
    except _NotASnapshot as exc:
        message = f"{name}: not a CUDA memory snapshot ({exc})"
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, RecursionError) as exc:
        message = (
            f"{name}: not a CUDA memory snapshot (unexpected {type(exc).__name__}: "
            f"{str(exc)[:200]})"
        )
    except MemoryError:
        message = f"{name}: the snapshot needs more memory than is available"
    del loaded  # the unpickled objects go now, not with the exception
    raise Unreadable(message) from None


def _read(path: str, name: str, max_bytes: int) -> bytes:
    """The file's bytes: a regular file of at most `max_bytes` (checked on the descriptor, and
    again on what was read: the file may grow while it is read), starting like a pickle. Reads
    at most one byte more than the descriptor's size (a read allocates what it asks for; what
    a writer appends meanwhile is left for the next read)."""
    try:
        with open_input(path, max_bytes, "memory snapshot") as handle:
            data = handle.read(min(os.fstat(handle.fileno()).st_size, max_bytes) + 1)
    except OSError as exc:  # FileNotFoundError too: the file went after discovery saw it
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    size, starts = len(data), data[:1]
    if size > max_bytes or starts != b"\x80":
        del data  # not kept by the exception's frame
        check_size(name, size, max_bytes, "memory snapshot")
        raise Unreadable(
            f"{name}: not a pickle file (snapshots are pickles of protocol 2 or newer, which "
            "start with byte 0x80)"
        )
    return data


def _load(path: str, name: str, max_bytes: int, max_object_bytes: int | None) -> tuple[Any, int]:
    """(the unpickled object, the file's size) through the pre-check and the restricted
    unpickler; on failure an Unreadable raised after the data and the unpickler are gone."""
    data = _read(path, name, max_bytes)
    size = len(data)
    try:
        check_pickle(data, max_object_bytes)
        return RestrictedUnpickler(io.BytesIO(data)).load(), size
    except Exception as exc:  # any malformed opcode stream: UnpicklingError, ValueError, ...
        message = _load_error(name, exc)
    del data
    raise Unreadable(message) from None


def _load_error(name: str, exc: Exception) -> str:
    """What a failed load says."""
    if isinstance(exc, RefusedGlobal):
        return (
            f"{name}: refused: the pickle asks for the Python global `{exc.what}`; a pickle is "
            "code, and a memory snapshot holds only plain data, so tb-perf loads no classes or "
            "functions from it (nothing was run)"
        )
    if isinstance(exc, PickleBomb):
        return f"{name}: refused: {exc}"
    if isinstance(exc, EOFError) or (
        isinstance(exc, pickle.UnpicklingError) and "truncated" in str(exc)
    ):
        return f"{name}: the pickle is truncated (the writer may still be dumping it)"
    if isinstance(exc, pickle.UnpicklingError):
        return f"{name}: corrupt pickle data ({str(exc)[:200]})"
    if isinstance(exc, MemoryError):
        return f"{name}: the pickle needs more memory than is available"
    if isinstance(exc, OSError):
        return f"{name}: cannot be read ({exc.strerror or exc})"
    return f"{name}: corrupt pickle data ({type(exc).__name__}: {str(exc)[:200]})"


class _NotASnapshot(Exception):
    pass


class _Codes(dict):
    """value -> dense code, assigned on first sight (dict lookups stay in C for known values)."""

    def __missing__(self, key: Any) -> int:
        code = self[key] = len(self)
        return code


class _Categories(_Codes):
    """Codes of a categorical column (trace actions, block states, segment types): at most
    MAX_CATEGORIES distinct values (callers give texts of at most MAX_CATEGORY_CHARS)."""

    def __init__(self, what: str, known: Iterable[str] = ()) -> None:
        super().__init__((k, i) for i, k in enumerate(known))
        self.what = what

    def __missing__(self, key: Any) -> int:
        if len(self) >= MAX_CATEGORIES:
            raise _NotASnapshot(f"more than {MAX_CATEGORIES} distinct {self.what}")
        return super().__missing__(key)


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, MAX_TEXT_CHARS, 100


def _text(value: Any, limit: int = MAX_TEXT_CHARS) -> str:
    """`value` as text of at most `limit` characters, a longer one cut (ending in "…"): a
    string as it is, anything else as a short repr (a file name that is a list of a million
    shared strings must not become gigabytes of text)."""
    if not isinstance(value, str):
        try:
            value = _REPR.repr(value)
        except (ValueError, RecursionError):  # an integer of more than 4,300 digits
            value = f"<{type(value).__name__}>"
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _frame_key(filename: Any, line: Any, name: Any) -> tuple[str, int, str]:
    """A frame as (str, int64, str): other values are shown as text, odd lines as 0."""
    ok = isinstance(line, int) and -(2**63) <= line < 2**63
    return _text(filename), line if ok else 0, _text(name)


class _Actions(_Categories):
    def __init__(self) -> None:
        super().__init__("trace actions", ACTIONS)

    def __missing__(self, key: Any) -> int:
        if not isinstance(key, str):
            raise _NotASnapshot(f"a trace action is a {type(key).__name__}, not a string")
        if len(key) > MAX_CATEGORY_CHARS:
            raise _NotASnapshot(f"a trace action of {len(key)} characters")
        return super().__missing__(key)


class _Stacks(dict):
    """Interns frames and stacks: maps a stack's content (a tuple of `(filename, line, name)`)
    to its id. torch shares one list per distinct stack (and one dict per distinct frame)
    across entries, so lists are first deduplicated by object identity - all stay alive while
    the loaded snapshot does - and only distinct ones are read, in C (`map` over itemgetters)."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = _Codes()  # (filename, line, name) -> frame id
        self.stacks = _Codes()  # tuple of frame ids -> stack id
        self._of_list: dict[int, int] = {}

    def ids(self, frame_lists: list[Any]) -> np.ndarray:
        """Stack id of each frames list (None or empty: NO_STACK)."""
        list_ids = list(map(id, frame_lists))
        of_list = self._of_list
        new = dict(zip(list_ids, frame_lists, strict=True))
        for known in [k for k in new if k in of_list]:
            del new[known]
        try:
            keys = list(map(tuple, map(map, repeat(_FRAME_KEY), new.values())))
            stacks = list(map(self.__getitem__, keys))
        except (KeyError, TypeError):  # missing keys, unhashable values, not lists of dicts
            stacks = [self[self._frames_key(frames)] for frames in new.values()]
        of_list.update(zip(new, stacks, strict=True))
        return np.fromiter(map(of_list.__getitem__, list_ids), np.int32, len(list_ids))

    @staticmethod
    def _frames_key(frames: Any) -> tuple:
        """The slow path: frames lists with missing keys or odd values (made plain), None."""
        if not frames:
            return ()
        if not isinstance(frames, list) or not all(isinstance(f, dict) for f in frames):
            raise _NotASnapshot("frames are not lists of dicts")
        return tuple(
            _frame_key(f.get("filename", ""), f.get("line", 0), f.get("name", "")) for f in frames
        )

    def __missing__(self, key: tuple) -> int:
        if not key:
            self[key] = NO_STACK
            return NO_STACK
        ids = [self.frames[_frame_key(*frame)] for frame in key]
        stack = self[key] = self.stacks[tuple(ids)]
        return stack

    def tables(self) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
        keys = list(self.frames)
        frames = pd.DataFrame({
            "filename": pd.array([k[0] for k in keys], dtype=object),
            "line": np.array([k[1] for k in keys], dtype=np.int64),
            "name": pd.array([k[2] for k in keys], dtype=object),
        })  # fmt: skip
        lengths = np.fromiter(map(len, self.stacks), np.int64, len(self.stacks))
        offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
        flat = np.fromiter(chain.from_iterable(self.stacks), np.int32, int(offsets[-1]))
        return frames, offsets, flat


def _int64(values: Iterable[Any], what: str, n: int = -1) -> np.ndarray:
    try:
        return np.fromiter(values, np.int64, n)
    except (TypeError, ValueError, OverflowError):
        raise _NotASnapshot(f"{what} holds values that are not 64-bit integers") from None


def _tabulate(data: Any, path: str, file_bytes: int) -> Snapshot:
    traces: list[Any]
    annotations: Any  # checked by _check_rows
    if isinstance(data, list):
        fmt, segments, traces, settings, annotations = "segment_list", data, [], None, []
    elif isinstance(data, dict) and isinstance(data.get("segments"), list):
        segments = data["segments"]
        traces = data.get("device_traces") or []
        settings = data.get("allocator_settings")
        annotations = data.get("external_annotations") or []
        if not isinstance(traces, list) or not all(isinstance(t, list) for t in traces):
            raise _NotASnapshot("device_traces is not a list of lists")
        fmt = "2.5+" if ("allocator_settings" in data or "external_annotations" in data) else ""
    elif isinstance(data, dict):
        keys = sorted(_text(k, 40) for k in islice(data, 100))[:8]
        raise _NotASnapshot(f"a dict without a 'segments' list: keys {keys}")
    else:
        raise _NotASnapshot(
            f"a pickle of {type(data).__name__}; expected a dict with 'segments' or a list of "
            "segments"
        )
    if len(traces) > MAX_DEVICES:
        raise _NotASnapshot(f"device_traces has {len(traces)} devices (at most {MAX_DEVICES})")
    _check_rows(segments, traces, annotations, file_bytes)
    stacks = _Stacks()
    seg, blocks, history, legacy = _segments(segments, stacks)
    if not fmt:
        fmt = "legacy" if legacy else "2.1-2.4"
    trace, time_unit = _traces(traces, stacks)
    devices = sorted(set(seg["device"].tolist()) | set(range(len(traces))))
    if devices and not (0 <= devices[0] and devices[-1] < MAX_DEVICES):
        raise _NotASnapshot(f"a segment's device is not a CUDA device index (0..{MAX_DEVICES - 1})")
    frames, offsets, flat = stacks.tables()
    return Snapshot(
        path=path,
        format=fmt,
        time_unit=time_unit,
        devices=devices,
        segments=seg,
        blocks=blocks,
        history=history,
        trace=trace,
        frames=frames,
        stack_offsets=offsets,
        stack_frames=flat,
        annotations=_annotations(annotations),
        allocator_settings=_plain(settings) if isinstance(settings, dict) else None,
        file_bytes=file_bytes,
    )


def _check_rows(
    segments: list[Any], traces: list[list[Any]], annotations: Any, file_bytes: int
) -> None:
    """Refuse a pickle with more rows than bytes. A pickle stores a repeated object once, so
    shared references can stand for far more rows than the file could spell out (10^5 copies
    of a segment of 10^5 copies of a block is 10^10 blocks in 0.5 MB); a real snapshot spends
    tens of bytes on each block, history, trace entry and annotation."""
    rows = sum(map(len, traces)) + len(segments)
    rows += len(annotations) if isinstance(annotations, list) else 0
    for segment in segments:
        blocks = segment.get("blocks") if isinstance(segment, dict) else None
        if isinstance(blocks, list):
            rows += len(blocks)
            for block in blocks:
                history = block.get("history") if isinstance(block, dict) else None
                rows += len(history) if isinstance(history, list) else 0
                if rows > file_bytes:
                    break
        if rows > file_bytes:
            raise _NotASnapshot(
                f"it holds more rows than its {file_bytes} bytes can spell out (repeated "
                "references to the same segments or blocks)"
            )


def _segments(
    segments: list[Any], stacks: _Stacks
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, bool]:
    """Segments, their blocks and (legacy) block histories. Legacy blocks carry no address:
    blocks tile their segment in order, so a block's address is the segment's plus the sizes
    of the blocks before it (what PyTorch's own viewer assumes too)."""
    seg_rows: list[tuple] = []
    seg_frames: list[Any] = []
    block_rows: list[tuple] = []
    block_frames: list[Any] = []
    hist_rows: list[tuple] = []
    hist_frames: list[Any] = []
    states = _Categories("block states", BLOCK_STATES)
    segment_types = _Categories("segment types")
    legacy = False
    try:
        for s, segment in enumerate(segments):
            address = segment["address"]
            seg_rows.append((
                segment.get("device", 0), address, segment["total_size"],
                segment.get("allocated_size", -1), segment.get("active_size", -1),
                segment.get("requested_size", -1), segment.get("stream", 0),
                segment_types[_text(segment.get("segment_type", ""), MAX_CATEGORY_CHARS)],
                bool(segment.get("is_expandable", False)),
            ))  # fmt: skip
            seg_frames.append(segment.get("frames"))
            offset = address
            for block in segment["blocks"]:
                size = block["size"]
                state = states[_text(block["state"], MAX_CATEGORY_CHARS)]
                frames = block.get("frames")
                hist = block.get("history")
                if hist is not None:
                    legacy = True
                    for entry in hist:
                        hist_rows.append((len(block_rows), entry["addr"], entry["real_size"]))
                        hist_frames.append(entry.get("frames"))
                    if frames is None and hist and state != states["inactive"]:
                        frames = hist[-1].get("frames")
                block_rows.append((
                    s, block.get("address", offset), size, block.get("requested_size", size),
                    state,
                ))  # fmt: skip
                block_frames.append(frames)
                offset += size
    except KeyError as exc:
        raise _NotASnapshot(f"a segment or block has no {exc}") from None
    except (TypeError, AttributeError):
        raise _NotASnapshot("segments are not a list of dicts with lists of block dicts") from None
    seg_columns = list(zip(*seg_rows, strict=True)) or [()] * 9
    seg = pd.DataFrame({
        name: _int64(values, f"segment {name}")
        for name, values in zip(
            ("device", "address", "total_size", "allocated_size", "active_size",
             "requested_size", "stream"), seg_columns[:7], strict=True)
    })  # fmt: skip
    seg["segment_type"] = pd.Categorical.from_codes(
        np.asarray(seg_columns[7], dtype=np.int32), categories=list(segment_types) or ["large"]
    )
    seg["is_expandable"] = np.asarray(seg_columns[8], dtype=bool)
    seg["stack"] = stacks.ids(seg_frames)
    block_columns = list(zip(*block_rows, strict=True)) or [()] * 5
    blocks = pd.DataFrame({
        "segment": np.asarray(block_columns[0], dtype=np.int32),
        "address": _int64(block_columns[1], "block address"),
        "size": _int64(block_columns[2], "block size"),
        "requested_size": _int64(block_columns[3], "block requested_size"),
    })  # fmt: skip
    blocks.insert(0, "device", seg["device"].to_numpy()[blocks["segment"].to_numpy()])
    blocks["state"] = pd.Categorical.from_codes(
        np.asarray(block_columns[4], dtype=np.int32), categories=list(states)
    )
    blocks["stack"] = stacks.ids(block_frames)
    _fill_missing_sizes(seg, blocks)
    hist_columns = list(zip(*hist_rows, strict=True)) or [()] * 3
    history = pd.DataFrame({
        "block": np.asarray(hist_columns[0], dtype=np.int64),
        "addr": _int64(hist_columns[1], "history addr"),
        "real_size": _int64(hist_columns[2], "history real_size"),
        "stack": stacks.ids(hist_frames),
    })  # fmt: skip
    return seg, blocks, history, legacy


def _fill_missing_sizes(seg: pd.DataFrame, blocks: pd.DataFrame) -> None:
    """Segments written without allocated/active/requested sizes get them from their blocks."""
    columns = ["allocated_size", "active_size", "requested_size"]
    missing = (seg[columns] < 0).to_numpy()
    if not missing.any():
        return
    state = blocks["state"].astype(str).to_numpy()
    seg_of, size = blocks["segment"].to_numpy(), blocks["size"].to_numpy()
    allocated = state == "active_allocated"
    for j, values in enumerate((
        np.where(allocated, size, 0), np.where(state != "inactive", size, 0),
        np.where(allocated, blocks["requested_size"].to_numpy(), 0),
    )):  # fmt: skip
        total = np.zeros(len(seg), np.int64)
        np.add.at(total, seg_of, values)
        seg[columns[j]] = np.where(missing[:, j], total, seg[columns[j]].to_numpy())


def _traces(traces: list[list[Any]], stacks: _Stacks) -> tuple[pd.DataFrame, str]:
    """All devices' trace entries in one table. Times: `time_us` x 1000 when every entry has
    one, else each entry's index in its device's list (`time_unit` "index")."""
    actions = _Actions()
    parts: dict[str, list[np.ndarray]] = {
        k: [] for k in ("device", "index", "action", "addr", "size", "stream", "stack")
    }
    times: list[np.ndarray] = []
    timed = True
    for device, entries in enumerate(traces):
        n = len(entries)
        try:
            codes = map(actions.__getitem__, map(itemgetter("action"), entries))
            parts["action"].append(np.fromiter(codes, np.int16, n))
            parts["addr"].append(_int64(map(itemgetter("addr"), entries), "trace addr", n))
            parts["size"].append(_int64(map(itemgetter("size"), entries), "trace size", n))
        except KeyError as exc:
            raise _NotASnapshot(f"a trace entry has no {exc}") from None
        except TypeError:
            raise _NotASnapshot(
                "device_traces entries are not dicts with a string action and integers"
            ) from None
        parts["stream"].append(_int64(_optional(entries, "stream", 0), "trace stream", n))
        parts["stack"].append(stacks.ids(_optional(entries, "frames", ())))
        parts["device"].append(np.full(n, device, np.int32))
        parts["index"].append(np.arange(n, dtype=np.int64))
        try:
            times.append(_int64(map(itemgetter("time_us"), entries), "trace time_us", n))
        except KeyError:
            timed = False
    columns = {k: _concatenate(v) for k, v in parts.items()}
    with_times = bool(traces) and timed
    if with_times:
        time_us = _concatenate(times)
        if len(time_us) and max(-int(time_us.min()), int(time_us.max())) > MAX_TIME_NS // 1000:
            raise _NotASnapshot(f"a trace time_us is beyond +-{MAX_TIME_NS // 1000} (year 2116)")
        columns["t"] = time_us * 1000
    else:
        columns["t"] = columns["index"]
    # copy=False: pandas would otherwise copy same-dtype columns into one 2-D block
    trace = pd.DataFrame({k: v for k, v in columns.items() if k != "action"}, copy=False)
    trace.insert(
        2,
        "action",
        pd.Categorical.from_codes(columns["action"].astype(np.int32), categories=list(actions)),
    )
    return trace, "ns" if with_times else "index"


def _concatenate(parts: list[np.ndarray]) -> np.ndarray:
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _optional(entries: list[dict], key: str, default: Any) -> list[Any]:
    try:
        return list(map(itemgetter(key), entries))
    except KeyError:
        return list(map(methodcaller("get", key, default), entries))


def _annotations(annotations: Any) -> pd.DataFrame:
    """2.5+ `external_annotations` (user markers recorded with the history): device, stage,
    name and time (ns; -1 without one)."""
    rows = []
    if isinstance(annotations, list):
        for a in annotations:
            if isinstance(a, dict):
                t = _small_int(a.get("time_us"), -1)
                rows.append((
                    _small_int(a.get("device"), 0), _text(a.get("stage", "")),
                    _text(a.get("name", "")), t * 1000 if t >= 0 else -1,
                ))  # fmt: skip
    columns = list(zip(*rows, strict=True)) or [()] * 4
    return pd.DataFrame({
        "device": np.asarray(columns[0], dtype=np.int64),
        "stage": pd.array(list(columns[1]), dtype=object),
        "name": pd.array(list(columns[2]), dtype=object),
        "t": np.asarray(columns[3], dtype=np.int64),
    })  # fmt: skip


def _small_int(value: Any, default: int) -> int:
    """An integer that stays within int64 even in ns (x 1000), else `default`."""
    return value if isinstance(value, int) and -(2**53) <= value < 2**53 else default


def _plain(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """A JSON-ready copy of plain data (allocator settings): keys as strings, tuples as lists,
    texts cut to MAX_TEXT_CHARS, at most MAX_SETTINGS values in all (the rest left out), 8
    levels deep."""
    budget = [MAX_SETTINGS] if budget is None else budget
    budget[0] -= 1
    if depth > 8 or budget[0] < 0:
        return None
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if budget[0] <= 0:
                break
            out[_text(k, MAX_CATEGORY_CHARS)] = _plain(v, budget, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        items = []
        for v in value:
            if budget[0] <= 0:
                break
            items.append(_plain(v, budget, depth + 1))
        return items
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, float) or value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -(2**63) <= value < 2**64 else _text(value, 100)
    return _text(value, 200)
