"""The Operators dashboard: per operator, calls, host and device self/total time
(docs/ANALYSIS.md)."""

from __future__ import annotations

from typing import Any

from ..analysis.operators import aggregate_operators
from ..errors import InvalidArgument
from ..params import limit_param, shown
from ..store import INLINE_WAIT, RunStore, selected_traces
from ._shared import its_traces, scope

MAX_OPERATOR_ROWS = 1000


def operators(
    store: RunStore,
    run_name: str | None,
    rank: str | None = None,
    group_by: str | None = None,
    limit: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    if group_by not in (None, "", "name", "input_dims"):
        raise InvalidArgument(f"group_by must be 'name' or 'input_dims', not {shown(group_by)}")
    count = limit_param(limit, MAX_OPERATOR_ROWS)
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)
    tables = store.tables(run, None)
    selected = store.selected_rank(run, tables, rank)
    events = analysis.operator_events
    if selected is not None:
        events = events[events["rank"] == selected]
    table = aggregate_operators(events, by_input_dims=group_by == "input_dims")
    traces = len(selected_traces(tables, selected))
    return {
        "run": run.name,
        "rank": selected,
        "group_by": "input_dims" if group_by == "input_dims" else "name",
        "total_rows": len(table),
        "rows": table.head(count).to_dict(orient="records"),
        "empty_reason": None if len(table) else empty_reason(traces, selected),
    }


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
