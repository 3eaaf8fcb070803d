"""The Memory dashboard: per rank, MemorySampler's series over steps and time, their trend,
fragmentation and peak; the run's memory findings; its memory snapshots and the snapshot
viewer's summary, tiles and allocations (docs/HTTP_API.md)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from ..analysis import memory_snapshot, snapshot_tiles
from ..analysis.findings import DEFAULT_THRESHOLDS
from ..analysis.memory import (
    RankMemory,
    bucket_size,
    bucketed,
    firsts,
    fragmentation,
    peak,
    trend,
    warmup_count,
)
from ..analysis.trace_memory import (
    OUTSIDE_OPERATORS,
    aggregate_operator_memory,
    operator_memory_calls,
)
from ..discovery import Run
from ..errors import InvalidArgument
from ..ingest.snapshot import Snapshot
from ..params import int_param, limit_param, shown
from ..pipeline.read import RunTables
from ..pipeline.steps import clock_to_rank0
from ..store import INLINE_WAIT, RunStore, relative_path, selected_traces
from ._shared import MAX_SERIES_POINTS, nullable, scope

MEMORY_KINDS = ("memory_leak", "fragmentation", "memory_peak")
SNAPSHOT_ROWS = 50  # rows of each list the snapshot route answers with
MAX_OPERATOR_MEMORY_ROWS = 1000
LARGEST_AT_PEAK = 10


def memory(
    store: RunStore, run_name: str | None, rank: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:  # fmt: skip
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)
    tables = store.tables(run, None)
    selected = store.selected_rank(run, tables, rank)
    both = sorted(analysis.memory.items()) + sorted(analysis.trace_memory.items())
    memories = [m for r, m in both if selected in (None, r)]
    shifted = [clock_to_rank0(tables, m.rank)(m.t) for m in memories]
    origin = min((int(t[0]) for t in shifted if len(t)), default=0)
    findings = [
        f.to_json()
        for f in analysis.findings
        if f.kind in MEMORY_KINDS and (selected is None or selected in f.ranks)
    ]
    leaking = {  # (rank, source) of each leaking series: a finding's, and the one it folded
        (r, source)
        for f in analysis.findings
        if f.kind == "memory_leak"
        for r in f.ranks
        for source in (f.evidence.get("source", {}).get("value"), *_folded(f.evidence))
    }
    traced = sum(t.memory_events for t in selected_traces(tables, selected))
    return {
        "run": run.name,
        "rank": selected,
        "origin_ns": str(origin),
        "ranks": [
            memory_json(m, t - origin, (m.rank, m.source) in leaking)
            for m, t in zip(memories, shifted, strict=True)
        ],
        "findings": findings,
        "snapshots": _snapshots_json(run, selected),
        "warnings": tables.memory_warnings + analysis.snapshot_warnings,
        "empty_reason": None if memories else empty_reason(traced, selected),
    }


def _folded(evidence: dict[str, Any]) -> tuple[str, ...]:
    """The source of the series a memory finding folded in (memory_rules.one_per_rank), if any."""
    return ("trace",) if "also_in" in evidence else ()


def memory_json(memory: RankMemory, t: np.ndarray, leak: bool) -> dict[str, Any]:
    """One rank's memory series (at most MAX_SERIES_POINTS; longer runs as bucket means, the
    peak as bucket maxima) with the trend, fragmentation and peak the findings use."""
    limits = DEFAULT_THRESHOLDS
    bucket = bucket_size(len(memory.steps), MAX_SERIES_POINTS)
    fit = trend(memory, limits.memory_warmup_fraction, limits.memory_warmup_steps,
                limits.leak_min_points)  # fmt: skip
    skip = warmup_count(len(memory.steps), limits.memory_warmup_fraction,
                        limits.memory_warmup_steps)  # fmt: skip
    frag, top = fragmentation(memory, skip), peak(memory)
    return {
        "rank": memory.rank,
        "device": memory.device,
        "source": memory.source,
        "device_total": memory.device_total,
        "reset_peak": memory.reset_peak,
        "bucket": bucket,
        "steps": firsts(memory.steps, bucket).tolist(),
        "t_ns": firsts(t, bucket).tolist(),
        **{
            name: nullable(bucketed(getattr(memory, name), bucket, how))
            for name, how in (("allocated", "mean"), ("reserved", "mean"), ("peak", "max"),
                              ("rss", "mean"))
        },  # fmt: skip
        "trend": None if fit is None else {
            "series": fit.series, "slope": round(fit.slope), "low": round(fit.low),
            "high": round(fit.high), "p_value": float(f"{fit.p_value:.3g}"),
            "first_step": fit.first_step, "last_step": fit.last_step,
            "start_level": round(fit.start_level), "end_level": round(fit.end_level),
            "leak": leak,
        },
        "fragmentation": None if frag is None else {
            "unused_fraction": round(frag.unused_fraction, 4), "unused": round(frag.unused_bytes),
            "reserved": round(frag.reserved), "peak": round(frag.peak), "retries": frag.retries,
        },
        "max_peak": None if top is None else {
            "bytes": round(top.bytes), "step": top.step, "share": top.share, "ooms": top.ooms,
        },
    }  # fmt: skip


def memory_operators(
    store: RunStore, run_name: str | None, rank: str | None = None, device: str | None = None,
    start: str | None = None, end: str | None = None, limit: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:  # fmt: skip
    """The per-operator memory table of the run's traces (analysis/trace_memory.py) for one
    device (`device`, default: the first CUDA device, else the CPU), of the op calls that ran
    within [start, end] (Unix ns on rank 0's clock, as `origin_ns` + `t_ns` of the memory
    route), largest allocations first."""
    run = store.find_run(run_name)
    tables = store.tables(run, wait_s)
    selected = store.selected_rank(run, tables, rank)
    calls = store.derived(run, "operator_memory", _operator_memory_calls, wait_s)
    if selected is not None:
        calls = calls[calls["rank"] == selected]
    devices = sorted(calls["device"].unique().tolist(), key=lambda d: (d == "cpu", d))
    if device and device not in devices:
        raise InvalidArgument(f"device {shown(device)} has no memory events here ({devices})")
    chosen = device or (devices[0] if devices else None)
    window = [_time_param(start, "start"), _time_param(end, "end")]
    mine = calls[calls["device"] == chosen]
    if window != [None, None]:  # op calls that ran in the range (the events outside ops: not)
        low, high = window[0] or 0, window[1] or 2**63 - 1
        mine = mine[(mine["end"] >= low) & (mine["start"] <= high)]
        mine = mine[mine["name"] != OUTSIDE_OPERATORS]
    table = aggregate_operator_memory(mine)
    count = limit_param(limit, MAX_OPERATOR_MEMORY_ROWS, 200)
    traced = sum(t.memory_events for t in selected_traces(tables, selected))
    reason = None
    if table.empty:
        reason = (
            "No op ran in this time range." if len(calls) else
            "No memory events in this run's traces: record them with "
            "torch.profiler.profile(profile_memory=True)." if not traced else
            "Its memory events fall outside every host op."
        )  # fmt: skip
    return {
        "run": run.name,
        "rank": selected,
        "devices": devices,
        "device": chosen,
        "start_ns": None if window[0] is None else str(window[0]),
        "end_ns": None if window[1] is None else str(window[1]),
        "total_rows": len(table),
        "rows": table.head(count).replace({np.nan: None}).to_dict(orient="records"),
        "empty_reason": reason,
    }


def _time_param(value: str | None, name: str) -> int | None:
    return None if not value else int_param(value, name, 0, 2**63 - 1)


def _operator_memory_calls(tables: RunTables) -> pd.DataFrame:
    """Every rank's op calls with memory events, start and end on rank 0's clock."""
    parts = []
    for rank, traces in tables.rank_traces():
        calls = operator_memory_calls([t.tables for t in traces])
        if len(calls):
            to_rank0 = clock_to_rank0(tables, rank)
            calls["start"] = np.asarray(to_rank0(calls["start"].to_numpy(np.int64)), np.int64)
            calls["end"] = np.asarray(to_rank0(calls["end"].to_numpy(np.int64)), np.int64)
            parts.append(calls.assign(rank=rank))
    if not parts:
        return operator_memory_calls([]).assign(rank=pd.Series(dtype=np.int64))
    return pd.concat(parts, ignore_index=True)


def empty_reason(trace_memory_events: int, selected: int | None) -> str:
    """Why the memory route has no ranks, given the [memory] events of the selection's traces."""
    if trace_memory_events:
        return (
            f"The {trace_memory_events} [memory] events of {scope(selected)}'s torch.profiler "
            "traces fall in no step (no ProfilerStep#N or MyTimer step around them), so there "
            "is no memory per step to show; the Timeline draws their allocated totals as a "
            "counter lane."
        )
    return (
        f"No memory records in {scope(selected)}: the Memory view reads MemorySampler records "
        "(wrap the training loop in “with MemorySampler(timer):”, from collectors), the memory "
        "events of torch.profiler traces recorded with profile_memory=True, and memory "
        "snapshots."
    )


def _snapshots_json(run: Run, selected: int | None) -> list[dict[str, Any]]:
    """The run's snapshot files (of the selected rank, and those of no known rank)."""
    out = []
    for path in run.snapshots:
        rank = run.snapshot_rank(path)
        if selected is not None and rank not in (None, selected):
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append({"file": relative_path(run, path), "rank": rank, "bytes": st.st_size,
                    "updated_ns": st.st_mtime_ns})  # fmt: skip
    return out


# --- the snapshot viewer ---------------------------------------------------------------------


def snapshot(
    store: RunStore, run_name: str | None, file: str | None, wait_s: float | None = INLINE_WAIT
) -> dict[str, Any]:
    """A memory snapshot's summary, its largest allocations at the peak, its bytes by first
    user frame and its most fragmented segments."""
    run = store.find_run(run_name)
    path, snap = store.snapshot(run, file, wait_s)
    summary = memory_snapshot.snapshot_summary(snap)
    origin = summary["time"]["start"] if summary["time"] else 0
    devices = []
    share = memory_snapshot.SNAPSHOT_BYTES // (2 * max(len(summary["devices"]), 1))
    for device in summary["devices"]:
        index = device["device"]
        frames = memory_snapshot.by_first_user_frame(snap, index)
        largest = memory_snapshot.largest_at_peak(snap, index, LARGEST_AT_PEAK)
        devices.append({
            **_relative_times(device, origin),
            "largest_at_peak": memory_snapshot.fit(
                [_relative_allocation(a, origin) for a in largest], share),
            "by_first_user_frame": memory_snapshot.fit(frames[:SNAPSHOT_ROWS], share),
            "frames_total": len(frames),
        })  # fmt: skip
    segments = memory_snapshot.fragmentation(snap)
    return {
        **_relative_times({k: v for k, v in summary.items() if k != "devices"}, origin),
        "run": run.name,
        "file": relative_path(run, path),  # the summary's is the file's name
        "rank": run.snapshot_rank(path),
        "origin_ns": str(origin),
        "devices": devices,
        "free_segments": segments[:SNAPSHOT_ROWS],
        "free_segments_total": len(segments),
    }


def snapshot_tile(
    store: RunStore,
    run_name: str | None,
    file: str | None,
    device: str | None,
    start: str | None,
    end: str | None,
    width_px: str | None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    """The snapshot viewer's stacked live allocations for a window (times relative to the
    snapshot route's `origin_ns`), at most 1 MB of JSON: the timeline's tile protocol
    (`start`, `end`, `width_px` in)."""
    first, last = int_param(start, "start"), int_param(end, "end")
    pixels = int_param(width_px, "width_px", 1, snapshot_tiles.MAX_WIDTH_PX)
    if last <= first:
        raise InvalidArgument(f"end ({last}) must be greater than start ({first})")
    _, snap = store.snapshot(store.find_run(run_name), file, wait_s)
    index = _snapshot_device(snap, device)
    origin = _snapshot_origin(snap)
    tile = snapshot_tiles.snapshot_tile(snap, index, first + origin, last + origin, pixels)
    bands = tile["bands"]
    bands["start"] = [t - origin for t in bands["start"]]
    bands["end"] = [t - origin for t in bands["end"]]
    window = {key: value for key, value in tile.items() if key not in ("t0", "t1")}
    return {**window, "start": first, "end": last}


def snapshot_allocation(
    store: RunStore,
    run_name: str | None,
    file: str | None,
    device: str | None,
    index: str | None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    """One allocation of the snapshot (a tile band's `id`): size, lifetime, stacks."""
    number = int_param(index, "index", 0)
    _, snap = store.snapshot(store.find_run(run_name), file, wait_s)
    details = memory_snapshot.allocation_details(snap, _snapshot_device(snap, device), number)
    return _relative_allocation(details, _snapshot_origin(snap))


def _snapshot_origin(snap: Snapshot) -> int:
    """Where the snapshot's times start (its trace's first time; 0 without a trace): times in
    the snapshot routes are relative to it (Unix ns exceed JavaScript's exact integers)."""
    times = [d["time"]["start"] for d in memory_snapshot.snapshot_summary(snap)["devices"]
             if d["time"]]  # fmt: skip
    return min(times, default=0)


def _snapshot_device(snap: Snapshot, device: str | None) -> int:
    number = int_param(device, "device")
    if number not in snap.devices:
        raise InvalidArgument(f"device {number} is not in this snapshot (devices: {snap.devices})")
    return number


_TIME_KEYS = ("start", "end", "t_ns", "t_alloc", "t_free", "t_free_requested")


def _relative_times(value: Any, origin: int) -> Any:
    """A copy of a summary with its times relative to `origin`."""
    if isinstance(value, dict):
        return {
            k: (
                v - origin if k in _TIME_KEYS and isinstance(v, int) else _relative_times(v, origin)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_relative_times(v, origin) for v in value]
    return value


def _relative_allocation(allocation: dict[str, Any], origin: int) -> dict[str, Any]:
    """An allocation with times relative to `origin` (frames and sizes as they are)."""
    return {
        k: v - origin if k in _TIME_KEYS and isinstance(v, int) else v
        for k, v in allocation.items()
    }
