"""Reading one run's files into tables (`RunTables`).

Timer files are read in the calling thread (small, append-only); trace files and imported
timeline files (Nsight Systems, event CSVs) are read through the on-disk trace cache
(`TraceCache.read_all`: one executor task per file not in it, memory-mapped back); imported
cProfile and Nsight Compute files are read through the executor too, each by its registered
reader (`ingest/readers.py`, docs/IMPORT.md).
"""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..discovery import ImportedFile, Run, WriterFiles, now_ns, recently_changed
from ..errors import Unreadable
from ..ingest.cache import CachedTrace, TraceCache
from ..ingest.compile import COMPILE_COLUMNS, read_compile_file
from ..ingest.memory import (
    GPU_COLUMNS,
    MEMORY_COLUMNS,
    SYSTEM_COLUMNS,
    read_memory_file,
    read_system_file,
)
from ..ingest.meta import RankMeta
from ..ingest.modules import ModuleRecords, module_records, read_modules_file
from ..ingest.ncu import NCU_COLUMNS
from ..ingest.python_profile import COLUMNS as FUNCTION_COLUMNS
from ..ingest.python_profile import PythonProfile
from ..ingest.readers import READERS, TIMELINE_KINDS, FileKind
from ..ingest.tables import TraceMeta, TraceTables
from ..ingest.timer import (
    SPAN_COLUMNS,
    STEP_COLUMNS,
    read_timer_file,
)

STILL_WRITING = "still being written; shown once complete"  # an unreadable file's warning then


@dataclass
class TraceFile:
    path: str
    rank: int
    rank_source: str  # "metadata", "distributedInfo", "file name", "default (no rank in name)"
    # its tables, or where the trace cache keeps them: opened on use, so a run of many ranks
    # maps the traces in use, not all of them (ingest/cache.py)
    source: TraceTables | CachedTrace
    kind: FileKind = FileKind.KINETO  # an imported Nsight Systems export or event CSV otherwise

    @property
    def tables(self) -> TraceTables:
        return self.source if isinstance(self.source, TraceTables) else self.source.open()

    # what views ask of every trace, without opening it
    @property
    def slices(self) -> int:
        """Rows of its slice table."""
        if isinstance(self.source, TraceTables):
            return len(self.source.slices["start"])
        return self.source.slices

    @property
    def memory_events(self) -> int:
        """Rows of its memory table."""
        if isinstance(self.source, TraceTables):
            return len(self.source.memory["ts"])
        return self.source.memory_events

    @property
    def world_size(self) -> int | None:
        """The job's size as its distributedInfo says."""
        if isinstance(self.source, TraceTables):
            return self.source.meta.world_size
        return self.source.world_size

    def release_pages(self) -> None:
        """Drop the pages this process read of its tables (`TraceTables.release_pages`),
        without opening them if they are closed."""
        self.source.release_pages()


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

    def of_rank(self, rank: int) -> RunTables:
        """The rank's records of this run (its spans, steps, samples and metadata) without any
        trace: what a worker is sent, with its traces' references, to make that rank's share
        of a view (pipeline/rank_timeline.py)."""

        def own(table: pd.DataFrame) -> pd.DataFrame:
            return table[table["rank"] == rank].reset_index(drop=True)

        meta = self.rank_meta.get(rank)
        return RunTables(
            (), own(self.spans), own(self.steps),
            rank_meta={rank: meta} if meta is not None else {},
            memory=own(self.memory), system=own(self.system), gpus=own(self.gpus),
        )  # fmt: skip

    def rank_traces(self) -> Iterator[tuple[int, list[TraceFile]]]:
        """Each rank, in order, with its traces; once the next rank comes, the pages the last
        one's traces had read are dropped from this process (`TraceTables.release_pages`), so
        a pass over every rank holds one rank's events at a time, not the run's."""
        traces: list[TraceFile] = []
        try:
            for rank in self.ranks:
                for trace in traces:
                    trace.release_pages()
                traces = [t for t in self.traces if t.rank == rank]
                yield rank, traces
        finally:
            for trace in traces:
                trace.release_pages()


SHOWN_WARNINGS = 5  # of a run none of whose files could be read
SHOWN_FILES = 20  # a run's files whose warnings are kept one by one; the rest counted by reason
SHOWN_REASONS = 10  # reasons counted apart, the rest together
OTHER_REASONS = "refused for other reasons"


class FileWarnings:
    """The warnings of a run's files (a trace that could not be read, a file not imported, a
    trace's own problems, a writer's), bounded whatever the number of files: the first
    SHOWN_FILES kept as they are, the rest counted by reason, at most SHOWN_REASONS reasons
    ("49,980 more files refused: not a JSON trace ..."). A run of 50,000 refused files kept a
    warning each, and served them in every answer about it."""

    def __init__(self, noun: str = "file", joiner: str = " ") -> None:
        # what is counted, and how a count and a reason are joined: "49,980 more files
        # refused: ...", "49,980 more writers: no metadata file"
        self.noun, self.joiner = noun, joiner
        self.named: list[tuple[str, str]] = []  # (warning, its reason)
        self.more: dict[str, int] = {}  # reason -> files beyond the named ones
        self.files = 0  # warnings added

    def add(self, warning: str, reason: str) -> None:
        """`warning` names the file; `reason` says what happened to it without naming it, as
        a phrase that follows "N more files" ("refused: ...", "not imported: ...")."""
        self.files += 1
        if len(self.named) < SHOWN_FILES:
            self.named.append((warning, reason))
            return
        if reason not in self.more and len(self.more) >= SHOWN_REASONS:
            reason = OTHER_REASONS
        self.more[reason] = self.more.get(reason, 0) + 1

    def _counted(self, count: int, reason: str, more: str = "") -> str:
        plural = "" if count == 1 else "s"
        return f"{count:,}{more} {self.noun}{plural}{self.joiner}{reason}"

    def warnings(self) -> list[str]:
        """The named warnings, then one per reason of the others."""
        return [warning for warning, _ in self.named] + [
            self._counted(count, reason, " more") for reason, count in self.more.items()
        ]

    def tally(self, skipped: int) -> list[str]:
        """The reasons of the warnings after the first `skipped` named ones, with their counts
        ("49,995 files refused: ..."), the most common first."""
        counts: dict[str, int] = {}
        for _, reason in self.named[skipped:]:
            counts[reason] = counts.get(reason, 0) + 1
        for reason, count in self.more.items():
            counts[reason] = counts.get(reason, 0) + count
        ordered = sorted(counts.items(), key=lambda item: -item[1])
        return [self._counted(count, reason) for reason, count in ordered]


def _unreadable_run(run: Run, warnings: list[str], kinds: list[FileWarnings]) -> str:
    """Why nothing of the run could be read: the first files' warnings, how many more and why
    (a 1,024-rank run whose workers all died is not one 100 kB message). `warnings`: the run's
    other warnings, before those of `kinds`."""
    named = [*warnings, *(warning for kind in kinds for warning, _ in kind.named)]
    if not named:
        return f"run {run.name!r} has no readable files"
    shown = "; ".join(named[:SHOWN_WARNINGS])
    more = len(warnings) + sum(kind.files for kind in kinds) - SHOWN_WARNINGS
    if more <= 0:
        return shown
    tally, skip = [], SHOWN_WARNINGS - len(warnings)
    for kind in kinds:
        tally += kind.tally(max(0, skip))
        skip -= len(kind.named)
    return (
        shown
        + f"; and {more:,} more file(s) unreadable"
        + (f": {'; '.join(tally)}" if tally else "")
    )


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
    span_parts, step_parts, module_parts = [], [], []
    compile_parts: list[pd.DataFrame] = []
    sampler_parts: dict[str, list[pd.DataFrame]] = {"memory": [], "system": [], "gpus": []}
    # the writers' warnings, each kind bounded (a run of 50,000 writers)
    writer_warnings, module_warnings, memory_warnings = (
        FileWarnings("writer", ": ") for _ in range(3)
    )
    readable = 0
    rank_meta: dict[int, RankMeta] = {}
    warnings = run.discovery_warnings()
    for writer_index, writer in enumerate(run.writers):
        if writer.meta_error:
            _warn(writer_warnings, writer, writer.meta_error)
        if writer.meta is not None:
            rank_meta.setdefault(writer.rank, writer.meta)
            for problem in writer.meta.problems:
                _warn(writer_warnings, writer, f"metadata {problem}")
        # each kind's reader returns its own table type (`result` below, used by kind)
        readers: tuple[Callable[[str, int, Callable[[int], None], Any], Any], ...] = (
            read_timer_file, read_modules_file, read_memory_file, read_system_file,
            read_compile_file,
        )  # fmt: skip
        last_timer_step: int | None = None
        for kind, read in zip(RECORD_KINDS, readers, strict=True):
            path = writer.files.get(kind)
            if path is None:
                continue
            problems = {"modules": module_warnings, "memory": memory_warnings,
                        "system": memory_warnings}.get(kind, writer_warnings)  # fmt: skip
            try:
                result = read(path, max_file_bytes, on_progress, file_reads.get(path))
                file_reads[path] = result
            except Unreadable as exc:
                _warn(problems, writer, exc.message)
                continue
            except FileNotFoundError:
                _warn(problems, writer, f"{os.path.basename(path)} disappeared while reading")
                continue
            except OSError as exc:
                _warn(problems, writer, f"{os.path.basename(path)} unreadable ({exc.strerror})")
                continue
            readable += 1
            status = writer.status(now_ns())
            if result.truncated_tail and status != "live":
                # a writer that stopped without closing or saying why was cut off mid-write
                silent_stop = (
                    status == "stopped" and writer.meta is not None and not writer.meta.stopped
                )
                _warn(problems, writer,
                    f"the last line of {os.path.basename(path)} is truncated (ignored)"
                    + (": the writer stopped mid-write (killed, or its disk filled): its data "
                       "ends there" if silent_stop else "")
                )  # fmt: skip
            for problem in result.problems:
                _warn(problems, writer, problem)
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
        for stop in _stop_warnings(writer, last_timer_step):
            writer_warnings.add(stop, _writer_reason(writer, stop))
    writers = [writer_warnings, module_warnings, memory_warnings]
    files = FileWarnings()
    for f in run.imported:
        if f.kind is None:
            reason = f"not imported: {f.reason} (docs/IMPORT.md)"
            files.add(f"{os.path.relpath(f.path, run.path)}: {reason}", reason)
    other_futures = _submit_imported(run, max_file_bytes, executor)
    traces = _read_traces(run, max_file_bytes, executor, cache_dir, on_progress, files)
    imported = _imported_tables(run, other_futures, on_progress, files)
    readable += len(imported["python_profile_files"]) + imported["kernel_metrics"]["file"].nunique()
    has_collector_files = any(set(RECORD_KINDS) & set(w.files) for w in run.writers)
    has_files = has_collector_files or run.traces or any(f.kind for f in run.imported)
    writing = any(w.endswith(STILL_WRITING) for w in files.warnings())  # a trace under way
    if readable == 0 and not traces and has_files and not writing:
        raise Unreadable(_unreadable_run(run, warnings, [*writers, files]))
    for collected in [*writers, files]:
        warnings += collected.warnings()
    return RunTables(
        signature=signature,
        spans=_concat(span_parts, SPAN_COLUMNS),
        steps=_concat(step_parts, STEP_COLUMNS),
        traces=traces,
        rank_meta=rank_meta,
        warnings=warnings,
        modules=module_records(module_parts),
        module_warnings=module_warnings.warnings(),
        memory=_concat(sampler_parts["memory"], MEMORY_COLUMNS),
        system=_concat(sampler_parts["system"], SYSTEM_COLUMNS),
        gpus=_concat(sampler_parts["gpus"], GPU_COLUMNS),
        memory_warnings=memory_warnings.warnings(),
        compile=_concat(compile_parts, COMPILE_COLUMNS),
        **imported,
    )


def _read_traces(
    run: Run,
    max_file_bytes: int,
    executor: concurrent.futures.Executor,
    cache_dir: str | None,
    on_progress: Callable[[int], None],
    warnings: FileWarnings,
) -> list[TraceFile]:
    """Every timeline file of the run, through the trace cache (one executor task per file
    not in it yet); each held as where the cache keeps it, not opened (unless the cache could
    not store it)."""
    files = [(path, FileKind.KINETO) for path in run.traces]
    files += [(f.path, f.kind) for f in run.imported if f.kind in TIMELINE_KINDS]
    traces = []
    for read in TraceCache(cache_dir).read_all(files, max_file_bytes, executor):
        on_progress(_size(read.path))
        name = os.path.relpath(read.path, run.path)
        if isinstance(read.error, Unreadable):
            warnings.add(*_trace_problem(read.path, name, read.error.message))
        elif read.error is not None:
            reason = f"unreadable ({read.error.strerror or read.error})"
            warnings.add(f"{name}: {reason}", reason)
        elif read.meta is not None and read.held is not None:
            for problem in read.meta.problems:
                warnings.add(f"{name}: {problem}", f"read with a problem: {problem}")
            rank, source = _trace_rank(run, read.path, read.meta)
            traces.append(TraceFile(read.path, rank, source, read.held, read.kind))
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
    warnings: FileWarnings,
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
            warnings.add(*_trace_problem(file.path, name, exc.message))
            continue
        except OSError as exc:
            reason = f"unreadable ({exc.strerror or exc})"
            warnings.add(f"{name}: {reason}", reason)
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


def _warn(kind: FileWarnings, writer: WriterFiles, text: str) -> None:
    """The warning `text` about `writer`, named by its rank and prefix, counted by the rest."""
    kind.add(f"rank {writer.rank} ({writer.prefix}): {text}", _writer_reason(writer, text))


def _writer_reason(writer: WriterFiles, text: str) -> str:
    """A writer's warning `text` without its name (`rank0.h.1: `, `rank0.h.1.`): what the
    warnings of writers are counted by."""
    for named in (writer.prefix + ": ", writer.prefix + "."):
        if text.startswith(named):
            return text[len(named) :]
    rank = f"rank {writer.rank}: "
    return text[len(rank) :] if text.startswith(rank) else text


def _trace_problem(path: str, name: str, message: str) -> tuple[str, str]:
    """The warning of a file its reader refused with `message`, and its reason without the
    file's name (`FileWarnings.add`)."""
    try:
        recent = recently_changed(path)
    except OSError:
        return f"{name}: disappeared while reading", "disappeared while reading"
    if recent:
        return f"{name}: {STILL_WRITING}", STILL_WRITING
    base = os.path.basename(path)
    if message.startswith(base):
        return message, "refused: " + message[len(base) :].lstrip(": ")
    return f"{name}: {message}", f"refused: {message}"


def _trace_rank(run: Run, path: str, meta: TraceMeta) -> tuple[int, str]:
    """Our metadata (the file is named after a writer), else distributedInfo, else the name
    (of an imported file: a `rank<N>`/`worker<N>` in it, else rank 0)."""
    writer = run.writer_of(path)
    if writer is not None:
        return writer.rank, "metadata"
    if meta.rank is not None:
        return meta.rank, "distributedInfo"
    if run.has_trace(path):
        return run.rank_from_trace_name(path), "file name"
    rank = run.rank_in_file_name(path)
    return (0, "default (no rank in the file name)") if rank is None else (rank, "file name")
