"""What several views share: JSON-safe series and the words of their empty reasons."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..discovery import Run
from ..ingest.readers import FileKind
from ..pipeline.read import RunTables

MAX_SERIES_POINTS = 2000  # points of a series in an answer (bucket means beyond)


def nullable(values: np.ndarray, digits: int | None = None) -> list[Any] | None:
    """JSON numbers (ints, or floats rounded to `digits`), null where NaN; None if all are."""
    finite = np.isfinite(values)
    if not finite.any():
        return None
    if digits is None:
        return [round(v) if ok else None for v, ok in zip(values.tolist(), finite, strict=True)]
    return [round(v, digits) if ok else None for v, ok in zip(values.tolist(), finite, strict=True)]


def scope(selected: int | None) -> str:
    """What an empty reason speaks of: the run, or the selected rank of it."""
    return "this run" if selected is None else f"rank {selected} of this run"


def its_traces(traces: int) -> str:
    return "its trace holds" if traces == 1 else f"its {traces} traces hold"


# the tabs an empty run's reason may send the user to: view id -> its tab's label
_TABS = {"memory": "Memory", "python": "Python", "tasks": "Tasks", "gpu": "GPU",
         "modules": "Modules", "kernels": "Kernels"}  # fmt: skip


def _counted(count: int, one: str, many: str = "") -> str:
    return f"{count} {one}" if count == 1 else f"{count} {many or one + 's'}"


def empty_run(run: Run, tables: RunTables) -> tuple[str, str | None] | None:
    """Why the run has nothing for the Overview's tables and the Timeline (no traces, steps,
    spans or compile records), and the view that shows what it holds instead (None: no tab
    of ours does); None when it has something. A folder of memory snapshots, or of
    TensorBoard event files alone, is meant to be so: say what it holds, not show empty
    tables."""
    if tables.traces or len(tables.spans) or len(tables.steps) or len(tables.compile):
        return None
    tasks = sum(len(w.task_summaries) for w in run.writers)
    profiles = len(tables.python_profile_files)
    held = [  # (whether the run holds it, what, the view that shows it), first view first
        (bool(run.snapshots), _counted(len(run.snapshots), "memory snapshot"), "memory"),
        (not tables.memory.empty, "MemorySampler records", "memory"),
        (profiles > 0, _counted(profiles, "cProfile profile"), "python"),
        (tasks > 0, _counted(tasks, "profile_task summary", "profile_task summaries"), "tasks"),
        (not tables.system.empty, "GpuTracker records", "gpu"),
        (not tables.modules.blocks.empty, "ModuleProfiler records", "modules"),
        (any(f.kind is FileKind.NCU for f in run.imported), "Nsight Compute metrics", "kernels"),
        (bool(run.tfevents), _counted(len(run.tfevents), "TensorBoard event file"), None),
    ]
    found = [(what, view) for holds, what, view in held if holds]
    if not found:
        return (
            "This run holds no traces, collector steps or other records yet: its collectors "
            "have written no step so far.",
            None,
        )
    whats = [what for what, _ in found]
    listed = ", ".join(whats[:-1]) + " and " + whats[-1] if len(whats) > 1 else whats[0]
    view = next((view for _, view in found if view is not None), None)
    where = (
        f"open the {_TABS[view]} tab"
        if view is not None
        else "its scalars and other summaries are in TensorBoard's own tabs; torch.profiler "
        "traces or the collectors' records (README quick start) give this tab its data"
    )
    return f"This run holds no traces or collector steps, only {listed}: {where}.", view
