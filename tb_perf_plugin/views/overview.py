"""The Overview dashboard: per rank, its host, status, steps and step time, FlopsCounter's MFU
and torch.compile's activity; the GPU summary per device, the execution summary per rank, the
distributed brief, the step-time series and MyTimer's span table (docs/HTTP_API.md, summary)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..analysis.execution import execution_summary
from ..analysis.spans import percent, span_table
from ..analysis.steps import step_series, step_time_stats
from ..discovery import Run, now_ns
from ..errors import InvalidArgument
from ..params import integer, rank_param, shown
from ..pipeline.read import RunTables
from ..store import INLINE_WAIT, RunStore
from ._shared import MAX_SERIES_POINTS, empty_run
from .distributed import distributed_brief
from .gpu import gpu_summaries

MAX_SPAN_ROWS = 500


def summary(
    store: RunStore, run_name: str | None, rank: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:  # fmt: skip
    run = store.find_run(run_name)
    if rank and integer(rank) is None:
        raise InvalidArgument(f"rank {shown(rank)} is not an integer")
    tables = store.tables(run, wait_s)
    ranks = store.ranks(run, tables)
    selected = rank_param(ranks, rank)
    analysis = store.analysis(run, wait_s)
    answer = summary_json(
        run, tables, analysis.steps, ranks, selected, analysis.rank_compute, analysis.processes
    )
    answer["gpus"] = gpu_summaries(analysis, selected)
    answer["execution_summary"] = execution_summary(
        [b for b in analysis.breakdowns if selected in (None, b.rank)]
    )
    answer["distributed"] = distributed_brief(analysis, len(ranks), selected)
    return answer


def summary_json(
    run: Run,
    tables: RunTables,
    run_steps: pd.DataFrame,
    all_ranks: list[int],
    selected: int | None,
    rank_compute: dict[int, dict[str, Any]],
    processes: dict[int, tuple[str | None, int | None]],
) -> dict[str, Any]:
    now = now_ns()
    ranks = []
    world_sizes: dict[int, list[int | None]] = {}  # what each rank's traces say
    for trace in tables.traces:
        world_sizes.setdefault(trace.rank, []).append(trace.world_size)
    for rank in all_ranks:
        writers = [w for w in run.writers if w.rank == rank]
        meta = next((w.meta for w in writers if w.meta is not None), None)
        steps = run_steps[run_steps["rank"] == rank]
        traced = world_sizes.get(rank, [])
        host, pid = (meta.host, meta.pid) if meta else processes.get(rank, (None, None))
        ranks.append(
            {
                "rank": rank,
                "host": host,
                "pid": pid,
                "world_size": meta.world_size
                if meta
                else next((w for w in traced if w is not None), None),
                "status": run.status(now, rank),
                "steps": len(steps),
                "step_source": str(steps["source"].iloc[0]) if len(steps) else None,
                "step_time_ns": step_time_stats(steps),
                "device_step_time_ns": step_time_stats(
                    steps[["device_t0", "device_t1"]].set_axis(["t0", "t1"], axis=1)
                )
                if (steps["source"] == "ProfilerStep").any()
                else None,
                **rank_compute.get(rank, {"compute": None, "compile": None}),
            }
        )
    steps = run_steps if selected is None else run_steps[run_steps["rank"] == selected]
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
    empty_reason, empty_view = empty_run(run, tables) or (None, None)
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
        "spans_empty_reason": None if rows else spans_empty_reason(run, selected),
        "empty_reason": empty_reason,
        "empty_view": empty_view,
        "warnings": list(tables.warnings),
    }


def spans_empty_reason(run: Run, selected: int | None) -> str:
    """Why the span table is empty: a run of torch.profiler traces alone has no MyTimer."""
    scope = "this run" if selected is None else f"rank {selected}"
    if run.traces and not run.writers:
        return (
            f"No MyTimer spans: {scope} is {len(run.traces)} torch.profiler trace file(s) and "
            "no collector files (its steps are the traces' ProfilerStep#N windows). Spans come "
            "from collectors.MyTimer."
        )
    return f"No MyTimer spans in {scope}: wrap code in MyTimer spans to see where step time goes."


# tensorboard_trace_handler's file name with its default worker name, `<hostname>_<pid>`
