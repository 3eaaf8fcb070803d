"""A run's steps and clocks: each rank's step windows (MyTimer's, else ProfilerStep#N), and
how each rank's clock maps to rank 0's (docs/ALIGNMENT.md)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ..analysis.align import (
    Alignment,
    RankClockEvidence,
    align_ranks,
    from_clock_sync,
    is_point_to_point,
)
from ..ingest.tables import DEVICE_KINDS, is_collective
from .read import RunTables, TraceFile

_PROFILER_STEP = re.compile(r"^ProfilerStep#(\d+)$")


def _collective_instances(traces: list[TraceFile]) -> list[tuple[tuple, int]]:
    """(signature, end) of collectives that end together on every rank: device collective
    kernels when the rank has any, else blocking host collectives (gloo). Selected with
    per-name flags over whole columns; only the chosen rows become Python tuples."""
    device: list[tuple[tuple, int]] = []
    host: list[tuple[tuple, int]] = []
    for trace in traces:
        t = trace.tables
        names = t.names
        name_ids = np.asarray(t.slices["name"])
        collective_arg = np.asarray(t.slices["collective"])
        label = np.where(collective_arg >= 0, collective_arg, name_ids)
        point_to_point = np.array([is_point_to_point(n) for n in names], dtype=bool)
        gloo = np.array([n.startswith("gloo:") for n in names], dtype=bool)
        candidate = (is_collective(names)[name_ids] | (collective_arg >= 0)) & ~(
            point_to_point[name_ids] | point_to_point[label]
        )
        on_device = np.isin(np.asarray(t.slices["kind"]), DEVICE_KINDS)
        ends = np.asarray(t.slices["start"]) + np.asarray(t.slices["dur"])
        ends = ends + t.meta.to_collectors_ns
        groups = np.asarray(t.slices["process_group"])
        sizes = np.asarray(t.slices["in_nelems"])
        for rows, out in (
            (np.flatnonzero(candidate & on_device), device),
            (np.flatnonzero(candidate & ~on_device & gloo[name_ids]), host),
        ):
            out.extend(
                ((names[lab], names[group] if group >= 0 else "", size), end)
                for lab, group, size, end in zip(
                    label[rows].tolist(),
                    groups[rows].tolist(),
                    sizes[rows].tolist(),
                    ends[rows].tolist(),
                    strict=True,
                )
            )
    chosen = device or host
    return sorted(chosen, key=lambda item: item[1])


def _profiler_steps(traces: list[TraceFile]) -> dict[int, tuple[int, int]]:
    steps = {}
    for trace in traces:
        t = trace.tables
        for index, name in enumerate(t.names):
            match = _PROFILER_STEP.match(name)
            if match:
                rows = np.flatnonzero(np.asarray(t.slices["name"]) == index)
                if len(rows):
                    start = int(t.slices["start"][rows[0]]) + t.meta.to_collectors_ns
                    steps[int(match.group(1))] = (start, start + int(t.slices["dur"][rows[0]]))
    return steps


def rank_steps(tables: RunTables, rank: int, traces: list[TraceFile]) -> dict[int, tuple[int, int]]:
    """Step -> (start, end) on the rank's own clock: MyTimer's steps, else ProfilerStep#N."""
    return steps_or_profiler_steps(timer_steps(tables, rank), traces)


def timer_steps(tables: RunTables, rank: int) -> dict[int, tuple[int, int]]:
    """Step -> (start, end) of the rank's MyTimer steps."""
    own = tables.steps[tables.steps["rank"] == rank]
    return {
        int(s): (int(a), int(b)) for s, a, b in zip(own["step"], own["t0"], own["t1"], strict=True)
    }


def steps_or_profiler_steps(
    timer: dict[int, tuple[int, int]], traces: list[TraceFile]
) -> dict[int, tuple[int, int]]:
    """`timer` (a rank's MyTimer steps) when it has any, else its traces' ProfilerStep#N."""
    return timer or _profiler_steps(traces)


def clock_to_rank0(tables: RunTables, rank: int) -> Callable[[np.ndarray], np.ndarray]:
    """Maps the rank's own clock to rank 0's with its clock sync, when it measured one (the
    sampler views need no finer alignment); else leaves times as they are."""
    meta = tables.rank_meta.get(rank)
    sync = from_clock_sync(rank, meta.clock_sync) if meta and meta.clock_sync else None
    return sync.apply if sync is not None else np.asarray


def clock_evidence(tables: RunTables, rank: int, traces: list[TraceFile]) -> RankClockEvidence:
    """What the rank offers for its clock's alignment: its clock sync, collectives and step
    starts (of `traces`, its traces)."""
    meta = tables.rank_meta.get(rank)
    steps = rank_steps(tables, rank, traces)
    return RankClockEvidence(
        rank,
        clock_sync=meta.clock_sync if meta is not None else None,
        collectives=_collective_instances(traces) or None,
        step_starts={s: a for s, (a, _) in steps.items()} or None,
    )


def align_run(tables: RunTables) -> dict[int, Alignment]:
    """Every rank's alignment to the lowest rank's clock, from each rank's evidence made as
    its turn comes (`align_ranks` keeps the reference's only)."""
    return align_ranks(
        clock_evidence(tables, rank, traces) for rank, traces in tables.rank_traces()
    )
