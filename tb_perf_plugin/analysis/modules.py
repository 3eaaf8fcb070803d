"""Module view from traces: the nn.Module tree of eager-mode torch.profiler traces recorded
with `with_stack=True` (`python_function` events named `nn.Module: ClassName_N`).
Formulas: docs/ANALYSIS.md.

Trace module names are class names with a per-class counter (`Linear_3`), not attribute paths:
the tree is built from how the calls nest. Forward calls only: backward runs in the autograd
engine, outside module calls.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..ingest.kineto import Kind, TraceTables
from .nesting import group_start_longest_first, nesting_parents
from .steps import nearest_rank

TORCH_MODULE = "nn.Module: "
MODULE_COLUMNS = [
    "path", "name", "depth", "calls", "total_ns", "self_ns", "mean_ns", "p95_ns",
]  # fmt: skip


def _module_label(name: str) -> str | None:
    return name[len(TORCH_MODULE) :] if name.startswith(TORCH_MODULE) else None


def module_events(trace: TraceTables) -> pd.DataFrame:
    """One row per module call: path (labels of the enclosing module calls joined by "/"),
    depth, start, duration and self time (minus nested module calls)."""
    labels = [_module_label(n) for n in trace.names]
    is_module = np.array([label is not None for label in labels], dtype=bool)
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    names = np.asarray(slices["name"])
    rows = np.flatnonzero(is_module[names] & (kinds == Kind.PYTHON_FUNCTION))
    if not len(rows):
        return module_events_of_nothing()
    thread = np.asarray(slices["pid"])[rows] * (1 << 32) + np.asarray(slices["tid"])[rows]
    _, thread_codes = np.unique(thread, return_inverse=True)
    start = np.asarray(slices["start"])[rows]
    dur = np.asarray(slices["dur"])[rows]
    order = group_start_longest_first(thread_codes.reshape(-1), start, dur)
    rows, start, dur, thread = rows[order], start[order], dur[order], thread[order]
    depth, parent = nesting_parents(thread, start, start + dur)
    label = np.array(labels, dtype=object)[names[rows]]
    paths = label.copy()
    for level in range(1, int(depth.max(initial=0)) + 1):  # parents' paths are done first
        at = np.flatnonzero((depth == level) & (parent >= 0))
        paths[at] = paths[parent[at]] + "/" + label[at]
    self_ns = dur.astype(np.int64).copy()
    nested = parent >= 0
    np.subtract.at(self_ns, parent[nested], dur[nested])
    return pd.DataFrame({
        "path": paths, "name": label, "depth": depth, "start": start, "dur": dur,
        "self_ns": self_ns,
    })  # fmt: skip


def module_events_of_nothing() -> pd.DataFrame:
    """module_events' columns, no rows."""
    return pd.DataFrame(columns=["path", "name", "depth", "start", "dur", "self_ns"])


def module_table(events: pd.DataFrame) -> pd.DataFrame:
    """MODULE_COLUMNS per module path, in tree order: a parent before its children, siblings
    in the order of their first call."""
    if events.empty:
        return pd.DataFrame(columns=MODULE_COLUMNS)
    first_call = events.groupby("path")["start"].min().to_dict()

    def tree_key(path: str) -> list[int]:
        parts = path.split("/")
        return [first_call.get("/".join(parts[: k + 1]), 0) for k in range(len(parts))]

    groups = dict(list(events.groupby("path")))
    rows = []
    for path in sorted(first_call, key=tree_key):
        group = groups[path]
        durations = np.sort(group["dur"].to_numpy(np.int64))
        rows.append({
            "path": path,
            "name": group["name"].iloc[0],
            "depth": int(group["depth"].iloc[0]),
            "calls": len(durations),
            "total_ns": int(durations.sum()),
            "self_ns": int(group["self_ns"].sum()),
            "mean_ns": int(durations.sum() // len(durations)),
            "p95_ns": nearest_rank(durations, 0.95),
        })  # fmt: skip
    return pd.DataFrame(rows, columns=MODULE_COLUMNS)
