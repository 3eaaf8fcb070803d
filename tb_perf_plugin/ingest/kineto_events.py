"""A Kineto trace's events as msgspec Structs, and the columns built from them chunk by chunk.

`kineto.py` streams the file and cuts it into chunks of whole events; each chunk decodes into
the Structs below (fields tb-perf does not read are skipped by the decoder) and `TraceColumns`
turns them into numpy column pieces, joined into `TraceTables` at the end. Passes over the
events run in C (`map`, `compress`, `np.fromiter`): a Python loop per event would cost more
than the JSON decode.
"""

from __future__ import annotations

import operator
from functools import partial
from itertools import compress
from typing import Annotated, Any

import msgspec
import numpy as np

from .records import Int64
from .tables import (
    DEVICE_KINDS,
    MEMORY_COLUMNS,
    NAME_COLUMNS,
    SLICE_COLUMNS,
    Kind,
    TraceMeta,
    TraceTables,
)

# the CUPTI range profiler's events (torch.profiler's experimental_config with profiler_metrics):
# one per kernel or range, with counter values, at times spread evenly over the window
PROFILER_RANGE = "cuda_profiler_range"
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
    # with_stack=True on the 2021 schema; newer ones record python_function events instead
    call_stack: str = msgspec.field(default="", name="Call stack")
    # [memory] instant events
    bytes: Int64 = msgspec.field(default=0, name="Bytes")
    total_allocated: Int64 = msgspec.field(default=-1, name="Total Allocated")
    total_reserved: Int64 = msgspec.field(default=-1, name="Total Reserved")
    device_type: _Int8 = msgspec.field(default=-1, name="Device Type")
    device_id: _Int16 = msgspec.field(default=-1, name="Device Id")
    addr: Int64 = msgspec.field(default=0, name="Addr")


_NO_ARGS = _Args()
# the slice columns read from every event; the others come from the arguments
_COMMON_COLUMNS = ("start", "dur", "kind", "name", "pid", "tid")
_ARGS, _CAT, _NAME = (operator.attrgetter(f) for f in ("args", "cat", "name"))
_PID, _TID, _TS, _DUR = (operator.attrgetter(f) for f in ("pid", "tid", "ts", "dur"))
_CORRELATION, _EXTERNAL_ID, _COLLECTIVE = (
    operator.attrgetter(f) for f in ("correlation", "external_id", "collective")
)


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
# A union built at run time (msgspec decodes by it): to mypy a value of type Any.
_event_union: Any = _Slice | _Begin | _End | _Instant | _InstantOld | _Metadata
for _phase in _IGNORED_PHASES:
    _event_union = _event_union | msgspec.defstruct(
        f"_Ignored{ord(_phase)}", [], tag_field="ph", tag=_phase, gc=False
    )
Event = _event_union


class Outer(msgspec.Struct):
    """The document around `traceEvents` (decoded from the header and the tail only)."""

    # msgspec reads this annotation to decode; mypy cannot check a union built at run time
    traceEvents: list[Event] = []  # type: ignore[valid-type]
    baseTimeNanoseconds: _BaseTime = 0
    distributedInfo: dict[str, Any] = {}
    deviceProperties: list[dict[str, Any]] = []
    schemaVersion: int = 0
    tb_perf: dict[str, Any] | str | None = None
    traceName: str = ""


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


def _detached(args: _Args | None) -> _Args | None:
    """`args` with each undecoded (msgspec.Raw) value copied out of the buffer it views."""
    if args is None:
        return None
    raw = {
        field: value.copy()
        for field in args.__struct_fields__
        if isinstance(value := getattr(args, field), msgspec.Raw)
    }
    return msgspec.structs.replace(args, **raw)


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
    if isinstance(value, int):  # never a bool: msgspec does not decode one as `int | str`
        return value
    try:
        number = int(value, 0)
    except ValueError:
        return -1
    return number if -(2**63) <= number < 2**63 else -1


def _to_ns(microseconds: np.ndarray) -> np.ndarray:
    """float64 µs to int64 ns without going through float64 ns (which rounds to 256 ns at epoch
    scale): the integer part is scaled exactly, only the fraction is rounded."""
    whole = np.floor(microseconds)
    return whole.astype(np.int64) * 1000 + np.rint((microseconds - whole) * 1000).astype(np.int64)


def _sorted_by(part: dict[str, np.ndarray], key: str) -> dict[str, np.ndarray]:
    """A chunk's columns in the order of `key`, ties in file order: sorted where each chunk is
    built (in two processes), the table's final sort only merges the chunks' runs."""
    times = part[key]
    if len(times) > 1 and not (times[1:] >= times[:-1]).all():
        order = np.argsort(times, kind="stable")
        part = {name: values[order] for name, values in part.items()}
    return part


class TraceColumns:
    """Accumulates decoded events of one trace, chunk by chunk, as numpy column pieces."""

    def __init__(self, meta: TraceMeta) -> None:
        self.meta = meta
        self.strings = _Interner()
        self.ids = _IdMap(meta.labels)
        # Times are ns from the base time ("start", "ts"), added once it is known: newer traces
        # state it after the events. Parts are keyed by chunk number, so chunks decoded in
        # another process join in file order.
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
        durations: list[float] | None = None  # read from `slices` unless B/E pairs add some
        if _Metadata in present:
            for e in set(of_type(_Metadata)):
                if e.args is not None:
                    key = (e.name, e.pid, e.tid, e.args.name, e.args.labels)
                    self.metadata.setdefault(key, chunk)
        if _Begin in present or _End in present:
            if not self.pairs_begin_end:
                raise NeedsOneProcess("begin/end events")
            durations = list(map(_DUR, slices))
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
                # may stay open past this chunk: its args must not keep views of the read
                # buffer, which is cut after each chunk (a view makes that a BufferError)
                event.args = _detached(event.args)
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
        distinct = dict.fromkeys(values)
        if all(type(v) is int for v in distinct):  # the usual case: no lookup per event
            return np.fromiter(values, np.int64, len(values))
        lookup = {v: v if type(v) is int else ids(v) for v in distinct}
        return np.fromiter(map(lookup.__getitem__, values), np.int64, len(values))

    def _add_slices(self, events: list[_Slice], durations: list[float] | None, chunk: int) -> None:
        n = len(events)
        cats = list(map(_CAT, events))
        kind_of = {c: _KIND_OF_CATEGORY.get(c.lower(), Kind.OTHER) for c in set(cats)}
        if PROFILER_RANGE in kind_of:
            self.meta.profiler_ranges += cats.count(PROFILER_RANGE)
        kinds = np.fromiter(map(kind_of.__getitem__, cats), np.int8, n)
        part: dict[str, np.ndarray] = {
            "start": _to_ns(np.fromiter(map(_TS, events), np.float64, n)),
            "dur": np.rint(
                1000
                * (
                    np.fromiter(map(_DUR, events), np.float64, n)
                    if durations is None
                    else np.array(durations, dtype=np.float64)
                )
            ).astype(np.int64),
            "kind": kinds,
            "name": self.strings.column(list(map(_NAME, events)), empty_is_none=False),
            "pid": self._id_column(list(map(_PID, events))),
            "tid": self._id_column(list(map(_TID, events))),
        }
        # Python-function events (most of the events of a trace recorded with_stack) have no
        # argument read here: the passes over arguments skip them
        with_args = kinds != Kind.PYTHON_FUNCTION
        if with_args.all():
            part.update(self._argument_columns(events, kinds, part["pid"], part["tid"]))
        else:
            rows = np.flatnonzero(with_args)
            pids, tids = part["pid"][rows], part["tid"][rows]
            read = list(compress(events, with_args.tolist()))
            found = self._argument_columns(read, kinds[rows], pids, tids)
            part["pid"][rows], part["tid"][rows] = pids, tids
            for column, values in found.items():
                part[column] = np.full(n, -1, dtype=values.dtype)
                part[column][rows] = values
        self.slice_parts.append((chunk, _sorted_by(part, "start")))

    def _argument_columns(
        self, events: list[_Slice], kinds: np.ndarray, pids: np.ndarray, tids: np.ndarray
    ) -> dict[str, np.ndarray]:
        """The columns read from the events' arguments (ids, kernel launches, collectives,
        operator inputs); a device event's pid and tid become its device and stream where its
        arguments name them (in place: "tid": "stream 7")."""
        n = len(events)
        args = list(map(_ARGS, events))
        if not all(args):  # an explicit `"args": null` (Structs are always true)
            args = [a or _NO_ARGS for a in args]
        strings = self.strings
        external = np.fromiter(map(_EXTERNAL_ID, args), np.int64, n)
        part: dict[str, np.ndarray] = {
            "correlation": np.fromiter(map(_CORRELATION, args), np.int64, n),
            "external_id": external,
        }
        for column, dtype in SLICE_COLUMNS.items():
            if column not in part and column not in _COMMON_COLUMNS:
                part[column] = np.full(n, -1, dtype=dtype)

        def fill(index: np.ndarray, column: str, values: list | np.ndarray) -> None:
            part[column][index] = values

        def args_of(rows: np.ndarray) -> list[_Args]:
            return list(map(args.__getitem__, rows.tolist()))

        def values(column: str, of: list[_Args]) -> list:
            return list(map(operator.attrgetter(column), of))

        # 2021 traces spell it "external id" on device events
        missing = np.flatnonzero(external < 0)
        fill(missing, "external_id", values("external_id_2021", args_of(missing)))
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
        comm_rows = np.flatnonzero(np.fromiter(map(bool, map(_COLLECTIVE, args)), bool, n))
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
        fill(op_rows, "call_stack", strings.column(values("call_stack", op_args)))
        return part

    def _add_memory(self, events: list[_Slice], chunk: int) -> None:
        args = [e.args or _NO_ARGS for e in events]
        part: dict[str, np.ndarray] = {
            "ts": _to_ns(np.array([e.ts for e in events], dtype=np.float64)),
            "bytes": np.array([a.bytes for a in args], dtype=np.int64),
            "total_allocated": np.array([a.total_allocated for a in args], dtype=np.int64),
            "total_reserved": np.array([a.total_reserved for a in args], dtype=np.int64),
            "device_type": np.array([a.device_type for a in args], dtype=np.int8),
            "device_id": np.array([a.device_id for a in args], dtype=np.int16),
            "addr": np.array([max(a.addr, 0) for a in args], dtype=np.uint64),
            "pid": self._id_column([e.pid for e in events]),
            "tid": self._id_column([e.tid for e in events]),
        }
        self.memory_parts.append((chunk, _sorted_by(part, "ts")))

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
            self.memory_parts.append((chunk, _sorted_by(part, "ts")))
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
        memory = _concat(_in_file_order(self.memory_parts), MEMORY_COLUMNS)
        for table, times in ((slices, "start"), (memory, "ts")):
            table[times] += base
            order = np.argsort(table[times], kind="stable")  # merges the chunks' sorted runs
            for name in table:  # one column at a time: peak memory stays near one table
                table[name] = table[name][order]
        self.meta.events = self.events
        unclosed = sum(len(stack) for stack in self.open_begins.values())
        if unclosed:
            self.meta.problems.append(f"{unclosed} begin event(s) without an end were dropped")
        return TraceTables(self.meta, self.strings.names, slices, memory)


def _in_file_order(parts: list[tuple[int, dict[str, np.ndarray]]]) -> list[dict[str, np.ndarray]]:
    return [part for _, part in sorted(parts, key=lambda item: item[0])]


def _concat(
    parts: list[dict[str, np.ndarray]], schema: dict[str, type[np.generic]]
) -> dict[str, np.ndarray]:
    """Join chunk pieces, taking each column out of the pieces as it is joined (so their
    memory goes as the table's comes); empty tables get typed empty columns."""
    if not parts:
        return {name: np.zeros(0, dtype=dtype) for name, dtype in schema.items()}
    return {name: np.concatenate([part.pop(name) for part in parts]) for name in list(parts[0])}


class NeedsOneProcess(Exception):
    """The trace cannot be split between processes (B/E pairs, a chunk cut inside a string)."""
