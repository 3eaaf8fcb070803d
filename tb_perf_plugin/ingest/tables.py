"""The trace schema every reader writes and every view reads: `TraceTables` of typed columns.

Each reader (`readers.py` lists them: Kineto traces, Nsight Systems exports, event CSVs, ...)
decodes its own format into these tables, so everything downstream sees one shape whatever the
file. A reader that is not streaming Kineto JSON hands over the columns it knows to
`build_trace_tables`, which fills the rest of SLICE_COLUMNS with -1 of the column's dtype, checks
the lengths and name ids, and sorts by start.

All times are int64 Unix-epoch nanoseconds on the tracing host's clock.
"""

from __future__ import annotations

import contextlib
import mmap
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np


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


SLICE_COLUMNS: dict[str, type[np.generic]] = {
    "start": np.int64, "dur": np.int64, "kind": np.int8, "name": np.int32, "pid": np.int64,
    "tid": np.int64, "correlation": np.int64, "external_id": np.int64, "collective": np.int32,
    "in_nelems": np.int64, "out_nelems": np.int64, "group_size": np.int32, "dtype": np.int32,
    "process_group": np.int32, "grid": np.int32, "block": np.int32, "registers": np.int32,
    "shared_memory": np.int64, "blocks_per_sm": np.float32, "warps_per_sm": np.float32,
    "occupancy": np.float32, "input_dims": np.int32, "input_types": np.int32,
    "call_stack": np.int32,
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
    "call_stack",
)
MEMORY_COLUMNS: dict[str, type[np.generic]] = {
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
    # events of the CUPTI range profiler (category cuda_profiler_range): the trace was recorded
    # with kernel replay, which serializes and reruns every kernel
    profiler_ranges: int = 0

    @property
    def to_collectors_ns(self) -> int:
        """Add to this trace's times to put them on the clock of the collectors that wrote it
        (`profile_steps` records the difference; 0 for traces from elsewhere)."""
        shift = (self.tb_perf or {}).get("trace_to_collectors_ns", 0)
        return shift if isinstance(shift, int) and not isinstance(shift, bool) else 0


_DONTNEED = getattr(mmap, "MADV_DONTNEED", None)  # where the platform has it


@dataclass
class TraceTables:
    """One trace file as columns. `slices` are duration events sorted by start; `names` is the
    string table every *name-like* int32 column indexes (-1 = none)."""

    meta: TraceMeta
    names: list[str]
    slices: dict[str, np.ndarray]
    memory: dict[str, np.ndarray]
    # the trace cache's mapping the columns are views of (ingest/cache.py); None in memory
    mapping: mmap.mmap | None = field(default=None, repr=False, compare=False)

    @property
    def n_events(self) -> int:
        return int(len(self.slices["start"]) + len(self.memory["ts"]))

    def release_pages(self) -> None:
        """Drop the pages this process has read of columns mapped from the trace cache (they
        stay in the page cache and are read again on the next touch): a pass over every
        rank's tables then holds one rank's pages at a time, not the run's. Tables in memory
        are left as they are."""
        if self.mapping is not None and _DONTNEED is not None:
            with contextlib.suppress(OSError, ValueError):  # closed, or not allowed
                self.mapping.madvise(_DONTNEED)


_COLLECTIVE_NAME = re.compile(
    r"nccl|rccl|hccl|gloo:|c10d::|allreduce|all_reduce|allgather|all_gather|reduce_scatter|"
    r"reducescatter|broadcast|alltoall|all_to_all|sendrecv|record_param_comms",
    re.IGNORECASE,
)


def is_collective(names: list[str]) -> np.ndarray:
    """Per name in a string table: does it name a collective operation or kernel?"""
    return np.array([bool(_COLLECTIVE_NAME.search(n)) for n in names], dtype=bool)


REQUIRED_COLUMNS = ("start", "dur", "kind", "name")


def build_trace_tables(
    meta: TraceMeta, names: list[str], slices: dict[str, np.ndarray]
) -> TraceTables:
    """A TraceTables of `slices` (columns of equal length, named as in SLICE_COLUMNS; `start`,
    `dur`, `kind` and `name` required, the rest default to -1) and an empty memory table.

    Times are int64 Unix-epoch ns (`dur` too, in ns); `kind` holds `Kind` values; the
    name-like columns (NAME_COLUMNS) index `names`, -1 for none. Rows are sorted by start,
    stably, so rows of equal start keep the reader's order. Raises ValueError on an unknown
    or missing column, unequal lengths, a negative duration or a name id outside `names`:
    those are reader bugs, not bad input.
    """
    unknown = sorted(set(slices) - set(SLICE_COLUMNS))
    if unknown:
        raise ValueError(f"unknown slice column(s) {unknown}; known: {list(SLICE_COLUMNS)}")
    missing = [column for column in REQUIRED_COLUMNS if column not in slices]
    if missing:
        raise ValueError(f"slice column(s) {missing} are required")
    lengths = {column: len(values) for column, values in slices.items()}
    rows = lengths["start"]
    if any(length != rows for length in lengths.values()):
        raise ValueError(f"slice columns differ in length: {lengths}")
    columns = {}
    for column, dtype in SLICE_COLUMNS.items():
        given = slices.get(column)
        columns[column] = (
            np.full(rows, -1, dtype=dtype) if given is None else np.asarray(given).astype(dtype)
        )
    if rows and columns["dur"].min() < 0:
        raise ValueError("negative durations: an end before its start")
    for column in NAME_COLUMNS:
        ids = columns[column]
        if rows and (ids.min() < -1 or ids.max() >= len(names)):
            raise ValueError(f"{column} ids outside the {len(names)}-string name table")
    order = np.argsort(columns["start"], kind="stable")
    columns = {column: values[order] for column, values in columns.items()}
    memory = {column: np.zeros(0, dtype=dtype) for column, dtype in MEMORY_COLUMNS.items()}
    meta.events = meta.events or rows
    return TraceTables(meta, names, columns, memory)


def intern(names: list[str], values: Iterable[str | None]) -> np.ndarray:
    """int32 ids of `values` in the string table `names`, appending the new ones (None and ""
    become -1). Each distinct value is looked up once."""
    values = list(values)
    ids = {name: i for i, name in enumerate(names)}
    lookup: dict[str | None, int] = {None: -1, "": -1}
    for value in dict.fromkeys(values):
        if value is not None and value not in lookup:  # None is always in lookup
            found = ids.get(value)
            if found is None:
                found = ids[value] = len(names)
                names.append(value)
            lookup[value] = found
    return np.fromiter(map(lookup.__getitem__, values), np.int32, len(values))
