"""CUDA memory snapshot analysis: pure functions over `ingest.snapshot.Snapshot` tables.

Public API (formulas: docs/ANALYSIS.md, "Memory snapshots"; times are in the snapshot's
`time_unit`: Unix-epoch ns, or trace entry indices when the file has no times):

- `snapshot_summary(snap) -> dict`: JSON-ready totals per device and overall (segments,
  reserved / allocated / active bytes, block counts by state, largest block, fragmentation,
  trace entries per action, time span, peak of live bytes).
- `allocation_timeline(snap, device) -> DataFrame`: one row per allocation, in stack order
  (alloc -> free_completed intervals, with allocations made before the trace began or still
  live at the snapshot).
- `segment_timeline(snap, device) -> DataFrame`: the same for reserved segments.
- `live_bytes(snap, device) -> DataFrame`: `t_ns`, `bytes` (live allocations) and
  `reserved_bytes` after each change.
- `largest_at_peak(snap, device, n) -> list[dict]`: the n largest allocations live at the peak
  of live bytes, with their frames.
- `by_first_user_frame(snap, device) -> list[dict]`: bytes per first user frame (see
  `is_user_frame`) at the peak, at the snapshot, and allocated over the trace.
- `fragmentation(snap) -> list[dict]`: reserved - allocated per segment, with free blocks.
- `allocation_details(snap, device, index) -> dict`: one allocation (a tile band's `id`).
- `fit(rows, max_bytes) -> list`: the first rows whose JSON fits a byte budget.

Every answer is bounded whatever the file holds: a stack is answered with its first frames
(STACK_FRAMES in `allocation_details`, SUMMARY_FRAMES in `largest_at_peak`, and at most
STACK_BYTES of JSON each) and `more_frames` / `more_free_frames` count the frames left out;
the snapshot route fits its per-device lists into SNAPSHOT_BYTES; frame texts are cut when
read (`ingest.snapshot.MAX_TEXT_CHARS`). The viewer's tiles: snapshot_tiles.py.
"""

from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InvalidArgument
from ..ingest.snapshot import ACTIONS, NO_STACK, Snapshot

_CODE = {a: i for i, a in enumerate(ACTIONS)}
NO_TIME = -1  # t_free_requested of an allocation without a free request
NO_FRAME = -1  # group of allocations recorded without frames
NO_USER_FRAME = -2  # group of allocations whose frames hold no user frame
GROUP_LABELS = {NO_FRAME: "(no stack recorded)", NO_USER_FRAME: "(no user frame)"}

# Stacks in answers: the first (innermost) frames, at most this many and this much JSON each
STACK_FRAMES = 256  # allocation_details
SUMMARY_FRAMES = 16  # largest_at_peak (the snapshot route: allocation_details has the rest)
STACK_BYTES = 100_000
SNAPSHOT_BYTES = 1_000_000  # the snapshot route's per-device lists, all devices together

ALLOCATION_COLUMNS = (
    "addr", "size", "t_alloc", "t_free_requested", "t_free", "allocated_before_trace",
    "live_at_snapshot", "alloc_entry", "free_entry", "stream", "stack", "free_stack",
)  # fmt: skip

# --- user frames ------------------------------------------------------------------------------

_SITE = re.compile(r"[/\\](site|dist)-packages[/\\]")
_TORCH = re.compile(r"(^|[/\\])torch[/\\]")
_STDLIB = re.compile(r"[/\\]lib[/\\](python\d[\d.]*|pypy[\d.]*)[/\\]|[/\\]Lib[/\\]")


def is_user_frame(filename: str) -> bool:
    """Whether a frame is the user's own Python code: a Python source (`*.py`, or `<...>` code
    such as `<ipython-input-...>` and `<string>`), not inside a `torch/` directory, not in an
    installed package (`site-packages`, `dist-packages`) and not in Python's standard library
    (`lib/pythonX.Y/`, Windows `Lib\\`, `<frozen ...>`). C/C++ frames never are."""
    if filename.startswith("<"):
        return not filename.startswith("<frozen")
    if not filename.endswith(".py"):
        return False
    return not (_SITE.search(filename) or _TORCH.search(filename) or _STDLIB.search(filename))


def _first_user_frames(snap: Snapshot) -> np.ndarray:
    """Per stack id, the frame id of its first (innermost) user frame, else NO_USER_FRAME."""
    if "first_user" not in snap.derived:
        user = np.fromiter(
            map(is_user_frame, snap.frames["filename"]), dtype=bool, count=len(snap.frames)
        )
        n = len(snap.stack_offsets) - 1
        first = np.full(n, NO_USER_FRAME, dtype=np.int64)
        if n and len(snap.stack_frames):
            frame_user = user[snap.stack_frames]
            stack_of = np.repeat(np.arange(n), np.diff(snap.stack_offsets))
            hits = np.flatnonzero(frame_user)
            # the first hit of each stack: hits are in stack order, innermost frame first
            stacks, at = np.unique(stack_of[hits], return_index=True)
            first[stacks] = snap.stack_frames[hits[at]]
        snap.derived["first_user"] = first
    return snap.derived["first_user"]


def group_of(snap: Snapshot, stacks: np.ndarray) -> np.ndarray:
    """Group key per allocation: its first user frame id, NO_USER_FRAME or NO_FRAME."""
    first = np.append(_first_user_frames(snap), NO_FRAME)
    return first[np.where(stacks >= 0, stacks, len(first) - 1)]


def _frame(snap: Snapshot, frame_id: int) -> dict[str, Any]:
    row = snap.frames.iloc[frame_id]
    return {"filename": row["filename"], "line": int(row["line"]), "name": row["name"]}


def group_label(snap: Snapshot, key: int) -> str:
    if key < 0:
        return GROUP_LABELS[key]
    f = _frame(snap, key)
    return f"{f['filename']}:{f['line']} ({f['name']})"


# --- allocation timeline ----------------------------------------------------------------------


@dataclass
class DeviceTimeline:
    """One device's derived tables, computed once per snapshot."""

    allocations: pd.DataFrame
    segments: pd.DataFrame
    series: pd.DataFrame  # live_bytes
    t_start: int
    t_end: int
    n_entries: int


def _device_trace(snap: Snapshot, device: int) -> dict[str, np.ndarray]:
    trace = snap.trace
    rows = np.flatnonzero(trace["device"].to_numpy() == device)
    out = {c: trace[c].to_numpy()[rows] for c in ("addr", "size", "stream", "stack", "t")}
    out["action"] = trace["action"].cat.codes.to_numpy()[rows]
    return out


def _match(
    tr: dict[str, np.ndarray], starts: tuple[int, ...], ends: tuple[int, ...], request: int
) -> dict[str, np.ndarray]:
    """Pair each start entry (alloc) with the next end entry (free_completed) at the same
    address, in file order. An end with no start before it is an allocation made before the
    trace began; a start with no end is still live. `request` entries (free_requested) between
    a start and its end give the time the user freed it."""
    act = tr["action"]
    is_start, is_end, is_req = np.isin(act, starts), np.isin(act, ends), act == request
    rows = np.flatnonzero(is_start | is_end | is_req)
    rows = rows[np.lexsort((rows, tr["addr"][rows]))]  # by address, then file order
    n = len(rows)
    pos = np.arange(n)
    addr = tr["addr"][rows]
    group = np.cumsum(np.concatenate(([0], addr[1:] != addr[:-1]))) if n else pos
    start, end, req = is_start[rows], is_end[rows], is_req[rows]
    terminal = start | end
    big = np.int64(n)
    # next terminal (start or end) after each position, and the last one before it
    suffix = np.minimum.accumulate(np.where(terminal, pos, big)[::-1])[::-1]
    next_term = np.append(suffix[1:], big)
    prefix = np.maximum.accumulate(np.where(terminal, pos, -1))
    prev_term = np.concatenate(([-1], prefix[:-1]))
    next_req_suffix = np.minimum.accumulate(np.where(req, pos, big)[::-1])[::-1]
    next_req = np.append(next_req_suffix[1:], big)
    last_req = np.maximum.accumulate(np.where(req, pos, -1))

    def same_group(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ok = (b >= 0) & (b < n)
        return ok & (group[a] == group[np.clip(b, 0, max(n - 1, 0))])

    s = np.flatnonzero(start)
    nt = next_term[s]
    freed = same_group(s, nt)
    freed[freed] = end[nt[freed]]
    e = np.where(freed, nt, -1)
    # the free request: the last one before the end, else the first one after an open start
    r = np.where(freed, last_req[np.clip(e, 0, None)], next_req[s])
    r_ok = (r > s) & (r < nt) & same_group(s, r)
    # ends without a start: allocations from before the trace
    ends_all = np.flatnonzero(end)
    pt = prev_term[ends_all]
    orphan = ~(same_group(ends_all, pt) & start[np.clip(pt, 0, None)])
    o = ends_all[orphan]
    o_req = last_req[o]
    o_req_ok = same_group(o, o_req) & (o_req > prev_term[o])
    return {
        "start": rows[s],
        "end": np.where(freed, rows[np.clip(e, 0, None)], -1),
        "request": np.where(r_ok, rows[np.clip(r, 0, max(n - 1, 0))], -1),
        "orphan_end": rows[o],
        "orphan_request": np.where(o_req_ok, rows[np.clip(o_req, 0, None)], -1),
    }


def _intervals(
    tr: dict[str, np.ndarray],
    m: dict[str, np.ndarray],
    t_start: int,
    t_end: int,
    n: int,
    initial: dict[str, np.ndarray],
) -> pd.DataFrame:
    """Rows in stack order: allocations live for the whole trace (`initial`, from the
    snapshot's state), allocations from before the trace freed during it (the last freed
    lowest), then the trace's allocations in file order."""
    t, stack = tr["t"], tr["stack"]

    def at(values: np.ndarray, rows: np.ndarray, missing: int) -> np.ndarray:
        return np.where(rows >= 0, values[np.clip(rows, 0, None)], missing)

    late_first = np.argsort(-m["orphan_end"], kind="stable")
    orphans, orphan_req = m["orphan_end"][late_first], m["orphan_request"][late_first]
    in_file_order = np.argsort(m["start"], kind="stable")
    starts, ends, reqs = (m[k][in_file_order] for k in ("start", "end", "request"))
    k0, k1, k2 = len(initial["addr"]), len(orphans), len(starts)
    columns = {
        "addr": [initial["addr"], tr["addr"][orphans], tr["addr"][starts]],
        "size": [initial["size"], tr["size"][orphans], tr["size"][starts]],
        "t_alloc": [np.full(k0 + k1, t_start, np.int64), t[starts]],
        "t_free_requested": [
            np.full(k0, NO_TIME, np.int64),
            at(t, orphan_req, NO_TIME),
            at(t, reqs, NO_TIME),
        ],
        "t_free": [np.full(k0, t_end, np.int64), t[orphans], at(t, ends, t_end)],
        "allocated_before_trace": [np.ones(k0 + k1, bool), np.zeros(k2, bool)],
        "live_at_snapshot": [np.ones(k0, bool), np.zeros(k1, bool), ends < 0],
        "alloc_entry": [np.full(k0 + k1, -1, np.int64), starts],
        "free_entry": [np.full(k0, n, np.int64), orphans, np.where(ends >= 0, ends, n)],
        "stream": [initial["stream"], tr["stream"][orphans], tr["stream"][starts]],
        "stack": [initial["stack"], np.full(k1, NO_STACK, np.int32), stack[starts]],
        "free_stack": [
            np.full(k0, NO_STACK, np.int32),
            at(stack, np.where(orphan_req >= 0, orphan_req, orphans), NO_STACK),
            at(stack, np.where(reqs >= 0, reqs, ends), NO_STACK),
        ],
    }
    return pd.DataFrame(
        {c: np.concatenate([np.asarray(p) for p in columns[c]]) for c in ALLOCATION_COLUMNS},
        copy=False,
    ).astype({"stack": np.int32, "free_stack": np.int32})


def device_timeline(snap: Snapshot, device: int) -> DeviceTimeline:
    key = ("device", device)
    if key in snap.derived:
        return snap.derived[key]
    if device not in snap.devices:
        raise InvalidArgument(f"device {device} is not in this snapshot (devices {snap.devices})")
    tr = _device_trace(snap, device)
    n = len(tr["t"])
    t_start = int(tr["t"].min()) if n else 0
    t_end = int(tr["t"].max()) + 1 if n else 1
    # blocks
    m = _match(tr, (_CODE["alloc"],), (_CODE["free_completed"],), _CODE["free_requested"])
    open_addrs = tr["addr"][m["start"][m["end"] < 0]]
    b = snap.blocks
    active = (b["device"].to_numpy() == device) & (b["state"].astype(str).to_numpy() != "inactive")
    active &= ~np.isin(b["address"].to_numpy(), open_addrs)
    rows = np.flatnonzero(active)
    rows = rows[np.argsort(b["address"].to_numpy()[rows], kind="stable")]
    requested = b["requested_size"].to_numpy()[rows]
    initial = {
        "addr": b["address"].to_numpy()[rows],
        "size": np.where(requested > 0, requested, b["size"].to_numpy()[rows]),
        "stream": snap.segments["stream"].to_numpy()[b["segment"].to_numpy()[rows]],
        "stack": b["stack"].to_numpy()[rows],
    }
    allocations = _intervals(tr, m, t_start, t_end, n, initial)
    # segments (reserved memory)
    ms = _match(
        tr,
        (_CODE["segment_alloc"], _CODE["segment_map"]),
        (_CODE["segment_free"], _CODE["segment_unmap"]),
        -1,
    )
    live_seg = ms["start"][ms["end"] < 0]
    s = snap.segments
    on_device = np.flatnonzero(s["device"].to_numpy() == device)
    seg_addr, seg_size = s["address"].to_numpy()[on_device], s["total_size"].to_numpy()[on_device]
    covered = np.zeros(len(on_device), np.int64)
    if len(live_seg) and len(on_device):
        order = np.argsort(seg_addr)
        where = np.searchsorted(seg_addr[order], tr["addr"][live_seg], "right") - 1
        inside = (where >= 0) & (
            tr["addr"][live_seg] < (seg_addr + seg_size)[order][np.maximum(where, 0)]
        )
        np.add.at(covered, order[where[inside]], tr["size"][live_seg][inside])
    seg_initial = {
        "addr": seg_addr,
        "size": np.maximum(seg_size - covered, 0),
        "stream": s["stream"].to_numpy()[on_device],
        "stack": s["stack"].to_numpy()[on_device],
    }
    segments = _intervals(tr, ms, t_start, t_end, n, seg_initial)
    result = DeviceTimeline(
        allocations, segments, _series(allocations, segments, t_start), t_start, t_end, n
    )
    snap.derived[key] = result
    return result


def _series(allocations: pd.DataFrame, segments: pd.DataFrame, t_start: int) -> pd.DataFrame:
    """Live and reserved bytes after each change, in file order of the entries that made it
    (entries at the same time give one row each, so a transient peak is not lost)."""

    def events(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        size = df["size"].to_numpy()
        before = df["allocated_before_trace"].to_numpy()
        freed = ~df["live_at_snapshot"].to_numpy()
        entry = np.concatenate(
            (df["alloc_entry"].to_numpy()[~before], df["free_entry"].to_numpy()[freed])
        )
        t = np.concatenate((df["t_alloc"].to_numpy()[~before], df["t_free"].to_numpy()[freed]))
        delta = np.concatenate((size[~before], -size[freed]))
        return entry, t, delta, int(size[before].sum())

    ea, ta, da, a0 = events(allocations)
    es, ts, ds, r0 = events(segments)
    entry = np.concatenate((ea, es))
    order = np.argsort(entry, kind="stable")
    t = np.concatenate((ta, ts))[order]
    d_alloc = np.concatenate((da, np.zeros(len(ds), np.int64)))[order]
    d_res = np.concatenate((np.zeros(len(da), np.int64), ds))[order]
    return pd.DataFrame({
        "t_ns": np.concatenate(([t_start], t)).astype(np.int64),
        "bytes": np.cumsum(np.concatenate(([a0], d_alloc))).astype(np.int64),
        "reserved_bytes": np.cumsum(np.concatenate(([r0], d_res))).astype(np.int64),
        "entry": np.concatenate(([-1], entry[order])).astype(np.int64),
    }, copy=False)  # fmt: skip


def allocation_timeline(snap: Snapshot, device: int) -> pd.DataFrame:
    """One row per allocation on `device`, in stack order (the row index is the allocation's
    id for `allocation_details` and tile bands). Open ends: `allocated_before_trace` rows
    start at the trace's first time, `live_at_snapshot` rows end one unit after its last."""
    return device_timeline(snap, device).allocations


def segment_timeline(snap: Snapshot, device: int) -> pd.DataFrame:
    """Reserved memory as intervals (segment_alloc/map -> segment_free/unmap), same columns."""
    return device_timeline(snap, device).segments


def live_bytes(snap: Snapshot, device: int) -> pd.DataFrame:
    """`t_ns`, `bytes` (live allocations), `reserved_bytes` (segments) and the trace `entry`
    (-1 for the initial state) after each change: a step function, first row at the trace's
    start."""
    return device_timeline(snap, device).series[["t_ns", "bytes", "reserved_bytes", "entry"]]


def _peak(d: DeviceTimeline) -> tuple[int, int, int]:
    """(row of the series at the first maximum of live bytes, its entry, its time)."""
    values = d.series["bytes"].to_numpy()
    row = int(np.argmax(values))
    return row, int(d.series["entry"].iat[row]), int(d.series["t_ns"].iat[row])


def _live_at_entry(allocations: pd.DataFrame, entry: int) -> np.ndarray:
    return (allocations["alloc_entry"].to_numpy() <= entry) & (
        allocations["free_entry"].to_numpy() > entry
    )


def _stack_json(
    snap: Snapshot, stack: int, max_frames: int, max_bytes: int = STACK_BYTES
) -> tuple[list[dict[str, Any]], int]:
    """A stack's first frames (innermost first: at most `max_frames`, at most `max_bytes` of
    JSON) and how many were left out."""
    frames = snap.stack(stack, max_frames)
    used = 0
    for kept, frame in enumerate(frames):
        used += len(json.dumps(frame)) + 2
        if used > max_bytes:
            frames = frames[:kept]
            break
    return frames, snap.stack_length(stack) - len(frames)


def fit(rows: list[Any], max_bytes: int) -> list[Any]:
    """The first rows whose JSON (as json.dumps writes it, with separators) takes at most
    `max_bytes` in all."""
    used = 0
    for kept, row in enumerate(rows):
        used += len(json.dumps(row)) + 2
        if used > max_bytes:
            return rows[:kept]
    return rows


def _allocation(
    snap: Snapshot, allocations: pd.DataFrame, index: int, max_frames: int
) -> dict[str, Any]:
    row = allocations.iloc[index]
    stack = int(row["stack"])
    group = int(group_of(snap, np.array([stack]))[0])
    frames, more = _stack_json(snap, stack, max_frames)
    return {
        "index": index,
        "addr": int(row["addr"]),
        "size": int(row["size"]),
        "t_alloc": int(row["t_alloc"]),
        "t_free": int(row["t_free"]),
        "allocated_before_trace": bool(row["allocated_before_trace"]),
        "live_at_snapshot": bool(row["live_at_snapshot"]),
        "first_user_frame": _frame(snap, group) if group >= 0 else None,
        "frames": frames,
        "more_frames": more,
    }


def largest_at_peak(
    snap: Snapshot, device: int, n: int, max_frames: int = SUMMARY_FRAMES
) -> list[dict[str, Any]]:
    """The `n` largest allocations live at the peak of live bytes (its first occurrence, after
    the trace entry that reached it), largest first, with the first `max_frames` frames of
    their stacks (`more_frames`: how many more it has)."""
    d = device_timeline(snap, device)
    _, entry, _ = _peak(d)
    rows = np.flatnonzero(_live_at_entry(d.allocations, entry))
    sizes = d.allocations["size"].to_numpy()[rows]
    top = rows[np.argsort(-sizes, kind="stable")[: max(n, 0)]]
    return [_allocation(snap, d.allocations, int(i), max_frames) for i in top]


def by_first_user_frame(snap: Snapshot, device: int) -> list[dict[str, Any]]:
    """Allocations grouped by their first user frame: bytes and counts live at the peak, live
    at the snapshot, and allocated during the trace; largest at the peak first."""
    return copy.deepcopy(_cached(snap, ("by_first_user_frame", device), _by_frame, device))


def _by_frame(snap: Snapshot, device: int) -> list[dict[str, Any]]:
    d = device_timeline(snap, device)
    a = d.allocations
    _, entry, _ = _peak(d)
    group = group_of(snap, a["stack"].to_numpy())
    size = a["size"].to_numpy()
    masks = {
        "peak": _live_at_entry(a, entry),
        "snapshot": a["live_at_snapshot"].to_numpy(),
        "trace": ~a["allocated_before_trace"].to_numpy(),
    }
    keys, inverse = np.unique(group, return_inverse=True)
    sums = {
        k: (
            np.bincount(inverse, weights=np.where(m, size, 0), minlength=len(keys)),
            np.bincount(inverse, weights=m, minlength=len(keys)),
        )
        for k, m in masks.items()
    }
    out = []
    for i, key in enumerate(keys.tolist()):
        row: dict[str, Any] = {
            "frame": _frame(snap, key) if key >= 0 else None,
            "label": group_label(snap, key),
        }
        for k, (nbytes, count) in sums.items():
            row[f"{k}_bytes"] = int(nbytes[i])
            row[f"{k}_count"] = int(count[i])
        out.append(row)
    out.sort(key=lambda r: (-r["peak_bytes"], -r["snapshot_bytes"], -r["trace_bytes"]))
    return out


def fragmentation(snap: Snapshot) -> list[dict[str, Any]]:
    """Per segment: reserved (`total_size`) - allocated = `free_bytes`, with its inactive
    blocks; most free first."""
    s, b = snap.segments, snap.blocks
    inactive = b["state"].astype(str).to_numpy() == "inactive"
    seg_of = b["segment"].to_numpy()
    n = len(s)
    free_blocks = np.bincount(seg_of[inactive], minlength=n)
    largest = np.zeros(n, np.int64)
    np.maximum.at(largest, seg_of[inactive], b["size"].to_numpy()[inactive])
    blocks = np.bincount(seg_of, minlength=n)
    free = s["total_size"].to_numpy() - s["allocated_size"].to_numpy()
    out: list[dict[str, Any]] = [
        {
            "segment": i,
            "device": int(s["device"].iat[i]),
            "address": int(s["address"].iat[i]),
            "segment_type": str(s["segment_type"].iat[i]),
            "stream": int(s["stream"].iat[i]),
            "reserved_bytes": int(s["total_size"].iat[i]),
            "allocated_bytes": int(s["allocated_size"].iat[i]),
            "active_bytes": int(s["active_size"].iat[i]),
            "free_bytes": int(free[i]),
            "blocks": int(blocks[i]),
            "inactive_blocks": int(free_blocks[i]),
            "largest_free_block": int(largest[i]),
        }
        for i in range(n)
    ]
    out.sort(key=lambda r: -r["free_bytes"])
    return out


def _totals(segments: pd.DataFrame, blocks: pd.DataFrame) -> dict[str, Any]:
    state = blocks["state"].astype(str).to_numpy()
    size = blocks["size"].to_numpy()
    active = state != "inactive"
    reserved = int(segments["total_size"].sum())
    allocated = int(segments["allocated_size"].sum())
    free = reserved - allocated
    largest_free = int(size[~active].max()) if (~active).any() else 0
    largest = None
    if active.any():
        i = int(np.flatnonzero(active)[np.argmax(size[active])])
        largest = {
            "size": int(size[i]),
            "address": int(blocks["address"].iat[i]),
            "device": int(blocks["device"].iat[i]),
            "state": state[i],
        }
    return {
        "segments": len(segments),
        "reserved_bytes": reserved,
        "allocated_bytes": allocated,
        "active_bytes": int(segments["active_size"].sum()),
        "requested_bytes": int(segments["requested_size"].sum()),
        "blocks": len(blocks),
        "active_blocks": int(active.sum()),
        "pending_free_blocks": int((state == "active_pending_free").sum()),
        "inactive_blocks": int((~active).sum()),
        "largest_block": largest,
        "fragmentation": {
            "free_bytes": free,
            "free_fraction": free / reserved if reserved else 0.0,
            "largest_free_block": largest_free,
            "external": 1 - largest_free / free if free > 0 else 0.0,
        },
    }


def snapshot_summary(snap: Snapshot) -> dict[str, Any]:
    """Totals over the whole snapshot and per device (JSON-ready)."""
    return copy.deepcopy(_cached(snap, "summary", _summary))


def _cached(snap: Snapshot, key: Any, compute: Any, *args: Any) -> Any:
    """Results kept with the snapshot (it never changes); callers get copies."""
    if key not in snap.derived:
        snap.derived[key] = compute(snap, *args)
    return snap.derived[key]


def _summary(snap: Snapshot) -> dict[str, Any]:
    devices = []
    for device in snap.devices:
        segs = snap.segments[snap.segments["device"] == device]
        blocks = snap.blocks[snap.blocks["device"] == device]
        d = device_timeline(snap, device)
        actions = snap.trace["action"][snap.trace["device"] == device]
        row, _, t_peak = _peak(d)
        devices.append({
            "device": device,
            **_totals(segs, blocks),
            "trace_entries": {str(k): int(v) for k, v in actions.value_counts().items() if v},
            "time": {"start": d.t_start, "end": d.t_end} if d.n_entries else None,
            "peak": {
                "live_bytes": int(d.series["bytes"].iat[row]),
                "reserved_bytes": int(d.series["reserved_bytes"].iat[row]),
                "t_ns": t_peak,
            },
            "allocations": len(d.allocations),
        })  # fmt: skip
    counts = snap.trace["action"].value_counts()
    times = [dev["time"] for dev in devices if dev["time"]]
    return {
        "file": os.path.basename(snap.path),
        "file_bytes": snap.file_bytes,
        "format": snap.format,
        "time_unit": snap.time_unit,
        **_totals(snap.segments, snap.blocks),
        "devices": devices,
        "trace_entries": {str(k): int(v) for k, v in counts.items() if v},
        "time": {
            "start": min(t["start"] for t in times),
            "end": max(t["end"] for t in times),
        }
        if times
        else None,
        "annotations": len(snap.annotations),
        "allocator_settings": snap.allocator_settings,
    }


def allocation_details(snap: Snapshot, device: int, index: int) -> dict[str, Any]:
    """One allocation (row `index` of `allocation_timeline`, a tile band's `id`): size,
    lifetime, where it was allocated and freed (each stack's first STACK_FRAMES frames;
    `more_frames` / `more_free_frames`: how many more it has)."""
    a = device_timeline(snap, device).allocations
    if not 0 <= index < len(a):
        raise InvalidArgument(f"allocation {index} is not in device {device}'s timeline")
    out = _allocation(snap, a, index, STACK_FRAMES)
    row = a.iloc[index]
    free_frames, more_free = _stack_json(snap, int(row["free_stack"]), STACK_FRAMES)
    requested = int(row["t_free_requested"])
    out.update({
        "device": device,
        "time_unit": snap.time_unit,
        "stream": int(row["stream"]),
        "t_free_requested": requested if requested != NO_TIME else None,
        "lifetime": int(row["t_free"]) - int(row["t_alloc"]),
        "free_frames": free_frames,
        "more_free_frames": more_free,
    })  # fmt: skip
    return out


__all__ = [
    "allocation_details",
    "allocation_timeline",
    "by_first_user_frame",
    "fit",
    "fragmentation",
    "is_user_frame",
    "largest_at_peak",
    "live_bytes",
    "segment_timeline",
    "snapshot_summary",
]
