"""What the timeline draws of a run: each rank's aligned spans, steps, traces and the
collectors' counter series, built into one `Timeline` piece per rank (timeline.py) on the run's
origin, and the outline of them all (run_timeline.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.align import Alignment, Method, RankClockEvidence, align_ranks
from .read import RunTables, TraceFile
from .run_timeline import PieceOutline, TimelineOutline, outline
from .steps import clock_evidence, rank_steps
from .timeline import RankInput, Timeline, aligned_steps, rank_first_start, step_durations
from .windows import gap_threshold_ns


def rank_input(tables: RunTables, rank: int, alignment: Alignment) -> RankInput:
    """What the rank's piece of the timeline is built from (its tables' columns, not copies)."""
    traces = [t for t in tables.traces if t.rank == rank]
    spans = tables.spans[tables.spans["rank"] == rank]
    span_input, span_names = None, None
    if len(spans):
        names = pd.Categorical(spans["name"])
        span_input = {
            "start": spans["t0"].to_numpy(np.int64),
            "dur": (spans["t1"] - spans["t0"]).to_numpy(np.int64),
            "name": names.codes.astype(np.int64),
            "id": spans["id"].to_numpy(np.int64),
            "parent": spans["parent"].to_numpy(np.int64),
            "step": spans["step"].to_numpy(np.int64),
            "gpu_ns": spans["gpu_ns"].fillna(-1).to_numpy(np.int64),
        }
        span_names = [str(c) for c in names.categories]
    steps = rank_steps(tables, rank, traces)
    return RankInput(
        rank, alignment, span_input, span_names, [(s, a, b) for s, (a, b) in steps.items()],
        [t.tables for t in traces], _collector_series(tables, rank),
    )  # fmt: skip


@dataclass
class RankClock:
    """What the run's clock alignment, origin and window gap need of one rank, on its own
    clock: a few numbers and its collectives, made where its traces are (a worker's
    `rank_timeline.rank_clock_task`, or here)."""

    evidence: RankClockEvidence
    first_start: int | None  # its first span, trace slice or counter sample
    steps: list[tuple[int, int, int]]  # (step, start, end)


def rank_clock(tables: RunTables, rank: int, traces: list[TraceFile]) -> RankClock:
    """The rank's clock facts from `tables` (the run's, or the rank's own) and `traces`, its
    traces."""
    found = rank_input(tables, rank, Alignment(rank, Method.NONE))
    return RankClock(clock_evidence(tables, rank, traces), rank_first_start(found), found.steps)


def run_clock(clocks: Iterable[RankClock]) -> tuple[dict[int, Alignment], int, int]:
    """Each rank's alignment, the run's origin (its first event, on rank 0's clock) and the gap
    that ends a window (from every rank's steps), from the ranks' clocks in rank order, taken
    one at a time: of each, only its first start and steps are kept (alignment maps times in
    order, so the first start maps to the first aligned time)."""
    kept: dict[int, tuple[int | None, list[tuple[int, int, int]]]] = {}

    def evidence() -> Iterator[RankClockEvidence]:
        for clock in clocks:
            kept[clock.evidence.rank] = (clock.first_start, clock.steps)
            yield clock.evidence

    alignments = align_ranks(evidence())
    firsts = [
        int(alignments[rank].apply(np.int64(first)))
        for rank, (first, _) in kept.items()
        if first is not None
    ]
    steps = {
        rank: aligned_steps(RankInput(rank, alignments[rank], steps=own))
        for rank, (_, own) in kept.items()
    }
    origin = min(firsts) if firsts else 0
    return alignments, origin, gap_threshold_ns(step_durations(steps))


def build_timeline(tables: RunTables, keep: Callable[[int, Timeline], None]) -> TimelineOutline:
    """The run's timeline in this process, in two passes over the ranks (their clocks, then
    their pieces), each rank's input made when its turn comes (holding every rank's would
    hold every rank's traces open); each piece is handed to `keep`, which stores it, then
    dropped. Returns the outline."""
    alignments, origin, gap = run_clock(
        rank_clock(tables, rank, traces) for rank, traces in tables.rank_traces()
    )

    def shares() -> Iterator[PieceOutline]:
        for rank, _ in tables.rank_traces():
            piece = rank_piece(rank_input(tables, rank, alignments[rank]), origin, gap)
            keep(rank, piece)
            yield PieceOutline.of(rank, piece)

    return outline(origin, gap, shares())


def rank_piece(rank: RankInput, origin_ns: int, gap_ns: int) -> Timeline:
    """One rank's piece of the run's timeline."""
    return Timeline([rank], origin_ns, gap_ns)


# The collectors' series shown as timeline counters: (table, column, key, label, integer?)
_SERIES = (
    ("memory", "allocated", "memory/allocated", "CUDA allocated (bytes)", True),
    ("memory", "reserved", "memory/reserved", "CUDA reserved (bytes)", True),
    ("memory", "rss", "memory/rss", "Process RSS (bytes)", True),
    ("system", "cpu_pct", "system/cpu", "Process CPU (% of a core)", False),
)
_GPU_SERIES = (
    ("util", "utilization (%)", False),
    ("mem_used", "memory used (bytes)", True),
    ("power_w", "power (W)", False),
)


def _collector_series(tables: RunTables, rank: int) -> list[tuple[str, str, Any, Any]]:
    """MemorySampler's and GpuTracker's samples of one rank as (key, label, t, value) series,
    on the rank's clock; samples without a value (null) are left out."""
    out = []

    def add(rows: pd.DataFrame, column: str, key: str, label: str, integer: bool) -> None:
        known = rows[rows[column].notna()].sort_values("t", kind="stable")
        if len(known):
            values = known[column].to_numpy(np.float64)
            out.append((key, label, known["t"].to_numpy(np.int64),
                        values.astype(np.int64) if integer else values))  # fmt: skip

    for table, column, key, label, integer in _SERIES:
        rows = getattr(tables, table)
        add(rows[rows["rank"] == rank], column, key, label, integer)
    gpus = tables.gpus[tables.gpus["rank"] == rank]
    for index in sorted(gpus["index"].unique().tolist()):
        for column, what, integer in _GPU_SERIES:
            rows = gpus[gpus["index"] == index]
            add(rows, column, f"gpu{index}/{column}", f"GPU {index} {what}", integer)
    return out
