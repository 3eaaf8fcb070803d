"""The JSON answers of the routes, shaped from analysis results: pure functions, no service
state. Numbers are JSON-safe (integers, rounded floats, null for NaN) and series are capped at
MAX_SERIES_POINTS (bucket means beyond)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .analysis.findings import DEFAULT_THRESHOLDS
from .analysis.memory import (
    RankMemory,
    bucket_size,
    bucketed,
    firsts,
    fragmentation,
    peak,
    trend,
    warmup_count,
)
from .analysis.ranks import RankMatrix, bucket_columns, outlier_ranks, outlier_steps
from .analysis.spans import percent, span_table
from .analysis.steps import step_series, step_time_stats
from .discovery import Run, now_ns
from .run_tables import RunTables

MAX_SERIES_POINTS = 2000
MAX_SPAN_ROWS = 500
MAX_STEP_MARKS = 500  # step boundaries drawn on the GPU tab's charts, per rank


def nullable(values: np.ndarray, digits: int | None = None) -> list[Any] | None:
    """JSON numbers (ints, or floats rounded to `digits`), null where NaN; None if all are."""
    finite = np.isfinite(values)
    if not finite.any():
        return None
    if digits is None:
        return [round(v) if ok else None for v, ok in zip(values.tolist(), finite, strict=True)]
    return [round(v, digits) if ok else None for v, ok in zip(values.tolist(), finite, strict=True)]


def heatmap_json(run: Run, matrix: RankMatrix) -> dict[str, Any]:
    """The rank_heatmap route's answer for one metric's matrix (analysis/ranks.py)."""
    limits = DEFAULT_THRESHOLDS
    columns = bucket_columns(matrix)
    finite = columns.values[np.isfinite(columns.values)]
    return {
        "run": run.name,
        "metric": matrix.metric.value,
        "unit": matrix.unit,
        "source": matrix.source,
        "reason": matrix.reason,
        "ranks": matrix.ranks.tolist(),
        "steps_total": len(matrix.steps),
        "bucket": columns.bucket,
        "first_steps": columns.first_steps,
        "last_steps": columns.last_steps,
        "values": [
            [round(v) if np.isfinite(v) else None for v in row.tolist()] for row in columns.values
        ],  # fmt: skip
        "min": round(float(finite.min())) if len(finite) else None,
        "max": round(float(finite.max())) if len(finite) else None,
        "outlier_ranks": [
            {
                "rank": o.rank,
                "median": round(o.median),
                "typical": round(o.typical),
                "z": round(o.z, 2),
                "direction": "high" if o.z > 0 else "low",
                "steps": o.steps,
            }
            for o in outlier_ranks(matrix, limits)
        ],  # fmt: skip
        "outlier_steps": outlier_steps(matrix, limits),
    }


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


def name_totals(events: pd.DataFrame) -> list[dict[str, Any]]:
    """Calls and summed duration per event name (the operators and kernels views' `calls`
    and `host_total_ns` / `total_ns`, without their other columns)."""
    if events.empty:
        return []
    table = events.groupby("name", sort=False)["dur"].agg(["size", "sum"])
    return [{"name": n, "calls": int(c), "total_ns": int(t)}
            for n, c, t in zip(table.index, table["size"], table["sum"], strict=True)]  # fmt: skip


def ncu_json(table: pd.DataFrame, metrics: pd.DataFrame) -> dict[str, Any]:
    """How the NCU kernels matched the trace's kernel names (analysis/ncu.py's rule)."""
    matched = table[table["ncu_match"].isin(["exact", "name", "base name"])]
    return {
        "files": sorted(set(metrics["file"].tolist())),
        "launches": len(metrics),
        "matched_kernels": len(matched),
        "unmatched": table.loc[table["ncu_match"] == "unmatched", "name"].tolist(),
        "ambiguous": table.loc[table["ncu_match"] == "ambiguous", "name"].tolist(),
    }


def python_rows(table: pd.DataFrame) -> list[dict[str, Any]]:
    """The python route's rows: times in integer ns (per-call means rounded), shares to six
    decimals, null where a function has no calls to divide by."""
    out = []
    for row in table.itertuples(index=False):
        out.append({
            "function": row.function, "filename": row.filename, "line": int(row.line),
            "name": row.name, "builtin": bool(row.builtin), "calls": int(row.calls),
            "primitive_calls": int(row.primitive_calls), "self_ns": int(row.self_ns),
            "cumulative_ns": int(row.cumulative_ns),
            "self_per_call_ns": None if pd.isna(row.self_per_call_ns)
            else round(row.self_per_call_ns),
            "cumulative_per_call_ns": None if pd.isna(row.cumulative_per_call_ns)
            else round(row.cumulative_per_call_ns),
            "self_share": None if pd.isna(row.self_share) else round(row.self_share, 6),
            "cumulative_share": None if pd.isna(row.cumulative_share)
            else round(row.cumulative_share, 6),
            "profiles": int(row.profiles),
        })  # fmt: skip
    return out


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


def summary_json(
    run: Run,
    tables: RunTables,
    all_ranks: list[int],
    selected: int | None,
    rank_compute: dict[int, dict[str, Any]],
) -> dict[str, Any]:
    now = now_ns()
    ranks = []
    for rank in all_ranks:
        writers = [w for w in run.writers if w.rank == rank]
        meta = next((w.meta for w in writers if w.meta is not None), None)
        steps = tables.steps[tables.steps["rank"] == rank]
        ranks.append(
            {
                "rank": rank,
                "host": meta.host if meta else None,
                "pid": meta.pid if meta else None,
                "world_size": meta.world_size if meta else None,
                "status": run.status(now, rank),
                "steps": len(steps),
                "step_time_ns": step_time_stats(steps),
                **rank_compute.get(rank, {"compute": None, "compile": None}),
            }
        )
    steps = tables.steps if selected is None else tables.steps[tables.steps["rank"] == selected]
    spans = tables.spans if selected is None else tables.spans[tables.spans["rank"] == selected]
    series = []
    for rank in sorted(steps["rank"].unique()):
        numbers, durations, bucket = step_series(steps[steps["rank"] == rank], MAX_SERIES_POINTS)
        series.append({"rank": int(rank), "steps": numbers, "time_ns": durations, "bucket": bucket})
    step_total = int((steps["t1"] - steps["t0"]).sum()) if not steps.empty else 0
    table = span_table(spans)
    rows = []
    for row in table.head(MAX_SPAN_ROWS).itertuples(index=False):
        rows.append(
            {
                "name": row.name,
                "calls": int(row.calls),
                "total_ns": int(row.total_ns),
                "self_ns": int(row.self_ns),
                "mean_ns": int(row.mean_ns),
                "p50_ns": int(row.p50_ns),
                "p95_ns": int(row.p95_ns),
                "pct_of_step": percent(row.total_ns, step_total),
                "gpu_total_ns": None if pd.isna(row.gpu_total_ns) else int(row.gpu_total_ns),
            }
        )
    step_numbers = steps["step"]
    warnings = list(tables.warnings)
    if run.traces and not run.writers:
        warnings.append(
            f"this run holds {len(run.traces)} torch.profiler trace file(s) and no collector "
            "files; the Overview shows collector data only"
        )
    return {
        "run": run.name,
        "rank": selected,
        "ranks": ranks,
        "steps": {
            "count": int(step_numbers.nunique()),
            "first": int(step_numbers.min()) if len(step_numbers) else None,
            "last": int(step_numbers.max()) if len(step_numbers) else None,
        },
        "step_series": series,
        "spans": rows,
        "spans_truncated": len(table) > MAX_SPAN_ROWS,
        "warnings": warnings,
    }


# --- why a view is empty (each route's `empty_reason`: a sentence, null when not empty) ------


def _scope(selected: int | None) -> str:
    return "this run" if selected is None else f"rank {selected} of this run"


def _its_traces(traces: int) -> str:
    return "its trace holds" if traces == 1 else f"its {traces} traces hold"


def kernels_empty_reason(traces: int, selected: int | None) -> str:
    """Why the kernels route has no rows, given how many traces the selection has."""
    if not traces:
        return (
            f"No GPU kernels in {_scope(selected)}: it has no traces (kernels come from the GPU "
            "kernel events of torch.profiler traces or imported Nsight Systems exports)."
        )
    return (
        f"No GPU kernels in {_scope(selected)}: {_its_traces(traces)} no GPU kernel events "
        "(device activity was not recorded: torch.profiler without ProfilerActivity.CUDA, or "
        "a CUPTI range-profiler trace)."
    )


def operators_empty_reason(traces: int, selected: int | None) -> str:
    """Why the operators route has no rows, given how many traces the selection has."""
    if not traces:
        return (
            f"No operators in {_scope(selected)}: it has no traces (operators come from the CPU "
            "operator events of torch.profiler traces)."
        )
    return (
        f"No operators in {_scope(selected)}: {_its_traces(traces)} no CPU operator events "
        "(host activity was not recorded: torch.profiler without ProfilerActivity.CPU, or a "
        "GPU-only trace)."
    )


def memory_empty_reason(trace_memory_events: int, selected: int | None) -> str:
    """Why the memory route has no ranks, given the [memory] events of the selection's traces."""
    reason = (
        f"No MemorySampler records in {_scope(selected)}: the Memory view reads MemorySampler "
        "records (wrap the training loop in “with MemorySampler(timer):”, from collectors) and "
        "memory snapshots."
    )
    if trace_memory_events:
        reason += (
            f" The {trace_memory_events} [memory] events of its torch.profiler traces are not "
            "shown here yet (the Timeline draws their allocated totals, where recorded, as a "
            "counter lane)."
        )
    return reason


def modules_empty_reason(source: str | None, traces: int, selected: int | None) -> str:
    """Why the modules route has no rows (`source`: the run's module data's, null if none)."""
    if source is not None:  # the run has module calls, not of this rank
        return f"No module calls recorded on rank {selected}; select another rank."
    traced = "its traces hold no module events" if traces else "it has no traces"
    return (
        f"No module calls in {_scope(selected)}: no ModuleProfiler records, and {traced}. Wrap "
        "the model in collectors.ModuleProfiler(model, timer) for forward and backward time per "
        "attribute path; or record traces with Lightning's PyTorchProfiler ([pl][module] "
        "labels), or with profile_steps(..., with_stack=True) (nn.Module: events) in eager mode."
    )


def python_empty_reason(
    files: int, functions: int, query: str | None, unreadable: bool, selected: int | None
) -> str:
    """Why the python route has no rows: no (readable) profile files, none with functions, or
    none matching `query`."""
    if not files and unreadable:
        return f"No readable cProfile/pstats files in {_scope(selected)}: see the warnings."
    if not files:
        return (
            f"No cProfile/pstats files in {_scope(selected)} (drop .prof files into the run "
            "directory or its plugins/tb_perf/imported/, or use `tb-perf ingest`)."
        )
    if not functions:
        return "The run's cProfile/pstats files hold no functions."
    return f"No function matches {query!r}." if query else "No function matches."


def tasks_empty_reason(unreadable: bool) -> str:
    """Why the tasks route has no tasks."""
    if unreadable:
        return "No readable profile_task summaries in this run: see the warnings."
    return (
        "No profile_task summaries in this run (<prefix>.task-<type>.summary.json, written by "
        "profile_task when PROFILE_TASK_TYPES is set; docs/CAPTURE.md)."
    )
