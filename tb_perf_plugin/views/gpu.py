"""The GPU dashboard: per rank and device, the GPU summary of its traces (what the device is,
how its kernels used it); per rank, GpuTracker's samples over time (each GPU's utilization,
memory, power, clock, temperature; the process's CPU and RSS) with the rank's step boundaries,
or why there are no GPU samples (docs/HTTP_API.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.memory import bucket_size, bucketed, firsts
from ..pipeline.analyze import RunAnalysis
from ..pipeline.steps import clock_to_rank0
from ..store import INLINE_WAIT, RunStore
from ._shared import MAX_SERIES_POINTS, nullable

MAX_STEP_MARKS = 500  # step boundaries drawn on the GPU tab's charts, per rank


def gpu(
    store: RunStore, run_name: str | None, rank: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:  # fmt: skip
    run = store.find_run(run_name)
    tables = store.tables(run, wait_s)
    selected = store.selected_rank(run, tables, rank)
    system, gpus = tables.system, tables.gpus
    shown = [r for r in sorted(system["rank"].unique().tolist()) if selected in (None, r)]
    to_rank0 = {r: clock_to_rank0(tables, r) for r in shown}
    starts = [int(to_rank0[r](system["t"][system["rank"] == r].to_numpy(np.int64)).min())
              for r in shown]  # fmt: skip
    origin = min(starts, default=0)
    answers = [
        system_json(
            r, system[system["rank"] == r], gpus[gpus["rank"] == r],
            tables.steps[tables.steps["rank"] == r], tables.rank_meta.get(r),
            to_rank0[r], origin,
        )
        for r in shown
    ]  # fmt: skip
    reason = None
    if not any(answer["devices"] for answer in answers):
        by_reason: dict[str, list[int]] = {}
        for answer in answers:
            if answer["gpu_reason"]:
                by_reason.setdefault(answer["gpu_reason"], []).append(answer["rank"])
        reasons = [f"{ranks_text(ranks)}: {why}" for why, ranks in by_reason.items()]
        reason = "; ".join(reasons) or (
            "no GpuTracker records in this run (collectors.GpuTracker did not run)"
            if not answers
            else "GpuTracker recorded no GPU"
        )
    return {
        "run": run.name,
        "rank": selected,
        "gpus": gpu_summaries(store.analysis(run, wait_s), selected),
        "origin_ns": str(origin),
        "gpu_reason": reason,
        "ranks": answers,
        "warnings": tables.memory_warnings,
    }


def gpu_summaries(analysis: RunAnalysis, selected: int | None) -> list[dict[str, Any]]:
    """The GPU summary (analysis/gpu_summary.py) of each device of the selected ranks, over
    the windows their breakdowns cover (computed with the ranks' summaries)."""
    return [g.to_json() for g in analysis.gpus if selected in (None, g.rank)]


def system_json(
    rank: int,
    system: pd.DataFrame,
    gpus: pd.DataFrame,
    steps: pd.DataFrame,
    meta: Any,
    to_rank0: Callable[[np.ndarray], np.ndarray],
    origin: int,
) -> dict[str, Any]:
    """One rank's GpuTracker samples on rank 0's clock relative to `origin` (at most
    MAX_SERIES_POINTS per series, bucket means beyond), and its step starts."""
    settings = meta.system if meta is not None else None
    names = {g.index: g.name for g in settings.gpus} if settings else {}
    system = system.sort_values("t", kind="stable")
    t = to_rank0(system["t"].to_numpy(np.int64)) - origin
    bucket = bucket_size(len(t), MAX_SERIES_POINTS)
    devices = []
    for index in sorted(gpus["index"].unique().tolist()):
        rows = gpus[gpus["index"] == index].sort_values("t", kind="stable")
        every = bucket_size(len(rows), MAX_SERIES_POINTS)
        values = {  # bytes as integers, the rest to 3 decimals
            name: nullable(bucketed(rows[name].to_numpy(np.float64), every), digits)
            for name, digits in (("util", 3), ("mem_util", 3), ("mem_used", None),
                                 ("mem_total", None), ("power_w", 3), ("sm_clock_mhz", 3),
                                 ("temp_c", 3), ("pcie_tx", None), ("pcie_rx", None))
        }  # fmt: skip
        gpu_t = to_rank0(rows["t"].to_numpy(np.int64)) - origin
        devices.append({"index": int(index), "name": names.get(index), "bucket": every,
                        "t_ns": firsts(gpu_t, every).tolist(), **values})  # fmt: skip
    steps = steps.sort_values("step", kind="stable")
    stride = bucket_size(len(steps), MAX_STEP_MARKS)
    starts = to_rank0(steps["t0"].to_numpy(np.int64)) - origin
    reason = settings.gpu_reason if settings is not None else None
    if not devices and reason is None:
        reason = "GpuTracker recorded no GPU" if settings else "no GpuTracker metadata"
    return {
        "rank": rank,
        "interval_s": settings.interval_s if settings else None,
        "gpu_backend": settings.gpu_backend if settings else None,
        "gpu_reason": None if devices else reason,
        "bucket": bucket,
        "t_ns": firsts(t, bucket).tolist(),
        "cpu_pct": nullable(bucketed(system["cpu_pct"].to_numpy(np.float64), bucket), 2),
        "rss": nullable(bucketed(system["rss"].to_numpy(np.float64), bucket)),
        "devices": devices,
        "steps": {
            "step": firsts(steps["step"].to_numpy(np.int64), stride).tolist(),
            "start_ns": firsts(starts, stride).tolist(),
            "every": stride,
        },  # fmt: skip
    }


def ranks_text(ranks: list[int]) -> str:
    """`rank 3`, or `ranks 0-3, 7`: sorted ranks with runs of consecutive ones as ranges."""
    runs: list[list[int]] = []
    for rank in sorted(ranks):
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    return ("rank " if len(ranks) == 1 else "ranks ") + ", ".join(parts)
