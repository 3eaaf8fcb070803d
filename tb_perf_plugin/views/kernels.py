"""The Kernels dashboard: per kernel name statistics, and per trace and device GPU utilization
and est. SM efficiency over time; Nsight Compute metrics joined where imported
(docs/ANALYSIS.md)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..analysis.kernel_names import short_kernel_name
from ..analysis.kernels import merge_kernel_rows
from ..analysis.ncu import join_kernel_metrics
from ..errors import InvalidArgument
from ..params import limit_param, shown
from ..store import INLINE_WAIT, RunStore, selected_traces
from ._shared import its_traces, scope
from .operators import MAX_OPERATOR_ROWS


def kernels(
    store: RunStore,
    run_name: str | None,
    rank: str | None = None,
    limit: str | None = None,
    q: str | None = None,
    group_by: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    """The kernels of the run (or rank) by total time; `q` keeps those whose full or short
    name holds it (case-insensitive); `group_by` "operator" makes one row per kernel name and
    launching operator."""
    if group_by not in (None, "", "name", "operator"):
        raise InvalidArgument(f"group_by must be 'name' or 'operator', not {shown(group_by)}")
    by_operator = group_by == "operator"
    count = limit_param(limit, MAX_OPERATOR_ROWS)
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)
    tables = store.tables(run, None)
    selected = store.selected_rank(run, tables, rank)
    rows = analysis.kernel_rows
    if selected is not None:
        rows = rows[rows["rank"] == selected]
    table = merge_kernel_rows(rows, by_operator)
    devices = []
    for series in analysis.devices:
        if selected is not None and series.rank != selected:
            continue
        metrics = series.metrics
        devices.append({
            "rank": series.rank,
            "trace": series.trace,
            "device": metrics.device,
            "bucket_ns": metrics.bucket_ns,
            "start_ns": [str(t) for t, _ in metrics.utilization],
            "utilization": [round(u, 6) for _, u in metrics.utilization],
            "est_sm_efficiency": [round(v, 6) for v in metrics.sm_efficiency] + [0.0],
            "tensor_core_pct": round(metrics.tensor_core_pct, 3),
        })  # fmt: skip
    ncu_metrics = tables.kernel_metrics
    if selected is not None:
        ncu_metrics = ncu_metrics[ncu_metrics["rank"] == selected]
    ncu = None
    if len(ncu_metrics):
        table = join_kernel_metrics(table, ncu_metrics)
        ncu = ncu_json(table, ncu_metrics)
    traces = len(selected_traces(tables, selected))
    every = len(table)
    shorts = [short_kernel_name(n) for n in table["name"].tolist()]
    table.insert(1, "short_name", pd.Series(shorts, index=table.index, dtype=object))
    if q:
        table = table[
            table["name"].str.contains(q, case=False, regex=False)
            | table["short_name"].str.contains(q, case=False, regex=False)
        ]
    if len(table):
        reason = None
    elif every:
        reason = f"No kernel name holds {shown(q)} (of {every} kernels)."
    else:
        reason = empty_reason(traces, selected)
    return {
        "run": run.name,
        "rank": selected,
        "group_by": "operator" if by_operator else "name",
        "q": q or None,
        "kernels": every,
        "total_rows": len(table),
        "rows": table.head(count).replace({np.nan: None}).to_dict(orient="records"),
        "devices": devices,
        "ncu": ncu,
        "empty_reason": reason,
    }


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


def empty_reason(traces: int, selected: int | None) -> str:
    """Why the kernels route has no rows, given how many traces the selection has."""
    if not traces:
        return (
            f"No GPU kernels in {scope(selected)}: it has no traces (kernels come from the GPU "
            "kernel events of torch.profiler traces or imported Nsight Systems exports)."
        )
    return (
        f"No GPU kernels in {scope(selected)}: {its_traces(traces)} no GPU kernel events "
        "(device activity was not recorded: torch.profiler without ProfilerActivity.CUDA, or "
        "a CUPTI range-profiler trace)."
    )
