"""A timeline of some ranks: lanes, level-of-detail tiles, event details, search.

A run keeps one `Timeline` per rank (its *piece*, pipeline/run_timeline.py), built once per run
version from that rank's tables (MyTimer spans and trace slices), with every time mapped to
rank 0's clock and made relative to the run's origin. Events are stored sorted by (lane, row,
start) in flat numpy columns; each (lane, row) is a *group*. Tiles (`tiles`, over the pieces
of the ranks asked for) answer a window at a pixel width with a bounded list of boxes: events
shorter than a pixel merge into summary boxes. Precomputed coarser levels (events merged into
fixed buckets) keep zoomed-out requests from touching every raw event.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..analysis.align import Alignment
from ..analysis.nesting import group_start_longest_first, nesting_depth
from ..ingest.tables import DEVICE_KINDS, Kind, TraceTables
from .levels import (
    Level,
    coarser_levels,
    flow_partners,
    json_digits,
    merge_pixels,
    raw_level,
)
from .read import TraceFile
from .windows import gap_threshold_ns, recorded_windows

SPAN_KIND = 9  # MyTimer spans, next to ingest's Kind values
KIND_NAMES = {
    Kind.OTHER: "other", Kind.CPU_OP: "cpu_op", Kind.USER_ANNOTATION: "user_annotation",
    Kind.PYTHON_FUNCTION: "python_function", Kind.RUNTIME: "runtime", Kind.KERNEL: "kernel",
    Kind.MEMCPY: "memcpy", Kind.MEMSET: "memset", Kind.GPU_ANNOTATION: "gpu_annotation",
    SPAN_KIND: "span",
}  # fmt: skip
MAX_WIDTH_PX = 8192
# One tile answer is at most 1 MB of JSON (as json.dumps writes it): boxes and their names get
# BOX_BYTES, counter tracks COUNTER_BYTES, and at most MAX_FLOWS flow arrows (~200 bytes each)
# the rest. Coarser pixel buckets are used until boxes and counters fit.
BOX_BYTES = 780_000
COUNTER_BYTES = 100_000
MAX_FLOWS = 500


@dataclass
class Lane:
    id: str
    label: str
    kind: str  # spans | cpu | gpu | counter
    rank: int
    rows: int = 1
    order: tuple = ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "kind": self.kind, "rows": self.rows}


@dataclass
class SpanSource:
    """MyTimer spans of one rank, for event details (columns of the timer table)."""

    span_id: np.ndarray
    parent: np.ndarray
    step: np.ndarray
    gpu_ns: np.ndarray  # -1 where unknown


@dataclass
class RankInput:
    """Everything of one rank the timeline is built from; times on the rank's own clock (trace
    times are moved onto it with their `to_collectors_ns`)."""

    rank: int
    alignment: Alignment
    spans: dict[str, np.ndarray] | None = None  # start, dur, name (str list), parent...
    span_names: list[str] | None = None
    steps: list[tuple[int, int, int]] = field(default_factory=list)  # (step, start, end)
    traces: list[TraceTables] = field(default_factory=list)
    # the collectors' own series (MemorySampler, GpuTracker): (key, label, times, values)
    series: list[tuple[str, str, np.ndarray, np.ndarray]] = field(default_factory=list)


_EVENT_COLUMNS = ("start", "dur", "name", "lane", "kind", "rank", "source", "row_in_source",
                  "correlation")  # fmt: skip


def _concatenated(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Every event column of the ranks' pieces, one column at a time."""
    if not parts:
        return {k: np.zeros(0, np.int64) for k in _EVENT_COLUMNS}
    return {k: np.concatenate([p[k] for p in parts]) for k in _EVENT_COLUMNS}


class Timeline:
    """The events of some ranks (a run keeps one per rank: pipeline/run_timeline.py), ordered
    and indexed for tiles, details and search. `origin_ns` (default: the first event's start)
    and `gap_ns` (default: from these ranks' steps) are the run's, so that every rank's piece
    measures time from the same origin and cuts windows at the same gaps."""

    def __init__(
        self, ranks: list[RankInput], origin_ns: int | None = None, gap_ns: int | None = None
    ) -> None:
        self.alignments = {r.rank: r.alignment for r in ranks}
        self._strings: dict[str, int] = {}
        self.names: list[str] = []
        self._name_json_bytes: np.ndarray | None = None  # per name, filled on first use
        self.lanes: list[Lane] = []
        self._lane_index: dict[str, int] = {}
        # built from the ranks' tables; a loaded piece holds the run's handles instead
        # (`result_cache`), opened only for what reads a trace (details, not tiles)
        self.traces: list[TraceTables | TraceFile] = []
        self.span_sources: dict[int, SpanSource] = {}
        self._row_ids: dict[int, np.ndarray] = {}  # per trace source: slice row -> event id
        parts: list[dict[str, np.ndarray]] = []
        counters: list[tuple[int, np.ndarray, np.ndarray]] = []
        self.rank_steps: dict[int, list[tuple[int, int, int]]] = {}
        for rank in ranks:
            parts += self._rank_events(rank)
            counters += self._rank_counters(rank)
            self.rank_steps[rank.rank] = aligned_steps(rank)
        columns = _concatenated(parts)
        del parts  # the per-rank pieces: a second copy of every event until here
        self._finish(columns, counters, origin_ns, gap_ns)

    # --- building ----------------------------------------------------------------------------

    def _intern(self, values: list[str]) -> np.ndarray:
        ids = self._strings
        out = np.empty(len(values), dtype=np.int32)
        for i, value in enumerate(values):
            found = ids.get(value)
            if found is None:
                found = ids[value] = len(self.names)
                self.names.append(value)
            out[i] = found
        return out

    def _lane(self, lane_id: str, label: str, kind: str, rank: int, order: tuple) -> int:
        index = self._lane_index.get(lane_id)
        if index is None:
            index = self._lane_index[lane_id] = len(self.lanes)
            self.lanes.append(Lane(lane_id, label, kind, rank, order=order))
        return index

    def _rank_events(self, rank: RankInput) -> list[dict[str, np.ndarray]]:
        parts = []
        align = rank.alignment.apply
        if rank.spans is not None and len(rank.spans["start"]):
            lane = self._lane(f"{rank.rank}/spans", "MyTimer", "spans", rank.rank, (rank.rank, 0))
            spans = rank.spans
            assert rank.span_names is not None  # given with spans (pipeline/lanes.py)
            self.span_sources[rank.rank] = SpanSource(
                spans["id"], spans["parent"], spans["step"], spans["gpu_ns"]
            )
            n = len(spans["start"])
            parts.append({
                "start": align(spans["start"]), "dur": spans["dur"],
                "name": self._intern(rank.span_names)[spans["name"]],
                "lane": np.full(n, lane, np.int32), "kind": np.full(n, SPAN_KIND, np.int8),
                "rank": np.full(n, rank.rank, np.int32), "source": np.full(n, -1, np.int32),
                "row_in_source": np.arange(n, dtype=np.int32),
                "correlation": np.full(n, -1, np.int64),
            })  # fmt: skip
        for trace in rank.traces:
            source = len(self.traces)
            self.traces.append(trace)
            slices = trace.slices
            n = len(slices["start"])
            if n == 0:
                continue
            name_map = self._intern(trace.names)
            kinds = np.asarray(slices["kind"])
            pids, tids = np.asarray(slices["pid"]), np.asarray(slices["tid"])
            on_device = np.isin(kinds, DEVICE_KINDS)
            # One lane per (host or device, pid, tid): few distinct values, so each column is
            # coded on its own and the codes combined (np.unique over rows is far slower).
            pid_values, pid_codes = np.unique(pids, return_inverse=True)
            tid_values, tid_codes = np.unique(tids, return_inverse=True)
            combined = (on_device * len(pid_values) + pid_codes) * len(tid_values) + tid_codes
            lane_keys, lane_codes = np.unique(combined, return_inverse=True)
            lanes = [
                self._trace_lane(
                    rank.rank,
                    trace,
                    int(key // len(tid_values) // len(pid_values)),
                    int(pid_values[key // len(tid_values) % len(pid_values)]),
                    int(tid_values[key % len(tid_values)]),
                )
                for key in lane_keys.tolist()
            ]
            lane_of = np.asarray(lanes, dtype=np.int32)[lane_codes.reshape(-1)]
            to_collectors = np.int64(trace.meta.to_collectors_ns)
            parts.append({
                "start": align(np.asarray(slices["start"]) + to_collectors),
                "dur": np.asarray(slices["dur"]),
                "name": name_map[np.asarray(slices["name"])], "lane": lane_of, "kind": kinds,
                "rank": np.full(n, rank.rank, np.int32), "source": np.full(n, source, np.int32),
                "row_in_source": np.arange(n, dtype=np.int32),
                "correlation": np.asarray(slices["correlation"]),
            })  # fmt: skip
        return parts

    def _trace_lane(self, rank: int, trace: TraceTables, device: int, pid: int, tid: int) -> int:
        names = trace.meta.thread_names
        labels = trace.meta.labels
        if device:
            label = f"GPU {pid} stream {tid}"
            return self._lane(f"{rank}/gpu/{pid}/{tid}", label, "gpu", rank, (rank, 2, pid, tid))
        thread = names.get(f"{pid}/{tid}") or labels.get(str(tid)) or f"thread {tid}"
        label = f"CPU {thread}" + (" (main)" if pid == tid else "")
        return self._lane(
            f"{rank}/cpu/{pid}/{tid}",
            label,
            "cpu",
            rank,
            (rank, 1, 0 if pid == tid else 1, pid, tid),
        )

    def _rank_counters(self, rank: RankInput) -> list[tuple[int, np.ndarray, np.ndarray]]:
        out = []
        for trace in rank.traces:
            memory = trace.memory
            known = np.asarray(memory["total_allocated"]) >= 0
            if not known.any():
                continue
            device_type = np.asarray(memory["device_type"])[known]
            device_id = np.asarray(memory["device_id"])[known]
            ts = np.asarray(memory["ts"])[known] + np.int64(trace.meta.to_collectors_ns)
            ts = rank.alignment.apply(ts)
            allocated = np.asarray(memory["total_allocated"])[known]
            for kind, dev in sorted(
                set(zip(device_type.tolist(), device_id.tolist(), strict=True))
            ):
                where = (device_type == kind) & (device_id == dev)
                device = "CPU" if dev < 0 or kind == 0 else f"device {dev}"
                lane = self._lane(
                    f"{rank.rank}/counter/memory/{kind}/{dev}",
                    f"Memory allocated, {device} (bytes)",
                    "counter",
                    rank.rank,
                    (rank.rank, 3, kind, dev),
                )
                out.append((lane, ts[where], allocated[where]))
        for key, label, ts, values in rank.series:
            lane = self._lane(
                f"{rank.rank}/counter/{key}", label, "counter", rank.rank, (rank.rank, 4, key)
            )
            out.append((lane, rank.alignment.apply(ts), values))
        return out

    def _finish(
        self,
        columns: dict[str, np.ndarray],
        counters: list[tuple[int, np.ndarray, np.ndarray]],
        origin_ns: int | None,
        gap_ns: int | None,
    ) -> None:
        """Order the events by (lane, row, start) and index them; `columns` are consumed (each is
        dropped once its ordered copy exists, so the build holds one extra column, not a
        second copy of all of them)."""
        if origin_ns is None:
            origin_ns = first_start([columns["start"]] + [ts for _, ts, _ in counters])
        self.origin_ns = origin_ns
        columns["start"] = columns["start"] - self.origin_ns
        # Lanes in display order: per rank MyTimer, CPU threads (main first), GPU, counters.
        lane_order = sorted(range(len(self.lanes)), key=lambda i: self.lanes[i].order)
        renumber = np.empty(len(self.lanes), dtype=np.int32)
        renumber[lane_order] = np.arange(len(lane_order), dtype=np.int32)
        self.lanes = [self.lanes[i] for i in lane_order]
        self._lane_index = {lane.id: i for i, lane in enumerate(self.lanes)}
        columns["lane"] = renumber[columns["lane"]] if len(columns["lane"]) else columns["lane"]
        # Rows: nesting depth within each lane, from the events in (lane, start) order.
        by_start = group_start_longest_first(columns["lane"], columns["start"], columns["dur"])
        lanes, starts, durs = (columns[k][by_start] for k in ("lane", "start", "dur"))
        rows = np.zeros(len(by_start), dtype=np.int16)
        lane_bounds = np.searchsorted(lanes, np.arange(len(self.lanes) + 1))
        for lane in range(len(self.lanes)):
            lo, hi = lane_bounds[lane], lane_bounds[lane + 1]
            if hi > lo:
                start = starts[lo:hi]
                rows[lo:hi] = nesting_depth(start, start + durs[lo:hi])
                self.lanes[lane].rows = int(rows[lo:hi].max()) + 1
        # (lane, row, start): already in (lane, start) order, so a stable sort by (lane, row)
        group_key = lanes.astype(np.int64) * 65536 + rows
        del lanes, starts, durs
        by_group = np.argsort(group_key, kind="stable")
        order = by_start[by_group]
        del by_start
        self.ev = {k: columns.pop(k)[order] for k in list(columns)}
        self.ev["row"] = rows[by_group]
        self.n_events = len(order)
        group_key = group_key[by_group]
        first = np.flatnonzero(np.concatenate(([True], group_key[1:] != group_key[:-1])))
        first = first[: self.n_events]  # no events: no groups
        self.group_keys = group_key[first]
        self.group_lanes = self.group_keys // 65536
        self.group_rows = self.group_keys % 65536
        self.group_offsets = np.append(first, self.n_events).astype(np.int64)
        self.end = int((self.ev["start"] + self.ev["dur"]).max()) if self.n_events else 0
        self.counters = {
            self.lanes[renumber[lane]].id: (ts - self.origin_ns, values)
            for lane, ts, values in counters
        }
        for ts, _ in self.counters.values():
            self.end = max(self.end, int(ts.max()) if len(ts) else 0)
        self.partner = flow_partners(self.ev, self.n_events)
        groups = len(self.group_keys)
        self.raw_level = raw_level(self.ev, self.n_events, self.group_offsets, groups)
        self.levels = coarser_levels(self.raw_level, self.end, groups)
        if gap_ns is None:
            gap_ns = gap_threshold_ns(step_durations(self.rank_steps))
        self.windows = recorded_windows(
            self.ev["start"], self.ev["dur"], self.ev["source"], [_path(t) for t in self.traces],
            gap_ns,
        )  # fmt: skip

    # --- queries -----------------------------------------------------------------------------

    def level_for(self, ns_per_px: float) -> Level:
        """The coarsest level whose buckets are no wider than a pixel."""
        level = self.raw_level
        for candidate in self.levels:
            if candidate.bucket_ns <= ns_per_px:
                level = candidate
        return level

    def boxes(self, start: int, end: int, ns_per_px: float) -> dict[str, np.ndarray]:
        """The boxes of every lane row ("group", in group order) in the window, from the
        level for the pixel size, merged at it."""
        level = self.level_for(ns_per_px)
        pieces = []
        for g in range(len(self.group_keys)):
            lo, hi = int(level.group_offsets[g]), int(level.group_offsets[g + 1])
            if hi <= lo:
                continue
            s = level.start[lo:hi]
            first = lo + int(np.searchsorted(s, start - int(level.group_max_dur[g]), "left"))
            last = lo + int(np.searchsorted(s, end, "left"))
            if last > first:
                pieces.append((g, first, last))
        rows = np.concatenate(
            [np.arange(first, last) for _, first, last in pieces] or [np.zeros(0, np.int64)]
        )
        group = np.repeat(
            np.array([g for g, _, _ in pieces], dtype=np.int64),
            [last - first for _, first, last in pieces],
        )
        visible = level.start[rows] + level.dur[rows] >= start
        rows, group = rows[visible], group[visible]
        boxes = {
            "start": level.start[rows], "dur": level.dur[rows], "name": level.name[rows],
            "count": level.count[rows], "id": level.event[rows], "group": group,
        }  # fmt: skip
        return merge_pixels(boxes, start, ns_per_px)

    def name_json_bytes(self) -> np.ndarray:
        """What each name takes in an answer's JSON, computed on first use."""
        if self._name_json_bytes is None:
            self._name_json_bytes = np.array(
                [len(json.dumps(name)) + 2 for name in self.names], dtype=np.int64
            )
        return self._name_json_bytes

    def counter_points(self, start: int, end: int, ns_per_px: float) -> list[dict[str, Any]]:
        """Per counter lane, the point before the window and the last point in each pixel:
        found by bisecting at the pixel edges, so the cost follows the pixels, not the
        points."""
        ns_per_px = max(ns_per_px, 1.0)
        edges = start + ns_per_px * np.arange(1, math.ceil((end - start) / ns_per_px) + 1)
        out = []
        for lane_id, (ts, values) in self.counters.items():
            lo = max(int(np.searchsorted(ts, start, "left")) - 1, 0)
            hi = int(np.searchsorted(ts, end, "right"))
            if hi <= lo:
                continue
            t = ts[lo:hi]
            last_in_pixel = np.searchsorted(t, edges, "left") - 1
            keep = np.unique(np.concatenate(([0], last_in_pixel[last_in_pixel >= 0])))
            out.append({"id": lane_id, "t": t[keep], "value": values[lo:hi][keep]})
        return out

    def flows(self, single_ids: set[int]) -> list[dict[str, Any]]:
        flows = []
        for event in single_ids:
            other = int(self.partner[event])
            if other < 0 or other not in single_ids or self.ev["kind"][event] != Kind.RUNTIME:
                continue
            flows.append({
                "from": {"rank": int(self.ev["rank"][event]), "id": event},
                "to": {"rank": int(self.ev["rank"][other]), "id": other},
                "from_lane": self.lanes[int(self.ev["lane"][event])].id,
                "to_lane": self.lanes[int(self.ev["lane"][other])].id,
                "start": int(self.ev["start"][event]), "end": int(self.ev["start"][other]),
            })  # fmt: skip
            if len(flows) >= MAX_FLOWS:
                break
        return flows

    def event_ids(self, trace: TraceTables, rows: np.ndarray) -> np.ndarray:
        """The event ids of these slice rows of one of the timeline's traces (-1 for a trace it
        does not hold). The inverse of each trace's rows is built on first use."""
        rows = np.asarray(rows, dtype=np.int64)
        path = trace.meta.path
        source = next((i for i, t in enumerate(self.traces) if _path(t) == path), -1)
        if source < 0:
            return np.full(len(rows), -1, dtype=np.int64)
        inverse = self._row_ids.get(source)
        if inverse is None:
            mine = np.flatnonzero(self.ev["source"] == source)
            inverse = np.full(len(trace.slices["start"]), -1, dtype=np.int64)
            inverse[self.ev["row_in_source"][mine]] = mine
            self._row_ids[source] = inverse
        return inverse[rows]

    def step_of(self, rank: int, t: int) -> int | None:
        for step, s, e in self.rank_steps.get(rank, []):
            if s - self.origin_ns <= t < e - self.origin_ns:
                return step
        return None

    def event(self, rank: int, event_id: int) -> dict[str, Any] | None:
        if not 0 <= event_id < self.n_events or int(self.ev["rank"][event_id]) != rank:
            return None
        ev = {k: v[event_id] for k, v in self.ev.items()}
        kind = int(ev["kind"])
        start = int(ev["start"])
        out = {
            "rank": rank, "id": event_id, "lane": self.lanes[int(ev["lane"])].id,
            "name": self.names[int(ev["name"])], "kind": KIND_NAMES.get(kind, "other"),
            "start": start, "dur": int(ev["dur"]), "row": int(ev["row"]),
            "step": self.step_of(rank, start),
            "args": _event_args(ev, self.span_sources, self.traces), "flow": None,
        }  # fmt: skip
        other = int(self.partner[event_id])
        if other >= 0:
            out["flow"] = {
                "rank": int(self.ev["rank"][other]),
                "id": other,
                "lane": self.lanes[int(self.ev["lane"][other])].id,
                "start": int(self.ev["start"][other]),
            }
        return out

    def search(self, text: str, limit: int) -> dict[str, Any]:
        """The events whose name holds `text` (case-insensitive), the first `limit` by start."""
        needle = text.lower()
        matching = np.array(
            [i for i, n in enumerate(self.names) if needle in n.lower()], dtype=np.int32
        )
        hits = np.flatnonzero(np.isin(self.ev["name"], matching))
        hits = hits[np.argsort(self.ev["start"][hits], kind="stable")]
        return {"total": len(hits), "matches": [self._match(int(i)) for i in hits[:limit]]}

    def _match(self, i: int) -> dict[str, Any]:
        return {
            "rank": int(self.ev["rank"][i]), "id": i,
            "lane": self.lanes[int(self.ev["lane"][i])].id,
            "name": self.names[int(self.ev["name"][i])],
            "start": int(self.ev["start"][i]), "dur": int(self.ev["dur"][i]),
        }  # fmt: skip


def first_start(starts: list[np.ndarray]) -> int:
    """The earliest of these times (0 without any): a timeline's origin."""
    firsts = [int(t.min()) for t in starts if len(t)]
    return min(firsts) if firsts else 0


def rank_first_start(rank: RankInput) -> int | None:
    """The earliest time (on rank 0's clock) of what the rank's piece will hold: its first
    span, trace slice or counter sample, found without building the piece (alignment maps
    times in order, so each source's first is enough); None for a rank with none."""
    firsts = []
    if rank.spans is not None and len(rank.spans["start"]):
        firsts.append(int(np.asarray(rank.spans["start"]).min()))
    for trace in rank.traces:
        shift = int(trace.meta.to_collectors_ns)
        if len(trace.slices["start"]):
            firsts.append(int(np.asarray(trace.slices["start"]).min()) + shift)
        known = np.asarray(trace.memory["total_allocated"]) >= 0
        if known.any():
            firsts.append(int(np.asarray(trace.memory["ts"])[known].min()) + shift)
    firsts += [int(np.asarray(ts).min()) for _, _, ts, _ in rank.series if len(ts)]
    if not firsts:
        return None
    return int(rank.alignment.apply(np.array(firsts, dtype=np.int64)).min())


def aligned_steps(rank: RankInput) -> list[tuple[int, int, int]]:
    """The rank's (step, start, end) on rank 0's clock, in step order."""
    align = rank.alignment.apply
    return sorted(
        (step, int(align(np.int64(s))), int(align(np.int64(e)))) for step, s, e in rank.steps
    )


def step_durations(rank_steps: dict[int, list[tuple[int, int, int]]]) -> list[int]:
    return [e - s for steps in rank_steps.values() for _, s, e in steps]


def tiles(pieces: list[Timeline], start: int, end: int, width_px: int) -> dict[str, Any]:
    """The window at a pixel width over every lane of `pieces` (ranks in order, on one
    origin): each piece's boxes from its level for the pixel size, then merged again, all
    together, at coarser pixels until their JSON fits BOX_BYTES; the counters likewise within
    COUNTER_BYTES; the launch -> device flows between single boxes."""
    ns_per_px = max((end - start) / width_px, 1e-9)
    union = _Union(pieces)
    boxes = union.boxes(start, end, ns_per_px)
    factor = 1.0
    while (size := union.json_bytes(boxes)) > BOX_BYTES:
        # Too many boxes: merge what was merged again at a coarser pixel (cheaper than
        # starting over from the levels; summary boxes merge like events).
        factor *= math.ceil(size / BOX_BYTES) + 1
        boxes = merge_pixels(boxes, start, ns_per_px * factor)
    used, name_index = np.unique(boxes["name"], return_inverse=True)
    distinct = list(dict.fromkeys(union.names[n] for n in used.tolist()))
    position = {name: i for i, name in enumerate(distinct)}
    renumber = np.array([position[union.names[n]] for n in used.tolist()], dtype=np.int64)
    names = renumber[name_index.reshape(-1)] if len(used) else np.zeros(0, np.int64)
    ids = boxes["id"]
    lanes_json = []
    for lane, rows in union.lane_runs(boxes["group"]):
        lanes_json.append({"id": union.lanes[lane].id, "boxes": {
            "start": boxes["start"][rows].tolist(), "dur": boxes["dur"][rows].tolist(),
            "row": union.group_rows[boxes["group"][rows]].tolist(),
            "name": names[rows].tolist(), "count": boxes["count"][rows].tolist(),
            "id": ids[rows].tolist()}})  # fmt: skip
    return {
        "start": start,
        "end": end,
        "ns_per_px": ns_per_px * factor,
        "names": distinct,
        "lanes": lanes_json,
        "counters": _counters_within_budget(pieces, start, end, ns_per_px),
        "flows": union.flows(boxes),
    }


class _Union:
    """Several pieces' groups, lanes and names numbered one after the other, so their boxes
    merge and measure as one timeline's."""

    def __init__(self, pieces: list[Timeline]) -> None:
        self.pieces = pieces
        groups = [len(p.group_keys) for p in pieces]
        self.group_base = np.cumsum([0, *groups])
        self.name_base = np.cumsum([0, *(len(p.names) for p in pieces)])
        lane_base = np.cumsum([0, *(len(p.lanes) for p in pieces)])
        self.lanes = [lane for p in pieces for lane in p.lanes]
        self.names = [name for p in pieces for name in p.names]
        self.group_lanes = np.concatenate(
            [p.group_lanes + lane_base[i] for i, p in enumerate(pieces)] or [np.zeros(0, int)]
        )
        self.group_rows = np.concatenate([p.group_rows for p in pieces] or [np.zeros(0, np.int64)])
        self.name_bytes = np.concatenate(
            [p.name_json_bytes() for p in pieces] or [np.zeros(0, np.int64)]
        )

    def boxes(self, start: int, end: int, ns_per_px: float) -> dict[str, np.ndarray]:
        parts = []
        for i, piece in enumerate(self.pieces):
            part = piece.boxes(start, end, ns_per_px)
            part["group"] = part["group"] + self.group_base[i]
            part["name"] = part["name"].astype(np.int64) + self.name_base[i]
            parts.append(part)
        if not parts:
            return {k: np.zeros(0, np.int64) for k in ("start", "dur", "name", "count", "id",
                                                        "group")}  # fmt: skip
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    def json_bytes(self, boxes: dict[str, np.ndarray]) -> int:
        """What the boxes and the names they use take in the answer's JSON (a bound)."""
        n = len(boxes["start"])
        if n == 0:
            return 0
        lanes = np.unique(self.group_lanes[boxes["group"]]).tolist()
        size = sum(len(self.lanes[lane].id) + _LANE_JSON_OVERHEAD for lane in lanes)
        size += sum(json_digits(boxes[key]) for key in ("start", "dur", "name", "count", "id"))
        size += json_digits(self.group_rows[boxes["group"]]) + 2 * 6 * n  # row; ", " each
        return size + int(self.name_bytes[np.unique(boxes["name"])].sum())

    def lane_runs(self, group: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(lane, rows of its boxes) per lane, boxes being in group (so lane) order."""
        lanes = self.group_lanes[group]
        starts = np.flatnonzero(np.concatenate(([True], lanes[1:] != lanes[:-1])))[: len(lanes)]
        bounds = np.append(starts, len(lanes))
        return [
            (int(lanes[a]), np.arange(a, b))
            for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)
        ]

    def flows(self, boxes: dict[str, np.ndarray]) -> list[dict[str, Any]]:
        """Each piece's flows between its single boxes, MAX_FLOWS in all."""
        piece_of = np.searchsorted(self.group_base, boxes["group"], "right") - 1
        flows: list[dict[str, Any]] = []
        for i, piece in enumerate(self.pieces):
            ids = boxes["id"][(piece_of == i) & (boxes["id"] >= 0)]
            flows += piece.flows(set(ids.tolist()))[: MAX_FLOWS - len(flows)]
        return flows


def _counters_within_budget(
    pieces: list[Timeline], start: int, end: int, ns_per_px: float
) -> list[dict[str, Any]]:
    factor = 1.0
    while True:
        counters = [c for p in pieces for c in p.counter_points(start, end, ns_per_px * factor)]
        size = sum(
            len(c["id"]) + 40 + json_digits(c["t"]) + json_digits(c["value"]) + 4 * len(c["t"])
            for c in counters
        )
        if size <= COUNTER_BYTES:
            return [
                {"id": c["id"], "t": c["t"].tolist(), "value": c["value"].tolist()}
                for c in counters
            ]
        factor *= math.ceil(size / COUNTER_BYTES) + 1


def _path(trace: TraceTables | TraceFile) -> str:
    return trace.path if isinstance(trace, TraceFile) else trace.meta.path


_LANE_JSON_OVERHEAD = 120  # '{"id": "", "boxes": {"start": [], ...}}'


def _event_args(
    ev: dict[str, Any], span_sources: dict[int, SpanSource], traces: list[TraceTables | TraceFile]
) -> dict[str, Any]:
    """An event's details: its span's ids and GPU time, or its trace slice's arguments."""
    row = int(ev["row_in_source"])
    if int(ev["source"]) < 0:
        spans = span_sources[int(ev["rank"])]
        span_args: dict[str, Any] = {
            "span id": int(spans.span_id[row]),
            "parent span id": int(spans.parent[row]),
            "step": int(spans.step[row]),
        }
        if spans.gpu_ns[row] >= 0:
            span_args["GPU time (ns)"] = int(spans.gpu_ns[row])
        return span_args
    source = traces[int(ev["source"])]
    trace = source.tables if isinstance(source, TraceFile) else source
    s = trace.slices
    args: dict[str, Any] = {"trace file": trace.meta.path.rsplit("/", 1)[-1]}
    for label, column in (
        ("correlation", "correlation"),
        ("External id", "external_id"),
        ("In msg nelems", "in_nelems"),
        ("Out msg nelems", "out_nelems"),
        ("Group size", "group_size"),
        ("registers per thread", "registers"),
        ("shared memory", "shared_memory"),
    ):
        value = int(s[column][row])
        if value >= 0:
            args[label] = value
    for label, column in (
        ("Collective name", "collective"),
        ("dtype", "dtype"),
        ("Process Group", "process_group"),
        ("grid", "grid"),
        ("block", "block"),
        ("Input Dims", "input_dims"),
        ("Input type", "input_types"),
    ):
        index = int(s[column][row])
        if index >= 0:
            args[label] = trace.names[index]
    for label, column in (
        ("blocks per SM", "blocks_per_sm"),
        ("warps per SM", "warps_per_sm"),
        ("est. achieved occupancy %", "occupancy"),
    ):
        measured = float(s[column][row])
        if measured >= 0:
            args[label] = round(measured, 4)
    return args
