"""A generic CSV of timed events to trace tables (docs/IMPORT.md, "Generic event CSV").

For timings that come from somewhere tb-perf has no reader for (a C++ timer, a framework's log,
a spreadsheet): one row per event, with its name, its start and its duration or end, the unit
in each time column's name (`start_us`, `dur_ms`, ...), and optionally what it is (`category`),
where it ran (`pid`, `tid`, `thread`, `device`, `stream`), a `correlation` id and its `step`.

Parsing is strict: the first bad row stops it with its line number, since a silently skipped
row would make the times shown wrong. Times are parsed exactly (no float rounding at
Unix-epoch nanosecond scale).
"""

from __future__ import annotations

import _csv
import csv
import decimal
import io
import os
from dataclasses import dataclass

import numpy as np

from ..errors import Unreadable
from .files import Head, Verdict, open_input
from .tables import (
    DEVICE_KINDS,
    Kind,
    TraceMeta,
    TraceTables,
    build_trace_tables,
    intern,
)

UNITS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}
DEFAULT_CATEGORY = "user_annotation"
CATEGORIES = {
    "cpu_op": Kind.CPU_OP,
    "operator": Kind.CPU_OP,
    "user_annotation": Kind.USER_ANNOTATION,
    "python_function": Kind.PYTHON_FUNCTION,
    "runtime": Kind.RUNTIME,
    "cuda_runtime": Kind.RUNTIME,
    "kernel": Kind.KERNEL,
    "memcpy": Kind.MEMCPY,
    "gpu_memcpy": Kind.MEMCPY,
    "memset": Kind.MEMSET,
    "gpu_memset": Kind.MEMSET,
    "gpu_annotation": Kind.GPU_ANNOTATION,
    "gpu_user_annotation": Kind.GPU_ANNOTATION,
    "other": Kind.OTHER,
}
INTEGER_COLUMNS = ("pid", "tid", "device", "stream", "correlation", "step")
OPTIONAL_COLUMNS = ("category", "thread", *INTEGER_COLUMNS)
_EXACT = decimal.Context(prec=40, traps=[decimal.InvalidOperation])
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1  # the columns' range: times in ns and integers


@dataclass(frozen=True)
class EventsLayout:
    """Where each known column of one file's header is."""

    columns: dict[str, int]  # "name", "start", "dur" or "end", optional columns -> index
    scales: dict[str, int]  # "start", "dur"/"end" -> ns per unit
    ignored: tuple[str, ...]  # header fields tb-perf does not read


def events_layout(header: list[str]) -> EventsLayout | str:
    """The layout of a header row, or why it is not an event CSV's header."""
    fields = [field.strip().lower() for field in header]
    duplicates = sorted({f for f in fields if fields.count(f) > 1 and f})
    if duplicates:
        return f"the header repeats column(s) {', '.join(duplicates)}"
    columns: dict[str, int] = {}
    scales: dict[str, int] = {}
    ignored = []
    for index, field in enumerate(fields):
        what, _, unit = field.rpartition("_")
        if what in ("start", "dur", "end") and unit in UNITS:
            if what in columns:
                return f"two {what}_<unit> columns"
            columns[what], scales[what] = index, UNITS[unit]
        elif field == "name" or field in OPTIONAL_COLUMNS:
            columns[field] = index
        else:
            ignored.append(header[index].strip())
    units = "/".join(UNITS)
    if "name" not in columns:
        return "no `name` column"
    if "start" not in columns:
        return f"no start column (`start_<unit>`, unit one of {units})"
    if ("dur" in columns) == ("end" in columns):
        return f"needs exactly one of `dur_<unit>` and `end_<unit>` (unit one of {units})"
    return EventsLayout(columns, scales, tuple(ignored))


def sniff(head: Head) -> Verdict | None:
    """A CSV whose header has an event CSV's columns (tried after the other CSV formats: a
    refusal names this layout's first problem)."""
    try:
        header = next(csv.reader([head.lines[0]]))
    except csv.Error:
        return Verdict(False, "text that is not a CSV")
    layout = events_layout(header)
    if not isinstance(layout, str):
        return Verdict(True, "event CSV")
    if len(header) > 1:
        return Verdict(False, f"a CSV that is neither Nsight Compute's nor an event CSV: {layout}")
    return None


def read_events_csv(path: str, max_bytes: int) -> TraceTables:
    """Parse one event CSV (UTF-8, optional BOM, any line ending, RFC 4180 quoting) into trace
    tables; raises `errors.Unreadable` naming the file, the line and the problem."""
    name = os.path.basename(path)
    try:
        with io.TextIOWrapper(open_input(path, max_bytes), "utf-8-sig", newline="") as text:
            return _parse(csv.reader(text, strict=True), path)
    except UnicodeDecodeError as exc:
        raise Unreadable(f"{name}: not UTF-8 text (byte {exc.start})") from None
    except csv.Error as exc:
        raise Unreadable(f"{name}: not a readable CSV ({exc})") from None
    except OSError as exc:
        raise Unreadable(f"{name}: unreadable ({exc.strerror or exc})") from None


def _parse(reader: _csv.Reader, path: str) -> TraceTables:
    name = os.path.basename(path)
    header = next(reader, None)
    if header is None:
        raise Unreadable(f"{name}: empty file (an event CSV starts with a header row)")
    layout = events_layout(header)
    if isinstance(layout, str):
        raise Unreadable(f"{name} line 1: not an event CSV header: {layout} (docs/IMPORT.md)")
    at = layout.columns
    ends_given = "end" in at
    width = len(header)
    names, starts, durs, kinds = [], [], [], []
    integers: dict[str, list[int]] = {c: [] for c in INTEGER_COLUMNS if c in at}
    threads: list[str] = []
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue  # blank lines (a trailing newline, a spreadsheet's empty rows)
        if len(row) != width:
            raise Unreadable(f"{name} line {line}: {len(row)} fields, the header has {width}")

        def problem(what: str, line: int = line) -> Unreadable:
            return Unreadable(f"{name} line {line}: {what}")

        label = row[at["name"]].strip()
        if not label:
            raise problem("empty name")
        start = _ns(row[at["start"]], layout.scales["start"], "start", problem)
        if ends_given:
            dur = _ns(row[at["end"]], layout.scales["end"], "end", problem) - start
            if dur < 0:
                raise problem("the end is before the start")
        else:
            dur = _ns(row[at["dur"]], layout.scales["dur"], "dur", problem)
            if dur < 0:
                raise problem("negative duration")
        if start + dur > INT64_MAX:
            raise problem("the event ends past the int64 nanosecond range")
        category = row[at["category"]].strip().lower() if "category" in at else ""
        kind = CATEGORIES.get(category or DEFAULT_CATEGORY)
        if kind is None:
            raise problem(f"unknown category {category!r}; one of {', '.join(sorted(CATEGORIES))}")
        for column, values in integers.items():
            text = row[at[column]].strip()
            if not text:
                values.append(-1)
                continue
            try:
                value = int(text)
            except ValueError:
                raise problem(f"{column} {text[:40]!r} is not an integer") from None
            if not INT64_MIN <= value <= INT64_MAX:
                raise problem(f"{column} {text[:40]!r} is outside the int64 range")
            values.append(value)
        if "thread" in at:
            threads.append(row[at["thread"]].strip())
        names.append(label)
        starts.append(start)
        durs.append(dur)
        kinds.append(kind)
    if not names:
        raise Unreadable(f"{name}: the file holds a header and no events")
    meta = TraceMeta(path=path)
    if layout.ignored:
        meta.problems.append(f"columns not read: {', '.join(layout.ignored)} (docs/IMPORT.md)")
    n = len(names)
    kind_column = np.array(kinds, dtype=np.int8)
    pid = np.array(integers.get("pid", [0] * n), dtype=np.int64)
    pid[pid < 0] = 0
    tid = _thread_ids(integers.get("tid"), threads, pid, meta)
    on_device = np.isin(kind_column, DEVICE_KINDS)
    for column, lane in (("device", pid), ("stream", tid)):
        if column in integers:  # device events' lanes are (device, stream), as in Kineto traces
            given = np.array(integers[column], dtype=np.int64)
            lane[:] = np.where(on_device & (given >= 0), given, lane)
    table: list[str] = []
    slices: dict[str, np.ndarray] = {
        "start": np.array(starts, dtype=np.int64),
        "dur": np.array(durs, dtype=np.int64),
        "kind": kind_column,
        "name": intern(table, names),
        "pid": pid,
        "tid": tid,
    }
    if "correlation" in integers:
        slices["correlation"] = np.array(integers["correlation"], dtype=np.int64)
    if "step" in integers:
        steps = np.array(integers["step"], dtype=np.int64)
        slices = _with_steps(slices, steps, table)
    return build_trace_tables(meta, table, slices)


def _ns(text: str, scale: int, column: str, problem) -> int:
    """A time cell to integer ns, exactly: decimals and exponents are scaled before rounding."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= 18:
        ns = int(text) * scale
    else:
        try:
            value = _EXACT.multiply(decimal.Decimal(text), scale)
        except (decimal.InvalidOperation, ValueError):
            raise problem(f"{column} {text[:40]!r} is not a number") from None
        if not value.is_finite():
            raise problem(f"{column} {text[:40]!r} is not a finite number")
        if value.adjusted() > 18:  # past int64 (checked before building a huge integer)
            raise problem(f"{column} {text[:40]!r} is outside the int64 nanosecond range")
        ns = int(value.to_integral_value(decimal.ROUND_HALF_EVEN))
    if not INT64_MIN <= ns <= INT64_MAX:
        raise problem(f"{column} {text[:40]!r} is outside the int64 nanosecond range")
    return ns


def _thread_ids(
    tids: list[int] | None, threads: list[str], pid: np.ndarray, meta: TraceMeta
) -> np.ndarray:
    """tid as given; else one id per `thread` text (1, 2, ... in order of appearance), each
    named after its text; else 0. Thread texts name their lanes either way."""
    if tids is not None:
        tid = np.array(tids, dtype=np.int64)
        tid[tid < 0] = 0
    else:
        numbers = {text: i + 1 for i, text in enumerate(dict.fromkeys(t for t in threads if t))}
        tid = np.array([numbers.get(t, 0) for t in threads] or [0] * len(pid), dtype=np.int64)
    for text, p, t in zip(threads, pid.tolist(), tid.tolist(), strict=False):
        if text:
            meta.thread_names.setdefault(f"{p}/{t}", text)
    return tid


def _with_steps(
    slices: dict[str, np.ndarray], steps: np.ndarray, names: list[str]
) -> dict[str, np.ndarray]:
    """Add one `ProfilerStep#<N>` range per step (from its first event's start to its last
    event's end, on the lane of its first host event), the way traces mark steps."""
    host = ~np.isin(slices["kind"], DEVICE_KINDS)
    added: dict[str, list[int]] = {c: [] for c in ("start", "dur", "pid", "tid")}
    labels = []
    for step in np.unique(steps[steps >= 0]).tolist():
        rows = np.flatnonzero(steps == step)
        first = int(rows[np.argmin(slices["start"][rows])])
        lane_rows = rows[host[rows]]
        lane = int(lane_rows[np.argmin(slices["start"][lane_rows])]) if len(lane_rows) else first
        start = int(slices["start"][first])
        added["start"].append(start)
        added["dur"].append(int((slices["start"][rows] + slices["dur"][rows]).max()) - start)
        added["pid"].append(int(slices["pid"][lane]))
        added["tid"].append(int(slices["tid"][lane]))
        labels.append(f"ProfilerStep#{step}")
    if not labels:
        return slices
    out = {}
    for column, values in slices.items():
        if column in added:
            extra = np.array(added[column], dtype=values.dtype)
        elif column == "kind":
            extra = np.full(len(labels), Kind.USER_ANNOTATION, dtype=values.dtype)
        elif column == "name":
            extra = intern(names, labels)
        else:
            extra = np.full(len(labels), -1, dtype=values.dtype)
        out[column] = np.concatenate([values, extra])
    return out
