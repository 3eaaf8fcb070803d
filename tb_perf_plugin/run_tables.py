"""Reading one run's files into tables, and building its timeline from them.

Timer files are read in the calling thread (small, append-only); trace files and imported
timeline files (Nsight Systems, event CSVs) are read through the on-disk trace cache
(`TraceCache.read_all`: one executor task per file not in it, memory-mapped back); imported
cProfile and Nsight Compute files are read through the executor too, each by its registered
reader (`ingest/readers.py`, docs/IMPORT.md).
"""

from __future__ import annotations

import concurrent.futures
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .align import (
    Alignment,
    Method,
    RankClockEvidence,
    align_ranks,
    from_clock_sync,
    is_point_to_point,
)
from .analysis.breakdown import Intervals, StepBreakdown, activity, breakdown, trace_spans
from .analysis.compute import flops_inputs
from .analysis.findings import DATA_SPAN, LOADER_SPAN, AnalysisInputs, Finding
from .analysis.kernels import (
    DeviceMetrics,
    aggregate_kernels,
    device_metrics,
    kernel_events,
    trace_kernels,
)
from .analysis.memory import RankMemory, SnapshotFacts, device_total, rank_memory
from .analysis.modules import (
    ModuleData,
    collector_module_data,
    module_events,
    trace_module_data,
)
from .analysis.operators import aggregate_operators, named_operator_events
from .analysis.ranks import collective_waits_by_rank
from .analysis.rules import find_all
from .discovery import ImportedFile, Run, WriterFiles, now_ns, recently_changed
from .errors import Unreadable
from .ingest.cache import TraceCache
from .ingest.compile import COMPILE_COLUMNS, read_compile_file
from .ingest.memory import (
    GPU_COLUMNS,
    MEMORY_COLUMNS,
    SYSTEM_COLUMNS,
    read_memory_file,
    read_system_file,
)
from .ingest.meta import RankMeta
from .ingest.modules import ModuleRecords, module_records, read_modules_file
from .ingest.ncu import NCU_COLUMNS
from .ingest.python_profile import COLUMNS as FUNCTION_COLUMNS
from .ingest.python_profile import PythonProfile
from .ingest.readers import READERS, TIMELINE_KINDS, FileKind
from .ingest.tables import DEVICE_KINDS, TraceTables, is_collective
from .ingest.timer import (
    SPAN_COLUMNS,
    STEP_COLUMNS,
    read_timer_file,
)
from .timeline import RankInput, Timeline

STILL_WRITING = "still being written; shown once complete"  # an unreadable file's warning then
_PROFILER_STEP = re.compile(r"^ProfilerStep#(\d+)$")


@dataclass
class TraceFile:
    path: str
    rank: int
    rank_source: str  # "metadata", "distributedInfo", "file name", "default (no rank in name)"
    tables: TraceTables
    kind: FileKind = FileKind.KINETO  # an imported Nsight Systems export or event CSV otherwise


PYTHON_PROFILE_COLUMNS = [*FUNCTION_COLUMNS, "rank", "file"]
PYTHON_PROFILE_FILE_COLUMNS = ["rank", "file", "total_ns", "calls", "primitive_calls"]
KERNEL_METRIC_COLUMNS = [*NCU_COLUMNS, "rank", "file"]


@dataclass
class RunTables:
    """Everything read from one run, plus what went wrong."""

    signature: tuple
    spans: pd.DataFrame  # SPAN_COLUMNS + rank, writer
    steps: pd.DataFrame  # STEP_COLUMNS + rank, writer
    traces: list[TraceFile] = field(default_factory=list)
    rank_meta: dict[int, RankMeta] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    modules: ModuleRecords = field(default_factory=ModuleRecords.empty)
    module_warnings: list[str] = field(default_factory=list)  # also in `warnings`
    memory: pd.DataFrame = field(default_factory=lambda: _concat([], MEMORY_COLUMNS))
    system: pd.DataFrame = field(default_factory=lambda: _concat([], SYSTEM_COLUMNS))
    gpus: pd.DataFrame = field(default_factory=lambda: _concat([], GPU_COLUMNS))
    memory_warnings: list[str] = field(default_factory=list)  # also in `warnings`
    compile: pd.DataFrame = field(default_factory=lambda: _concat([], COMPILE_COLUMNS))
    # imported cProfile/pstats files: their functions, and one row of totals per file (`file`
    # is the path relative to the run)
    python_profiles: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=PYTHON_PROFILE_COLUMNS)
    )
    python_profile_files: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=PYTHON_PROFILE_FILE_COLUMNS)
    )
    # imported Nsight Compute CSVs: one row per profiled kernel launch
    kernel_metrics: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=KERNEL_METRIC_COLUMNS)
    )

    @property
    def ranks(self) -> list[int]:
        ranks = set(self.rank_meta) | {t.rank for t in self.traces}
        ranks |= set(self.python_profile_files["rank"].tolist())
        ranks |= set(self.kernel_metrics["rank"].unique().tolist())
        ranks |= set(self.modules.blocks["rank"].unique().tolist())
        ranks |= set(self.memory["rank"].unique().tolist())
        ranks |= set(self.system["rank"].unique().tolist())
        return sorted(ranks | set(self.steps["rank"].unique().tolist()))


def _stop_warnings(writer: WriterFiles, last_timer_step: int | None) -> list[str]:
    """ "rank R: data ends at step N (disk full)" for each collector that turned itself off,
    so a run cut short does not look like a clean one. The timer's data ends at its last step
    read; the others' at the step they stopped in."""
    if writer.meta is None:
        return []
    notes = []
    for collector, stop in writer.meta.stopped.items():
        step = last_timer_step if collector == "MyTimer" else stop.step
        what = "data" if collector == "MyTimer" else f"{collector} data"
        where = f"step {step}" if step is not None else "its first step"
        notes.append(f"rank {writer.rank}: {what} ends at {where} ({stop.reason})")
    return notes


def _concat(parts: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    if not parts:
        return pd.DataFrame(columns=[*columns, "rank", "writer"])
    return pd.concat(parts, ignore_index=True)


RECORD_KINDS = ("timer", "modules", "memory", "system", "compile")  # per-rank record files


def read_run(
    run: Run,
    signature: tuple,
    *,
    max_file_bytes: int,
    executor: concurrent.futures.Executor,
    cache_dir: str | None,
    on_progress: Callable[[int], None],
    file_reads: dict[str, Any] | None = None,
) -> RunTables:
    """`file_reads` holds each record file's last read (the RECORD_KINDS files); files
    that only grew since are tailed from where that read ended, and the dict is updated."""
    file_reads = {} if file_reads is None else file_reads
    span_parts, step_parts, warnings, module_parts, module_warnings = [], [], [], [], []
    compile_parts: list[pd.DataFrame] = []
    sampler_parts: dict[str, list[pd.DataFrame]] = {"memory": [], "system": [], "gpus": []}
    memory_warnings: list[str] = []
    readable = 0
    rank_meta: dict[int, RankMeta] = {}
    warnings.extend(run.discovery_warnings())
    for writer_index, writer in enumerate(run.writers):
        label = f"rank {writer.rank} ({writer.prefix})"
        if writer.meta_error:
            warnings.append(f"{label}: {writer.meta_error}")
        if writer.meta is not None:
            rank_meta.setdefault(writer.rank, writer.meta)
            warnings.extend(f"{label}: metadata {problem}" for problem in writer.meta.problems)
        readers = (
            read_timer_file, read_modules_file, read_memory_file, read_system_file,
            read_compile_file,
        )  # fmt: skip
        last_timer_step: int | None = None
        for kind, read in zip(RECORD_KINDS, readers, strict=True):
            path = writer.files.get(kind)
            if path is None:
                continue
            problems = {"modules": module_warnings, "memory": memory_warnings,
                        "system": memory_warnings}.get(kind, warnings)  # fmt: skip
            try:
                result = read(path, max_file_bytes, on_progress, file_reads.get(path))
                file_reads[path] = result
            except Unreadable as exc:
                problems.append(f"{label}: {exc.message}")
                continue
            except FileNotFoundError:
                problems.append(f"{label}: {os.path.basename(path)} disappeared while reading")
                continue
            except OSError as exc:
                problems.append(f"{label}: {os.path.basename(path)} unreadable ({exc.strerror})")
                continue
            readable += 1
            status = writer.status(now_ns())
            if result.truncated_tail and status != "live":
                # a writer that stopped without closing or saying why was cut off mid-write
                silent_stop = status == "stopped" and writer.meta is not None
                silent_stop = silent_stop and not writer.meta.stopped
                problems.append(
                    f"{label}: the last line of {os.path.basename(path)} is truncated (ignored)"
                    + (": the writer stopped mid-write (killed, or its disk filled): its data "
                       "ends there" if silent_stop else "")
                )  # fmt: skip
            problems.extend(f"{label}: {problem}" for problem in result.problems)
            if kind == "timer":
                if len(result.steps):
                    last_timer_step = int(result.steps["step"].max())
                span_parts.append(result.spans.assign(rank=writer.rank, writer=writer_index))
                step_parts.append(result.steps.assign(rank=writer.rank, writer=writer_index))
            elif kind == "modules":
                module_parts.append((writer.rank, writer_index, result))
            elif kind == "compile":
                compile_parts.append(result.table.assign(rank=writer.rank, writer=writer_index))
            else:
                for name, table in result.tables.items():
                    sampler_parts[name].append(table.assign(rank=writer.rank, writer=writer_index))
        warnings.extend(_stop_warnings(writer, last_timer_step))
    warnings += module_warnings + memory_warnings
    warnings += [
        f"{os.path.relpath(f.path, run.path)}: not imported: {f.reason} (docs/IMPORT.md)"
        for f in run.imported
        if f.kind is None
    ]
    other_futures = _submit_imported(run, max_file_bytes, executor)
    traces = _read_traces(run, max_file_bytes, executor, cache_dir, on_progress, warnings)
    imported = _imported_tables(run, other_futures, on_progress, warnings)
    readable += len(imported["python_profile_files"]) + imported["kernel_metrics"]["file"].nunique()
    has_collector_files = any(set(RECORD_KINDS) & set(w.files) for w in run.writers)
    has_files = has_collector_files or run.traces or any(f.kind for f in run.imported)
    writing = any(w.endswith(STILL_WRITING) for w in warnings)  # a trace or copy under way
    if readable == 0 and not traces and has_files and not writing:
        raise Unreadable("; ".join(warnings) or f"run {run.name!r} has no readable files")
    return RunTables(
        signature=signature,
        spans=_concat(span_parts, SPAN_COLUMNS),
        steps=_concat(step_parts, STEP_COLUMNS),
        traces=traces,
        rank_meta=rank_meta,
        warnings=warnings,
        modules=module_records(module_parts),
        module_warnings=module_warnings,
        memory=_concat(sampler_parts["memory"], MEMORY_COLUMNS),
        system=_concat(sampler_parts["system"], SYSTEM_COLUMNS),
        gpus=_concat(sampler_parts["gpus"], GPU_COLUMNS),
        memory_warnings=memory_warnings,
        compile=_concat(compile_parts, COMPILE_COLUMNS),
        **imported,
    )


def _read_traces(
    run: Run,
    max_file_bytes: int,
    executor: concurrent.futures.Executor,
    cache_dir: str | None,
    on_progress: Callable[[int], None],
    warnings: list[str],
) -> list[TraceFile]:
    """Every timeline file of the run, through the trace cache (one executor task per file
    not in it yet)."""
    files = [(path, FileKind.KINETO) for path in run.traces]
    files += [(f.path, f.kind) for f in run.imported if f.kind in TIMELINE_KINDS]
    found = []
    for read in TraceCache(cache_dir).read_all(files, max_file_bytes, executor):
        on_progress(_size(read.path))
        name = os.path.relpath(read.path, run.path)
        if isinstance(read.error, Unreadable):
            warnings.append(_trace_problem(read.path, name, read.error.message))
        elif read.error is not None:
            warnings.append(f"{name}: unreadable ({read.error.strerror or read.error})")
        elif read.tables is not None:
            found.append((read.path, read.kind, read.tables))
    traces = []
    for path, kind, tables in found:
        name = os.path.relpath(path, run.path)
        warnings.extend(f"{name}: {problem}" for problem in tables.meta.problems)
        rank, source = _trace_rank(run, path, tables)
        traces.append(TraceFile(path, rank, source, tables, kind))
    return sorted(traces, key=lambda t: (t.rank, t.path))


def _submit_imported(
    run: Run, max_file_bytes: int, executor: concurrent.futures.Executor
) -> dict[concurrent.futures.Future, ImportedFile]:
    """Imported files that are not timelines, each read as one executor task."""
    return {
        executor.submit(READERS[f.kind].read, f.path, max_file_bytes): f
        for f in run.imported
        if f.kind is not None and not READERS[f.kind].timeline
    }


def _imported_tables(
    run: Run,
    futures: dict[concurrent.futures.Future, ImportedFile],
    on_progress: Callable[[int], None],
    warnings: list[str],
) -> dict[str, pd.DataFrame]:
    """RunTables' python_profiles, python_profile_files and kernel_metrics, in file order."""
    functions, totals, kernels = [], [], []
    for future in sorted(futures, key=lambda f: futures[f].path):
        file = futures[future]
        name = os.path.relpath(file.path, run.path)
        rank = run.rank_from_file_name(file.path)
        try:
            result = future.result()
        except Unreadable as exc:
            warnings.append(_trace_problem(file.path, name, exc.message))
            continue
        except OSError as exc:
            warnings.append(f"{name}: unreadable ({exc.strerror or exc})")
            continue
        finally:
            on_progress(_size(file.path))
        if isinstance(result, PythonProfile):
            functions.append(result.functions.assign(rank=rank, file=name))
            totals.append((rank, name, result.total_ns, result.calls, result.primitive_calls))
        else:
            kernels.append(result.assign(rank=rank, file=name))

    def frame(parts: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
        parts = [p for p in parts if len(p)]
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)

    return {
        "python_profiles": frame(functions, PYTHON_PROFILE_COLUMNS),
        "python_profile_files": pd.DataFrame(totals, columns=PYTHON_PROFILE_FILE_COLUMNS),
        "kernel_metrics": frame(kernels, KERNEL_METRIC_COLUMNS),
    }


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _trace_problem(path: str, name: str, message: str) -> str:
    try:
        recent = recently_changed(path)
    except OSError:
        return f"{name}: disappeared while reading"
    if recent:
        return f"{name}: {STILL_WRITING}"
    return message if message.startswith(os.path.basename(path)) else f"{name}: {message}"


def _trace_rank(run: Run, path: str, tables: TraceTables) -> tuple[int, str]:
    """Our metadata (the file is named after a writer), else distributedInfo, else the name
    (of an imported file: a `rank<N>`/`worker<N>` in it, else rank 0)."""
    base = os.path.basename(path)
    for writer in run.writers:
        if base.startswith(writer.prefix + "."):
            return writer.rank, "metadata"
    if tables.meta.rank is not None:
        return tables.meta.rank, "distributedInfo"
    if path in run.traces:
        return run.rank_from_trace_name(path), "file name"
    rank = run.rank_in_file_name(path)
    return (0, "default (no rank in the file name)") if rank is None else (rank, "file name")


# --- timeline -----------------------------------------------------------------------------------


def _collective_instances(traces: list[TraceFile]) -> list[tuple[tuple, int]]:
    """(signature, end) of collectives that end together on every rank: device collective
    kernels when the rank has any, else blocking host collectives (gloo). Selected with
    per-name flags over whole columns; only the chosen rows become Python tuples."""
    device, host = [], []
    for trace in traces:
        t = trace.tables
        names = t.names
        name_ids = np.asarray(t.slices["name"])
        collective_arg = np.asarray(t.slices["collective"])
        label = np.where(collective_arg >= 0, collective_arg, name_ids)
        point_to_point = np.array([is_point_to_point(n) for n in names], dtype=bool)
        gloo = np.array([n.startswith("gloo:") for n in names], dtype=bool)
        candidate = (is_collective(names)[name_ids] | (collective_arg >= 0)) & ~(
            point_to_point[name_ids] | point_to_point[label]
        )
        on_device = np.isin(np.asarray(t.slices["kind"]), DEVICE_KINDS)
        ends = np.asarray(t.slices["start"]) + np.asarray(t.slices["dur"])
        ends = ends + t.meta.to_collectors_ns
        groups = np.asarray(t.slices["process_group"])
        sizes = np.asarray(t.slices["in_nelems"])
        for rows, out in (
            (np.flatnonzero(candidate & on_device), device),
            (np.flatnonzero(candidate & ~on_device & gloo[name_ids]), host),
        ):
            out.extend(
                ((names[lab], names[group] if group >= 0 else "", size), end)
                for lab, group, size, end in zip(
                    label[rows].tolist(),
                    groups[rows].tolist(),
                    sizes[rows].tolist(),
                    ends[rows].tolist(),
                    strict=True,
                )
            )
    chosen = device or host
    return sorted(chosen, key=lambda item: item[1])


def _profiler_steps(traces: list[TraceFile]) -> dict[int, tuple[int, int]]:
    steps = {}
    for trace in traces:
        t = trace.tables
        for index, name in enumerate(t.names):
            match = _PROFILER_STEP.match(name)
            if match:
                rows = np.flatnonzero(np.asarray(t.slices["name"]) == index)
                if len(rows):
                    start = int(t.slices["start"][rows[0]]) + t.meta.to_collectors_ns
                    steps[int(match.group(1))] = (start, start + int(t.slices["dur"][rows[0]]))
    return steps


def rank_steps(tables: RunTables, rank: int, traces: list[TraceFile]) -> dict[int, tuple[int, int]]:
    """Step -> (start, end) on the rank's own clock: MyTimer's steps, else ProfilerStep#N."""
    own = tables.steps[tables.steps["rank"] == rank]
    if len(own):
        return {
            int(s): (int(a), int(b))
            for s, a, b in zip(own["step"], own["t0"], own["t1"], strict=True)
        }
    return _profiler_steps(traces)


MIN_TRACED_FRACTION = 0.9  # a step is broken down when a trace covers this much of it


def step_breakdowns(tables: RunTables) -> list[StepBreakdown]:
    """The breakdown of every step a trace covers (at least MIN_TRACED_FRACTION of it; the
    window is then what the trace covers), per rank with traces; a rank's trace without steps
    is broken down whole."""
    out = []
    for rank in tables.ranks:
        traces = [t for t in tables.traces if t.rank == rank]
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


_SYNC_CALL = re.compile(r"Synchronize|^(Stream|Context|Event) Sync$|^(cuda|hip)Memcpy$")


def _sync_ns(tables: RunTables, breakdowns: list[StepBreakdown]) -> dict[tuple, int]:
    """(rank, step) -> time in blocking host-device synchronization calls within the step."""
    out = {}
    for rank in {b.rank for b in breakdowns}:
        starts, ends = [], []
        for trace in (t for t in tables.traces if t.rank == rank):
            t = trace.tables
            sync = np.array([bool(_SYNC_CALL.search(n)) for n in t.names], dtype=bool)
            rows = np.flatnonzero(sync[np.asarray(t.slices["name"])])
            start = np.asarray(t.slices["start"])[rows] + t.meta.to_collectors_ns
            starts.append(start)
            ends.append(start + np.asarray(t.slices["dur"])[rows])
        union = Intervals.union(np.concatenate(starts), np.concatenate(ends))
        mine = [b for b in breakdowns if b.rank == rank]
        within = union.measure_within(
            np.array([b.start_ns for b in mine]),
            np.array([b.start_ns + b.duration_ns for b in mine]),
        )
        out.update({(rank, b.step): int(ns) for b, ns in zip(mine, within, strict=True)})
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
    operator_events: pd.DataFrame  # named_operator_events + rank
    kernel_events: pd.DataFrame  # kernel_events + rank
    devices: list[DeviceSeries]
    findings: list[Finding]
    memory: dict[int, RankMemory] = field(default_factory=dict)  # MemorySampler, per rank
    snapshot_warnings: list[str] = field(default_factory=list)  # snapshots the findings skip


def analyze_run(
    run: Run,
    tables: RunTables,
    snapshots: list[SnapshotFacts] | None = None,
    snapshot_warnings: list[str] | None = None,
) -> RunAnalysis:
    """Breakdowns, operators, kernels, GPU metrics and findings (docs/ANALYSIS.md,
    docs/FINDINGS.md) from a run's record files and traces, and the facts of its newest
    memory snapshot per rank (loaded by the caller, which keeps them cached)."""
    breakdowns = step_breakdowns(tables)
    memory = memory_by_rank(tables)
    step_times, data_spans, operators, profiling = {}, {}, {}, {}
    operator_parts, kernel_parts, devices = [], [], []
    for rank in tables.ranks:
        traces = [t for t in tables.traces if t.rank == rank]
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
            events = named_operator_events([t.tables for t in traces])
            operators[rank] = aggregate_operators(events)
            operator_parts.append(events.assign(rank=rank))
            for trace in traces:
                kernels = trace_kernels(trace.tables)
                kernel_parts.append(kernels.assign(rank=rank))
                devices += [
                    DeviceSeries(rank, os.path.relpath(trace.path, run.path), metrics)
                    for metrics in device_metrics(trace.tables, kernels)
                ]
    operator_all = pd.concat(operator_parts, ignore_index=True) if operator_parts else None
    kernel_all = pd.concat(kernel_parts, ignore_index=True) if kernel_parts else None
    if operator_all is None:
        operator_all = named_operator_events([]).assign(rank=pd.Series(dtype=np.int64))
        kernel_all = kernel_events([]).assign(rank=pd.Series(dtype=np.int64))
    flops = flops_inputs(tables.rank_meta)
    findings = find_all(AnalysisInputs(
        step_times, data_spans, breakdowns, operators, aggregate_kernels(kernel_all),
        _sync_ns(tables, breakdowns), profiling,
        {r: m.dataloader for r, m in tables.rank_meta.items() if m.dataloader}, memory,
        snapshots or [],
        python_profiles=tables.python_profiles if len(tables.python_profiles) else None,
        compile_records=tables.compile if len(tables.compile) else None,
        flops_per_step=flops.flops_per_step, peak_flops=flops.peak_flops,
        flops_sampled_steps=flops.sampled_steps,
        collective_waits=collective_waits_by_rank(tables.spans),
    ))  # fmt: skip
    return RunAnalysis(
        breakdowns, operator_all, kernel_all, devices, findings, memory, snapshot_warnings or []
    )


def memory_by_rank(tables: RunTables) -> dict[int, RankMemory]:
    """Each rank's MemorySampler records with its device's capacity (from GpuTracker) and the
    sampler's settings (from the metadata)."""
    out = {}
    for rank in sorted(tables.memory["rank"].unique().tolist()):
        meta = tables.rank_meta.get(rank)
        settings = meta.memory if meta is not None else None
        listed = {g.index: g.mem_total for g in meta.system.gpus} if meta and meta.system else {}
        rows = tables.memory[tables.memory["rank"] == rank]
        total = device_total(str(rows["device"].iloc[-1]), tables.gpus, rank, listed)
        found = rank_memory(tables.memory, rank, total, bool(settings and settings.reset_peak))
        if found is not None:
            out[rank] = found
    return out


def module_data(tables: RunTables) -> ModuleData:
    """The run's module view input: its ModuleProfiler records when it has any (attribute
    paths, backward, device time), else the module calls of its traces."""
    steps = tables.steps
    if len(tables.modules.modules):
        return collector_module_data(tables.modules, steps[["rank", "step", "t0", "t1"]])
    events, windows = [], []
    for rank in tables.ranks:
        traces = [t for t in tables.traces if t.rank == rank]
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


def clock_to_rank0(tables: RunTables, rank: int) -> Callable[[np.ndarray], np.ndarray]:
    """Maps the rank's own clock to rank 0's with its clock sync, when it measured one (the
    sampler views need no finer alignment); else leaves times as they are."""
    meta = tables.rank_meta.get(rank)
    sync = from_clock_sync(rank, meta.clock_sync) if meta and meta.clock_sync else None
    return sync.apply if sync is not None else np.asarray


def align_run(tables: RunTables) -> dict[int, Alignment]:
    evidence = []
    for rank in tables.ranks:
        traces = [t for t in tables.traces if t.rank == rank]
        meta = tables.rank_meta.get(rank)
        steps = rank_steps(tables, rank, traces)
        evidence.append(RankClockEvidence(
            rank,
            clock_sync=meta.clock_sync if meta is not None else None,
            collectives=_collective_instances(traces) or None,
            step_starts={s: a for s, (a, _) in steps.items()} or None,
        ))  # fmt: skip
    return align_ranks(evidence)


def build_timeline(tables: RunTables) -> Timeline:
    alignments = align_run(tables)
    inputs = []
    for rank in tables.ranks:
        traces = [t for t in tables.traces if t.rank == rank]
        spans = tables.spans[tables.spans["rank"] == rank]
        span_input, span_names = None, None
        if len(spans):
            names = pd.Categorical(spans["name"])
            span_input = {
                "start": spans["t0"].to_numpy(np.int64),
                "dur": (spans["t1"] - spans["t0"]).to_numpy(np.int64),
                "name": names.codes.astype(np.int64),
                "id": spans["id"].to_numpy(np.int64),
                "parent": spans["parent"].to_numpy(np.int64),
                "step": spans["step"].to_numpy(np.int64),
                "gpu_ns": spans["gpu_ns"].fillna(-1).to_numpy(np.int64),
            }
            span_names = [str(c) for c in names.categories]
        steps = rank_steps(tables, rank, traces)
        inputs.append(RankInput(
            rank, alignments.get(rank, Alignment(rank, Method.NONE)), span_input, span_names,
            [(s, a, b) for s, (a, b) in steps.items()], [t.tables for t in traces],
            _collector_series(tables, rank),
        ))  # fmt: skip
    return Timeline(inputs)


# The collectors' series shown as timeline counters: (table, column, key, label, integer?)
_SERIES = (
    ("memory", "allocated", "memory/allocated", "CUDA allocated (bytes)", True),
    ("memory", "reserved", "memory/reserved", "CUDA reserved (bytes)", True),
    ("memory", "rss", "memory/rss", "Process RSS (bytes)", True),
    ("system", "cpu_pct", "system/cpu", "Process CPU (% of a core)", False),
)
_GPU_SERIES = (
    ("util", "utilization (%)", False),
    ("mem_used", "memory used (bytes)", True),
    ("power_w", "power (W)", False),
)


def _collector_series(tables: RunTables, rank: int) -> list[tuple[str, str, Any, Any]]:
    """MemorySampler's and GpuTracker's samples of one rank as (key, label, t, value) series,
    on the rank's clock; samples without a value (null) are left out."""
    out = []

    def add(rows: pd.DataFrame, column: str, key: str, label: str, integer: bool) -> None:
        known = rows[rows[column].notna()].sort_values("t", kind="stable")
        if len(known):
            values = known[column].to_numpy(np.float64)
            out.append((key, label, known["t"].to_numpy(np.int64),
                        values.astype(np.int64) if integer else values))  # fmt: skip

    for table, column, key, label, integer in _SERIES:
        rows = getattr(tables, table)
        add(rows[rows["rank"] == rank], column, key, label, integer)
    gpus = tables.gpus[tables.gpus["rank"] == rank]
    for index in sorted(gpus["index"].unique().tolist()):
        for column, what, integer in _GPU_SERIES:
            rows = gpus[gpus["index"] == index]
            add(rows, column, f"gpu{index}/{column}", f"GPU {index} {what}", integer)
    return out
