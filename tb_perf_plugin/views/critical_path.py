"""The critical path of each traced step, per rank and for the job (docs/ANALYSIS.md,
"Critical path"; route `critical_path`, `tb-perf analyze`'s `critical_path`, the Timeline's
"Critical path" toggle). Computed on first use, not with the run's analysis."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis.align import Alignment, Method
from ..analysis.critical_path import (
    JoinedPath,
    RankStepGraph,
    StepCriticalPath,
    job_critical_path,
    joined_critical_path,
    step_critical_path,
    step_graph,
)
from ..analysis.operators import HostNesting, host_nesting
from ..discovery import Run
from ..errors import NotFound
from ..params import int_param, shown
from ..pipeline.analyze import covering_traces, step_breakdowns
from ..pipeline.read import RunTables
from ..pipeline.run_timeline import RunTimeline
from ..pipeline.steps import align_run
from ..store import INLINE_WAIT, RunStore

MAX_PATH_EVENTS = 20000  # a step's path events a request lists at most


@dataclass(frozen=True)
class RankStepPath:
    """One step's path on one rank, with the trace it was found in."""

    trace: int  # index into the run's tables.traces
    path: StepCriticalPath


@dataclass
class RunPaths:
    """Every broken-down step's path per rank, and per step of several ranks the path with
    their collectives joined."""

    paths: list[RankStepPath]
    joined: dict[int | None, JoinedPath]


def run_critical_paths(tables: RunTables) -> RunPaths:
    """The critical path of every broken-down step of the run (the breakdown's windows), each
    found in the trace that covers it; for a step on several ranks, the joined path too (their
    graphs on rank 0's clock as the run's alignment fits it)."""
    windows: dict[int | None, list[tuple[int, int, int, int]]] = {}  # step -> (trace, rank, a, b)
    for done, index in covering_traces(tables, step_breakdowns(tables)):
        a = done.start_ns - tables.traces[index].tables.meta.to_collectors_ns
        windows.setdefault(done.step, []).append((index, done.rank, a, a + done.duration_ns))
    several = any(len({rank for _, rank, _, _ in w}) > 1 for w in windows.values())
    alignments = align_run(tables) if several else {}
    nestings: dict[int, HostNesting] = {}
    paths, joined = [], {}
    for step, found in windows.items():
        parts = []
        for index, rank, a, b in found:
            trace = tables.traces[index].tables
            if index not in nestings:
                nestings[index] = host_nesting(trace)
            graph = step_graph(trace, (a, b), nestings[index])
            path = step_critical_path(trace, rank, step, (a, b), graph=graph)
            shift = trace.meta.to_collectors_ns
            path.start_ns += shift  # on the rank's collectors' clock, as the breakdown's
            paths.append(RankStepPath(index, path))
            alignment = alignments.get(rank, Alignment(rank, Method.NONE))
            parts.append(RankStepGraph(rank, trace, graph, _job_clock(alignment, shift)))
        if len({p.rank for p in parts}) > 1:
            joined[step] = joined_critical_path(step, parts)
    paths.sort(key=lambda p: (p.path.rank, -1 if p.path.step is None else p.path.step))
    return RunPaths(paths, joined)


def _job_clock(alignment: Alignment, shift: int) -> Callable[[np.ndarray], np.ndarray]:
    """Trace clock -> the rank's collectors' clock -> rank 0's."""
    return lambda t: alignment.apply(t + np.int64(shift))


def critical_paths(store: RunStore, run: Run, wait_s: float | None) -> RunPaths:
    """The run's critical paths, built on first use and cached per run version."""
    return store.derived(run, "critical_path", run_critical_paths, wait_s)


def summary_json(found: RunPaths, selected: int | None) -> dict[str, Any]:
    """Per rank, per step: length, its share of the step, shares by category, top operators and
    kernels; per step, the job's path (through the slowest rank) and, for a step of several
    ranks and all of them selected, the path with their collectives joined (`joined`)."""
    chosen = [p.path for p in found.paths if selected is None or p.path.rank == selected]
    ranks = sorted({p.rank for p in chosen})
    job = job_critical_path(chosen)
    for entry in job:
        joined = found.joined.get(entry["step"]) if selected is None else None
        entry["joined"] = joined.to_json() if joined is not None else None
    return {
        "ranks": [
            {"rank": r, "steps": [p.to_json() for p in chosen if p.rank == r]} for r in ranks
        ],
        "job": job,
    }


def critical_path(
    store: RunStore,
    run_name: str | None,
    rank: str | None = None,
    step: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    """Without `step`: every step's summary (`summary_json`). With `step` (and a `rank`, else
    the slowest rank of that step): that step's path, its events in order (where each starts
    on the rank's collectors' clock, its path time, category, edge kind and name, and the event's
    own start, duration, pid and tid for the Timeline to find it)."""
    run = store.find_run(run_name)
    tables = store.tables(run, wait_s)
    selected = store.selected_rank(run, tables, rank)
    paths = critical_paths(store, run, wait_s)
    body: dict[str, Any] = {"run": run.name, "rank": selected}
    if step is None:
        # a summary of every step is ~1e5 path edges a rank: built once per run version
        summary = store.derived(
            run, f"critical_path_summary:{selected}", lambda _: summary_json(paths, selected),
            wait_s,
        )  # fmt: skip
        body.update(summary)
        return body
    wanted = int_param(step, "step")
    of_step = [p for p in paths.paths if p.path.step == wanted]
    if selected is not None:
        of_step = [p for p in of_step if p.path.rank == selected]
    if not of_step:
        where = "" if selected is None else f" on rank {selected}"
        raise NotFound(f"no critical path of step {shown(step)}{where}: not a traced step")
    chosen = max(of_step, key=lambda p: (p.path.length_ns, -p.path.rank))
    body.update(step_json(tables, chosen))
    body["timeline"] = timeline_events(store.timeline(run, wait_s), tables, chosen)
    return body


def timeline_events(timeline: RunTimeline, tables: RunTables, found: RankStepPath) -> list[dict]:
    """The step's path events as the Timeline draws them (each once, in time order): rank,
    event id, lane, row, start and duration relative to the timeline's origin, and the path
    time the event carries."""
    path = found.path
    rows = path.rows[path.rows >= 0]
    distinct, inverse = np.unique(rows, return_inverse=True)
    carried = np.zeros(len(distinct), dtype=np.int64)
    np.add.at(carried, inverse.reshape(-1), path.ns[path.rows >= 0])
    piece = timeline.piece(tables.traces[found.trace].rank)
    ids = piece.event_ids(tables.traces[found.trace].tables, distinct)
    drawn = ids >= 0
    ids, carried = ids[drawn], carried[drawn]
    ev = piece.ev
    order = np.argsort(ev["start"][ids], kind="stable")
    ids, carried = ids[order], carried[order]
    return [
        {
            "rank": path.rank,
            "id": int(i),
            "lane": piece.lanes[int(lane)].id,
            "row": int(row),
            "start": int(start),
            "dur": int(dur),
            "path_ns": int(ns),
        }
        for i, lane, row, start, dur, ns in zip(
            ids.tolist(),
            ev["lane"][ids].tolist(),
            ev["row"][ids].tolist(),
            ev["start"][ids].tolist(),
            ev["dur"][ids].tolist(),
            carried.tolist(),
            strict=True,
        )
    ]


def step_json(tables: RunTables, found: RankStepPath) -> dict[str, Any]:
    """One step's path with its events (at most MAX_PATH_EVENTS, in path order)."""
    path = found.path
    trace = tables.traces[found.trace].tables
    shift = trace.meta.to_collectors_ns
    slices = trace.slices
    rows = path.rows[:MAX_PATH_EVENTS]
    safe = np.maximum(rows, 0)
    known = rows >= 0
    event_start = np.where(known, np.asarray(slices["start"])[safe] + shift, -1)
    event_dur = np.where(known, np.asarray(slices["dur"])[safe], -1)
    pid = np.where(known, np.asarray(slices["pid"])[safe], -1)
    tid = np.where(known, np.asarray(slices["tid"])[safe], -1)
    events = [
        {
            "at_ns": str(int(at) + shift),
            "ns": int(ns),
            "category": category,
            "edge": kind,
            "name": name,
            "event_start_ns": str(int(s)) if ok else None,
            "event_dur_ns": int(d) if ok else None,
            "pid": int(p) if ok else None,
            "tid": int(t) if ok else None,
        }
        for at, ns, category, kind, name, s, d, p, t, ok in zip(
            path.at_ns[: len(rows)].tolist(),
            path.ns[: len(rows)].tolist(),
            path.category,
            path.kind,
            path.names,
            event_start.tolist(),
            event_dur.tolist(),
            pid.tolist(),
            tid.tolist(),
            known.tolist(),
            strict=False,
        )
    ]
    return {
        **path.to_json(),
        "events": events,
        "total_events": len(path.rows),
    }
