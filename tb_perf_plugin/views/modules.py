"""The Modules dashboard: per nn.Module and phase, calls, time, its distribution and share of
the step, from ModuleProfiler records, else from the run's traces; one module's time per step
(docs/ANALYSIS.md)."""

from __future__ import annotations

from typing import Any

from ..analysis.modules import PHASES, TOTAL, ModuleData, module_step_series, profiler_settings
from ..errors import InvalidArgument, NotFound
from ..params import shown
from ..store import INLINE_WAIT, RunStore, selected_traces
from ._shared import MAX_SERIES_POINTS, scope

MAX_MODULE_ROWS = 5000


def modules(
    store: RunStore, run_name: str | None, rank: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:  # fmt: skip
    run = store.find_run(run_name)
    data = store.module_data(run, wait_s)
    tables = store.tables(run, None)
    selected = store.selected_rank(run, tables, rank)
    view = data.view(selected)
    traces = len(selected_traces(tables, selected))
    empty = None if view["rows"] else empty_reason(data.source, traces, selected)
    settings = [
        (w.rank, w.meta.modules)
        for w in run.writers
        if w.meta is not None and w.meta.modules is not None
        if selected is None or w.rank == selected
    ]
    return {
        "run": run.name,
        "rank": selected,
        "source": data.source,
        "class_names": data.class_names,
        "phases": _phases(data),
        "device": view["device"],
        "settings": profiler_settings(settings) if data.source == "collector" else [],
        "steps": view["steps"],
        "backward_steps": view["backward_steps"],
        "total_rows": len(view["rows"]),
        "rows": view["rows"][:MAX_MODULE_ROWS],
        "warnings": tables.module_warnings,
        "empty_reason": empty,
    }


def module_steps(
    store: RunStore,
    run_name: str | None,
    rank: str | None,
    path: str | None,
    phase: str | None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    if path is None:
        raise InvalidArgument("the 'path' parameter is required")
    if phase not in (*PHASES, TOTAL):
        raise InvalidArgument(f"phase must be one of forward, backward, total, not {shown(phase)}")
    run = store.find_run(run_name)
    data = store.module_data(run, wait_s)
    selected = store.selected_rank(run, store.tables(run, None), rank)
    node = data.node(path)
    if node is None:
        raise NotFound(f"no module {shown(path)} in run {run.name!r}")
    return {
        "run": run.name,
        "rank": selected,
        "path": path,
        "phase": phase,
        "source": data.source,
        "series": module_step_series(data, node, phase, selected, MAX_SERIES_POINTS),
        "shapes": data.shapes.get(node),
    }


def _phases(data: ModuleData) -> list[str]:
    """The phases the data has: forward, and backward with its total where recorded."""
    if data.calls.empty:
        return []
    if (data.calls["phase"] == 1).any():
        return [*PHASES, TOTAL]
    return [PHASES[0]]


def empty_reason(source: str | None, traces: int, selected: int | None) -> str:
    """Why the modules route has no rows (`source`: the run's module data's, null if none)."""
    if source is not None:  # the run has module calls, not of this rank
        return f"No module calls recorded on rank {selected}; select another rank."
    traced = "its traces hold no module events" if traces else "it has no traces"
    return (
        f"No module calls in {scope(selected)}: no ModuleProfiler records, and {traced}. Wrap "
        "the model in collectors.ModuleProfiler(model, timer) for forward and backward time per "
        "attribute path; or record traces with Lightning's PyTorchProfiler ([pl][module] "
        "labels), or with profile_steps(..., with_stack=True) (nn.Module: events) in eager mode."
    )
