"""Trace tables from columns made elsewhere: the meeting point of every reader that is not a
Kineto trace (Nsight Systems, CSV event lists, ...), so each writes only its own decoding and the
views downstream see the same `TraceTables` a Kineto trace gives.

A reader hands over the columns it knows; `build_trace_tables` fills the rest of SLICE_COLUMNS
with -1 of the column's dtype, checks the lengths and name ids, and sorts by start.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .kineto import MEMORY_COLUMNS, NAME_COLUMNS, SLICE_COLUMNS, TraceMeta, TraceTables

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
        if value not in lookup:
            found = ids.get(value)
            if found is None:
                found = ids[value] = len(names)
                names.append(value)
            lookup[value] = found
    return np.fromiter(map(lookup.__getitem__, values), np.int32, len(values))
