"""A run's analysis: step breakdowns, operators, kernels, collectives, GPU metrics, memory and
module data, and the findings the rules give on them (docs/ANALYSIS.md, docs/FINDINGS.md).
Computed once per run version by the store."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..analysis.breakdown import Intervals, StepBreakdown, activity, breakdown, trace_spans
from ..analysis.collectives import ROW_COLUMNS, collective_calls, collective_rows
from ..analysis.compute import flops_inputs
from ..analysis.findings import DATA_SPAN, LOADER_SPAN, AnalysisInputs, Finding
from ..analysis.host_calls import SYNC_CLASSES, host_call_classes
from ..analysis.kernels import (
    DeviceMetrics,
    device_metrics,
    kernel_rows,
    merge_kernel_rows,
    trace_kernels,
)
from ..analysis.memory import RankMemory, SnapshotFacts, device_total, rank_memory
from ..analysis.modules import (
    ModuleData,
    collector_module_data,
    module_events,
    trace_module_data,
)
from ..analysis.operators import merge_operator_rows, named_operator_events, operator_rows
from ..analysis.ranks import collective_waits_by_rank
from ..analysis.rules import find_all
from ..analysis.trace_memory import trace_rank_memory
from ..analysis.what_if import WhatIfStep, what_if_step
from ..discovery import Run
from .read import RunTables, TraceFile
from .steps import rank_steps

MIN_TRACED_FRACTION = 0.9  # a step is broken down when a trace covers this much of it


def step_breakdowns(tables: RunTables) -> list[StepBreakdown]:
    """The breakdown of every step a trace covers (at least MIN_TRACED_FRACTION of it; the
    window is then what the trace covers), per rank with traces; a rank's trace without steps
    is broken down whole."""
    out = []
    for rank, traces in tables.rank_traces():
        if not traces:
            continue
        spans = trace_spans([t.tables for t in traces])
        windows: list[tuple[int | None, int, int]] = []
        for step, (a, b) in sorted(rank_steps(tables, rank, traces).items()):
            for first, last in spans:
                start, end = max(a, first), min(b, last)
                if end > start and end - start >= MIN_TRACED_FRACTION * (b - a):
                    windows.append((step, start, end))
                    break
        if not windows:
            windows = [(None, first, last) for first, last in spans]
        out += breakdown(rank, activity([t.tables for t in traces]), windows)
    return out


def covering_traces(
    tables: RunTables, breakdowns: list[StepBreakdown]
) -> list[tuple[StepBreakdown, int]]:
    """Each broken-down step with the index (in `tables.traces`) of the trace that covers it."""
    position = {id(t): i for i, t in enumerate(tables.traces)}
    spans = [
        (position[id(t)], rank, trace_spans([t.tables]))
        for rank, traces in tables.rank_traces()
        for t in traces
    ]
    out = []
    for done in breakdowns:
        end = done.start_ns + done.duration_ns
        index = next(
            (i for i, rank, span in spans
             if rank == done.rank and span and span[0][0] <= done.start_ns and end <= span[0][1]),
            None,
        )  # fmt: skip
        if index is not None:
            out.append((done, index))
    return out


def median_steps(
    tables: RunTables, breakdowns: list[StepBreakdown]
) -> Callable[[int, set[int]], WhatIfStep | None]:
    """(rank, steps to skip) -> the what-if graph of the rank's median traced step (by
    duration, the upper median; the skipped steps only when there are no others), built on
    first use: the impact of a finding is read off its path (analysis/what_if.py)."""
    by_rank: dict[int, list[tuple[StepBreakdown, int]]] = {}
    for done, index in covering_traces(tables, breakdowns):
        by_rank.setdefault(done.rank, []).append((done, index))
    built: dict[tuple[int, frozenset[int]], WhatIfStep | None] = {}

    def median_step(rank: int, skipped: set[int]) -> WhatIfStep | None:
        key = (rank, frozenset(skipped))
        if key not in built:
            found = by_rank.get(rank, [])
            steady = [f for f in found if f[0].step not in skipped] or found
            built[key] = None
            if steady:
                steady.sort(key=lambda f: (f[0].duration_ns, f[0].start_ns))
                done, index = steady[len(steady) // 2]
                trace = tables.traces[index].tables
                a = done.start_ns - trace.meta.to_collectors_ns
                built[key] = what_if_step(trace, rank, done.step, (a, a + done.duration_ns))
        return built[key]

    return median_step


def host_call_ns(tables: RunTables, breakdowns: list[StepBreakdown]) -> dict[tuple, dict[str, int]]:
    """(rank, step) -> time in each class of runtime call within the step (analysis/host_calls;
    each class's calls as a union), and under "sync" the union of the three waiting classes."""
    out: dict[tuple, dict[str, int]] = {}
    broken_down = {b.rank for b in breakdowns}
    for rank, traces in tables.rank_traces():
        if rank not in broken_down:
            continue
        parts: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
        for trace in traces:
            shift = trace.tables.meta.to_collectors_ns
            for name, (start, end) in host_call_classes(trace.tables).items():
                parts.setdefault(name, []).append((start + shift, end + shift))
        parts["sync"] = [p for name in SYNC_CLASSES for p in parts.get(name, [])]
        mine = [b for b in breakdowns if b.rank == rank]
        a = np.array([b.start_ns for b in mine], dtype=np.int64)
        b_end = a + np.array([b.duration_ns for b in mine], dtype=np.int64)
        for name, pieces in parts.items():
            starts = np.concatenate([p[0] for p in pieces]) if pieces else np.zeros(0, np.int64)
            ends = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, np.int64)
            within = Intervals.union(starts, ends).measure_within(a, b_end)
            for step, ns in zip(mine, within, strict=True):
                out.setdefault((rank, step.step), {})[name] = int(ns)
    return out


@dataclass
class DeviceSeries:
    """GPU metrics of one device in one trace file."""

    rank: int
    trace: str  # path relative to the run
    metrics: DeviceMetrics


@dataclass
class RunAnalysis:
    """Everything the analysis views and findings show, computed once per run version."""

    breakdowns: list[StepBreakdown]
    # per rank, its operators summed by name and input shapes (operator_rows + rank) and its
    # kernels by name and launching operator (kernel_rows + rank): what the views merge, kept
    # instead of every event (a run's size grows with its ranks and steps, not its events)
    operator_rows: pd.DataFrame
    kernel_rows: pd.DataFrame
    devices: list[DeviceSeries]
    findings: list[Finding]
    memory: dict[int, RankMemory] = field(default_factory=dict)  # per rank (memory_by_rank)
    snapshot_warnings: list[str] = field(default_factory=list)  # snapshots the findings skip
    # the traces' memory of ranks that have MemorySampler records too (memory_by_rank)
    trace_memory: dict[int, RankMemory] = field(default_factory=dict)
    # per rank, its communication kernels summed by kind, group and collective name
    # (collective_rows + rank)
    collectives: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=[*ROW_COLUMNS, "rank"])
    )


def analyze_run(
    run: Run,
    tables: RunTables,
    snapshots: list[SnapshotFacts] | None = None,
    snapshot_warnings: list[str] | None = None,
) -> RunAnalysis:
    """Breakdowns, operators, kernels, collectives, GPU metrics and findings (docs/ANALYSIS.md,
    docs/FINDINGS.md) from a run's record files and traces, and the facts of its newest
    memory snapshot per rank (loaded by the caller, which keeps them cached)."""
    breakdowns = step_breakdowns(tables)
    memory, trace_memory = memory_by_rank(tables)
    step_times, data_spans, operators, profiling = {}, {}, {}, {}
    operator_parts, kernel_parts, collective_parts, devices = [], [], [], []
    for rank, traces in tables.rank_traces():
        profiling[rank] = _profiler_boundary_steps(traces)
        steps = rank_steps(tables, rank, traces)
        if steps:
            step_times[rank] = pd.DataFrame(
                [(s, a, b) for s, (a, b) in sorted(steps.items())], columns=["step", "t0", "t1"]
            )
        spans = tables.spans[tables.spans["rank"] == rank]
        names = spans["name"].astype(str)
        measured = names == LOADER_SPAN  # timed_loader's waits, else data-like top-level spans
        loading = (
            measured if measured.any() else (spans["parent"] <= 0) & names.str.contains(DATA_SPAN)
        )
        top = spans[loading]
        if len(top):
            data_spans[rank] = (top["t1"] - top["t0"]).groupby(top["step"]).sum()
        if traces:
            rows = operator_rows(named_operator_events([t.tables for t in traces]))
            operators[rank] = merge_operator_rows(rows)
            operator_parts.append(rows.assign(rank=rank))
            kernels, calls = [], []
            for trace in traces:
                kernels.append(trace_kernels(trace.tables))
                calls.append(collective_calls(trace.tables))
                devices += [
                    DeviceSeries(rank, os.path.relpath(trace.path, run.path), metrics)
                    for metrics in device_metrics(trace.tables, kernels[-1])
                ]
            kernel_parts.append(
                kernel_rows(pd.concat(kernels, ignore_index=True)).assign(rank=rank)
            )
            collective_parts.append(
                collective_rows(pd.concat(calls, ignore_index=True)).assign(rank=rank)
            )
    no_rank = {"rank": pd.Series(dtype=np.int64)}
    operator_all = (
        pd.concat(operator_parts, ignore_index=True)
        if operator_parts
        else operator_rows(named_operator_events([])).assign(**no_rank)
    )
    kernel_all = (
        pd.concat(kernel_parts, ignore_index=True)
        if kernel_parts
        else kernel_rows(trace_kernels(None)).assign(**no_rank)
    )
    flops = flops_inputs(tables.rank_meta)
    findings = find_all(AnalysisInputs(
        step_times=step_times,
        data_spans=data_spans,
        breakdowns=breakdowns,
        operators=operators,
        kernels=merge_kernel_rows(kernel_all),
        host_calls=host_call_ns(tables, breakdowns),
        profiler_steps=profiling,
        loader_settings={r: m.dataloader for r, m in tables.rank_meta.items() if m.dataloader},
        memory=memory,
        trace_memory=trace_memory,
        snapshots=snapshots or [],
        python_profiles=tables.python_profiles if len(tables.python_profiles) else None,
        compile_records=tables.compile if len(tables.compile) else None,
        flops_per_step=flops.flops_per_step,
        peak_flops=flops.peak_flops,
        flops_sampled_steps=flops.sampled_steps,
        collective_waits=collective_waits_by_rank(tables.spans),
        median_step=median_steps(tables, breakdowns),
        profiler_ranges=_profiler_ranges(tables),
    ))  # fmt: skip
    analysis = RunAnalysis(
        breakdowns, operator_all, kernel_all, devices, findings, memory,
        snapshot_warnings or [], trace_memory,
    )  # fmt: skip
    collective_parts = [part for part in collective_parts if len(part)]
    if collective_parts:
        analysis.collectives = pd.concat(collective_parts, ignore_index=True)
    return analysis


def memory_by_rank(tables: RunTables) -> tuple[dict[int, RankMemory], dict[int, RankMemory]]:
    """Each rank's MemorySampler records with its device's capacity (from GpuTracker) and the
    sampler's settings (from the metadata), and its traces' memory events (recorded with
    `profile_memory=True`) over its steps: the first where it has records, else the traces';
    the second, the traces' memory of the ranks that have both."""
    sampled = {}
    for rank in sorted(tables.memory["rank"].unique().tolist()):
        meta = tables.rank_meta.get(rank)
        settings = meta.memory if meta is not None else None
        listed = {g.index: g.mem_total for g in meta.system.gpus} if meta and meta.system else {}
        rows = tables.memory[tables.memory["rank"] == rank]
        total = device_total(str(rows["device"].iloc[-1]), tables.gpus, rank, listed)
        found = rank_memory(tables.memory, rank, total, bool(settings and settings.reset_peak))
        if found is not None:
            sampled[rank] = found
    traced = {}
    for rank, traces in tables.rank_traces():
        if not any(len(t.tables.memory["ts"]) for t in traces):
            continue
        steps = rank_steps(tables, rank, traces)
        found = trace_rank_memory(rank, [t.tables for t in traces], steps)
        if found is not None:
            traced[rank] = found
    primary = {**traced, **sampled}
    return dict(sorted(primary.items())), {r: m for r, m in traced.items() if r in sampled}


def module_data(tables: RunTables) -> ModuleData:
    """The run's module view input: its ModuleProfiler records when it has any (attribute
    paths, backward, device time), else the module calls of its traces."""
    steps = tables.steps
    if len(tables.modules.modules):
        return collector_module_data(tables.modules, steps[["rank", "step", "t0", "t1"]])
    events, windows = [], []
    for rank, traces in tables.rank_traces():
        for trace in traces:
            found = module_events(trace.tables)
            found["start"] += trace.tables.meta.to_collectors_ns
            events.append(found.assign(rank=rank))
        windows += [(rank, s, a, b) for s, (a, b) in rank_steps(tables, rank, traces).items()]
    events = [e for e in events if len(e)]
    if not events:
        return ModuleData.empty()
    return trace_module_data(
        pd.concat(events, ignore_index=True),
        pd.DataFrame(windows, columns=["rank", "step", "t0", "t1"]).astype(np.int64),
    )


def _profiler_ranges(tables: RunTables) -> dict[int, int]:
    """rank -> the CUPTI range profiler's events in its traces (kernel replay)."""
    out: dict[int, int] = {}
    for trace in tables.traces:
        if trace.tables.meta.profiler_ranges:
            out[trace.rank] = out.get(trace.rank, 0) + trace.tables.meta.profiler_ranges
    return out


def _profiler_boundary_steps(traces: list[TraceFile]) -> set[int]:
    """Steps that `profile_steps` made slower: the warm-up step before a window (the profiler
    is prepared), its first step (started) and the step after it (stopped, trace exported)."""
    steps = set()
    for trace in traces:
        info = trace.tables.meta.tb_perf or {}
        first, last = info.get("first_step"), info.get("last_step")
        if isinstance(first, int) and isinstance(last, int):
            steps |= {first - 1, first, last + 1}
    return steps
