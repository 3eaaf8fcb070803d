"""The run service: discovery, per-run table and timeline caches, and the views routes serve.

Thread-safe (TensorBoard's server is threaded). Starts no thread or process in its constructor:
the job pool and the ingest executor are created by the first request that needs them. Work
that may take long (reading a run, building its timeline) runs as a job; a request waits for it
briefly and otherwise answers with the job's progress (HTTP 202).
"""

from __future__ import annotations

import concurrent.futures
import itertools
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import numpy as np
import pandas as pd

from .analysis import memory_snapshot
from .analysis.breakdown import CATEGORIES
from .analysis.compute import (
    compile_events,
    compiled_frames,
    flops_inputs,
    rank_compile_summary,
    rank_compute_summary,
)
from .analysis.diff import RunFacts
from .analysis.diff import compare as diff_runs
from .analysis.findings import DEFAULT_THRESHOLDS
from .analysis.kernels import aggregate_kernels, bucket_means
from .analysis.memory import (
    SnapshotFacts,
    snapshot_facts,
)
from .analysis.modules import (
    PHASES,
    TOTAL,
    ModuleData,
    module_step_series,
    profiler_settings,
)
from .analysis.ncu import join_kernel_metrics
from .analysis.operators import aggregate_operators
from .analysis.python_profile import function_table
from .analysis.ranks import (
    RankMetric,
    rank_matrix,
)
from .answers import (
    MAX_SERIES_POINTS,
    heatmap_json,
    kernels_empty_reason,
    memory_empty_reason,
    memory_json,
    modules_empty_reason,
    name_totals,
    ncu_json,
    operators_empty_reason,
    python_empty_reason,
    python_rows,
    summary_json,
    system_json,
    tasks_empty_reason,
)
from .discovery import Run, discover_runs, file_version, now_ns
from .errors import ExecutorUnavailable, InvalidArgument, NotFound, TbPerfError, Unreadable
from .executor import LazyExecutor
from .ingest.cache import TraceCache
from .ingest.files import follow_links_from_env
from .ingest.python_profile import is_python_profile_name
from .ingest.readers import FileKind
from .ingest.snapshot import Snapshot, read_snapshot
from .ingest.tasks import read_task_summary
from .remote import RemoteMirror, is_remote, local_path
from .run_tables import (
    RunAnalysis,
    RunTables,
    TraceFile,
    analyze_run,
    build_timeline,
    clock_to_rank0,
    module_data,
    rank_steps,
    read_run,
)
from .timeline import MAX_WIDTH_PX, Timeline

logger = logging.getLogger(__name__)

DEFAULT_MAX_FILE_BYTES = int(float(os.environ.get("TB_PERF_MAX_FILE_MB", "4096")) * 1e6)
MAX_SEARCH_RESULTS = 1000
MAX_OPERATOR_ROWS = 1000
MAX_MODULE_ROWS = 5000
MAX_PYTHON_ROWS = 5000
PYTHON_FILE_KEYS = ("rank", "file", "total_ns", "calls", "primitive_calls")
# the python route's sort keys; numbers sort largest first, text A to Z
PYTHON_SORTS = ("self_ns", "cumulative_ns", "calls", "primitive_calls", "self_per_call_ns",
                "cumulative_per_call_ns", "function", "name", "filename")  # fmt: skip
MEMORY_KINDS = ("memory_leak", "fragmentation", "memory_peak")
CACHED_SNAPSHOTS = 4  # loaded snapshots kept (their tables take a few times the file's size)
SNAPSHOT_ROWS = 50  # rows of each list the snapshot route answers with
LARGEST_AT_PEAK = 10


class SnapshotCache:
    """The last few snapshots loaded, by path, size and modification time, so the viewer's
    tile and allocation requests do not load the pickle again."""

    def __init__(self, capacity: int = CACHED_SNAPSHOTS) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._loaded: OrderedDict[tuple, Snapshot] = OrderedDict()

    def get(self, path: str, max_bytes: int) -> Snapshot:
        """The snapshot at `path` (through the restricted unpickler; `errors.Unreadable` if it
        cannot be read), from the cache while the file is unchanged."""
        try:
            st = os.stat(path)
        except OSError as exc:
            raise Unreadable(f"{os.path.basename(path)}: {exc.strerror or exc}") from None
        key = (path, st.st_size, st.st_mtime_ns)
        with self._lock:
            if key in self._loaded:
                self._loaded.move_to_end(key)
                return self._loaded[key]
        snapshot = read_snapshot(path, max_bytes)
        with self._lock:
            self._loaded[key] = snapshot
            while len(self._loaded) > self.capacity:
                self._loaded.popitem(last=False)
        return snapshot


INLINE_WAIT = -1.0  # as a `wait_s` argument: the service's inline_wait_s; None waits until done


@dataclass
class Progress:
    """Answer of a route whose data is still being ingested (HTTP 202)."""

    done_bytes: int
    total_bytes: int

    def to_json(self) -> dict[str, Any]:
        fraction = self.done_bytes / self.total_bytes if self.total_bytes else 0.0
        return {
            "progress": {
                "done_bytes": self.done_bytes,
                "total_bytes": self.total_bytes,
                "fraction": round(min(fraction, 1.0), 4),
            }
        }


@dataclass
class _Job:
    signature: tuple
    total_bytes: int
    serial: int  # later jobs read newer versions of the run's files
    keep: bool = True  # whether the service keeps the result (else a cache of its own does)
    future: concurrent.futures.Future | None = None
    done_bytes: int = 0

    def advance(self, n: int) -> None:
        self.done_bytes += n


_INTEGER = re.compile(r"\s*-?[0-9]{1,19}\s*")  # ASCII digits, within int64's digits


def _integer(value: str | None) -> int | None:
    """`value` as an integer if it is one written in ASCII digits, else None (`str.isdigit`
    admits '²' and '٣', which `int` refuses or reads as digits nobody typed)."""
    return int(value) if value is not None and _INTEGER.fullmatch(value) else None


def _shown(value: str | None) -> str:
    """A parameter's value as error messages quote it: bounded, whatever the client sent."""
    if value is None:
        return "nothing"
    return repr(value if len(value) <= 80 else value[:80] + "...")


def _int_param(
    value: str | None, name: str, low: int | None = None, high: int | None = None
) -> int:
    number = _integer(value)
    if number is None:
        raise InvalidArgument(f"the {name!r} parameter must be an integer (got {_shown(value)})")
    if (low is not None and number < low) or (high is not None and number > high):
        raise InvalidArgument(f"{name}={number} is outside [{low}, {high}]")
    return number


def _rank_set(value: str | None, valid: list[int]) -> set[int] | None:
    if not value:
        return None
    ranks = set()
    for part in value.split(","):
        rank = _integer(part)
        if rank not in valid:
            raise InvalidArgument(f"rank {_shown(part)} is not a rank of this run (ranks: {valid})")
        ranks.add(rank)
    return ranks


class RunService:
    def __init__(
        self,
        logdir: str,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        discovery_ttl_s: float = 5.0,
        inline_wait_s: float = 0.5,
        executor: str | None = None,
        cache_dir: str | None = None,
        follow_links: bool | None = None,
    ) -> None:
        """`follow_links`: read links to files outside the logdir (default: only when
        TB_PERF_FOLLOW_LINKS=1; docs/RELIABILITY.md, threat model)."""
        self.logdir = logdir
        self.follow_links = follow_links_from_env() if follow_links is None else follow_links
        # a remote (fsspec URL) logdir is analysed through a local copy of its run files
        self.mirror = RemoteMirror(logdir) if is_remote(logdir) else None
        self._mirror_generation = -1  # of the mirror the runs were discovered in
        self.max_file_bytes = max_file_bytes
        self.discovery_ttl_s = discovery_ttl_s
        self.inline_wait_s = inline_wait_s
        self.cache_dir = cache_dir
        self.trace_cache = TraceCache(cache_dir)
        self._executor = LazyExecutor(executor)
        self._lock = threading.Lock()
        self._runs: dict[str, Run] = {}
        self._discovered_at = float("-inf")
        # (run, kind) -> (signature, result, job serial) of the newest version read
        self._results: dict[tuple[str, str], tuple[tuple, Any, int]] = {}
        self._jobs: dict[tuple[str, str], _Job] = {}
        self._serial = itertools.count()
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._file_reads: dict[str, Any] = {}  # last read of each record file
        self._snapshots = SnapshotCache()

    # --- discovery ---------------------------------------------------------------------------

    def discover(
        self, force: bool = False, *, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Run]:
        """The runs by name, found again every `discovery_ttl_s`. A remote logdir's mirror is
        brought up to date first, waiting for that up to `wait_s` seconds."""
        if self.mirror is not None:
            self.mirror.refresh(self._wait(wait_s))
            force = force or self.mirror.generation != self._mirror_generation
        with self._lock:
            if force or time.monotonic() - self._discovered_at > self.discovery_ttl_s:
                if self.mirror is not None:
                    self._mirror_generation = self.mirror.generation
                local = self.mirror.local_root if self.mirror else local_path(self.logdir)
                self._runs = discover_runs(local, self.follow_links)
                self._discovered_at = time.monotonic()
                for key in [k for k in self._results if k[0] not in self._runs]:
                    del self._results[key]
            return self._runs

    def has_runs(self) -> bool:
        return bool(self.discover(wait_s=0))  # asked on every plugin listing: never waits

    def runs(self) -> list[dict[str, Any]]:
        """The runs, with their ranks as their read tables tell where the service holds them
        (never read here), else as their files' names tell (docs/HTTP_API.md)."""
        now = now_ns()
        runs = sorted(self.discover().items())
        with self._lock:
            read = {key[0]: kept[1] for key, kept in self._results.items() if key[1] == "tables"}
        return [
            {"name": name, "ranks": _run_ranks(run, read[name]) if name in read else run.ranks,
             "sources": run.sources, "updated_ns": run.updated_ns, "status": run.status(now),
             "directory": run.directory, "job": run.job,
             "jobs": [{"id": job.id, "run": job.run, "started_unix_ns": job.started_unix_ns,
                       "ranks": list(job.ranks)} for job in run.jobs]}
            for name, run in runs
        ]  # fmt: skip

    def find_run(self, name: str | None) -> Run:
        if not name:
            raise InvalidArgument("the 'run' parameter is required")
        run = self.discover().get(name)
        if run is None or not os.path.isdir(run.path):  # new since, or removed since, discovery
            run = self.discover(force=True).get(name)
        if run is None:
            raise NotFound(f"no run named {_shown(name)} under the logdir")
        return run

    @staticmethod
    def parse_rank(valid: list[int], rank: str | None) -> int | None:
        if rank is None or rank == "":
            return None
        number = _integer(rank)
        if number not in valid:
            raise InvalidArgument(f"rank {_shown(rank)} is not a rank of this run (ranks: {valid})")
        return number

    # --- jobs --------------------------------------------------------------------------------

    def _result(
        self,
        run: Run,
        kind: str,
        signature: tuple,
        total_bytes: int,
        work: Callable[[_Job], Any],
        wait_s: float | None,
        keep: bool = True,
    ) -> Any:
        """The cached result of `work` for this run version, or the job's Progress. `keep`
        False leaves the result to a cache of the caller's (large snapshots)."""
        key = (run.name, kind)
        started = None
        with self._lock:
            cached = self._results.get(key)
            if cached is not None and cached[0] == signature:
                return cached[1]
            job = self._jobs.get(key)
            if job is None or job.signature != signature:
                if job is not None:
                    job.future.cancel()  # an older version's job, if not started: never needed
                job = self._jobs[key] = _Job(signature, total_bytes, next(self._serial), keep)
                started = job
                if self._pool is None:
                    self._pool = concurrent.futures.ThreadPoolExecutor(
                        max_workers=4, thread_name_prefix="tb_perf_job"
                    )
                job.future = self._pool.submit(work, job)
        if started is not None:  # outside the lock: a job already done calls back at once
            started.future.add_done_callback(lambda f: self._finished(key, started, f))
        while True:
            try:
                return job.future.result(timeout=wait_s)
            except concurrent.futures.TimeoutError:
                if cached is not None:  # a live run: the newest version read so far
                    return cached[1]
                return Progress(job.done_bytes, job.total_bytes)
            except concurrent.futures.CancelledError:  # superseded: the newer version answers
                with self._lock:
                    newer, cached = self._jobs.get(key), self._results.get(key)
                if newer is None:
                    return cached[1]
                job = newer

    def _finished(self, key: tuple[str, str], job: _Job, future: concurrent.futures.Future) -> None:
        """Keep a job's result when it is newer than the one kept, even if a newer job is
        under way: a run that changes faster than it is read still shows its newest version."""
        if future.cancelled():
            return
        if isinstance(future.exception(), ExecutorUnavailable):
            with self._lock:  # not the files' fault: the next request reconnects and retries
                if self._jobs.get(key) is job:
                    del self._jobs[key]
            self._executor.shutdown()
            return
        error = future.exception()
        if error is not None:  # stays listed: requests for its version get its error's text
            job.future = _error_only(error)
            return
        with self._lock:
            if self._jobs.get(key) is job:
                del self._jobs[key]
            kept = self._results.get(key)
            if job.keep and (kept is None or kept[2] < job.serial):
                self._results[key] = (job.signature, future.result(), job.serial)

    def tables(self, run: Run, wait_s: float | None = None) -> RunTables | Progress:
        """The run's tables, or the ingest progress if not ready within `wait_s` seconds."""
        signature = run.signature()
        total = sum(max(size, 0) for path, size, *_ in signature if not path.endswith(".meta.json"))

        def work(job: _Job) -> RunTables:
            self.trace_cache.writable()  # warns here, once, if parsed tables stay in memory
            return read_run(
                run,
                signature,
                max_file_bytes=self.max_file_bytes,
                executor=self._executor.get(),
                cache_dir=self.cache_dir,
                on_progress=job.advance,
                file_reads=self._file_reads,
            )

        return self._result(run, "tables", signature, total, work, wait_s)

    def _from_tables(
        self,
        run: Run,
        kind: str,
        build: Callable[[RunTables], Any],
        wait_s: float | None,
        extra_signature: tuple = (),
    ) -> Any:
        """`build(tables)` for this run version (and of the files in `extra_signature`), as a
        job after the tables' own, cached."""
        tables = self.tables(run, wait_s)
        if isinstance(tables, Progress):
            return tables
        signature = tables.signature + extra_signature  # of the version read (live: maybe older)
        total = sum(len(t.tables.slices["start"]) for t in tables.traces) + len(tables.spans)

        def work(job: _Job) -> Any:
            result = build(tables)
            job.advance(total)
            return result

        return self._result(run, kind, signature, total, work, wait_s)

    def timeline(self, run: Run, wait_s: float | None = None) -> Timeline | Progress:
        tables = self.tables(run, wait_s)
        if isinstance(tables, Progress):
            return tables
        if not len(tables.spans) and not any(len(t.tables.slices["start"]) for t in tables.traces):
            raise NotFound(f"run {run.name!r} has no trace events or MyTimer spans to draw")
        return self._from_tables(run, "timeline", build_timeline, wait_s)

    def _wait(self, wait_s: float | None) -> float | None:
        return self.inline_wait_s if wait_s == INLINE_WAIT else wait_s

    # --- views -------------------------------------------------------------------------------

    def summary(
        self, run_name: str | None, rank: str | None = None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        run = self.find_run(run_name)
        if rank and _integer(rank) is None:
            raise InvalidArgument(f"rank {_shown(rank)} is not an integer")
        tables = self.tables(run, self._wait(wait_s))
        if isinstance(tables, Progress):
            return tables
        ranks = _run_ranks(run, tables)
        selected = self.parse_rank(ranks, rank)
        extras = self._from_tables(run, "rank_compute", _rank_compute, self._wait(wait_s))
        if isinstance(extras, Progress):
            return extras
        return summary_json(run, tables, ranks, selected, extras)

    def analysis(self, run: Run, wait_s: float | None = None) -> RunAnalysis | Progress:
        """The run's analysis (breakdowns, operators, kernels, findings), computed once per
        version of its files and of the snapshots the memory findings read."""
        snapshots = _newest_snapshots(run)
        extra = tuple((p, *file_version(p)) for _, p in snapshots)

        def build(tables: RunTables) -> RunAnalysis:
            facts, problems = self._snapshot_facts(run, snapshots)
            return analyze_run(run, tables, facts, problems)

        return self._from_tables(run, "analysis", build, wait_s, extra)

    def _snapshot_facts(
        self, run: Run, snapshots: list[tuple[int | None, str]]
    ) -> tuple[list[SnapshotFacts], list[str]]:
        """What the memory findings use of each snapshot, and why a snapshot was skipped."""
        facts, problems = [], []
        for rank, path in snapshots:
            name = _relative(run, path)
            try:
                snap = self._snapshots.get(path, self.max_file_bytes)
                facts.append(snapshot_facts(
                    name, rank, memory_snapshot.snapshot_summary(snap),
                    lambda d, snap=snap: memory_snapshot.by_first_user_frame(snap, d),
                ))  # fmt: skip
            except TbPerfError as exc:  # messages name the file: say where it is
                folder = os.path.dirname(name)
                named = exc.message.startswith(os.path.basename(path))
                where = (f"{folder}/" if folder else "") if named else f"{name}: "
                problems.append(f"snapshot {where}{exc.message}")
        return facts, problems

    def _analysis_and_rank(
        self, run_name: str | None, rank: str | None, wait_s: float | None
    ) -> tuple[Run, RunAnalysis | Progress, int | None]:
        run = self.find_run(run_name)
        analysis = self.analysis(run, self._wait(wait_s))
        if isinstance(analysis, Progress):
            return run, analysis, None
        tables = self.tables(run, None)
        return run, analysis, self.parse_rank(_run_ranks(run, tables), rank)

    def findings(
        self, run_name: str | None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        """What slows the run down, most severe first (docs/FINDINGS.md)."""
        run = self.find_run(run_name)
        analysis = self.analysis(run, self._wait(wait_s))
        if isinstance(analysis, Progress):
            return analysis
        return {"run": run.name, "findings": [f.to_json() for f in analysis.findings]}

    def breakdown(
        self, run_name: str | None, rank: str | None = None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        """Each traced step's time partitioned by category, per rank (docs/ANALYSIS.md)."""
        run, analysis, selected = self._analysis_and_rank(run_name, rank, wait_s)
        if isinstance(analysis, Progress):
            return analysis
        steps = [b for b in analysis.breakdowns if selected is None or b.rank == selected]
        ranks = sorted({b.rank for b in steps})
        return {
            "run": run.name,
            "categories": list(CATEGORIES),
            "ranks": [
                {"rank": r, "steps": [b.to_json() for b in steps if b.rank == r]} for r in ranks
            ],
        }

    def operators(
        self,
        run_name: str | None,
        rank: str | None = None,
        group_by: str | None = None,
        limit: str | None = None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        """Per operator: calls, host and device self/total time (docs/ANALYSIS.md)."""
        if group_by not in (None, "", "name", "input_dims"):
            raise InvalidArgument(
                f"group_by must be 'name' or 'input_dims', not {_shown(group_by)}"
            )
        count = _int_param(limit, "limit", 1, MAX_OPERATOR_ROWS) if limit else MAX_OPERATOR_ROWS
        run, analysis, selected = self._analysis_and_rank(run_name, rank, wait_s)
        if isinstance(analysis, Progress):
            return analysis
        events = analysis.operator_events
        if selected is not None:
            events = events[events["rank"] == selected]
        table = aggregate_operators(events, by_input_dims=group_by == "input_dims")
        traces = len(_selected_traces(self.tables(run, None), selected))
        return {
            "run": run.name,
            "rank": selected,
            "group_by": "input_dims" if group_by == "input_dims" else "name",
            "total_rows": len(table),
            "rows": table.head(count).to_dict(orient="records"),
            "empty_reason": None if len(table) else operators_empty_reason(traces, selected),
        }

    def module_data(self, run: Run, wait_s: float | None = None) -> ModuleData | Progress:
        """The run's module calls (ModuleProfiler records, else traces), computed once."""
        return self._from_tables(run, "modules", module_data, wait_s)

    def _modules_and_rank(
        self, run_name: str | None, rank: str | None, wait_s: float | None
    ) -> tuple[Run, ModuleData | Progress, int | None, RunTables | None]:
        run = self.find_run(run_name)
        data = self.module_data(run, self._wait(wait_s))
        if isinstance(data, Progress):
            return run, data, None, None
        tables = self.tables(run, None)
        ranks = _run_ranks(run, tables)
        return run, data, self.parse_rank(ranks, rank), tables

    def modules(
        self, run_name: str | None, rank: str | None = None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        """Per nn.Module and phase: calls, time, its distribution and share of the step, from
        ModuleProfiler records, else from the run's traces (docs/ANALYSIS.md)."""
        run, data, selected, tables = self._modules_and_rank(run_name, rank, wait_s)
        if isinstance(data, Progress):
            return data
        view = data.view(selected)
        traces = len(_selected_traces(tables, selected))
        empty = None if view["rows"] else modules_empty_reason(data.source, traces, selected)
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
            "total_rows": len(view["rows"]),
            "rows": view["rows"][:MAX_MODULE_ROWS],
            "warnings": tables.module_warnings,
            "empty_reason": empty,
        }

    def module_steps(
        self,
        run_name: str | None,
        rank: str | None,
        path: str | None,
        phase: str | None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        """One module's time per step, per rank (docs/ANALYSIS.md)."""
        if path is None:
            raise InvalidArgument("the 'path' parameter is required")
        if phase not in (*PHASES, TOTAL):
            raise InvalidArgument(
                f"phase must be one of forward, backward, total, not {_shown(phase)}"
            )
        run, data, selected, _ = self._modules_and_rank(run_name, rank, wait_s)
        if isinstance(data, Progress):
            return data
        node = data.node(path)
        if node is None:
            raise NotFound(f"no module {_shown(path)} in run {run.name!r}")
        return {
            "run": run.name,
            "rank": selected,
            "path": path,
            "phase": phase,
            "source": data.source,
            "series": module_step_series(data, node, phase, selected, MAX_SERIES_POINTS),
            "shapes": data.shapes.get(node),
        }

    def kernels(
        self,
        run_name: str | None,
        rank: str | None = None,
        limit: str | None = None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        """Per kernel name statistics, and per trace and device GPU utilization and est. SM
        efficiency over time (docs/ANALYSIS.md)."""
        count = _int_param(limit, "limit", 1, MAX_OPERATOR_ROWS) if limit else MAX_OPERATOR_ROWS
        run, analysis, selected = self._analysis_and_rank(run_name, rank, wait_s)
        if isinstance(analysis, Progress):
            return analysis
        events = analysis.kernel_events
        if selected is not None:
            events = events[events["rank"] == selected]
        table = aggregate_kernels(events.drop(columns="rank"))
        devices = []
        for series in analysis.devices:
            if selected is not None and series.rank != selected:
                continue
            metrics = series.metrics
            edges = np.array([t for t, _ in metrics.utilization], dtype=np.int64)
            devices.append({
                "rank": series.rank,
                "trace": series.trace,
                "device": metrics.device,
                "bucket_ns": metrics.bucket_ns,
                "start_ns": [str(t) for t in edges.tolist()],
                "utilization": [round(u, 6) for _, u in metrics.utilization],
                "est_sm_efficiency": [
                    round(v, 6) for v in bucket_means(metrics.sm_efficiency, edges)
                ] + [0.0],
                "tensor_core_pct": round(metrics.tensor_core_pct, 3),
            })  # fmt: skip
        tables = self.tables(run, None)
        metrics = tables.kernel_metrics
        if selected is not None:
            metrics = metrics[metrics["rank"] == selected]
        ncu = None
        if len(metrics):
            table = join_kernel_metrics(table, metrics)
            ncu = ncu_json(table, metrics)
        traces = len(_selected_traces(tables, selected))
        return {
            "run": run.name,
            "rank": selected,
            "total_rows": len(table),
            "rows": table.head(count).replace({np.nan: None}).to_dict(orient="records"),
            "devices": devices,
            "ncu": ncu,
            "empty_reason": None if len(table) else kernels_empty_reason(traces, selected),
        }

    def tasks(self, run_name: str | None) -> dict[str, Any]:
        """profile_task's summaries of the run: per task type and rank, the traced invocations
        and the selected operators' statistics (docs/HTTP_API.md). Small files, read per call."""
        run = self.find_run(run_name)
        tasks, warnings = [], []
        for writer in run.writers:
            for path in writer.task_summaries:
                try:
                    summary = read_task_summary(path, self.max_file_bytes)
                except Unreadable as exc:
                    warnings.append(f"rank {writer.rank}: {exc.message}")
                    continue
                body = msgspec.structs.asdict(summary)
                for key in ("schema", "version", "prefix"):
                    body.pop(key)
                body["invocations"] = [msgspec.to_builtins(i) for i in summary.invocations]
                body["operators"] = [msgspec.to_builtins(o) for o in summary.operators]
                tasks.append({**body, "rank": writer.rank, "file": _relative(run, path)})
        tasks.sort(key=lambda task: (task["task_type"].lower(), task["rank"]))
        empty = None if tasks else tasks_empty_reason(bool(warnings))
        return {"run": run.name, "tasks": tasks, "warnings": warnings, "empty_reason": empty}

    def python(
        self,
        run_name: str | None,
        rank: str | None = None,
        sort: str | None = None,
        query: str | None = None,
        limit: str | None = None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        """Per Python function of the run's imported cProfile/pstats files: calls, self and
        cumulative time, per call and as a share of the profiles' total; the files' totals
        (docs/HTTP_API.md)."""
        if sort not in (None, "", *PYTHON_SORTS):
            raise InvalidArgument(
                f"sort must be one of {', '.join(PYTHON_SORTS)}, not {_shown(sort)}"
            )
        key = sort or "self_ns"
        count = _int_param(limit, "limit", 1, MAX_PYTHON_ROWS) if limit else MAX_OPERATOR_ROWS
        run = self.find_run(run_name)
        tables = self.tables(run, self._wait(wait_s))
        if isinstance(tables, Progress):
            return tables
        selected = self.parse_rank(_run_ranks(run, tables), rank)
        rows, files = tables.python_profiles, tables.python_profile_files
        if selected is not None:
            rows, files = rows[rows["rank"] == selected], files[files["rank"] == selected]
        total_ns = int(files["total_ns"].sum())
        every = function_table(rows, total_ns)
        table = every
        if query:
            table = table[table["function"].str.contains(query, case=False, regex=False)]
        numeric = key not in ("function", "name", "filename")
        table = table.sort_values(key, ascending=not numeric, kind="stable", na_position="last")
        warnings = _python_warnings(run, tables.warnings)
        empty = (
            None
            if len(table)
            else python_empty_reason(len(files), len(every), query, bool(warnings), selected)
        )
        return {
            "run": run.name,
            "rank": selected,
            "sort": key,
            "q": query or None,
            "total_ns": total_ns,
            "calls": int(files["calls"].sum()),
            "primitive_calls": int(files["primitive_calls"].sum()),
            "functions": len(every),
            "total_rows": len(table),
            "rows": python_rows(table.head(count)),
            "files": [
                {key: f[key] if key == "file" else int(f[key]) for key in PYTHON_FILE_KEYS}
                for f in files.sort_values(["rank", "file"]).to_dict(orient="records")
            ],
            "warnings": warnings,
            "empty_reason": empty,
        }

    def timeline_meta(
        self, run_name: str | None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        run = self.find_run(run_name)
        timeline = self.timeline(run, self._wait(wait_s))
        if isinstance(timeline, Progress):
            return timeline
        ranks = []
        for rank in sorted(timeline.alignments):
            ranks.append(
                {
                    "rank": rank,
                    "alignment": timeline.alignments[rank].to_json(),
                    "lanes": [lane.to_json() for lane in timeline.lanes if lane.rank == rank],
                }
            )
        return {
            "run": run.name,
            "origin_ns": str(timeline.origin_ns),
            "start": 0,
            "end": timeline.end,
            "ranks": ranks,
            "steps": timeline.steps_json(),
            "events": timeline.n_events,
        }

    def timeline_tiles(
        self,
        run_name: str | None,
        start: str | None,
        end: str | None,
        width_px: str | None,
        ranks: str | None = None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        run = self.find_run(run_name)
        first = _int_param(start, "start")
        last = _int_param(end, "end")
        width = _int_param(width_px, "width_px", 1, MAX_WIDTH_PX)
        if last <= first:
            raise InvalidArgument(f"end ({last}) must be greater than start ({first})")
        timeline = self.timeline(run, self._wait(wait_s))
        if isinstance(timeline, Progress):
            return timeline
        return timeline.tiles(first, last, width, _rank_set(ranks, sorted(timeline.alignments)))

    def timeline_event(
        self,
        run_name: str | None,
        rank: str | None,
        event_id: str | None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        run = self.find_run(run_name)
        identifier = _int_param(event_id, "id", 0)
        timeline = self.timeline(run, self._wait(wait_s))
        if isinstance(timeline, Progress):
            return timeline
        selected = self.parse_rank(sorted(timeline.alignments), rank)
        event = timeline.event(selected if selected is not None else -1, identifier)
        if event is None:
            raise NotFound(f"no event {identifier} on rank {rank} of run {run.name!r}")
        return event

    def timeline_search(
        self,
        run_name: str | None,
        text: str | None,
        limit: str | None = None,
        ranks: str | None = None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        run = self.find_run(run_name)
        if not text:
            raise InvalidArgument("the 'q' parameter is required")
        count = _int_param(limit, "limit", 1, MAX_SEARCH_RESULTS) if limit else 100
        timeline = self.timeline(run, self._wait(wait_s))
        if isinstance(timeline, Progress):
            return timeline
        return timeline.search(text, count, _rank_set(ranks, sorted(timeline.alignments)))

    def rank_heatmap(
        self, run_name: str | None, metric: str | None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        """A metric per rank and step (at most MAX_COLUMNS step columns), the outlier ranks
        with their steps, and the steps slow for everybody: the many-rank Overview
        (docs/HTTP_API.md)."""
        names = [m.value for m in RankMetric]
        if metric not in names:
            raise InvalidArgument(f"metric must be one of {', '.join(names)}, not {_shown(metric)}")
        chosen = RankMetric(metric)
        run = self.find_run(run_name)
        analysis = self.analysis(run, self._wait(wait_s))
        if isinstance(analysis, Progress):
            return analysis

        def build(tables: RunTables) -> dict[str, Any]:
            matrix = rank_matrix(
                chosen, tables.steps, tables.spans, analysis.breakdowns, tables.memory
            )
            return heatmap_json(run, matrix)

        return self._from_tables(run, f"rank_heatmap:{metric}", build, self._wait(wait_s))

    def memory(
        self, run_name: str | None, rank: str | None = None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        """Per rank, MemorySampler's series over steps and time, their trend, fragmentation and
        peak; the run's memory findings and its memory snapshots (docs/HTTP_API.md)."""
        run, analysis, selected = self._analysis_and_rank(run_name, rank, wait_s)
        if isinstance(analysis, Progress):
            return analysis
        tables = self.tables(run, None)
        memories = [m for r, m in sorted(analysis.memory.items()) if selected in (None, r)]
        shifted = {m.rank: clock_to_rank0(tables, m.rank)(m.t) for m in memories}
        origin = min((int(t[0]) for t in shifted.values() if len(t)), default=0)
        findings = [
            f.to_json()
            for f in analysis.findings
            if f.kind in MEMORY_KINDS and (selected is None or selected in f.ranks)
        ]
        leaking = {r for f in analysis.findings if f.kind == "memory_leak" for r in f.ranks}
        traced = sum(len(t.tables.memory["ts"]) for t in _selected_traces(tables, selected))
        return {
            "run": run.name,
            "rank": selected,
            "origin_ns": str(origin),
            "ranks": [
                memory_json(m, shifted[m.rank] - origin, m.rank in leaking) for m in memories
            ],
            "findings": findings,
            "snapshots": _snapshots_json(run, selected),
            "warnings": tables.memory_warnings + analysis.snapshot_warnings,
            "empty_reason": None if memories else memory_empty_reason(traced, selected),
        }

    def gpu(
        self, run_name: str | None, rank: str | None = None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        """Per rank, GpuTracker's samples over time (each GPU's utilization, memory, power,
        clock, temperature; the process's CPU and RSS) with the rank's step boundaries, or why
        there are no GPU samples (docs/HTTP_API.md)."""
        run = self.find_run(run_name)
        tables = self.tables(run, self._wait(wait_s))
        if isinstance(tables, Progress):
            return tables
        ranks = _run_ranks(run, tables)
        selected = self.parse_rank(ranks, rank)
        system, gpus = tables.system, tables.gpus
        shown = [r for r in sorted(system["rank"].unique().tolist()) if selected in (None, r)]
        to_rank0 = {r: clock_to_rank0(tables, r) for r in shown}
        starts = [int(to_rank0[r](system["t"][system["rank"] == r].to_numpy(np.int64)).min())
                  for r in shown]  # fmt: skip
        origin = min(starts, default=0)
        answers = [
            system_json(
                r, system[system["rank"] == r], gpus[gpus["rank"] == r],
                tables.steps[tables.steps["rank"] == r], tables.rank_meta.get(r),
                to_rank0[r], origin,
            )
            for r in shown
        ]  # fmt: skip
        reason = None
        if not any(answer["devices"] for answer in answers):
            by_reason: dict[str, list[int]] = {}
            for answer in answers:
                if answer["gpu_reason"]:
                    by_reason.setdefault(answer["gpu_reason"], []).append(answer["rank"])
            reasons = [f"{_ranks_text(ranks)}: {why}" for why, ranks in by_reason.items()]
            reason = "; ".join(reasons) or (
                "no GpuTracker records in this run (collectors.GpuTracker did not run)"
                if not answers
                else "GpuTracker recorded no GPU"
            )
        return {
            "run": run.name,
            "rank": selected,
            "origin_ns": str(origin),
            "gpu_reason": reason,
            "ranks": answers,
            "warnings": tables.memory_warnings,
        }

    def _snapshot(
        self, run_name: str | None, file: str | None, wait_s: float | None
    ) -> tuple[Run, str, Snapshot | Progress]:
        """The run's snapshot named `file` (its path relative to the run, as the memory route
        lists it; looked up among the discovered files, never joined into a path), loaded
        as a job: a large pickle answers with progress first."""
        run = self.find_run(run_name)
        if not file:
            raise InvalidArgument("the 'file' parameter is required")
        path = next((p for p in run.snapshots if _relative(run, p) == file), None)
        if path is None:
            raise NotFound(f"no memory snapshot {_shown(file)} in run {run.name!r}")
        version = file_version(path)
        result = self._result(
            run, f"snapshot:{file}", (path, *version), max(version[0], 0),
            lambda job: self._snapshots.get(path, self.max_file_bytes), self._wait(wait_s),
            keep=False,  # the snapshot cache keeps it (and lets it go)
        )  # fmt: skip
        return run, path, result

    def snapshot(
        self, run_name: str | None, file: str | None, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Any] | Progress:
        """A memory snapshot's summary, its largest allocations at the peak, its bytes by first
        user frame and its most fragmented segments (docs/HTTP_API.md)."""
        run, path, snap = self._snapshot(run_name, file, wait_s)
        if isinstance(snap, Progress):
            return snap
        summary = memory_snapshot.snapshot_summary(snap)
        origin = summary["time"]["start"] if summary["time"] else 0
        devices = []
        share = memory_snapshot.SNAPSHOT_BYTES // (2 * max(len(summary["devices"]), 1))
        for device in summary["devices"]:
            index = device["device"]
            frames = memory_snapshot.by_first_user_frame(snap, index)
            largest = memory_snapshot.largest_at_peak(snap, index, LARGEST_AT_PEAK)
            devices.append({
                **_relative_times(device, origin),
                "largest_at_peak": memory_snapshot.fit(
                    [_relative_allocation(a, origin) for a in largest], share),
                "by_first_user_frame": memory_snapshot.fit(frames[:SNAPSHOT_ROWS], share),
                "frames_total": len(frames),
            })  # fmt: skip
        segments = memory_snapshot.fragmentation(snap)
        return {
            **_relative_times({k: v for k, v in summary.items() if k != "devices"}, origin),
            "run": run.name,
            "file": _relative(run, path),  # the summary's is the file's name
            "rank": run.snapshot_rank(path),
            "origin_ns": str(origin),
            "devices": devices,
            "free_segments": segments[:SNAPSHOT_ROWS],
            "free_segments_total": len(segments),
        }

    def snapshot_tile(
        self,
        run_name: str | None,
        file: str | None,
        device: str | None,
        start: str | None,
        end: str | None,
        width_px: str | None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        """The snapshot viewer's stacked live allocations for a window (times relative to the
        snapshot route's `origin_ns`), at most 1 MB of JSON: the timeline's tile protocol
        (`start`, `end`, `width_px` in; docs/HTTP_API.md)."""
        first, last = _int_param(start, "start"), _int_param(end, "end")
        pixels = _int_param(width_px, "width_px", 1, memory_snapshot.MAX_WIDTH_PX)
        if last <= first:
            raise InvalidArgument(f"end ({last}) must be greater than start ({first})")
        _, _, snap = self._snapshot(run_name, file, wait_s)
        if isinstance(snap, Progress):
            return snap
        index = _snapshot_device(snap, device)
        origin = _snapshot_origin(snap)
        tile = memory_snapshot.snapshot_tile(snap, index, first + origin, last + origin, pixels)
        bands = tile["bands"]
        bands["start"] = [t - origin for t in bands["start"]]
        bands["end"] = [t - origin for t in bands["end"]]
        window = {key: value for key, value in tile.items() if key not in ("t0", "t1")}
        return {**window, "start": first, "end": last}

    def snapshot_allocation(
        self,
        run_name: str | None,
        file: str | None,
        device: str | None,
        index: str | None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        """One allocation of the snapshot (a tile band's `id`): size, lifetime, stacks."""
        number = _int_param(index, "index", 0)
        _, _, snap = self._snapshot(run_name, file, wait_s)
        if isinstance(snap, Progress):
            return snap
        details = memory_snapshot.allocation_details(snap, _snapshot_device(snap, device), number)
        return _relative_allocation(details, _snapshot_origin(snap))

    def compare(
        self,
        baseline: str | None,
        candidate: str | None,
        wait_s: float | None = INLINE_WAIT,
    ) -> dict[str, Any] | Progress:
        """Candidate against baseline: step-time verdict and every view's deltas
        (docs/DIFF.md), computed once per pair of run versions."""
        if not baseline or not candidate:
            raise InvalidArgument("the 'baseline' and 'candidate' parameters are required")
        runs = (self.find_run(baseline), self.find_run(candidate))
        wait = self._wait(wait_s)
        # both runs' own results first, each step started for both before waiting on either
        # (the two runs are read and analysed side by side); the pair's job then only diffs
        for run in runs:
            self.tables(run, 0.0)
        for run in runs:
            if isinstance(ready := self.tables(run, wait), Progress):
                return ready
        for run in runs:
            self._facts_ready(run, 0.0)
        for run in runs:
            if isinstance(ready := self._facts_ready(run, wait), Progress):
                return ready
        signature = runs[0].signature() + (None,) + runs[1].signature()
        return self._result(
            runs[0], f"compare:{runs[1].name}", signature, 1,
            lambda job: diff_runs(self._run_facts(runs[0]), self._run_facts(runs[1])), wait,
        )  # fmt: skip

    def facts(self, run_name: str | None, wait_s: float | None = None) -> RunFacts | Progress:
        """What the diff reads of one run (`tb-perf diff` pairs runs of two services)."""
        run = self.find_run(run_name)
        if isinstance(ready := self._facts_ready(run, self._wait(wait_s)), Progress):
            return ready
        return self._run_facts(run)

    def _facts_ready(self, run: Run, wait_s: float | None) -> Progress | None:
        for ready in (self.analysis(run, wait_s), self.module_data(run, wait_s)):
            if isinstance(ready, Progress):
                return ready
        return None

    def _run_facts(self, run: Run) -> RunFacts:
        """What the diff reads of a run, from its cached results and route answers."""
        tables, analysis = self.tables(run, None), self.analysis(run, None)
        step_times = {}
        for rank in tables.ranks:
            traces = [t for t in tables.traces if t.rank == rank]
            step_times[rank] = {s: b - a for s, (a, b) in rank_steps(tables, rank, traces).items()}
        stepped = [b for b in analysis.breakdowns if b.step is not None]
        facts = RunFacts(run.name, step_times, traced_steps=float(max(len(stepped), 1)))
        if stepped:
            facts.category_source = "breakdown"
            facts.categories = {c: sum(b.ns[c] for b in stepped) / len(stepped) for c in CATEGORIES}
        elif not tables.spans.empty:
            facts.category_source = "spans"
            facts.categories = _top_span_means(tables.spans)
        facts.operators = name_totals(analysis.operator_events)  # host total time
        facts.kernels = name_totals(analysis.kernel_events)  # device time
        modules = self.modules(run.name, wait_s=None)
        facts.module_steps = float(max(sum(s["steps"] for s in modules["steps"]), 1))
        facts.modules = [
            {"path": row["path"], "phase": phase, "total_ns": row[phase]["total_ns"]}
            for row in modules["rows"]
            for phase in PHASES
            if row.get(phase)
        ]
        memory = self.memory(run.name, wait_s=None)["ranks"]
        peaks = [m["max_peak"]["bytes"] for m in memory if m["max_peak"]]
        reserved = [v for m in memory for v in m["reserved"] or [] if v is not None]
        slopes = [m["trend"]["slope"] for m in memory if m["trend"]]
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
        return facts

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._executor.shutdown()


def _error_only(error: BaseException) -> concurrent.futures.Future:
    """A settled future holding `error`'s type and text only: the error itself keeps its
    traceback, whose frames keep the job's data (a bomb's objects) alive. Errors that are not
    the files' are logged here, with that traceback, before it goes."""
    if isinstance(error, TbPerfError):
        text_only: BaseException = type(error)(error.message)
    else:
        logger.error("tb_perf: a job failed", exc_info=error)
        text_only = TbPerfError(f"internal error ({type(error).__name__}); see the TensorBoard log")
    future: concurrent.futures.Future = concurrent.futures.Future()
    future.set_exception(text_only)
    return future


def _run_ranks(run: Run, tables: RunTables) -> list[int]:
    """The run's ranks once its tables are read: a trace's own (its distributedInfo, say: the
    timeline's), not its file name's, so every view agrees (a name's rank only for files new
    since the read)."""
    return run.ranks_after_reading({entry[0] for entry in tables.signature}, tables.ranks)


def _selected_traces(tables: RunTables, selected: int | None) -> list[TraceFile]:
    """The traces read of the selected rank (all without one)."""
    return [t for t in tables.traces if selected is None or t.rank == selected]


def _python_warnings(run: Run, warnings: list[str]) -> list[str]:
    """The run's warnings about its cProfile/pstats files (unreadable, refused, in progress)."""
    names = [os.path.basename(f.path) for f in run.imported
             if f.kind is FileKind.PSTATS or is_python_profile_name(f.path)]  # fmt: skip
    return [w for w in warnings if any(name in w for name in names)]


def _ranks_text(ranks: list[int]) -> str:
    """`rank 3`, or `ranks 0-3, 7`: sorted ranks with runs of consecutive ones as ranges."""
    runs: list[list[int]] = []
    for rank in sorted(ranks):
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    return ("rank " if len(ranks) == 1 else "ranks ") + ", ".join(parts)


def _top_span_means(spans: pd.DataFrame) -> dict[str, float]:
    """Per name of MyTimer's top-level spans (no parent in the same writer), its time per
    step: the categories of a run without traces."""
    ids = set(zip(spans["writer"], spans["id"], strict=True))
    top = [(w, p) not in ids for w, p in zip(spans["writer"], spans["parent"], strict=True)]
    spans = spans[np.array(top, dtype=bool)]
    per_step = len(spans[["rank", "step"]].drop_duplicates()) or 1
    totals = (spans["t1"] - spans["t0"]).groupby(spans["name"]).sum()
    return {str(name): float(ns) / per_step for name, ns in totals.items()}


def _relative(run: Run, path: str) -> str:
    return os.path.relpath(path, run.path).replace(os.sep, "/")


def _newest_snapshots(run: Run) -> list[tuple[int | None, str]]:
    """(rank, path) of the newest snapshot of each rank (of no known rank: one more)."""
    newest: dict[int | None, tuple[int, str]] = {}
    for path in run.snapshots:
        rank, mtime = run.snapshot_rank(path), file_version(path)[1]
        if rank not in newest or mtime > newest[rank][0]:
            newest[rank] = (mtime, path)
    return [(rank, path) for rank, (_, path) in newest.items()]


def _snapshot_origin(snap: Snapshot) -> int:
    """Where the snapshot's times start (its trace's first time; 0 without a trace): times in
    the snapshot routes are relative to it (Unix ns exceed JavaScript's exact integers)."""
    times = [d["time"]["start"] for d in memory_snapshot.snapshot_summary(snap)["devices"]
             if d["time"]]  # fmt: skip
    return min(times, default=0)


def _snapshot_device(snap: Snapshot, device: str | None) -> int:
    number = _int_param(device, "device")
    if number not in snap.devices:
        raise InvalidArgument(f"device {number} is not in this snapshot (devices: {snap.devices})")
    return number


_TIME_KEYS = ("start", "end", "t_ns", "t_alloc", "t_free", "t_free_requested")


def _relative_times(value: Any, origin: int) -> Any:
    """A copy of a summary with its times relative to `origin`."""
    if isinstance(value, dict):
        return {
            k: (
                v - origin if k in _TIME_KEYS and isinstance(v, int) else _relative_times(v, origin)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_relative_times(v, origin) for v in value]
    return value


def _relative_allocation(allocation: dict[str, Any], origin: int) -> dict[str, Any]:
    """An allocation with times relative to `origin` (frames and sizes as they are)."""
    return {
        k: v - origin if k in _TIME_KEYS and isinstance(v, int) else v
        for k, v in allocation.items()
    }


def _snapshots_json(run: Run, selected: int | None) -> list[dict[str, Any]]:
    """The run's snapshot files (of the selected rank, and those of no known rank)."""
    out = []
    for path in run.snapshots:
        rank = run.snapshot_rank(path)
        if selected is not None and rank not in (None, selected):
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append({"file": _relative(run, path), "rank": rank, "bytes": st.st_size,
                    "updated_ns": st.st_mtime_ns})  # fmt: skip
    return out


def _phases(data: ModuleData) -> list[str]:
    """The phases the data has: forward, and backward with its total where recorded."""
    if data.calls.empty:
        return []
    if (data.calls["phase"] == 1).any():
        return [*PHASES, TOTAL]
    return [PHASES[0]]


def _rank_compute(tables: RunTables) -> dict[int, dict[str, Any]]:
    """Per rank, FlopsCounter's MFU and torch.compile's activity (the summary's `compute` and
    `compile`): computed once per version of the run's tables."""
    flops = flops_inputs(tables.rank_meta)
    out = {}
    for rank in tables.ranks:
        traces = [t for t in tables.traces if t.rank == rank]
        step_windows = pd.DataFrame(
            [(s, a, b) for s, (a, b) in sorted(rank_steps(tables, rank, traces).items())],
            columns=["step", "t0", "t1"],
        )
        events = [compile_events(t.tables) for t in traces]
        frames = compiled_frames(pd.concat(events)) if events else pd.DataFrame()
        out[rank] = {
            "compute": rank_compute_summary(
                step_windows, flops, rank, DEFAULT_THRESHOLDS.warmup_steps
            ),
            "compile": rank_compile_summary(tables.compile[tables.compile["rank"] == rank], frames),
        }
    return out


__all__ = ["Progress", "RunService", "RunTables", "TbPerfError"]
