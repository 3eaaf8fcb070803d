"""The timeline's levels of detail: its events as the finest level, and coarser copies in which
events shorter than a bucket merge with their neighbours (each level LEVEL_FACTOR times
coarser), so a zoomed-out tile never touches every event; the merge of boxes within a pixel;
and the launch -> device links the tiles draw as flows. Pure functions of numpy columns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..ingest.tables import DEVICE_KINDS, Kind

LEVEL_FACTOR = 8
FINEST_LEVEL_NS = 1_000


@dataclass
class Level:
    """One level of detail: the boxes of every group (lane row), each group's in start order;
    a box is one event or several merged."""

    bucket_ns: int
    start: np.ndarray
    dur: np.ndarray
    name: np.ndarray
    count: np.ndarray
    event: np.ndarray  # event index for single boxes, -1 for merged ones
    group_offsets: np.ndarray  # boxes of group g are [offsets[g], offsets[g+1])
    group_max_dur: np.ndarray


def index_dtype(n: int) -> np.dtype:
    """Indices of (and counts up to) `n` events: int32 below 2**31, half of int64's memory."""
    return np.dtype(np.int32 if n < 2**31 else np.int64)


def raw_level(
    ev: dict[str, np.ndarray], n_events: int, group_offsets: np.ndarray, groups: int
) -> Level:
    """The events themselves as the finest level (each its own box)."""
    starts, durs = ev["start"], ev["dur"]
    max_dur = np.zeros(groups, dtype=np.int64)
    if n_events:
        max_dur = np.maximum.reduceat(durs, group_offsets[:-1]) if len(max_dur) else max_dur
    return Level(
        0,
        starts,
        durs,
        ev["name"],
        # a count of 1 each, no memory; event indices (and so counts) in the narrowest type
        np.broadcast_to(index_dtype(n_events).type(1), (n_events,)),
        np.arange(n_events, dtype=index_dtype(n_events)),
        group_offsets,
        max_dur,
    )


def coarser_levels(raw: Level, end: int, groups: int) -> list[Level]:
    """Coarser copies of the events: within each group, events shorter than the level's
    bucket merge with the others of the same bucket."""
    levels = []
    span = max(end, 1)
    bucket = FINEST_LEVEL_NS
    source = raw
    while bucket < span and len(source.start) > 4 * groups:
        bucket *= LEVEL_FACTOR
        source = merge_level(source, bucket, groups)
        levels.append(source)
    return levels


def merge_pixels(
    boxes: dict[str, np.ndarray], origin: int, ns_per_px: float
) -> dict[str, np.ndarray]:
    """Merge neighbouring boxes of the same group (lane row) shorter than a pixel that fall in
    the same pixel; a merged box keeps its longest member's name, count sums, id -1."""
    start, dur, group = boxes["start"], boxes["dur"], boxes["group"]
    n = len(start)
    if n == 0:
        return boxes
    pixel = np.floor((start - origin) / ns_per_px).astype(np.int64)
    key = np.where(dur < ns_per_px, pixel, -2 - np.arange(n))  # big boxes never merge
    run_starts = np.flatnonzero(
        np.concatenate(([True], (key[1:] != key[:-1]) | (group[1:] != group[:-1])))
    )
    if len(run_starts) == n:
        return boxes
    run_end = np.maximum.reduceat(start + dur, run_starts)
    run_max = np.maximum.reduceat(dur, run_starts)
    run_len = np.diff(np.append(run_starts, n))
    is_longest = dur == np.repeat(run_max, run_len)
    longest = np.minimum.reduceat(np.where(is_longest, np.arange(n), n), run_starts)
    return {
        "start": start[run_starts],
        "dur": run_end - start[run_starts],
        "name": boxes["name"][longest],
        "count": np.add.reduceat(boxes["count"], run_starts),
        "id": np.where(run_len == 1, boxes["id"][run_starts], -1),
        "group": group[run_starts],
    }


def merge_level(source: Level, bucket: int, groups: int) -> Level:
    """Within each group, merge consecutive events shorter than `bucket` in the same bucket."""
    n = len(source.start)
    group_of_box = np.repeat(
        np.arange(len(source.group_offsets) - 1), np.diff(source.group_offsets)
    )
    small = source.dur < bucket
    key = np.where(small, source.start // bucket, -2 - np.arange(n))
    boundary = np.concatenate(
        ([True], (key[1:] != key[:-1]) | (group_of_box[1:] != group_of_box[:-1]))
    )
    run_starts = np.flatnonzero(boundary)
    run_len = np.diff(np.append(run_starts, n))
    ends = source.start + source.dur
    run_end = np.maximum.reduceat(ends, run_starts)
    run_max = np.maximum.reduceat(source.dur, run_starts)
    is_longest = source.dur == np.repeat(run_max, run_len)
    longest = np.minimum.reduceat(np.where(is_longest, np.arange(n), n), run_starts)
    new_group = group_of_box[run_starts]
    offsets = np.searchsorted(new_group, np.arange(groups + 1))
    starts = source.start[run_starts]
    durs = run_end - starts
    max_dur = np.zeros(len(offsets) - 1, dtype=np.int64)
    nonempty = np.diff(offsets) > 0
    if nonempty.any():
        max_dur[nonempty] = np.maximum.reduceat(durs, offsets[:-1][nonempty])
    return Level(
        bucket,
        starts,
        durs,
        source.name[longest],
        np.add.reduceat(source.count, run_starts, dtype=source.count.dtype),
        np.where(run_len == 1, source.event[run_starts], -1),
        offsets,
        max_dur,
    )


def flow_partners(ev: dict[str, np.ndarray], n_events: int) -> np.ndarray:
    """For each event, the event at the other end of its launch -> device link, or -1."""
    partner = np.full(n_events, -1, dtype=index_dtype(n_events))
    corr = ev["correlation"]
    linked = np.flatnonzero(corr >= 0)
    if not len(linked):
        return partner
    kinds = ev["kind"][linked]
    is_launch = kinds == Kind.RUNTIME
    is_device = np.isin(kinds, DEVICE_KINDS)
    key = ev["source"][linked].astype(np.int64) * (1 << 40) + corr[linked]
    launch_idx, device_idx = linked[is_launch], linked[is_device]
    launch_key, device_key = key[is_launch], key[is_device]
    if not len(launch_key) or not len(device_key):
        # launches without device events (a CUPTI range-profiler trace, a trace cut
        # short) or device events without launches: nothing to link
        return partner
    order = np.argsort(device_key, kind="stable")
    sorted_keys = device_key[order]
    pos = np.searchsorted(sorted_keys, launch_key)
    found = (pos < len(sorted_keys)) & (
        sorted_keys[np.minimum(pos, len(sorted_keys) - 1)] == launch_key
    )
    partner[launch_idx[found]] = device_idx[order[pos[found]]]
    partner[device_idx[order[pos[found]]]] = launch_idx[found]
    return partner


def json_digits(values: np.ndarray) -> int:
    """Characters of the integers `values` as json.dumps writes them; never fewer."""
    if not len(values):
        return 0
    magnitude = np.abs(values.astype(np.float64))
    digits = np.floor(np.log10(np.maximum(magnitude, 1.0))).astype(np.int64) + 1
    return int(digits.sum() + np.count_nonzero(values < 0))
