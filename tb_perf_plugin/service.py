"""The run service: discovery, per-run table cache and the summaries the routes serve.

Thread-safe (TensorBoard's server is threaded). Starts no thread in its constructor: the worker
pool for ingest jobs is created on the first request that needs one.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .analysis.spans import percent, span_table
from .analysis.steps import step_series, step_time_stats
from .discovery import Run, discover_runs, now_ns
from .errors import InvalidArgument, NotFound, TbPerfError, Unreadable
from .ingest.timer import SPAN_COLUMNS, STEP_COLUMNS, read_timer_file

logger = logging.getLogger(__name__)

DEFAULT_MAX_FILE_BYTES = int(float(os.environ.get("TB_PERF_MAX_FILE_MB", "2048")) * 1e6)
MAX_SERIES_POINTS = 2000
MAX_SPAN_ROWS = 500


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
class RunTables:
    """Everything read from one run: spans and steps of all ranks, plus what went wrong."""

    signature: tuple
    spans: pd.DataFrame  # SPAN_COLUMNS + rank, writer
    steps: pd.DataFrame  # STEP_COLUMNS + rank, writer
    warnings: list[str] = field(default_factory=list)


@dataclass
class _IngestJob:
    signature: tuple
    total_bytes: int
    future: concurrent.futures.Future | None = None
    done_bytes: int = 0


class RunService:
    def __init__(
        self,
        logdir: str,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        discovery_ttl_s: float = 5.0,
        inline_wait_s: float = 0.5,
    ) -> None:
        self.logdir = logdir
        self.max_file_bytes = max_file_bytes
        self.discovery_ttl_s = discovery_ttl_s
        self.inline_wait_s = inline_wait_s
        self._lock = threading.Lock()
        self._runs: dict[str, Run] = {}
        self._discovered_at = float("-inf")
        self._tables: dict[str, RunTables] = {}
        self._jobs: dict[str, _IngestJob] = {}
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    # --- discovery ---------------------------------------------------------------------------

    def discover(self, force: bool = False) -> dict[str, Run]:
        with self._lock:
            if force or time.monotonic() - self._discovered_at > self.discovery_ttl_s:
                self._runs = discover_runs(self.logdir)
                self._discovered_at = time.monotonic()
                for stale in set(self._tables) - set(self._runs):
                    del self._tables[stale]
            return self._runs

    def has_runs(self) -> bool:
        return bool(self.discover())

    def runs(self) -> list[dict[str, Any]]:
        now = now_ns()
        return [
            {
                "name": run.name,
                "ranks": run.ranks,
                "sources": run.sources,
                "updated_ns": run.updated_ns,
                "status": run.status(now),
            }
            for _, run in sorted(self.discover().items())
        ]

    def find_run(self, name: str | None) -> Run:
        if not name:
            raise InvalidArgument("the 'run' parameter is required")
        run = self.discover().get(name)
        if run is None or not os.path.isdir(run.path):  # new since, or removed since, discovery
            run = self.discover(force=True).get(name)
        if run is None:
            raise NotFound(f"no run named {name!r} under the logdir")
        return run

    @staticmethod
    def parse_rank(run: Run, rank: str | None) -> int | None:
        if rank is None or rank == "":
            return None
        if not rank.strip().lstrip("-").isdigit() or int(rank) not in run.ranks:
            raise InvalidArgument(
                f"rank {rank!r} is not a rank of run {run.name!r} (ranks: {run.ranks})"
            )
        return int(rank)

    # --- tables ------------------------------------------------------------------------------

    def tables(self, run: Run, wait_s: float | None = None) -> RunTables | Progress:
        """The run's tables, or its ingest progress if not ready within `wait_s` seconds."""
        signature = run.signature()
        with self._lock:
            cached = self._tables.get(run.name)
            if cached is not None and cached.signature == signature:
                return cached
            job = self._jobs.get(run.name)
            if job is None or job.signature != signature:
                total = sum(
                    max(size, 0) for path, size, _ in signature if path.endswith(".timer.jsonl")
                )
                job = self._jobs[run.name] = _IngestJob(signature, total)
                if self._pool is None:
                    self._pool = concurrent.futures.ThreadPoolExecutor(
                        max_workers=2, thread_name_prefix="tb_perf_ingest"
                    )
                job.future = self._pool.submit(self._read_run, run, job)
        try:
            tables = job.future.result(timeout=wait_s)
        except concurrent.futures.TimeoutError:
            return Progress(job.done_bytes, job.total_bytes)
        with self._lock:
            if self._jobs.get(run.name) is job:
                del self._jobs[run.name]
                self._tables[run.name] = tables
        return tables

    def _read_run(self, run: Run, job: _IngestJob) -> RunTables:
        def advance(n: int) -> None:
            job.done_bytes += n

        span_parts, step_parts, warnings = [], [], []
        readable = 0
        for writer_index, writer in enumerate(run.writers):
            label = f"rank {writer.rank} ({writer.prefix})"
            if writer.meta_error:
                warnings.append(f"{label}: {writer.meta_error}")
            path = writer.files.get("timer")
            if path is None:
                continue
            try:
                timer = read_timer_file(path, self.max_file_bytes, advance)
            except Unreadable as exc:
                warnings.append(f"{label}: {exc.message}")
                continue
            except FileNotFoundError:
                warnings.append(f"{label}: {os.path.basename(path)} disappeared while reading")
                continue
            except OSError as exc:
                warnings.append(f"{label}: {os.path.basename(path)} unreadable ({exc.strerror})")
                continue
            readable += 1
            if timer.truncated_tail and writer.status(now_ns()) != "live":
                warnings.append(
                    f"{label}: the last line of {os.path.basename(path)} is truncated (ignored)"
                )
            warnings.extend(f"{label}: {problem}" for problem in timer.problems)
            for part, parts in ((timer.spans, span_parts), (timer.steps, step_parts)):
                parts.append(part.assign(rank=writer.rank, writer=writer_index))
        if readable == 0 and any("timer" in w.files for w in run.writers):
            raise Unreadable("; ".join(warnings) or f"run {run.name!r} has no readable files")
        return RunTables(
            signature=job.signature,
            spans=_concat(span_parts, SPAN_COLUMNS),
            steps=_concat(step_parts, STEP_COLUMNS),
            warnings=warnings,
        )

    # --- views -------------------------------------------------------------------------------

    def summary(
        self, run_name: str | None, rank: str | None = None, wait_s: float | None = None
    ) -> dict[str, Any] | Progress:
        run = self.find_run(run_name)
        selected = self.parse_rank(run, rank)
        tables = self.tables(run, self.inline_wait_s if wait_s is None else wait_s)
        if isinstance(tables, Progress):
            return tables
        return _summary_json(run, tables, selected)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _concat(parts: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    if not parts:
        return pd.DataFrame(columns=[*columns, "rank", "writer"])
    return pd.concat(parts, ignore_index=True)


def _summary_json(run: Run, tables: RunTables, selected: int | None) -> dict[str, Any]:
    now = now_ns()
    ranks = []
    for rank in run.ranks:
        writers = [w for w in run.writers if w.rank == rank]
        meta = next((w.meta for w in writers if w.meta is not None), None)
        steps = tables.steps[tables.steps["rank"] == rank]
        ranks.append(
            {
                "rank": rank,
                "host": meta.host if meta else None,
                "pid": meta.pid if meta else None,
                "world_size": meta.world_size if meta else None,
                "status": run.status(now, rank),
                "steps": len(steps),
                "step_time_ns": step_time_stats(steps),
            }
        )
    steps = tables.steps if selected is None else tables.steps[tables.steps["rank"] == selected]
    spans = tables.spans if selected is None else tables.spans[tables.spans["rank"] == selected]
    series = []
    for rank in sorted(steps["rank"].unique()):
        numbers, durations, bucket = step_series(steps[steps["rank"] == rank], MAX_SERIES_POINTS)
        series.append({"rank": int(rank), "steps": numbers, "time_ns": durations, "bucket": bucket})
    step_total = int((steps["t1"] - steps["t0"]).sum()) if not steps.empty else 0
    table = span_table(spans)
    rows = []
    for row in table.head(MAX_SPAN_ROWS).itertuples(index=False):
        rows.append(
            {
                "name": row.name,
                "calls": int(row.calls),
                "total_ns": int(row.total_ns),
                "self_ns": int(row.self_ns),
                "mean_ns": int(row.mean_ns),
                "p50_ns": int(row.p50_ns),
                "p95_ns": int(row.p95_ns),
                "pct_of_step": percent(row.total_ns, step_total),
                "gpu_total_ns": None if pd.isna(row.gpu_total_ns) else int(row.gpu_total_ns),
            }
        )
    step_numbers = steps["step"]
    warnings = list(tables.warnings)
    if run.traces and not run.writers:
        warnings.append(
            f"this run holds {len(run.traces)} torch.profiler trace file(s) and no collector "
            "files; the Overview shows collector data only"
        )
    return {
        "run": run.name,
        "rank": selected,
        "ranks": ranks,
        "steps": {
            "count": int(step_numbers.nunique()),
            "first": int(step_numbers.min()) if len(step_numbers) else None,
            "last": int(step_numbers.max()) if len(step_numbers) else None,
        },
        "step_series": series,
        "spans": rows,
        "spans_truncated": len(table) > MAX_SPAN_ROWS,
        "warnings": warnings,
    }


__all__ = ["Progress", "RunService", "RunTables", "TbPerfError"]
