"""What the timeline draws of a run: each rank's aligned spans, steps, traces and the
collectors' counter series, built into one `Timeline` piece per rank (timeline.py) on the run's
origin, and the outline of them all (run_timeline.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.align import Alignment, Method
from .read import RunTables
from .run_timeline import TimelineOutline, outline
from .steps import align_run, rank_steps
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


def build_timeline(tables: RunTables, keep: Callable[[int, Timeline], None]) -> TimelineOutline:
    """The run's timeline, one rank's piece at a time (each handed to `keep`, which stores
    it, then dropped), on the run's origin and window gap; returns the outline. Each rank's
    input is made when its turn comes, in each of the two passes: holding every rank's
    inputs would hold every rank's traces open."""
    alignments = align_run(tables)

    def inputs() -> Iterator[RankInput]:
        for rank, _ in tables.rank_traces():
            yield rank_input(tables, rank, alignments.get(rank, Alignment(rank, Method.NONE)))

    origin, gap = run_origin_and_gap(inputs())

    def pieces() -> Iterator[tuple[int, Timeline]]:
        for found in inputs():
            piece = rank_piece(found, origin, gap)
            keep(found.rank, piece)
            yield found.rank, piece

    return outline(origin, gap, pieces())


def run_origin_and_gap(inputs: Iterable[RankInput]) -> tuple[int, int]:
    """The run's origin (its first event, on rank 0's clock) and the gap that ends a window
    (from every rank's steps), taking the ranks' inputs one at a time."""
    firsts, steps = [], {}
    for found in inputs:
        firsts.append(rank_first_start(found))
        steps[found.rank] = aligned_steps(found)
    known = [f for f in firsts if f is not None]
    return (min(known) if known else 0), gap_threshold_ns(step_durations(steps))


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
