"""A run's analysis: step breakdowns, operators, kernels, collectives, GPU metrics, memory and
module data, and the findings the rules give on them (docs/ANALYSIS.md, docs/FINDINGS.md).
Computed once per run version by the store, from each rank's summary (`rank_summary.py`)."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.breakdown import StepBreakdown, trace_spans
from ..analysis.collectives import ROW_COLUMNS
from ..analysis.compute import flops_inputs, rank_compile_summary, rank_compute_summary
from ..analysis.findings import (
    DATA_SPAN,
    DEFAULT_THRESHOLDS,
    LOADER_SPAN,
    AnalysisInputs,
    Finding,
)
from ..analysis.gpu_summary import GpuSummary
from ..analysis.kernels import kernel_rows, merge_kernel_rows, trace_kernels
from ..analysis.memory import RankMemory, SnapshotFacts, device_total, rank_memory
from ..analysis.modules import (
    ModuleData,
    collector_module_data,
    module_events,
    trace_module_data,
)
from ..analysis.operators import named_operator_events, operator_rows
from ..analysis.ranks import collective_waits_by_rank
from ..analysis.rules import find_all
from ..analysis.what_if import WhatIfStep, what_if_step
from ..discovery import Run
from ..errors import OverLimit
from ..executor import submit_alone
from ..ingest.cache import TraceCache
from .rank_summary import (
    DeviceSeries,
    RankSummary,
    TraceRef,
    on_workers,
    opened,
    rank_breakdowns,
    rank_summaries,
    ranks_with_traces,
    stored_summaries,
    summarize_rank,
    taken_summary,
    trace_refs,
)
from .read import RunTables
from .steps import rank_steps, timer_steps

logger = logging.getLogger(__name__)


def step_breakdowns(tables: RunTables) -> list[StepBreakdown]:
    """The breakdown of every step a trace covers, rank by rank (`rank_breakdowns`)."""
    return [
        done
        for rank, traces in tables.rank_traces()
        for done in rank_breakdowns(rank, traces, rank_steps(tables, rank, traces))
    ]


TraceSpans = list[tuple[int, int, list[tuple[int, int]]]]  # (index in tables.traces, rank, span)


def covering_traces(
    tables: RunTables, breakdowns: list[StepBreakdown], spans: TraceSpans | None = None
) -> list[tuple[StepBreakdown, int]]:
    """Each broken-down step with the index (in `tables.traces`) of the trace that covers it;
    `spans`: each trace's span when known (`summary_spans`), else read from the traces."""
    if spans is None:
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


def summary_spans(tables: RunTables, summaries: list[RankSummary]) -> TraceSpans:
    """Each trace's span as its rank's summary gives it, with its index in `tables.traces`."""
    position = {t.path: i for i, t in enumerate(tables.traces)}
    return [
        (position[path], summary.rank, span)
        for summary in summaries
        for path, span in summary.trace_spans
        if path in position
    ]


def median_steps(
    tables: RunTables, breakdowns: list[StepBreakdown], spans: TraceSpans
) -> Callable[[int, set[int]], WhatIfStep | None]:
    """(rank, steps to skip) -> the what-if graph of the rank's median traced step (by
    duration, the upper median; the skipped steps only when there are no others), built on
    first use from that one trace: the impact of a finding is read off its path
    (analysis/what_if.py)."""
    by_rank: dict[int, list[tuple[StepBreakdown, int]]] = {}
    for done, index in covering_traces(tables, breakdowns, spans):
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
                trace.release_pages()
        return built[key]

    return median_step


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
    gpus: list[GpuSummary] = field(default_factory=list)  # per rank and device, in rank order
    # every rank's completed steps (STEP_COLUMNS): MyTimer's, else its traces' ProfilerStep#N
    steps: pd.DataFrame = field(default_factory=lambda: _step_table([]))
    # per trace-only rank with host events, its host (or None) and pid (`traced_process`)
    processes: dict[int, tuple[str | None, int | None]] = field(default_factory=dict)
    # per rank, FlopsCounter's MFU over its steps and torch.compile's activity (the
    # Overview's `compute` and `compile`)
    rank_compute: dict[int, dict[str, Any]] = field(default_factory=dict)
    # per rank with traces, (device ns no operator launched, device ns): `unattributed_device_ns`
    unattributed_device: dict[int, tuple[int, int]] = field(default_factory=dict)


STEP_COLUMNS = ["rank", "step", "t0", "t1", "source", "device_t0", "device_t1"]


def _step_table(rows: list[tuple]) -> pd.DataFrame:
    steps = pd.DataFrame(rows, columns=STEP_COLUMNS)
    return steps.astype({column: "int64" for column in STEP_COLUMNS if column != "source"})


def analyze_run(
    run: Run,
    tables: RunTables,
    rank_summaries: Iterable[RankSummary],
    snapshots: list[SnapshotFacts] | None = None,
    snapshot_warnings: list[str] | None = None,
) -> RunAnalysis:
    """Breakdowns, operators, kernels, collectives, GPU metrics and findings (docs/ANALYSIS.md,
    docs/FINDINGS.md) from a run's record files, its ranks' summaries (`rank_summaries`, taken
    in as they come) and the facts of its newest memory snapshot per rank (loaded by the
    caller, which keeps them cached)."""
    seen: dict[Any, Any] = {}
    summaries = [_sharing_names(summary, seen) for summary in rank_summaries]
    del seen
    by_rank = {summary.rank: summary for summary in summaries}
    breakdowns = [done for summary in summaries for done in summary.breakdowns]
    memory, trace_memory = memory_by_rank(
        tables, {s.rank: s.trace_memory for s in summaries if s.trace_memory is not None}
    )
    step_times, data_spans, profiling = {}, {}, {}
    step_rows: list[tuple] = []
    for rank in tables.ranks:
        summary = by_rank.get(rank)
        profiling[rank] = summary.profiler_boundary_steps if summary else set()
        steps = summary.steps if summary else rank_steps(tables, rank, [])
        step_rows += [(rank, *row) for row in summary.step_rows] if summary else [
            (rank, s, a, b, "MyTimer", a, b)
            for s, (a, b) in sorted(steps.items(), key=lambda item: item[1])
        ]  # fmt: skip
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
    no_rank = {"rank": pd.Series(dtype=np.int64)}
    operator_all = (
        pd.concat([s.operator_rows for s in summaries], ignore_index=True)
        if summaries
        else operator_rows(named_operator_events([])).assign(**no_rank)
    )
    kernel_all = (
        pd.concat([s.kernel_rows for s in summaries], ignore_index=True)
        if summaries
        else kernel_rows(trace_kernels(None)).assign(**no_rank)
    )
    host_calls = {key: ns for s in summaries for key, ns in s.host_calls.items()}
    flops = flops_inputs(tables.rank_meta)
    findings = find_all(AnalysisInputs(
        step_times=step_times,
        data_spans=data_spans,
        breakdowns=breakdowns,
        operators={s.rank: s.operators for s in summaries},
        kernels=merge_kernel_rows(kernel_all),
        host_calls=host_calls,
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
        median_step=median_steps(tables, breakdowns, summary_spans(tables, summaries)),
        profiler_ranges=_profiler_ranges(tables),
    ))  # fmt: skip
    analysis = RunAnalysis(
        breakdowns, operator_all, kernel_all, [d for s in summaries for d in s.devices],
        findings, memory, snapshot_warnings or [], trace_memory,
        gpus=[g for s in summaries for g in s.gpus], steps=_step_table(step_rows),
        processes={s.rank: s.process for s in summaries if s.process != (None, None)},
        unattributed_device={s.rank: s.unattributed_device for s in summaries},
        rank_compute=_rank_compute(tables, step_rows,
                                   {s.rank: s.compiled_frames for s in summaries}),
    )  # fmt: skip
    collective_parts = [s.collective_rows for s in summaries if len(s.collective_rows)]
    if collective_parts:
        analysis.collectives = pd.concat(collective_parts, ignore_index=True)
    return analysis


def analysis_of(
    run: Run,
    tables: RunTables,
    executor: concurrent.futures.Executor,
    cache: TraceCache,
    max_file_bytes: int,
    snapshots: list[SnapshotFacts] | None = None,
    snapshot_warnings: list[str] | None = None,
) -> RunAnalysis:
    """The run's analysis (`analyze_run`), its work on `executor`'s workers when they share
    this process' disk and the trace cache holds the traces: one task per rank makes its
    summary, one more merges them (in a process of its own on a local pool, on a Dask worker
    with the shared store: its memory grows with the run),
    and this process receives the finished analysis only. Its memory then grows with what
    the analysis keeps (sums per rank and step), not with the summaries and the findings'
    transient work (at 1,024 ranks, about 100 MB of small objects left as fragmented heap).
    Computed here instead where `on_workers` says no (a few ranks, Dask without the shared
    store, an unwritable cache) and when the merge fails (its process lost)."""
    if not on_workers(tables, executor, cache):
        return analyze_run(run, tables, rank_summaries(run.path, tables), snapshots,
                           snapshot_warnings)  # fmt: skip
    cache_dir = cache.location
    stored = stored_summaries(run.path, tables, executor, cache_dir, max_file_bytes)
    refs = [(rank, trace_refs(traces)) for rank, traces in ranks_with_traces(tables)]
    try:
        return submit_alone(
            executor, analyze_stored, cache_dir, max_file_bytes, run,
            dataclasses.replace(tables, traces=[]), refs, stored, snapshots, snapshot_warnings,
        ).result()  # fmt: skip
    except OverLimit:  # computed here it would take the serving process' time instead
        raise
    except Exception as exc:  # computed here: a bug of ours raises here too
        logger.warning("tb_perf: run %r analysed in this process: its task failed (%s)",
                       run.name, exc)  # fmt: skip
    summaries = (
        taken_summary(cache_dir, stored[rank]) if rank in stored
        else summarize_rank(run.path, rank, traces, timer_steps(tables, rank))
        for rank, traces in ranks_with_traces(tables)
    )  # fmt: skip
    return analyze_run(run, tables, summaries, snapshots, snapshot_warnings)


def analyze_stored(
    cache_dir: str,
    max_file_bytes: int,
    run: Run,
    portable: RunTables,
    refs: list[tuple[int, list[TraceRef]]],
    stored: dict[int, str],
    snapshots: list[SnapshotFacts] | None,
    snapshot_warnings: list[str] | None,
) -> RunAnalysis:
    """On a worker: the run's analysis from its tables without traces (`portable`), each
    rank's traces (as the trace cache keeps them) and the ranks' summary files in the store
    (`stored`), each taken as the merge comes to it; a rank without one summarized here."""
    cache = TraceCache(cache_dir)
    traces = {rank: opened(cache, rank, found, max_file_bytes) for rank, found in refs}
    tables = dataclasses.replace(portable, traces=[t for rank, _ in refs for t in traces[rank]])

    def summaries() -> Iterator[RankSummary]:
        for rank, _ in refs:
            path = stored.get(rank)
            yield (
                taken_summary(cache_dir, path) if path is not None
                else summarize_rank(run.path, rank, traces[rank], timer_steps(tables, rank))
            )  # fmt: skip

    return analyze_run(run, tables, summaries(), snapshots, snapshot_warnings)


def _rank_compute(
    tables: RunTables, step_rows: list[tuple], frames: dict[int, pd.DataFrame]
) -> dict[int, dict[str, Any]]:
    """Per rank, FlopsCounter's MFU over its steps (`step_rows`) and torch.compile's activity
    (its CompileMonitor records and its traces' compiled `frames`)."""
    flops = flops_inputs(tables.rank_meta)
    by_rank: dict[int, list[tuple[int, int, int]]] = {}
    for rank, step, t0, t1, *_ in step_rows:
        by_rank.setdefault(rank, []).append((step, t0, t1))
    out = {}
    for rank in tables.ranks:
        own = sorted(by_rank.get(rank, []))  # by step
        step_windows = pd.DataFrame(own, columns=["step", "t0", "t1"]).astype("int64")
        out[rank] = {
            "compute": rank_compute_summary(
                step_windows, flops, rank, DEFAULT_THRESHOLDS.warmup_steps
            ),
            "compile": rank_compile_summary(
                tables.compile[tables.compile["rank"] == rank], frames.get(rank, pd.DataFrame())
            ),
        }
    return out


def _sharing_names(summary: RankSummary, names: dict[Any, Any]) -> RankSummary:
    """`summary` with each text value of its tables replaced by the equal one already in
    `names` (added there if new): the ranks of a job have the same operators and kernels, so
    the run's tables hold each name once, not once per rank (a kernel name is often 200
    characters; at 1,024 ranks the copies were most of the serving process' growth)."""
    for frame in (summary.operator_rows, summary.operators, summary.kernel_rows,
                  summary.collective_rows):  # fmt: skip
        for column, dtype in frame.dtypes.items():
            if dtype.kind != "O":  # text is pandas' str dtype, or objects (pandas 2)
                continue
            try:
                shared = [names.setdefault(value, value) for value in frame[column].tolist()]
            except TypeError:  # objects that are not text: left as they are
                continue
            frame[column] = pd.array(shared, dtype=dtype)
    return summary


def memory_by_rank(
    tables: RunTables, traced: dict[int, RankMemory]
) -> tuple[dict[int, RankMemory], dict[int, RankMemory]]:
    """Each rank's MemorySampler records with its device's capacity (from GpuTracker) and the
    sampler's settings (from the metadata), and its traces' memory events (recorded with
    `profile_memory=True`, `traced`: from the ranks' summaries) over its steps: the first
    where it has records, else the traces'; the second, the traces' memory of the ranks that
    have both."""
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
