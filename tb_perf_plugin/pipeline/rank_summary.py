"""One rank's share of a run's analysis (`RankSummary`), computed where its traces are: a
worker of the executor, which maps the rank's parsed tables from the trace cache, or this
process. The run's analysis merges the summaries (`pipeline/analyze.py`, on a worker too), so
the serving process never walks every rank's events nor holds every rank's summary: the
transient memory of each rank's pass, and of the merge, stays in the workers.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import pickle
import re
import tempfile
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..analysis.breakdown import Intervals, StepBreakdown, activity, breakdown, trace_spans
from ..analysis.collectives import collective_calls, collective_rows
from ..analysis.compute import compile_events, compiled_frames
from ..analysis.device_steps import device_windows
from ..analysis.gpu_summary import GpuSummary, rank_gpu_summary
from ..analysis.host_calls import SYNC_CLASSES, host_call_classes
from ..analysis.kernels import DeviceMetrics, device_metrics, kernel_rows, trace_kernels
from ..analysis.memory import RankMemory
from ..analysis.operators import (
    merge_operator_rows,
    named_operator_events,
    operator_rows,
    unattributed_device_ns,
)
from ..analysis.trace_memory import trace_rank_memory
from ..errors import OverLimit
from ..executor import shares_store, submitted_ahead
from ..ingest.cache import DEFAULT_MAX_FILE_BYTES, TraceCache
from ..ingest.readers import FileKind
from ..ingest.tables import Kind
from ..ingest.url_store import UrlStore, is_url
from .read import RunTables, TraceFile
from .steps import steps_or_profiler_steps, timer_steps

logger = logging.getLogger(__name__)

# Below this many ranks with traces a run's per-rank work (its analysis, its timeline) is done
# in this process: a few ranks' shares are small, and the worker processes cost more than they
# save (a cold `tb-perf analyze` of the 4-rank demo run: 1.15 s through the workers, 0.80 s
# here).
MIN_RANKS_ON_WORKERS = 16

MIN_TRACED_FRACTION = 0.9  # a step is broken down when a trace covers this much of it


@dataclass
class DeviceSeries:
    """GPU metrics of one device in one trace file."""

    rank: int
    trace: str  # path relative to the run
    metrics: DeviceMetrics


@dataclass
class RankSummary:
    """What one rank's traces give the run's analysis: sums per rank (never its events)."""

    rank: int
    steps: dict[int, tuple[int, int]]  # MyTimer's, else ProfilerStep#N (`rank_steps`)
    breakdowns: list[StepBreakdown]
    trace_spans: list[tuple[str, list[tuple[int, int]]]]  # each trace's path and its span
    profiler_boundary_steps: set[int]  # steps `profile_steps` made slower
    operator_rows: pd.DataFrame  # operator_rows + rank
    operators: pd.DataFrame  # merge_operator_rows of them
    kernel_rows: pd.DataFrame  # kernel_rows + rank
    collective_rows: pd.DataFrame  # collective_rows + rank
    devices: list[DeviceSeries]
    gpus: list[GpuSummary]  # per device, over the breakdowns' windows
    host_calls: dict[tuple, dict[str, int]]  # (rank, step) -> `rank_host_calls`
    trace_memory: RankMemory | None  # its traces' memory events over its steps
    step_rows: list[tuple[int, int, int, str, int, int]]  # analyze.STEP_COLUMNS but the rank
    process: tuple[str | None, int | None]  # a trace-only rank's host and pid
    compiled_frames: pd.DataFrame  # torch.compile's frames in its traces (compiled_frames)
    unattributed_device: tuple[int, int]  # `unattributed_device_ns` summed over its traces


def rank_breakdowns(
    rank: int, traces: list[TraceFile], steps: dict[int, tuple[int, int]]
) -> list[StepBreakdown]:
    """The breakdown of every step a trace covers (at least MIN_TRACED_FRACTION of it; the
    window is then what the trace covers); a rank's trace without steps is broken down whole."""
    if not traces:
        return []
    spans = trace_spans([t.tables for t in traces])
    windows: list[tuple[int | None, int, int]] = []
    for step, (a, b) in sorted(steps.items()):
        for first, last in spans:
            start, end = max(a, first), min(b, last)
            if end > start and end - start >= MIN_TRACED_FRACTION * (b - a):
                windows.append((step, start, end))
                break
    if not windows:
        windows = [(None, first, last) for first, last in spans]
    return breakdown(rank, activity([t.tables for t in traces]), windows)


def rank_host_calls(
    rank: int, traces: list[TraceFile], breakdowns: list[StepBreakdown]
) -> dict[tuple, dict[str, int]]:
    """(rank, step) -> time in each class of runtime call within the rank's broken-down steps
    (analysis/host_calls; each class's calls as a union), and under "sync" the union of the
    three waiting classes."""
    out: dict[tuple, dict[str, int]] = {}
    if not breakdowns:
        return out
    parts: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for trace in traces:
        shift = trace.tables.meta.to_collectors_ns
        for name, (start, end) in host_call_classes(trace.tables).items():
            parts.setdefault(name, []).append((start + shift, end + shift))
    parts["sync"] = [p for name in SYNC_CLASSES for p in parts.get(name, [])]
    a = np.array([b.start_ns for b in breakdowns], dtype=np.int64)
    b_end = a + np.array([b.duration_ns for b in breakdowns], dtype=np.int64)
    for name, pieces in parts.items():
        starts = np.concatenate([p[0] for p in pieces]) if pieces else np.zeros(0, np.int64)
        ends = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, np.int64)
        within = Intervals.union(starts, ends).measure_within(a, b_end)
        for step, ns in zip(breakdowns, within, strict=True):
            out.setdefault((rank, step.step), {})[name] = int(ns)
    return out


def summarize_rank(
    run_path: str, rank: int, traces: list[TraceFile], timer: dict[int, tuple[int, int]]
) -> RankSummary:
    """The rank's summary from its traces (in run order, at least one) and its MyTimer steps
    (`timer`)."""
    steps = steps_or_profiler_steps(timer, traces)
    breakdowns = rank_breakdowns(rank, traces, steps)
    rows = operator_rows(named_operator_events([t.tables for t in traces]))
    kernels, calls, devices = [], [], []
    for trace in traces:
        kernels.append(trace_kernels(trace.tables))
        calls.append(collective_calls(trace.tables))
        devices += [
            DeviceSeries(rank, os.path.relpath(trace.path, run_path), metrics)
            for metrics in device_metrics(trace.tables, kernels[-1])
        ]
    memory = (
        trace_rank_memory(rank, [t.tables for t in traces], steps)
        if any(len(t.tables.memory["ts"]) for t in traces)
        else None
    )
    return RankSummary(
        rank=rank,
        steps=steps,
        breakdowns=breakdowns,
        trace_spans=[(t.path, trace_spans([t.tables])) for t in traces],
        profiler_boundary_steps=_profiler_boundary_steps(traces),
        operator_rows=rows.assign(rank=rank),
        operators=merge_operator_rows(rows),
        kernel_rows=kernel_rows(pd.concat(kernels, ignore_index=True)).assign(rank=rank),
        collective_rows=collective_rows(pd.concat(calls, ignore_index=True)).assign(rank=rank),
        devices=devices,
        gpus=rank_gpu_summary(
            rank,
            [t.tables for t in traces],
            [(b.start_ns, b.start_ns + b.duration_ns) for b in breakdowns],
        ),  # fmt: skip
        host_calls=rank_host_calls(rank, traces, breakdowns),
        trace_memory=memory,
        step_rows=_step_rows(timer, steps, traces),
        process=traced_process(traces),
        compiled_frames=compiled_frames(pd.concat([compile_events(t.tables) for t in traces])),
        unattributed_device=_summed(unattributed_device_ns(t.tables) for t in traces),
    )


def _summed(pairs: Iterator[tuple[int, int]]) -> tuple[int, int]:
    missing = total = 0
    for a, b in pairs:
        missing, total = missing + a, total + b
    return missing, total


def _step_rows(
    timer: dict[int, tuple[int, int]],
    steps: dict[int, tuple[int, int]],
    traces: list[TraceFile],
) -> list[tuple[int, int, int, str, int, int]]:
    """The rank's completed steps in time order: MyTimer's (source "MyTimer"), else the
    `ProfilerStep#N` windows of its traces ("ProfilerStep", with the device extent of each:
    analysis/device_steps.py), so a run of torch.profiler traces alone has steps."""
    windows = sorted(steps.items(), key=lambda item: item[1])
    starts = np.array([a for _, (a, _) in windows], np.int64)
    ends = np.array([b for _, (_, b) in windows], np.int64)
    if not timer:
        starts, ends = device_windows([t.tables for t in traces], starts, ends)
    source = "MyTimer" if timer else "ProfilerStep"
    return [(s, a, b, source, int(d0), int(d1))
            for (s, (a, b)), d0, d1 in zip(windows, starts, ends, strict=True)]  # fmt: skip


_HANDLER_FILE = re.compile(r"^(?P<host>.+)_(?P<pid>\d+)\.\d+\.pt\.trace\.json(\.gz)?$")


def traced_process(traces: list[TraceFile]) -> tuple[str | None, int | None]:
    """A trace-only rank's host and pid: the pid of its traces' host events, and the host
    from the file name tensorboard_trace_handler gives by default
    (`<hostname>_<pid>.<ms>.pt.trace.json`) when its pid is that pid (Kineto traces carry no
    host name of their own)."""
    for trace in traces:
        slices = trace.tables.slices
        host_rows = np.isin(np.asarray(slices["kind"]), (Kind.CPU_OP, Kind.USER_ANNOTATION))
        pids = np.asarray(slices["pid"])[host_rows]
        if not len(pids):
            continue
        values, counts = np.unique(pids, return_counts=True)
        pid = int(values[np.argmax(counts)])
        named = _HANDLER_FILE.match(os.path.basename(trace.path))
        return (named.group("host") if named and int(named.group("pid")) == pid else None), pid
    return None, None


TraceRef = tuple[str, str, str]  # a trace's path, rank source and kind: how a worker opens it


def trace_refs(traces: list[TraceFile]) -> list[TraceRef]:
    return [(t.path, t.rank_source, t.kind.value) for t in traces]


def opened(
    cache: TraceCache, rank: int, refs: list[TraceRef], max_file_bytes: int
) -> list[TraceFile]:
    """The rank's traces as the trace cache keeps them, opened on use (read again on a miss:
    evicted meanwhile)."""
    return [
        TraceFile(path, rank, source, cache.held(path, FileKind(kind), max_file_bytes),
                  FileKind(kind))
        for path, source, kind in refs
    ]  # fmt: skip


SUMMARIES = "summaries"  # the folder of the store the workers hand the ranks' summaries over in
STALE_SUMMARY_S = 24 * 3600  # a hand-off file this old was left by a process that died


def stored_rank_summary(
    location: str,
    max_file_bytes: int,
    run_path: str,
    rank: int,
    refs: list[TraceRef],
    timer: dict[int, tuple[int, int]],
) -> str:
    """On a worker: the rank's summary from its cached traces and MyTimer steps, pickled and
    deflated into a file of the store at `location` (`SUMMARIES`); where (a path, or a URL
    in a URL store). The serving process passes where to the worker that merges the run's
    summaries (`analyze.analyze_stored`): the ranks' summaries never reach it, as bytes or as
    objects (17 kB a rank of the scale benchmark's run, held until the merge and copied to it
    once)."""
    cache = TraceCache(location)
    traces = opened(cache, rank, refs, max_file_bytes)
    try:
        summary = summarize_rank(run_path, rank, traces, timer)
    finally:  # the worker's next task is another rank's: it holds one rank's pages at a time
        for trace in traces:
            trace.release_pages()
    data = zlib.compress(pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL), 1)
    if cache.url_store is not None:
        return cache.url_store.put_file(SUMMARIES, f"rank{rank}.{uuid.uuid4().hex}.summary", data)
    folder = os.path.join(location, SUMMARIES)
    os.makedirs(folder, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        dir=folder, prefix=f"rank{rank}.", suffix=".summary", delete=False
    ) as out:
        out.write(data)
    return out.name


def taken_summary(location: str, where: str) -> RankSummary:
    """The summary `stored_rank_summary` wrote `where` in the store at `location` (our own
    worker's: trusted), its file removed."""
    if is_url(location):
        data = UrlStore.at(location).take_file(where)
    else:
        with open(where, "rb") as file:
            data = file.read()
        os.remove(where)
    summary = pickle.loads(zlib.decompress(data))
    if not isinstance(summary, RankSummary):
        raise TypeError(f"not a rank summary: {type(summary).__name__}")
    return summary


def stored_summaries(
    run_path: str,
    tables: RunTables,
    executor: concurrent.futures.Executor,
    location: str,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> dict[int, str]:
    """Each rank with traces' summary file (`stored_rank_summary`), one task per rank on
    `executor`, a window of ranks ahead (`submitted_ahead`; its tasks map the traces from the
    trace cache at `location`); a rank whose task failed (its worker lost, say) is left out,
    for the merge to compute. Hand-off files a dead process left are removed first."""
    _remove_stale(location)
    ranks = list(ranks_with_traces(tables))
    futures = submitted_ahead(executor, (
        (stored_rank_summary, (location, max_file_bytes, run_path, rank, trace_refs(traces),
                               timer_steps(tables, rank)))
        for rank, traces in ranks
    ))  # fmt: skip
    stored = {}
    for (rank, _), future in zip(ranks, futures, strict=True):
        try:
            stored[rank] = future.result()
        except OverLimit:  # the merge would spend its own limit on it again
            raise
        except Exception as exc:  # the merge computes it again: a bug of ours raises there
            logger.warning("tb_perf: rank %d's summary task failed (%s)", rank, exc)
    return stored


def _remove_stale(location: str) -> None:
    if is_url(location):
        UrlStore.at(location).remove_older(SUMMARIES, STALE_SUMMARY_S)
        return
    folder = os.path.join(location, SUMMARIES)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    old = time.time() - STALE_SUMMARY_S
    for name in names:
        path = os.path.join(folder, name)
        with contextlib.suppress(OSError):
            if os.stat(path).st_mtime < old:
                os.remove(path)


def rank_summaries(run_path: str, tables: RunTables) -> Iterator[RankSummary]:
    """Every rank with traces' summary, in rank order, computed in this process one rank at a
    time (the pages each rank's traces read dropped after it)."""
    for rank, traces in ranks_with_traces(tables):
        try:
            yield summarize_rank(run_path, rank, traces, timer_steps(tables, rank))
        finally:
            for trace in traces:
                trace.release_pages()


def on_workers(tables: RunTables, executor: concurrent.futures.Executor, cache: TraceCache) -> bool:
    """Whether the run's per-rank work goes to `executor`'s workers: it has enough ranks with
    traces, the workers write the store this process reads (a local pool; Dask on the store)
    and the store can be written."""
    ranks = sum(1 for _ in ranks_with_traces(tables))
    return (
        ranks >= MIN_RANKS_ON_WORKERS
        and shares_store(executor, cache.location)
        and cache.writable()
    )


def ranks_with_traces(tables: RunTables) -> Iterator[tuple[int, list[TraceFile]]]:
    """Each rank that has traces, in rank order, with its traces in the run's order."""
    by_rank: dict[int, list[TraceFile]] = {}
    for trace in tables.traces:
        by_rank.setdefault(trace.rank, []).append(trace)
    return iter(sorted(by_rank.items()))


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
