"""The Operators dashboard: per operator, calls, host and device self/total time
(docs/ANALYSIS.md)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..analysis.operators import (
    FRAME_SEPARATOR,
    GROUPINGS,
    merge_operator_rows,
    named_operator_events,
    operator_rows,
    user_frame,
)
from ..discovery import Run
from ..errors import InvalidArgument
from ..params import limit_param, shown
from ..pipeline.analyze import RunAnalysis
from ..pipeline.read import RunTables
from ..store import INLINE_WAIT, RunStore, selected_traces
from ._shared import its_traces, scope

MAX_OPERATOR_ROWS = 1000
UNATTRIBUTED_WARNING = 0.05  # of device time: more than this without a launch gets a warning


def operators(
    store: RunStore,
    run_name: str | None,
    rank: str | None = None,
    group_by: str | None = None,
    limit: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    grouping = group_by or "name"
    if grouping not in GROUPINGS:
        raise InvalidArgument(
            f"group_by must be one of {', '.join(GROUPINGS)}, not {shown(group_by)}"
        )
    count = limit_param(limit, MAX_OPERATOR_ROWS)
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)
    tables = store.tables(run, None)
    selected = store.selected_rank(run, tables, rank)
    rows = _stack_rows(store, run, wait_s) if grouping == "call_stack" else analysis.operator_rows
    if selected is not None:
        rows = rows[rows["rank"] == selected]
    table = merge_operator_rows(rows, grouping)
    rows = table.head(count).replace({np.nan: None}).to_dict(orient="records")
    for row in rows:  # frames innermost first, and where in the user's code that is
        stack = row["call_stack"]
        row["call_stack"] = stack.split(FRAME_SEPARATOR) if stack else []
        row["user_frame"] = user_frame(stack)
    traces = len(selected_traces(tables, selected))
    unattributed = _unattributed(analysis, selected)
    warnings = []
    if unattributed["share"] is not None and unattributed["share"] > UNATTRIBUTED_WARNING:
        warnings.append(
            f"{unattributed['share']:.0%} of the device time of {scope(selected)} has no launch "
            "in the traces (the launching runtime call was not recorded, or no operator is "
            "around it): it is in no operator's device time"
        )
    return {
        "run": run.name,
        "rank": selected,
        "group_by": grouping,
        "total_rows": len(table),
        "rows": rows,
        "unattributed_device": unattributed,
        "warnings": warnings,
        "empty_reason": None if len(table) else empty_reason(traces, selected),
    }


def _stack_rows(store: RunStore, run: Run, wait_s: float | None) -> pd.DataFrame:
    """The run's operators summed per trace, name and call stack (operator_rows + rank),
    built on first use: the stacks cost a nesting pass of their own that the other groupings
    need not pay."""

    def build(tables: RunTables) -> pd.DataFrame:
        parts = []
        for trace in tables.traces:  # in file order, as the rows' first calls are ordered
            events = named_operator_events([trace.tables], with_stacks=True)
            parts.append(operator_rows(events, "call_stack").assign(rank=trace.rank))
            trace.release_pages()
        if not parts:
            no_events = named_operator_events([], with_stacks=True)
            return operator_rows(no_events, "call_stack").assign(rank=pd.Series(dtype=int))
        return pd.concat(parts, ignore_index=True)

    return store.derived(run, "operator_stacks", build, wait_s)


def _unattributed(analysis: RunAnalysis, selected: int | None) -> dict[str, Any]:
    """The device time no operator launched over the selected rank's traces (all ranks'
    without one), summed by the ranks' summaries: `device_ns` and its `share` of the device
    time (None without device time)."""
    chosen = [v for r, v in analysis.unattributed_device.items() if selected in (None, r)]
    missing, total = sum(m for m, _ in chosen), sum(t for _, t in chosen)
    return {"device_ns": missing, "share": missing / total if total else None}


def empty_reason(traces: int, selected: int | None) -> str:
    """Why the operators route has no rows, given how many traces the selection has."""
    if not traces:
        return (
            f"No operators in {scope(selected)}: it has no traces (operators come from the CPU "
            "operator events of torch.profiler traces)."
        )
    return (
        f"No operators in {scope(selected)}: {its_traces(traces)} no CPU operator events "
        "(host activity was not recorded: torch.profiler without ProfilerActivity.CPU, or a "
        "GPU-only trace)."
    )
