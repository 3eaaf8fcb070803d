"""The Overview dashboard: per rank, its host, status, steps and step time, FlopsCounter's MFU
and torch.compile's activity; the GPU summary per device, the execution summary per rank, the
distributed brief, the step-time series and MyTimer's span table (docs/HTTP_API.md, summary)."""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.compute import (
    compile_events,
    compiled_frames,
    flops_inputs,
    rank_compile_summary,
    rank_compute_summary,
)
from ..analysis.device_steps import device_windows
from ..analysis.execution import execution_summary
from ..analysis.findings import DEFAULT_THRESHOLDS
from ..analysis.spans import percent, span_table
from ..analysis.steps import step_series, step_time_stats
from ..discovery import Run, now_ns
from ..errors import InvalidArgument
from ..ingest.tables import Kind
from ..params import integer, rank_param, shown
from ..pipeline.read import RunTables, TraceFile
from ..pipeline.steps import rank_steps
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
    steps, extras, processes = store.derived(run, "overview", _steps_and_compute, wait_s)
    answer = summary_json(run, tables, steps, ranks, selected, extras, processes)
    analysis = store.analysis(run, wait_s)
    answer["gpus"] = gpu_summaries(analysis, selected)
    answer["execution_summary"] = execution_summary(
        [b for b in analysis.breakdowns if selected in (None, b.rank)]
    )
    answer["distributed"] = distributed_brief(analysis, len(ranks), selected)
    return answer


def _steps_and_compute(
    tables: RunTables,
) -> tuple[pd.DataFrame, dict[int, dict[str, Any]], dict[int, tuple[str | None, int | None]]]:
    """The run's steps and, on them, each rank's compute and compile summaries, and each
    trace-only rank's host and pid (`traced_process`): computed once per version of the run's
    tables, walking its ranks one at a time."""
    steps = run_steps(tables)
    processes = {rank: traced_process(traces) for rank, traces in tables.rank_traces()}
    return steps, _rank_compute(tables, steps), processes


STEP_COLUMNS = ["rank", "step", "t0", "t1", "source", "device_t0", "device_t1"]


def run_steps(tables: RunTables) -> pd.DataFrame:
    """Every rank's completed steps: MyTimer's (`source` "MyTimer"), else the `ProfilerStep#N`
    windows of its traces ("ProfilerStep"), so a run of torch.profiler traces alone has steps.
    `device_t0`, `device_t1`: a ProfilerStep's device extent (analysis/device_steps.py);
    MyTimer's steps as they are."""
    rows = []
    for rank, traces in tables.rank_traces():
        timed = bool((tables.steps["rank"] == rank).any())
        windows = sorted(rank_steps(tables, rank, traces).items(), key=lambda item: item[1])
        starts = np.array([a for _, (a, _) in windows], np.int64)
        ends = np.array([b for _, (_, b) in windows], np.int64)
        if not timed:
            starts, ends = device_windows([t.tables for t in traces], starts, ends)
        source = "MyTimer" if timed else "ProfilerStep"
        rows += [(rank, s, a, b, source, int(d0), int(d1))
                 for (s, (a, b)), d0, d1 in zip(windows, starts, ends, strict=True)]  # fmt: skip
    steps = pd.DataFrame(rows, columns=STEP_COLUMNS)
    return steps.astype({column: "int64" for column in STEP_COLUMNS if column != "source"})


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
    for rank in all_ranks:
        writers = [w for w in run.writers if w.rank == rank]
        meta = next((w.meta for w in writers if w.meta is not None), None)
        steps = run_steps[run_steps["rank"] == rank]
        traces = [t for t in tables.traces if t.rank == rank]
        traced = [t.tables.meta.world_size for t in traces]
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
_HANDLER_FILE = re.compile(r"^(?P<host>.+)_(?P<pid>\d+)\.\d+\.pt\.trace\.json(\.gz)?$")


def traced_process(traces: list[TraceFile]) -> tuple[str | None, int | None]:
    """A trace-only rank's host and pid: the pid of its traces' host events, and the host
    from the file name tensorboard_trace_handler gives by default
    (`<hostname>_<pid>.<ms>.pt.trace.json`) when its pid is that pid (Kineto traces carry no
    host name of their own)."""
    for trace in traces:
        slices = trace.tables.slices
        host_rows = np.isin(np.asarray(slices["kind"]), (Kind.CPU_OP, Kind.USER_ANNOTATION))
        pids = np.asarray(slices["pid"])[host_rows]
        if not len(pids):
            continue
        values, counts = np.unique(pids, return_counts=True)
        pid = int(values[np.argmax(counts)])
        named = _HANDLER_FILE.match(os.path.basename(trace.path))
        return (named.group("host") if named and int(named.group("pid")) == pid else None), pid
    return None, None


def _rank_compute(tables: RunTables, steps: pd.DataFrame) -> dict[int, dict[str, Any]]:
    """Per rank, FlopsCounter's MFU over its `steps` and torch.compile's activity (the
    summary's `compute` and `compile`)."""
    flops = flops_inputs(tables.rank_meta)
    out = {}
    for rank, traces in tables.rank_traces():
        own = steps[steps["rank"] == rank].sort_values("step", kind="stable")
        step_windows = own[["step", "t0", "t1"]].reset_index(drop=True)
        events = [compile_events(t.tables) for t in traces]
        frames = compiled_frames(pd.concat(events)) if events else pd.DataFrame()
        out[rank] = {
            "compute": rank_compute_summary(
                step_windows, flops, rank, DEFAULT_THRESHOLDS.warmup_steps
            ),
            "compile": rank_compile_summary(tables.compile[tables.compile["rank"] == rank], frames),
        }
    return out
