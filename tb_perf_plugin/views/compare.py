"""The Compare dashboard: candidate against baseline, a step-time verdict and every view's
deltas (docs/DIFF.md), computed once per pair of run versions; `run_facts` is what the diff
reads of one run (`tb-perf diff` pairs runs of two stores)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.breakdown import CATEGORIES
from ..analysis.collectives import collective_table
from ..analysis.diff import RunFacts
from ..analysis.diff import compare as diff_runs
from ..analysis.modules import PHASES
from ..discovery import Run
from ..errors import InvalidArgument, Progress
from ..store import INLINE_WAIT, RunStore
from .memory import memory
from .modules import modules

# What the diff reads of each collective row (analysis/collectives.py)
COLLECTIVE_FACTS = ("name", "group", "calls", "total_ns", "mean_ns", "algo_bandwidth",
                    "bus_bandwidth")  # fmt: skip


def compare(
    store: RunStore,
    baseline: str | None,
    candidate: str | None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    if not baseline or not candidate:
        raise InvalidArgument("the 'baseline' and 'candidate' parameters are required")
    runs = (store.find_run(baseline), store.find_run(candidate))
    # both runs' own results first, each step started for both before waiting on either
    # (the two runs are read and analysed side by side); the pair's job then only diffs
    _side_by_side(runs, store.tables, wait_s)
    _side_by_side(runs, lambda run, wait: _facts_ready(store, run, wait), wait_s)
    return store.pair(
        runs, "compare", lambda: diff_runs(_facts(store, runs[0]), _facts(store, runs[1])), wait_s
    )


def run_facts(store: RunStore, run_name: str | None, wait_s: float | None = None) -> RunFacts:
    """What the diff reads of one run."""
    run = store.find_run(run_name)
    _facts_ready(store, run, wait_s)
    return _facts(store, run)


def _side_by_side(
    runs: tuple[Run, Run], step: Callable[[Run, float | None], object], wait_s: float | None
) -> None:
    """`step` of both runs, started for each before waiting on either."""
    for run in runs:
        try:
            step(run, 0.0)
        except Progress:
            pass
    for run in runs:
        step(run, wait_s)


def _facts_ready(store: RunStore, run: Run, wait_s: float | None) -> None:
    store.analysis(run, wait_s)
    store.module_data(run, wait_s)


def _facts(store: RunStore, run: Run) -> RunFacts:
    """What the diff reads of a run, from its cached results and route answers."""
    tables, analysis = store.tables(run, None), store.analysis(run, None)
    step_times: dict[int, dict[int, int]] = {rank: {} for rank in tables.ranks}
    steps = analysis.steps  # every rank's (its summary's: never a walk over its traces here)
    for rank, step, t0, t1 in zip(steps["rank"], steps["step"], steps["t0"], steps["t1"],
                                  strict=True):  # fmt: skip
        step_times.setdefault(int(rank), {})[int(step)] = int(t1) - int(t0)
    stepped = [b for b in analysis.breakdowns if b.step is not None]
    facts = RunFacts(run.name, step_times, traced_steps=float(max(len(stepped), 1)))
    if stepped:
        facts.category_source = "breakdown"
        facts.categories = {c: sum(b.ns[c] for b in stepped) / len(stepped) for c in CATEGORIES}
        for b in analysis.breakdowns:
            if b.step is not None:
                parts = {c: float(b.ns[c]) for c in CATEGORIES}
                facts.step_parts.setdefault(b.rank, {})[b.step] = parts
    elif not tables.spans.empty:
        facts.category_source = "spans"
        facts.categories = _top_span_means(tables.spans)
        facts.step_parts = _top_span_parts(tables.spans)
    facts.operators = name_totals(analysis.operator_rows, "host_total_ns", annotations=True)
    facts.kernels = name_totals(analysis.kernel_rows, "total_ns")  # device time
    module_view = modules(store, run.name, wait_s=None)
    facts.module_steps = float(max(sum(s["steps"] for s in module_view["steps"]), 1))
    facts.modules = [
        {"path": row["path"], "phase": phase, "total_ns": row[phase]["total_ns"]}
        for row in module_view["rows"]
        for phase in PHASES
        if row.get(phase)
    ]
    ranks = memory(store, run.name, wait_s=None)["ranks"]
    peaks = [m["max_peak"]["bytes"] for m in ranks if m["max_peak"]]
    reserved = [v for m in ranks for v in m["reserved"] or [] if v is not None]
    slopes = [m["trend"]["slope"] for m in ranks if m["trend"]]
    facts.memory = {"peak_bytes": max(peaks, default=None),
                    "reserved_bytes": max(reserved, default=None),
                    "slope_bytes_per_step": max(slopes, default=None)}  # fmt: skip
    busy = [u for d in analysis.devices for _, u in d.metrics.utilization]
    util = tables.gpus["util"].to_numpy(np.float64) if len(tables.gpus) else np.zeros(0)
    util = util[np.isfinite(util)]
    facts.gpu = {
        "trace_utilization": 100 * float(np.mean(busy)) if busy else None,
        "tracker_utilization": float(np.mean(util)) if len(util) else None,  # NVML's %
    }
    facts.findings = [f.to_json() for f in analysis.findings]
    table = collective_table(analysis.collectives)
    facts.collectives = [{key: row[key] for key in COLLECTIVE_FACTS} for row in table]
    return facts


def name_totals(rows: pd.DataFrame, total: str, annotations: bool = False) -> list[dict[str, Any]]:
    """Calls and summed `total` per name of operator_rows or kernel_rows (the operators and
    kernels views' `calls` and `host_total_ns` / `total_ns`, without their other columns);
    with `annotations`, whether the name is an annotation (any of its calls)."""
    if rows.empty:
        return []
    table = rows.groupby("name", sort=False).agg(
        calls=("calls", "sum"), total_ns=(total, "sum"),
        **({"annotation": ("any_annotation", "any")} if annotations else {}),
    )  # fmt: skip
    return [
        {"name": name, "calls": int(row["calls"]), "total_ns": int(row["total_ns"]),
         **({"annotation": bool(row["annotation"])} if annotations else {})}
        for name, row in zip(table.index, table.to_dict(orient="records"), strict=True)
    ]  # fmt: skip


def _top_spans(spans: pd.DataFrame) -> pd.DataFrame:
    """MyTimer's top-level spans: no parent in the same writer."""
    ids = set(zip(spans["writer"], spans["id"], strict=True))
    top = [(w, p) not in ids for w, p in zip(spans["writer"], spans["parent"], strict=True)]
    return spans[np.array(top, dtype=bool)]


def _top_span_parts(spans: pd.DataFrame) -> dict[int, dict[int, dict[str, float]]]:
    """Rank -> step -> top-level span name -> its time in that step (spans outside a step
    left out)."""
    spans = _top_spans(spans)
    spans = spans[spans["step"].notna()]
    totals = (spans["t1"] - spans["t0"]).groupby(
        [spans["rank"], spans["step"], spans["name"]]
    ).sum()  # fmt: skip
    out: dict[int, dict[int, dict[str, float]]] = {}
    for (rank, step, name), ns in totals.items():
        out.setdefault(int(rank), {}).setdefault(int(step), {})[str(name)] = float(ns)
    return out


def _top_span_means(spans: pd.DataFrame) -> dict[str, float]:
    """Per name of MyTimer's top-level spans (no parent in the same writer), its time per
    step: the categories of a run without traces."""
    spans = _top_spans(spans)
    per_step = len(spans[["rank", "step"]].drop_duplicates()) or 1
    totals = (spans["t1"] - spans["t0"]).groupby(spans["name"]).sum()
    return {str(name): float(ns) / per_step for name, ns in totals.items()}
