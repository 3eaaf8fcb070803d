"""torch.profiler / Kineto / Chrome traces to typed columnar tables, streaming.

The trace is decompressed and decoded in chunks of whole events: peak memory stays near one
chunk plus the output columns, not the 3x the raw size a whole-document decode needs. Chunks are
cut between top-level events of the `traceEvents` array; a cut that lands anywhere else cannot
decode as a JSON array, so a failed chunk is simply merged with the next one.

Every schema seen in the wild is read: 2020 bare arrays, 2021 categories (Operator / Runtime /
Kernel / Memcpy / Memset, absolute epoch microseconds), 2023+ categories (cpu_op, cuda_runtime,
kernel, gpu_memcpy, ..., `baseTimeNanoseconds` plus relative microseconds), ROCm and non-CUDA
accelerators. All output times are int64 Unix-epoch nanoseconds on the tracing host's clock.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import operator
import os
import re
import sys
import threading
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from functools import partial
from itertools import compress
from typing import Annotated, Any

import msgspec
import numpy as np

from ..errors import Unreadable
from .files import human_bytes, open_input
from .records import Int64

PARSER_VERSION = 1
CHUNK_BYTES = 4 << 20
# Text held while no boundary between two events is found: events are rarely over 1 MiB, so
# more is not a trace (a trace head followed by a gigabyte of spaces), and is not buffered.
MAX_EVENT_BYTES = 64 << 20
TRACE_SUFFIXES = (".pt.trace.json", ".pt.trace.json.gz", ".json", ".json.gz")


class Kind(IntEnum):
    """What a duration event is. Stored as int8 in the `kind` column."""

    OTHER = 0
    CPU_OP = 1
    USER_ANNOTATION = 2
    PYTHON_FUNCTION = 3
    RUNTIME = 4
    KERNEL = 5
    MEMCPY = 6
    MEMSET = 7
    GPU_ANNOTATION = 8


DEVICE_KINDS = (Kind.KERNEL, Kind.MEMCPY, Kind.MEMSET, Kind.GPU_ANNOTATION)

_KIND_OF_CATEGORY = {
    "cpu_op": Kind.CPU_OP,
    "operator": Kind.CPU_OP,
    "user_annotation": Kind.USER_ANNOTATION,
    "trace": Kind.USER_ANNOTATION,
    "python_function": Kind.PYTHON_FUNCTION,
    "cuda_runtime": Kind.RUNTIME,
    "cuda_driver": Kind.RUNTIME,
    "runtime": Kind.RUNTIME,
    "hip_runtime": Kind.RUNTIME,
    "mtia_runtime": Kind.RUNTIME,
    "privateuse1_runtime": Kind.RUNTIME,
    "cuda_sync": Kind.RUNTIME,
    "kernel": Kind.KERNEL,
    "mtia_ccp_events": Kind.KERNEL,
    "gpu_memcpy": Kind.MEMCPY,
    "memcpy": Kind.MEMCPY,
    "gpu_memset": Kind.MEMSET,
    "memset": Kind.MEMSET,
    "gpu_user_annotation": Kind.GPU_ANNOTATION,
}

# Numbers the columns can hold: an event with a value outside its column's range fails
# validation and is skipped (and counted) like any event with a field of the wrong type.
_Int32 = Annotated[int, msgspec.Meta(ge=-(2**31), le=2**31 - 1)]
_Int16 = Annotated[int, msgspec.Meta(ge=-(2**15), le=2**15 - 1)]
_Int8 = Annotated[int, msgspec.Meta(ge=-(2**7), le=2**7 - 1)]
# Microseconds (relative or Unix-epoch) whose nanoseconds, plus a base time, stay in int64
MAX_MICROSECONDS = 4e15  # about the year 2096 as Unix-epoch time
_Micros = Annotated[float, msgspec.Meta(ge=-MAX_MICROSECONDS, le=MAX_MICROSECONDS)]
_BaseTime = Annotated[int, msgspec.Meta(ge=0, le=int(MAX_MICROSECONDS * 1000))]

_COLLECTIVE_NAME = re.compile(
    r"nccl|rccl|hccl|gloo:|c10d::|allreduce|all_reduce|allgather|all_gather|reduce_scatter|"
    r"reducescatter|broadcast|alltoall|all_to_all|sendrecv|record_param_comms",
    re.IGNORECASE,
)


class _Args(msgspec.Struct, gc=False, frozen=True):
    """The arguments tb-perf reads; everything else in `args` is skipped by the decoder."""

    correlation: Int64 = -1
    external_id: Int64 = msgspec.field(default=-1, name="External id")
    external_id_2021: Int64 = msgspec.field(default=-1, name="external id")
    device: Int64 | str = -1  # ROCm writes some as hex strings ("0x0")
    stream: Int64 | str = -1
    collective: str = msgspec.field(default="", name="Collective name")
    in_nelems: Int64 = msgspec.field(default=-1, name="In msg nelems")
    out_nelems: Int64 = msgspec.field(default=-1, name="Out msg nelems")
    group_size: _Int32 = msgspec.field(default=-1, name="Group size")
    dtype: str = ""
    process_group: str = msgspec.field(default="", name="Process Group Name")
    process_group_desc: str = msgspec.field(default="", name="Process Group Description")
    grid: msgspec.Raw = msgspec.Raw(b"")
    block: msgspec.Raw = msgspec.Raw(b"")
    registers: _Int32 = msgspec.field(default=-1, name="registers per thread")
    shared_memory: Int64 = msgspec.field(default=-1, name="shared memory")
    blocks_per_sm: float = msgspec.field(default=-1.0, name="blocks per SM")
    warps_per_sm: float = msgspec.field(default=-1.0, name="warps per SM")
    occupancy: float = msgspec.field(default=-1.0, name="est. achieved occupancy %")
    input_dims: msgspec.Raw = msgspec.field(default=msgspec.Raw(b""), name="Input Dims")
    input_types: msgspec.Raw = msgspec.field(default=msgspec.Raw(b""), name="Input type")
    # [memory] instant events
    bytes: Int64 = msgspec.field(default=0, name="Bytes")
    total_allocated: Int64 = msgspec.field(default=-1, name="Total Allocated")
    total_reserved: Int64 = msgspec.field(default=-1, name="Total Reserved")
    device_type: _Int8 = msgspec.field(default=-1, name="Device Type")
    device_id: _Int16 = msgspec.field(default=-1, name="Device Id")
    addr: Int64 = msgspec.field(default=0, name="Addr")


_NO_ARGS = _Args()
_ARGS, _CAT, _NAME = (operator.attrgetter(f) for f in ("args", "cat", "name"))
_PID, _TID, _TS, _DUR = (operator.attrgetter(f) for f in ("pid", "tid", "ts", "dur"))
_CORRELATION, _EXTERNAL_ID = (operator.attrgetter(f) for f in ("correlation", "external_id"))


class _Slice(msgspec.Struct, tag_field="ph", tag="X", gc=False):
    name: str = ""
    cat: str = ""
    pid: Int64 | str = 0
    tid: Int64 | str = 0
    ts: _Micros = 0.0
    dur: _Micros = 0.0
    args: _Args | None = _NO_ARGS  # None only for an explicit `"args": null`


class _Begin(_Slice, tag="B"):
    pass


class _End(_Slice, tag="E"):
    pass


class _Instant(_Slice, tag="i"):
    pass


class _InstantOld(_Slice, tag="I"):
    pass


class _MetadataArgs(msgspec.Struct, gc=False, frozen=True):
    name: str = ""
    labels: str = ""


class _Metadata(msgspec.Struct, tag_field="ph", tag="M", gc=False, frozen=True):
    """process_name / thread_name / process_labels. Hashable: some traces repeat the same few
    hundreds of thousands of times, and a set of them drops the repeats at C speed."""

    name: str = ""
    pid: Int64 | str = 0
    tid: Int64 | str = 0
    args: _MetadataArgs | None = None


# Phases tb-perf does not read (flows, counters, async, objects, ...): empty Structs, so the
# decoder skips their fields without building anything. ac2g flows repeat what `correlation`
# already says. Event Structs are gc=False (they hold no cycles): hundreds of thousands of
# tracked objects would otherwise set off the cyclic collector again and again while decoding.
_IGNORED_PHASES = "CbnestfPONDVvRc()"
_Event = _Slice | _Begin | _End | _Instant | _InstantOld | _Metadata
for _phase in _IGNORED_PHASES:
    _Event = _Event | msgspec.defstruct(
        f"_Ignored{ord(_phase)}", [], tag_field="ph", tag=_phase, gc=False
    )


class _Outer(msgspec.Struct):
    """The document around `traceEvents` (decoded from the header and the tail only)."""

    traceEvents: list[_Event] = []  # type: ignore[valid-type]
    baseTimeNanoseconds: _BaseTime = 0
    distributedInfo: dict[str, Any] = {}
    deviceProperties: list[dict[str, Any]] = []
    schemaVersion: int = 0
    tb_perf: dict[str, Any] | str | None = None
    traceName: str = ""


_EVENTS_DECODER = msgspec.json.Decoder(list[_Event])  # type: ignore[valid-type]
_RAW_LIST_DECODER = msgspec.json.Decoder(list[msgspec.Raw])
_EVENT_DECODER = msgspec.json.Decoder(_Event)  # type: ignore[valid-type]
_OUTER_DECODER = msgspec.json.Decoder(_Outer)
_TRACE_EVENTS_KEY = re.compile(rb'"traceEvents"\s*:\s*\[')
_KEY_OVERLAP = 4096  # bytes searched again for the key when the next block comes
_EVENT_CUT = re.compile(rb"\}\s*,\s*\{")

SLICE_COLUMNS = {
    "start": np.int64, "dur": np.int64, "kind": np.int8, "name": np.int32, "pid": np.int64,
    "tid": np.int64, "correlation": np.int64, "external_id": np.int64, "collective": np.int32,
    "in_nelems": np.int64, "out_nelems": np.int64, "group_size": np.int32, "dtype": np.int32,
    "process_group": np.int32, "grid": np.int32, "block": np.int32, "registers": np.int32,
    "shared_memory": np.int64, "blocks_per_sm": np.float32, "warps_per_sm": np.float32,
    "occupancy": np.float32, "input_dims": np.int32, "input_types": np.int32,
}  # fmt: skip
# Slice columns that index the string table
NAME_COLUMNS = (
    "name",
    "collective",
    "dtype",
    "process_group",
    "grid",
    "block",
    "input_dims",
    "input_types",
)
MEMORY_COLUMNS = {
    "ts": np.int64, "bytes": np.int64, "total_allocated": np.int64, "total_reserved": np.int64,
    "device_type": np.int8, "device_id": np.int16, "addr": np.uint64, "pid": np.int64,
    "tid": np.int64,
}  # fmt: skip


@dataclass
class TraceMeta:
    """What the trace says about itself, beyond its events."""

    path: str
    rank: int | None = None
    world_size: int | None = None
    base_time_ns: int = 0
    distributed_info: dict[str, Any] = field(default_factory=dict)
    device_properties: list[dict[str, Any]] = field(default_factory=list)
    tb_perf: dict[str, Any] | None = None
    thread_names: dict[str, str] = field(default_factory=dict)  # "pid/tid" or "pid" -> name
    labels: dict[str, str] = field(default_factory=dict)  # id of a non-numeric pid/tid -> text
    events: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def to_collectors_ns(self) -> int:
        """Add to this trace's times to put them on the clock of the collectors that wrote it
        (`profile_steps` records the difference; 0 for traces from elsewhere)."""
        shift = (self.tb_perf or {}).get("trace_to_collectors_ns", 0)
        return shift if isinstance(shift, int) and not isinstance(shift, bool) else 0


@dataclass
class TraceTables:
    """One trace file as columns. `slices` are duration events sorted by start; `names` is the
    string table every *name-like* int32 column indexes (-1 = none)."""

    meta: TraceMeta
    names: list[str]
    slices: dict[str, np.ndarray]
    memory: dict[str, np.ndarray]

    @property
    def n_events(self) -> int:
        return int(len(self.slices["start"]) + len(self.memory["ts"]))


class _Interner:
    """Strings to dense int32 ids shared by every name-like column of one trace."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.names: list[str] = []

    def id(self, value: str) -> int:
        found = self.ids.get(value)
        if found is None:
            found = self.ids[value] = len(self.names)
            self.names.append(value)
        return found

    def raw_column(self, values: list[msgspec.Raw]) -> np.ndarray:
        """Intern undecoded JSON values (e.g. `[8, 1, 1]`) as their text."""
        texts = list(map(bytes, values))
        lookup = {
            t: (self.id(t.decode("utf-8", "replace")) if t else -1) for t in dict.fromkeys(texts)
        }
        return np.fromiter(map(lookup.__getitem__, texts), np.int32, len(texts))

    def column(self, values: list[str], empty_is_none: bool = True) -> np.ndarray:
        """Intern a column: unique values once each, then one lookup pass in C."""
        lookup = {
            v: (-1 if (empty_is_none and v == "") else self.id(v)) for v in dict.fromkeys(values)
        }
        return np.fromiter(map(lookup.__getitem__, values), np.int32, len(values))


class _IdMap:
    """pid/tid values to int64: numbers stay, other strings get stable negative ids."""

    def __init__(self, labels: dict[str, str]) -> None:
        self._ids: dict[str, int] = {}
        self._labels = labels

    def __call__(self, value: int | str) -> int:
        if type(value) is int:
            return value
        text = str(value)
        if text.lstrip("-").isascii() and text.lstrip("-").isdigit() and len(text) < 19:
            return int(text)
        found = self._ids.get(text)
        if found is None:
            found = self._ids[text] = -1 - len(self._ids)
            self._labels[str(found)] = text
        return found


def _as_int(value: int | str) -> int:
    """An int, or a number as text ("0x0"); -1 for other text and values past int64."""
    if type(value) is int:
        return value
    try:
        number = int(value, 0)
    except ValueError:
        return -1
    return number if -(2**63) <= number < 2**63 else -1


def _to_ns(microseconds: np.ndarray, base_ns: int) -> np.ndarray:
    """float64 µs to int64 ns without going through float64 ns (which rounds to 256 ns at epoch
    scale): the integer part is scaled exactly, only the fraction is rounded."""
    whole = np.floor(microseconds)
    return (
        base_ns
        + whole.astype(np.int64) * 1000
        + np.rint((microseconds - whole) * 1000).astype(np.int64)
    )


class _Columns:
    """Accumulates decoded events of one trace, chunk by chunk, as numpy column pieces."""

    def __init__(self, meta: TraceMeta) -> None:
        self.meta = meta
        self.strings = _Interner()
        self.ids = _IdMap(meta.labels)
        # Times stay in float µs ("start_us", "dur_us", "ts_us") until the base time is known:
        # newer traces state it after the events. Parts are keyed by chunk number, so chunks
        # decoded in another process join in file order.
        self.slice_parts: list[tuple[int, dict[str, np.ndarray]]] = []
        self.memory_parts: list[tuple[int, dict[str, np.ndarray]]] = []
        # (name, pid, tid, args name, args labels) -> first chunk it is in
        self.metadata: dict[tuple, int] = {}
        self.open_begins: dict[tuple[int, int], list[_Slice]] = {}  # B/E pairing
        # B/E pairs can span chunks: a reader that splits chunks between processes cannot
        # pair them and starts over in one process.
        self.pairs_begin_end = True
        self.events = 0

    def add(self, events: list, chunk: int) -> None:
        """Columns from one chunk of decoded events. Passes over all events run in C (`map`,
        `compress`): a Python loop per event would cost more than the JSON decode."""
        self.events += len(events)
        types = list(map(type, events))
        present = set(types)

        def of_type(kind: type) -> list:
            return list(compress(events, map(partial(operator.is_, kind), types)))

        slices = events if present == {_Slice} else of_type(_Slice)
        durations = list(map(_DUR, slices))
        if _Metadata in present:
            for e in set(of_type(_Metadata)):
                if e.args is not None:
                    key = (e.name, e.pid, e.tid, e.args.name, e.args.labels)
                    self.metadata.setdefault(key, chunk)
        if _Begin in present or _End in present:
            if not self.pairs_begin_end:
                raise _NeedsOneProcess("begin/end events")
            self._pair_begin_end(
                [e for e in events if type(e) in (_Begin, _End)], slices, durations
            )
        if slices:
            self._add_slices(slices, durations, chunk)
        if _Instant in present or _InstantOld in present:
            instants = of_type(_Instant) + of_type(_InstantOld)  # ordered by time later
            memory = list(
                compress(instants, map(partial(operator.eq, "[memory]"), map(_NAME, instants)))
            )
            if memory:
                self._add_memory(memory, chunk)

    def _pair_begin_end(self, events: list, slices: list, durations: list) -> None:
        for event in events:
            if type(event) is _Begin:
                self.open_begins.setdefault(self._thread(event), []).append(event)
            else:
                stack = self.open_begins.get(self._thread(event))
                if stack:
                    begin = stack.pop()
                    slices.append(begin)
                    durations.append(event.ts - begin.ts)

    def _thread(self, event: _Slice) -> tuple[int, int]:
        return (self.ids(event.pid), self.ids(event.tid))

    def _metadata_event(
        self, name: str, pid: int | str, tid: int | str, arg_name: str, labels: str
    ) -> None:
        if name == "process_name" and arg_name:
            self.meta.thread_names.setdefault(str(self.ids(pid)), arg_name)
        elif name == "process_labels" and labels:
            self.meta.thread_names[str(self.ids(pid))] = labels
        elif name == "thread_name" and arg_name:
            self.meta.thread_names[f"{self.ids(pid)}/{self.ids(tid)}"] = arg_name

    def _id_column(self, values: list[int | str]) -> np.ndarray:
        """pid/tid values to int64, mapping each distinct value once."""
        ids = self.ids
        lookup = {v: v if type(v) is int else ids(v) for v in dict.fromkeys(values)}
        return np.fromiter(map(lookup.__getitem__, values), np.int64, len(values))

    def _add_slices(self, events: list[_Slice], durations: list[float], chunk: int) -> None:
        n = len(events)
        args = list(map(_ARGS, events))
        if None in args:
            args = [a or _NO_ARGS for a in args]
        strings = self.strings
        cats = list(map(_CAT, events))
        kind_of = {c: _KIND_OF_CATEGORY.get(c.lower(), Kind.OTHER) for c in set(cats)}
        kinds = np.fromiter(map(kind_of.__getitem__, cats), np.int8, n)
        pids = self._id_column(list(map(_PID, events)))
        tids = self._id_column(list(map(_TID, events)))
        external = np.fromiter(map(_EXTERNAL_ID, args), np.int64, n)
        part = {
            "start_us": np.fromiter(map(_TS, events), np.float64, n),
            "dur_us": np.array(durations, dtype=np.float64),
            "kind": kinds,
            "name": strings.column(list(map(_NAME, events)), empty_is_none=False),
            "pid": pids,
            "tid": tids,
            "correlation": np.fromiter(map(_CORRELATION, args), np.int64, n),
            "external_id": external,
        }
        for column, dtype in SLICE_COLUMNS.items():
            if column not in part and column not in ("start", "dur"):
                part[column] = np.full(n, -1, dtype=dtype)

        def fill(index: np.ndarray, column: str, values: list) -> None:
            part[column][index] = values

        def args_of(rows: np.ndarray) -> list[_Args]:
            return list(map(args.__getitem__, rows.tolist()))

        def values(column: str, of: list[_Args]) -> list:
            return list(map(operator.attrgetter(column), of))

        # 2021 traces spell it "external id" on device events
        missing = np.flatnonzero(external < 0)
        fill(missing, "external_id", values("external_id_2021", args_of(missing)))
        # Device events: lanes are (device, stream) when the args say so ("tid": "stream 7").
        device_rows = np.flatnonzero(np.isin(kinds, DEVICE_KINDS))
        device_args = args_of(device_rows)
        devices = np.array(list(map(_as_int, values("device", device_args))), dtype=np.int64)
        streams = np.array(list(map(_as_int, values("stream", device_args))), dtype=np.int64)
        pids[device_rows] = np.where(devices >= 0, devices, pids[device_rows])
        tids[device_rows] = np.where(streams >= 0, streams, tids[device_rows])
        kernel_rows = device_rows[kinds[device_rows] == Kind.KERNEL]
        kernel_args = args_of(kernel_rows)
        fill(kernel_rows, "grid", strings.raw_column(values("grid", kernel_args)))
        fill(kernel_rows, "block", strings.raw_column(values("block", kernel_args)))
        for column in ("registers", "shared_memory", "blocks_per_sm", "warps_per_sm", "occupancy"):
            fill(kernel_rows, column, values(column, kernel_args))
        collectives = values("collective", args)
        comm_rows = np.flatnonzero(np.fromiter(map(bool, collectives), bool, n))
        comm_args = args_of(comm_rows)
        fill(comm_rows, "collective", strings.column(values("collective", comm_args)))
        fill(comm_rows, "dtype", strings.column(values("dtype", comm_args)))
        fill(
            comm_rows,
            "process_group",
            strings.column([a.process_group or a.process_group_desc for a in comm_args]),
        )
        for column in ("in_nelems", "out_nelems", "group_size"):
            fill(comm_rows, column, values(column, comm_args))
        op_rows = np.flatnonzero(kinds == Kind.CPU_OP)
        op_args = args_of(op_rows)
        fill(op_rows, "input_dims", strings.raw_column(values("input_dims", op_args)))
        fill(op_rows, "input_types", strings.raw_column(values("input_types", op_args)))
        self.slice_parts.append((chunk, part))

    def _add_memory(self, events: list[_Slice], chunk: int) -> None:
        args = [e.args or _NO_ARGS for e in events]
        part = {
            "ts_us": np.array([e.ts for e in events], dtype=np.float64),
            "bytes": np.array([a.bytes for a in args], dtype=np.int64),
            "total_allocated": np.array([a.total_allocated for a in args], dtype=np.int64),
            "total_reserved": np.array([a.total_reserved for a in args], dtype=np.int64),
            "device_type": np.array([a.device_type for a in args], dtype=np.int8),
            "device_id": np.array([a.device_id for a in args], dtype=np.int16),
            "addr": np.array([max(a.addr, 0) for a in args], dtype=np.uint64),
            "pid": self._id_column([e.pid for e in events]),
            "tid": self._id_column([e.tid for e in events]),
        }
        self.memory_parts.append((chunk, part))

    def export(self) -> dict[str, Any]:
        """What another process's `merge` needs (picklable)."""
        return {
            "slice_parts": self.slice_parts,
            "memory_parts": self.memory_parts,
            "names": self.strings.names,
            "labels": self.meta.labels,
            "metadata": self.metadata,
            "events": self.events,
            "problems": self.meta.problems,
        }

    def merge(self, other: dict[str, Any]) -> None:
        """Take in the chunks another process decoded: its string ids and the negative ids it
        gave non-numeric pids/tids are renumbered into this one's."""
        strings = np.array([self.strings.id(n) for n in other["names"]] + [-1], dtype=np.int32)
        renumber = {int(local): self.ids(text) for local, text in other["labels"].items()}
        for chunk, part in other["slice_parts"]:
            for column in NAME_COLUMNS:
                part[column] = strings[part[column]]  # -1 (none) indexes the trailing -1
            self._renumber_ids(part, renumber)
            self.slice_parts.append((chunk, part))
        for chunk, part in other["memory_parts"]:
            self._renumber_ids(part, renumber)
            self.memory_parts.append((chunk, part))
        for key, chunk in other["metadata"].items():
            self.metadata[key] = min(chunk, self.metadata.get(key, chunk))
        self.events += other["events"]
        self.meta.problems.extend(other["problems"])

    @staticmethod
    def _renumber_ids(part: dict[str, np.ndarray], renumber: dict[int, int]) -> None:
        for column in ("pid", "tid"):
            values = part[column]
            negative = values < 0  # only non-numeric ids (and negative numbers) are negative
            if renumber and negative.any():
                values[negative] = [renumber.get(v, v) for v in values[negative].tolist()]

    def finish(self) -> TraceTables:
        # in file order (then a fixed one): the first process_name of a pid wins
        for key in sorted(self.metadata, key=lambda k: (self.metadata[k], repr(k))):
            self._metadata_event(*key)
        base = self.meta.base_time_ns
        slices = _concat(_in_file_order(self.slice_parts), SLICE_COLUMNS)
        slices["start"] = _to_ns(slices.pop("start_us"), base)
        slices["dur"] = np.rint(slices.pop("dur_us") * 1000).astype(np.int64)
        order = np.argsort(slices["start"], kind="stable")
        for name in slices:  # one column at a time: peak memory stays near one table
            slices[name] = slices[name][order]
        memory = _concat(_in_file_order(self.memory_parts), MEMORY_COLUMNS)
        memory["ts"] = _to_ns(memory.pop("ts_us"), base)
        order = np.argsort(memory["ts"], kind="stable")
        for name in memory:
            memory[name] = memory[name][order]
        self.meta.events = self.events
        unclosed = sum(len(stack) for stack in self.open_begins.values())
        if unclosed:
            self.meta.problems.append(f"{unclosed} begin event(s) without an end were dropped")
        return TraceTables(self.meta, self.strings.names, slices, memory)


def _in_file_order(parts: list[tuple[int, dict[str, np.ndarray]]]) -> list[dict[str, np.ndarray]]:
    return [part for _, part in sorted(parts, key=lambda item: item[0])]


def _concat(parts: list[dict[str, np.ndarray]], schema: dict[str, type]) -> dict[str, np.ndarray]:
    """Join chunk pieces, taking each column out of the pieces as it is joined (so their
    memory goes as the table's comes); empty tables get typed empty columns (times as float
    µs)."""
    names = (
        list(parts[0])
        if parts
        else [
            *(n for n in schema if n not in ("start", "ts")),
            *(("start_us", "dur_us") if "start" in schema else ("ts_us",)),
        ]
    )
    out = {}
    for name in names:
        if parts:
            out[name] = np.concatenate([part.pop(name) for part in parts])
        else:
            out[name] = np.zeros(0, dtype=np.float64 if name.endswith("_us") else schema[name])
    return out


# --- streaming decode ------------------------------------------------------------------------


def _decompressed_blocks(path: str, max_bytes: int, block_bytes: int = 4 << 20) -> Iterator[bytes]:
    """The file's bytes (gunzipped if needed) in blocks of at most `block_bytes`, refusing more
    than `max_bytes` in all (a gzip bomb stops at the limit, not at the end of memory)."""
    name = os.path.basename(path)
    total = 0
    with open_input(path, max_bytes, "trace") as handle:
        gzipped = handle.read(2) == b"\x1f\x8b"
        handle.seek(0)
        inflater = zlib.decompressobj(wbits=47) if gzipped else None
        while compressed := handle.read(1 << 20):
            while compressed:  # each piece counted as it comes: 1 MiB of a bomb is 1 GB
                if inflater is None:
                    piece, compressed = compressed, b""
                else:
                    piece = inflater.decompress(compressed, block_bytes)
                    compressed = inflater.unconsumed_tail
                    if inflater.eof and inflater.unused_data:  # concatenated gzip members
                        compressed = inflater.unused_data
                        inflater = zlib.decompressobj(wbits=47)
                total += len(piece)
                if total > max_bytes:
                    raise Unreadable(
                        f"{name} holds more than the {human_bytes(max_bytes)} limit for one "
                        "trace (TB_PERF_MAX_FILE_MB raises it)"
                    )
                if piece:
                    yield piece
        if inflater is not None and not inflater.eof:
            raise Unreadable(f"{name} is a truncated gzip file (the job may still be writing it)")


def read_trace(
    path: str,
    max_bytes: int = 4 << 30,
    on_progress: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    helper: bool | None = None,
) -> TraceTables:
    """Parse one trace file into tables; `on_progress(n)` is called with decompressed bytes.

    With `helper` (None: where `_helper_worthwhile` says so), a forked helper process reads the
    same file and decodes one chunk in three while this one decodes the rest: both find the same
    chunk boundaries, so nothing but the helper's finished columns crosses between them. About
    1.3x faster on two cores. A trace the split cannot handle is read again in one process.
    """
    if helper is None:
        helper = _helper_worthwhile(path)
    if helper:
        try:
            with _ChunkHelper(path, max_bytes, chunk_bytes) as chunk_helper:
                columns, outer = _decode_stream(path, max_bytes, on_progress, chunk_bytes, 0)
                columns.merge(chunk_helper.result())
                return _tables(columns, outer)
        except _NeedsOneProcess:
            pass
    columns, outer = _decode_stream(path, max_bytes, on_progress, chunk_bytes, None)
    return _tables(columns, outer)


def _decode_stream(
    path: str,
    max_bytes: int,
    on_progress: Callable[[int], None] | None,
    chunk_bytes: int,
    share: int | None,
) -> tuple[_Columns, _Outer]:
    """Decode the file's events chunk by chunk. With `share` 0 (this process) or 1 (the
    helper), only the chunks `_decoded_by` gives it; share 1 also skips the document's tail."""
    name = os.path.basename(path)
    meta = TraceMeta(path=path)
    columns = _Columns(meta)
    columns.pairs_begin_end = share is None
    blocks = _decompressed_blocks(path, max_bytes, min(chunk_bytes, 4 << 20))
    chunk = 0
    try:
        header, buffer, bare = _read_header(blocks, name, on_progress)
        next_attempt = chunk_bytes
        for block in blocks:
            if on_progress is not None:
                on_progress(len(block))
            buffer += block
            if len(buffer) >= next_attempt:
                before = len(buffer)
                if share is None or _decoded_by(chunk) == share:
                    buffer = _decode_complete_events(buffer, columns, chunk, share is None)
                else:
                    buffer = _skip_complete_events(buffer)
                chunk += len(buffer) < before
                if len(buffer) >= before and len(buffer) > MAX_EVENT_BYTES:
                    raise Unreadable(
                        f"{name}: no boundary between two events in "
                        f"{human_bytes(MAX_EVENT_BYTES)}: not a trace, or an event larger than "
                        "any torch.profiler writes"
                    )
                # after a failed cut, wait for another chunk's worth before trying again
                next_attempt = chunk_bytes if len(buffer) < before else len(buffer) + chunk_bytes
        if share == 1:
            return columns, _Outer()
        # The rest is the last event(s), the array's end and the document's tail: with the
        # header in front it is a complete, small JSON document.
        outer = _decode_outer(header, buffer, bare, meta)
    except (zlib.error, EOFError) as exc:
        raise Unreadable(f"{name}: corrupt compressed data ({exc})") from None
    if outer.traceEvents:
        columns.add(outer.traceEvents, chunk)
    return columns, outer


def _tables(columns: _Columns, outer: _Outer) -> TraceTables:
    _fill_meta(columns.meta, outer)
    if columns.events == 0:
        raise Unreadable(f"{os.path.basename(columns.meta.path)}: the trace holds no events")
    return columns.finish()


HELPER_PERIOD = 3  # the helper decodes one chunk in HELPER_PERIOD


def _decoded_by(chunk: int) -> int:
    """0: this process, 1: the helper."""
    return int(chunk % HELPER_PERIOD == 0)


class _NeedsOneProcess(Exception):
    """The trace cannot be split between processes (B/E pairs, a chunk cut inside a string)."""


_GZIP_MIN_BYTES = 18  # header and trailer
HELPER_MIN_BYTES = 48 << 20  # decompressed; smaller traces are not worth a process


def _helper_worthwhile(path: str) -> bool:
    """A helper pays off for a large trace, with a second CPU, where forking is safe: on Linux,
    from a process with no other threads (whose locks a fork could copy mid-use)."""
    if sys.platform != "linux" or threading.active_count() > 1:
        return False
    if len(os.sched_getaffinity(0)) < 2:
        return False
    return _decompressed_size(path) >= HELPER_MIN_BYTES


def _decompressed_size(path: str) -> int:
    """The gzip trailer's size (modulo 4 GiB, of the last member), else the file's size."""
    with open_input(path, None) as handle:
        size = os.fstat(handle.fileno()).st_size
        if handle.read(2) != b"\x1f\x8b" or size < _GZIP_MIN_BYTES:
            return size
        handle.seek(-4, os.SEEK_END)
        return int.from_bytes(handle.read(4), "little")


class _ChunkHelper:
    """A forked process decoding its share of a trace's chunks into columns of its own, handed
    back by `result()`. Lives only inside a `with` block."""

    def __init__(self, path: str, max_bytes: int, chunk_bytes: int) -> None:
        self._args = (path, max_bytes, chunk_bytes)

    def __enter__(self) -> _ChunkHelper:
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_helper_main, args=(child, *self._args), name="tb_perf trace decode"
        )
        try:
            self._process.start()
        except (AssertionError, OSError) as exc:  # e.g. a daemonic caller may have no children
            self._conn.close()
            raise _NeedsOneProcess(f"no helper process: {exc}") from None
        finally:
            child.close()
        return self

    def result(self) -> dict[str, Any]:
        try:
            outcome = self._conn.recv()
        except EOFError:
            outcome = "the helper process ended without an answer"
        if isinstance(outcome, str):
            raise _NeedsOneProcess(outcome)
        return outcome

    def __exit__(self, error_type: type | None, *exc_info: object) -> None:
        self._conn.close()
        if error_type is None:
            self._process.join(timeout=5)
        if self._process.is_alive():  # this side failed first: the helper's work is not needed
            self._process.kill()
            self._process.join()


def _helper_main(
    conn: multiprocessing.connection.Connection, path: str, max_bytes: int, chunk_bytes: int
) -> None:
    try:
        columns, _ = _decode_stream(path, max_bytes, None, chunk_bytes, 1)
        outcome: dict[str, Any] | str = columns.export()
    except Exception as exc:  # reported to the parent, which then reads in one process
        outcome = f"{type(exc).__name__}: {exc}"
    with contextlib.suppress(OSError):
        conn.send(outcome)


def _read_header(
    blocks: Iterator[bytes], name: str, on_progress: Callable[[int], None] | None
) -> tuple[bytes, bytearray, bool]:
    """Consume blocks until the start of the events array; return (header, rest, is_bare),
    where `rest` starts with the array's "[" and the header is what comes before it."""
    seen = bytearray()
    leading = 0  # whitespace before the document, dropped as it comes
    for block in blocks:
        if on_progress is not None:
            on_progress(len(block))
        if not seen:
            stripped = block.lstrip()
            leading += len(block) - len(stripped)
            if not stripped:
                if leading > MAX_EVENT_BYTES:
                    break
                continue
            if stripped[:1] == b"[":  # 2020 schema: the whole file is the events array
                return b"", bytearray(stripped), True
            if stripped[:1] != b"{":
                raise Unreadable(f"{name}: not a JSON trace (it does not start with {{ or [)")
            block = stripped
        resume = max(0, len(seen) - _KEY_OVERLAP)  # the key may straddle two blocks
        seen += block
        match = _TRACE_EVENTS_KEY.search(seen, resume)
        if match:
            return bytes(seen[: match.end() - 1]), bytearray(seen[match.end() - 1 :]), False
        if len(seen) > MAX_EVENT_BYTES:
            break
    if seen:
        raise Unreadable(f'{name}: no "traceEvents" array found; not a Chrome/Kineto trace')
    raise Unreadable(
        f"{name}: the file holds nothing but whitespace"
        if leading
        else f"{name}: the file is empty"
    )


def _last_cut(buffer: bytearray, end: int) -> re.Match | None:
    """The last place before `end` that looks like the boundary between two events, searched
    for in the last 64 KiB, then the last 1 MiB (events are rarely longer)."""
    for window in (1 << 16, 1 << 20):
        last = None
        for match in _EVENT_CUT.finditer(buffer, max(0, end - window), end):
            last = match
        if last is not None or window >= end:
            return last
    return None


def _skip_complete_events(buffer: bytearray) -> bytearray:
    """Drop the whole events at the front of `buffer` (the other process decodes them), cut
    where `_decode_complete_events` cuts first."""
    cut = _last_cut(buffer, len(buffer))
    if cut is None:
        return buffer
    rest = bytearray(b"[")
    rest += memoryview(buffer)[cut.end() - 1 :]
    return rest


def _decode_complete_events(
    buffer: bytearray, columns: _Columns, chunk: int, may_cut_earlier: bool = True
) -> bytearray:
    """Decode the whole events at the front of `buffer` (which starts with "["); return a new
    buffer, starting with "[", of what is left undecoded.

    The byte after the cut is overwritten with "]" so the front decodes in place, without a
    copy. Tries the last two cut candidates: a candidate inside an event leaves unbalanced
    brackets or an open string and fails to decode. If both fail, nothing is consumed. When the
    other process cut at the first candidate (`may_cut_earlier` False), a failed first
    candidate means the split cannot go on.
    """
    end = len(buffer)
    for _ in range(2):
        cut = _last_cut(buffer, end)
        if cut is None:
            return buffer
        close_at = cut.start() + 1
        saved = buffer[close_at]
        buffer[close_at] = ord("]")
        piece = memoryview(buffer)[: close_at + 1]
        try:
            try:
                events = _EVENTS_DECODER.decode(piece)
            except msgspec.ValidationError:  # also raised before a syntax error further on
                events = _decode_leniently(bytes(piece), columns.meta)
        except (msgspec.DecodeError, RecursionError):
            del piece
            buffer[close_at] = saved
            if not may_cut_earlier:
                raise _NeedsOneProcess("a chunk boundary fell inside a string") from None
            end = cut.start()
            continue
        del piece
        columns.add(events, chunk)
        rest = bytearray(b"[")
        rest += memoryview(buffer)[cut.end() - 1 :]
        return rest
    return buffer


def _decode_leniently(piece: bytes, meta: TraceMeta) -> list:
    """Event by event, skipping the ones whose fields have unexpected types."""
    events, skipped = [], 0
    for raw in _RAW_LIST_DECODER.decode(piece):
        try:
            events.append(_EVENT_DECODER.decode(raw))
        except (msgspec.ValidationError, RecursionError):
            skipped += 1
    if skipped:
        meta.problems.append(f"{skipped} event(s) with unexpected field types skipped")
    return events


def _decode_outer(header: bytes, rest: bytearray, bare: bool, meta: TraceMeta) -> _Outer:
    document = bytes(rest) if bare else header + rest
    try:
        try:
            if bare:
                return _Outer(traceEvents=_EVENTS_DECODER.decode(document))
            return _OUTER_DECODER.decode(document)
        except msgspec.ValidationError:  # also raised before a syntax error further on
            return _decode_outer_leniently(document, bare, meta)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise Unreadable(
            f"{os.path.basename(meta.path)}: truncated or malformed JSON ({exc})"
        ) from None


def _decode_outer_leniently(document: bytes, bare: bool, meta: TraceMeta) -> _Outer:
    """The document with its events decoded one by one and trace-level fields of unexpected
    types ignored."""
    if bare:
        return _Outer(traceEvents=_decode_leniently(document, meta))
    raw = msgspec.json.decode(document)
    events = raw.pop("traceEvents", []) if isinstance(raw, dict) else []
    fields = {k: v for k, v in raw.items() if k in _Outer.__struct_fields__}
    try:
        outer = msgspec.convert(fields, _Outer, strict=False)
    except msgspec.ValidationError as exc:
        meta.problems.append(f"trace-level fields ignored: {exc}")
        outer = _Outer()
    outer.traceEvents = _decode_leniently(msgspec.json.encode(events), meta)
    return outer


def _fill_meta(meta: TraceMeta, outer: _Outer) -> None:
    meta.base_time_ns = outer.baseTimeNanoseconds
    meta.distributed_info = outer.distributedInfo
    meta.device_properties = outer.deviceProperties
    tb_perf = outer.tb_perf
    if isinstance(tb_perf, str):  # add_metadata_json stores a JSON string on some versions
        try:
            tb_perf = msgspec.json.decode(tb_perf)
        except (msgspec.DecodeError, RecursionError):
            tb_perf = None
    meta.tb_perf = tb_perf if isinstance(tb_perf, dict) else None
    for source in (meta.tb_perf or {}, meta.distributed_info):
        if meta.rank is None and isinstance(source.get("rank"), int):
            meta.rank = source["rank"]
        if meta.world_size is None and isinstance(source.get("world_size"), int):
            meta.world_size = source["world_size"]


def is_collective(names: list[str]) -> np.ndarray:
    """Per name in a string table: does it name a collective operation or kernel?"""
    return np.array([bool(_COLLECTIVE_NAME.search(n)) for n in names], dtype=bool)
