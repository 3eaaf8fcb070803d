"""CUDA caching-allocator snapshots (`torch.cuda.memory._snapshot()` pickles) to typed tables.

Public API (the plugin never imports torch):

- `read_snapshot(path, max_bytes) -> Snapshot`: load a snapshot pickle through
  `RestrictedUnpickler`, which refuses every global (no class or function is ever looked up,
  so nothing in the file can run), into columnar tables. Raises `errors.Unreadable` with a
  message naming the problem: over the size limit, a refused global, truncated or corrupt
  data, not a pickle, or a pickle of something other than a snapshot.
- `is_snapshot_name(name) -> bool`: `*.pickle` / `*.pkl`, the names discovery picks up.
- `Snapshot`: the tables (pandas DataFrames, int64 bytes / addresses / times) - `segments`,
  `blocks`, `history` (legacy per-block allocation history), `trace` (every device's
  `device_traces` entries, times as int64 ns or, where the file has no times, entry indices:
  `time_unit`), `frames` (unique `filename, line, name`) with stacks interned into
  `stack_offsets` / `stack_frames`, `annotations` (2.5+ `external_annotations`), and
  `allocator_settings`.
- `RestrictedUnpickler`: the unpickler itself (the benchmark's floor loads with it too).

Formats read: legacy (torch <= 2.0: blocks with `history: [{addr, real_size, frames}]`, no
block addresses, the at-OOM dump's `device_traces` with only a `snapshot` entry), 2.1-2.4
(segments + `device_traces` with `time_us`), 2.5+ (`allocator_settings`,
`external_annotations`, `compile_context`, `user_metadata`), and the plain list of segments
`torch.cuda.memory_snapshot()` returns. Formulas over these tables:
`tb_perf_plugin/analysis/memory_snapshot.py` and docs/ANALYSIS.md ("Memory snapshots").
"""

from __future__ import annotations

import io
import os
import pickle
import pickletools
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import itemgetter, methodcaller
from typing import Any

import numpy as np
import pandas as pd

from ..errors import Unreadable
from .files import check_size

SNAPSHOT_SUFFIXES = (".pickle", ".pkl")
# Trace actions torch writes (c10/cuda/CUDACachingAllocator.h, TraceEntry::Action); codes are
# their index here. Actions a newer torch adds get the next codes when met.
ACTIONS = (
    "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free",
    "segment_map", "segment_unmap", "snapshot", "oom",
)  # fmt: skip
_FRAME_KEY = itemgetter("filename", "line", "name")
BLOCK_STATES = ("active_allocated", "active_pending_free", "inactive")
NO_STACK = -1  # stack id of an entry recorded without frames


class RefusedGlobal(pickle.UnpicklingError):
    """The pickle asked for a global (a class or function): refused, nothing was called."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class RestrictedUnpickler(pickle.Unpickler):
    """Admits plain containers and scalars only. Every callable a pickle could run (REDUCE,
    BUILD, NEWOBJ, INST, OBJ, EXT*) must first be looked up through `find_class`, which always
    refuses, so a hostile file cannot execute anything; persistent ids are refused too."""

    def find_class(self, module: str, name: str) -> Any:
        raise RefusedGlobal(f"{module[:200]}.{name[:200]}")

    def persistent_load(self, pid: Any) -> Any:
        raise RefusedGlobal(f"persistent id {repr(pid)[:200]}")


_STOP, _PUT, _LONG_BINPUT, _MEMO_PUTS = 0x2E, 0x70, 0x72, frozenset(b"pqr\x94")
_SLOW = -100  # in _FIXED_SIZES: an opcode the scan looks at more closely


def _argument_sizes() -> tuple[list[int | None], list[int]]:
    """Per opcode byte: the size of its argument (pickletools' negative codes for sizes read
    from the data; None for bytes that are no opcode and for opcodes the unpickler refuses),
    and the same for plain fixed-size opcodes only (_SLOW for the rest): the scan's fast path."""
    sizes: list[int | None] = [None] * 256
    for opcode in pickletools.opcodes:
        if opcode.name not in ("GLOBAL", "INST", "PERSID"):
            sizes[ord(opcode.code)] = opcode.arg.n if opcode.arg else 0
    fixed = [
        size if size is not None and size >= 0 and code not in _MEMO_PUTS and code != _STOP
        else _SLOW
        for code, size in enumerate(sizes)
    ]  # fmt: skip
    return sizes, fixed


_ARGUMENT_SIZES, _FIXED_SIZES = _argument_sizes()
_LENGTH_FIELDS = {  # pickletools' code -> (bytes of the length field, signed)
    pickletools.TAKEN_FROM_ARGUMENT1: (1, False),
    pickletools.TAKEN_FROM_ARGUMENT4: (4, True),
    pickletools.TAKEN_FROM_ARGUMENT4U: (4, False),
    pickletools.TAKEN_FROM_ARGUMENT8U: (8, False),
}


def check_memo_indices(data: bytes) -> None:
    """Refuse a memo index beyond the number of objects memoized so far, which no pickler
    writes: the C unpickler sizes its memo array by the largest index it is given, so the 9
    bytes `\\x80\\x02]r\\xff\\xff\\xff\\xff.` would make it allocate and clear 64 GB. Walks
    the opcodes without building anything; stops at STOP and at anything the unpickler
    itself refuses."""
    position, end, memoized = 0, len(data), 0
    fixed_sizes = _FIXED_SIZES
    while position < end:
        code = data[position]
        fixed = fixed_sizes[code]
        if fixed >= 0:
            position += 1 + fixed
            continue
        size = _ARGUMENT_SIZES[code]
        position += 1
        if size is None or code == _STOP:
            return
        if code in _MEMO_PUTS:
            index = 0
            if code == _LONG_BINPUT:
                index = int.from_bytes(data[position : position + 4], "little")
            elif code == _PUT:
                try:
                    index = int(data[position : data.find(b"\n", position)])
                except ValueError:
                    return
            if index > memoized:
                raise pickle.UnpicklingError(
                    f"memo index {index} out of order ({memoized} objects memoized)"
                )
            memoized += 1
        if size >= 0:
            position += size
        elif size == pickletools.UP_TO_NEWLINE:
            position = data.find(b"\n", position) + 1
            if position == 0:
                return
        else:
            width, signed = _LENGTH_FIELDS[size]
            length = int.from_bytes(data[position : position + width], "little", signed=signed)
            position += width + max(length, 0)


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

    def stack(self, stack_id: int) -> list[dict[str, Any]]:
        """The frames of one stack as JSON-ready dicts, innermost first."""
        if stack_id < 0:
            return []
        lo, hi = self.stack_offsets[stack_id], self.stack_offsets[stack_id + 1]
        rows = self.frames.iloc[self.stack_frames[lo:hi]]
        return [
            {"filename": f, "line": int(n), "name": m}
            for f, n, m in zip(rows["filename"], rows["line"], rows["name"], strict=True)
        ]


def is_snapshot_name(name: str) -> bool:
    return name.lower().endswith(SNAPSHOT_SUFFIXES)


def read_snapshot(path: str, max_bytes: int) -> Snapshot:
    """Load and tabulate one snapshot pickle; `max_bytes` bounds the file size (the unpickled
    objects take a few times the file's size in memory)."""
    name = os.path.basename(path)
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    check_size(name, size, max_bytes, "memory snapshot")
    data = _load(path, name)
    try:
        return _tabulate(data, path, size)
    except _NotASnapshot as exc:
        raise Unreadable(f"{name}: not a CUDA memory snapshot ({exc})") from None
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, RecursionError) as exc:
        raise Unreadable(
            f"{name}: not a CUDA memory snapshot (unexpected {type(exc).__name__}: "
            f"{str(exc)[:200]})"
        ) from None


def _load(path: str, name: str) -> Any:
    try:
        with open(path, "rb") as fh:
            if fh.read(1) != b"\x80":
                raise Unreadable(
                    f"{name}: not a pickle file (snapshots are pickles of protocol 2 or newer, "
                    "which start with byte 0x80)"
                )
            data = b"\x80" + fh.read()
        check_memo_indices(data)
        return RestrictedUnpickler(io.BytesIO(data)).load()
    except Unreadable:
        raise
    except RefusedGlobal as exc:
        raise Unreadable(
            f"{name}: refused: the pickle asks for the Python global `{exc.what}`; a pickle is "
            "code, and a memory snapshot holds only plain data, so tb-perf loads no classes or "
            "functions from it (nothing was run)"
        ) from None
    except EOFError:
        raise Unreadable(
            f"{name}: the pickle is truncated (the writer may still be dumping it)"
        ) from None
    except pickle.UnpicklingError as exc:
        text = str(exc)
        if "truncated" in text:
            raise Unreadable(
                f"{name}: the pickle is truncated (the writer may still be dumping it)"
            ) from None
        raise Unreadable(f"{name}: corrupt pickle data ({text[:200]})") from None
    except MemoryError:
        raise Unreadable(f"{name}: the pickle needs more memory than is available") from None
    except OSError as exc:
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    except Exception as exc:  # any other malformed opcode stream: ValueError, TypeError, ...
        raise Unreadable(
            f"{name}: corrupt pickle data ({type(exc).__name__}: {str(exc)[:200]})"
        ) from None


class _NotASnapshot(Exception):
    pass


class _Codes(dict):
    """value -> dense code, assigned on first sight (dict lookups stay in C for known values)."""

    def __missing__(self, key: Any) -> int:
        code = self[key] = len(self)
        return code


def _frame_key(filename: Any, line: Any, name: Any) -> tuple[str, int, str]:
    """A frame as (str, int64, str): other values are shown as text, odd lines as 0."""
    ok = isinstance(line, int) and -(2**63) <= line < 2**63
    return str(filename), line if ok else 0, str(name)


class _Actions(_Codes):
    def __missing__(self, key: Any) -> int:
        if not isinstance(key, str):
            raise _NotASnapshot(f"a trace action is a {type(key).__name__}, not a string")
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
        raise _NotASnapshot(f"a dict without a 'segments' list: keys {sorted(map(str, data))[:8]}")
    else:
        raise _NotASnapshot(
            f"a pickle of {type(data).__name__}; expected a dict with 'segments' or a list of "
            "segments"
        )
    _check_rows(segments, traces, file_bytes)
    stacks = _Stacks()
    seg, blocks, history, legacy = _segments(segments, stacks)
    if not fmt:
        fmt = "legacy" if legacy else "2.1-2.4"
    trace, time_unit = _traces(traces, stacks)
    devices = sorted(set(seg["device"].tolist()) | set(range(len(traces))))
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


def _check_rows(segments: list[Any], traces: list[list[Any]], file_bytes: int) -> None:
    """Refuse a pickle with more rows than bytes. A pickle stores a repeated object once, so
    shared references can stand for far more rows than the file could spell out (10^5 copies
    of a segment of 10^5 copies of a block is 10^10 blocks in 0.5 MB); a real snapshot spends
    tens of bytes on each block, history and trace entry."""
    rows = sum(map(len, traces)) + len(segments)
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
    states = _Codes((s, i) for i, s in enumerate(BLOCK_STATES))
    segment_types = _Codes()
    legacy = False
    try:
        for s, segment in enumerate(segments):
            address = segment["address"]
            seg_rows.append((
                segment.get("device", 0), address, segment["total_size"],
                segment.get("allocated_size", -1), segment.get("active_size", -1),
                segment.get("requested_size", -1), segment.get("stream", 0),
                segment_types[str(segment.get("segment_type", ""))],
                bool(segment.get("is_expandable", False)),
            ))  # fmt: skip
            seg_frames.append(segment.get("frames"))
            offset = address
            for block in segment["blocks"]:
                size = block["size"]
                state = states[str(block["state"])]
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
    actions = _Actions((a, i) for i, a in enumerate(ACTIONS))
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
    columns["t"] = _concatenate(times) * 1000 if with_times else columns["index"]
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
                    _small_int(a.get("device"), 0), str(a.get("stage", "")),
                    str(a.get("name", "")), t * 1000 if t >= 0 else -1,
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


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON-ready copy of plain data (allocator settings): keys as strings, tuples as lists."""
    if depth > 8:
        return None
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)[:200]
