"""The device extent of host steps: each step window runs on to the end of the last device event
(kernel, memcpy, memset) that a runtime call inside it launched, and the next one starts no
earlier than that, as torch-tb-profiler extends its steps (docs/ANALYSIS.md, device extent of
steps). Pure functions over trace tables."""

from __future__ import annotations

import numpy as np

from ..ingest.tables import Kind, TraceTables

DEVICE_WORK = (Kind.KERNEL, Kind.MEMCPY, Kind.MEMSET)


def device_ends(traces: list[TraceTables], starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Per window [starts[k], ends[k]) (disjoint, sorted, on the rank's collectors' clock):
    the end of the last device event launched by a runtime call that starts in it, or
    `ends[k]` when that is later or none was launched. Launch and device event are matched
    by their `correlation`."""
    starts, ends = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
    out = ends.copy()
    if not len(starts):
        return out
    for trace in traces:
        slices = trace.slices
        kind, correlation = np.asarray(slices["kind"]), np.asarray(slices["correlation"])
        begin = np.asarray(slices["start"]) + trace.meta.to_collectors_ns
        finish = begin + np.asarray(slices["dur"])
        device = np.isin(kind, DEVICE_WORK) & (correlation >= 0)
        launch = (kind == Kind.RUNTIME) & (correlation >= 0)
        if not device.any() or not launch.any():
            continue
        # the last end of each correlation's device events
        ids, inverse = np.unique(correlation[device], return_inverse=True)
        last_end = np.full(len(ids), np.iinfo(np.int64).min, dtype=np.int64)
        np.maximum.at(last_end, inverse.reshape(-1), finish[device])
        launched = np.searchsorted(ids, correlation[launch])
        found = launched < len(ids)
        found[found] = ids[launched[found]] == correlation[launch][found]
        launch_start = begin[launch][found]
        launch_end = last_end[launched[found]]
        window = np.searchsorted(starts, launch_start, "right") - 1
        inside = (window >= 0) & (launch_start < ends[np.maximum(window, 0)])
        np.maximum.at(out, window[inside], launch_end[inside])
    return out


def device_windows(
    traces: list[TraceTables], starts: np.ndarray, ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The device extent of sorted, disjoint host step windows: each ends at `device_ends`,
    and starts at its host start or at the previous extent's end, whichever is later (its
    host time was spent waiting for the device work of the step before)."""
    extended = device_ends(traces, starts, ends)
    new_starts = np.asarray(starts, dtype=np.int64).copy()
    for k in range(1, len(new_starts)):
        new_starts[k] = max(new_starts[k], extended[k - 1])
        extended[k] = max(extended[k], new_starts[k])
    return new_starts, extended
