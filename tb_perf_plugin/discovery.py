"""Finding runs, ranks and their files under a logdir (the run contract in docs/FORMAT.md)."""

from __future__ import annotations

import functools
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import TbPerfError
from .ingest.imported import DROPPED_SUFFIXES, FileKind, Sniffed, sniff
from .ingest.meta import RankMeta, read_meta
from .ingest.snapshot import is_snapshot_name

PLUGIN_DIR = os.path.join("plugins", "tb_perf")
IMPORTED_DIR = os.path.join(PLUGIN_DIR, "imported")
LIVE_WINDOW_NS = 60 * 10**9  # a writer that wrote within this window and did not close is live
_WRITER_FILE = re.compile(r"^(rank(\d+)\.[A-Za-z0-9-]+\.\d+)\.([a-z_]+)\.(jsonl|json)$")
_TASK_SUMMARY = re.compile(r"^(rank(\d+)\.[A-Za-z0-9-]+\.\d+)\.task-[A-Za-z0-9_-]+\.summary\.json$")
_TRACE_SUFFIXES = (".pt.trace.json", ".pt.trace.json.gz")
_WORKER_RANK = re.compile(r"(?:rank|worker)[-_]?(\d+)", re.IGNORECASE)


@dataclass
class WriterFiles:
    """The files one writer process (one rank, one pid) left in a run."""

    prefix: str
    rank: int
    files: dict[str, str] = field(default_factory=dict)  # kind ("meta", "timer", ...) -> path
    task_summaries: list[str] = field(default_factory=list)  # profile_task's, one per task type
    meta: RankMeta | None = None
    meta_error: str | None = None
    updated_ns: int = 0

    def status(self, now_ns: int) -> str:
        if self.meta is not None and self.meta.closed_unix_ns is not None:
            return "finished"
        return "live" if now_ns - self.updated_ns < LIVE_WINDOW_NS else "stopped"


@dataclass
class ImportedFile:
    """A file from another tool in the run (docs/IMPORT.md); `kind` None: not importable,
    `reason` says why (shown as a warning)."""

    path: str
    kind: FileKind | None
    reason: str


@dataclass
class Run:
    name: str  # relative to the logdir, "/"-separated; "." is the logdir itself
    path: str
    tfevents: list[str] = field(default_factory=list)
    writers: list[WriterFiles] = field(default_factory=list)
    traces: list[str] = field(default_factory=list)
    snapshots: list[str] = field(default_factory=list)  # memory snapshot pickles, never loaded here
    imported: list[ImportedFile] = field(default_factory=list)  # by path
    updated_ns: int = 0

    @property
    def ranks(self) -> list[int]:
        """Ranks of the collector files, and of traces as far as their names tell (ingest may
        learn better from a trace's distributedInfo)."""
        ranks = {w.rank for w in self.writers}
        prefixes = tuple(w.prefix + "." for w in self.writers)
        for path in self.traces:
            if not os.path.basename(path).startswith(prefixes):
                ranks.add(self.rank_from_trace_name(path))
        ranks |= {self.rank_from_file_name(f.path) for f in self.imported if f.kind is not None}
        return sorted(ranks)

    def snapshot_rank(self, path: str) -> int | None:
        """A snapshot's rank: its writer's (`<prefix>.snapshot.<region>.<n>.pickle`), else a
        `rank<N>` / `worker<N>` in its name, else the run's only rank, else unknown."""
        base = os.path.basename(path)
        for writer in self.writers:
            if base.startswith(writer.prefix + "."):
                return writer.rank
        match = _WORKER_RANK.search(base)
        if match:
            return int(match.group(1))
        ranks = self.ranks
        return ranks[0] if len(ranks) == 1 else None

    def rank_from_trace_name(self, path: str) -> int:
        """`rank3.<ts>.pt.trace.json` or `worker_3...` is rank 3; other worker names are
        numbered in sorted order (torch-tb-profiler's `<worker>.<ts>.pt.trace.json`)."""
        worker = os.path.basename(path).split(".", 1)[0]
        match = _WORKER_RANK.search(worker)
        if match:
            return int(match.group(1))
        workers = sorted({os.path.basename(p).split(".", 1)[0] for p in self.traces})
        return workers.index(worker) if worker in workers else 0

    @staticmethod
    def rank_in_file_name(path: str) -> int | None:
        """The N of a `rank<N>` / `worker<N>` in the file's name, if any."""
        match = _WORKER_RANK.search(os.path.basename(path))
        return int(match.group(1)) if match else None

    def rank_from_file_name(self, path: str) -> int:
        """An imported file's rank: as its name says, else 0."""
        rank = self.rank_in_file_name(path)
        return 0 if rank is None else rank

    @property
    def sources(self) -> list[str]:
        kinds = {kind for w in self.writers for kind in w.files if kind != "meta"}
        kinds |= {"tasks" for w in self.writers if w.task_summaries}
        imported = {f.kind for f in self.imported if f.kind is not None}
        return (
            (["tfevents"] if self.tfevents else [])
            + sorted(kinds)
            + (["trace"] if self.traces or FileKind.KINETO in imported else [])
            + (["snapshot"] if self.snapshots else [])
            + sorted(k.value for k in imported - {FileKind.KINETO})
        )

    def status(self, now_ns: int, rank: int | None = None) -> str:
        """finished / live / stopped over all writers, or those of one rank."""
        statuses = {w.status(now_ns) for w in self.writers if rank is None or w.rank == rank}
        if not statuses:  # raw traces only: nothing says whether the job closed cleanly
            return "live" if now_ns - self.updated_ns < LIVE_WINDOW_NS else "finished"
        if "live" in statuses:
            return "live"
        return "finished" if statuses == {"finished"} else "stopped"

    def signature(self) -> tuple:
        """Changes whenever a file of the run changes (the cache key of its tables)."""
        paths = [p for w in self.writers for p in [*sorted(w.files.values()), *w.task_summaries]]
        paths += self.traces
        paths += [f.path for f in self.imported]
        return tuple((path, *file_version(path)) for path in paths)


def file_version(path: str) -> tuple[int, int]:
    """(size, mtime in ns) of a file, (-1, -1) when it is gone: what tells a changed file."""
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _is_trace(name: str) -> bool:
    return name.endswith(_TRACE_SUFFIXES)


def _within(path: str, real_root: str) -> bool:
    return os.path.commonpath([os.path.realpath(path), real_root]) == real_root


def discover_runs(logdir: str) -> dict[str, Run]:
    """Every run under `logdir` by name. Symlinked directories are not followed, nor is a
    `plugins/tb_perf` that leads out of the logdir."""
    root = os.path.abspath(logdir)
    runs: dict[str, Run] = {}
    if not os.path.isdir(root):
        return runs
    real_root = os.path.realpath(root)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel = os.path.relpath(dirpath, root)
        name = "." if rel == "." else rel.replace(os.sep, "/")
        importer = _importing_run(runs, name)
        if importer is not None:  # <run>/plugins/tb_perf/imported: every file, nothing deeper
            dirnames[:] = []
            importer.imported += _imported_files(dirpath, filenames, real_root, lambda f: True)
            continue
        has_events = any("tfevents" in f for f in filenames)
        plugin_dir = os.path.join(dirpath, PLUGIN_DIR)  # a link out of the logdir is not one
        has_plugin_dir = os.path.isdir(plugin_dir) and _within(plugin_dir, real_root)
        if has_events or has_plugin_dir:
            run = runs[name] = Run(name, dirpath)
            run.tfevents = sorted(os.path.join(dirpath, f) for f in filenames if "tfevents" in f)
            if has_plugin_dir:
                run.writers = _writer_files(plugin_dir)
        traces = sorted(os.path.join(dirpath, f) for f in filenames if _is_trace(f))
        if traces:
            owner = _enclosing_run(runs, name) or runs.setdefault(name, Run(name, dirpath))
            owner.traces.extend(traces)
        snapshots = [
            path
            for path in sorted(os.path.join(dirpath, f) for f in filenames if is_snapshot_name(f))
            if _within(path, real_root)  # a link to a file elsewhere is not the logdir's
        ]
        owner = _enclosing_run(runs, name) if snapshots else None
        if owner is not None:  # snapshots alone do not make a run
            owner.snapshots.extend(snapshots)
        if name in runs:  # files dropped into the run directory itself
            runs[name].imported += _imported_files(
                dirpath, filenames, real_root, lambda f: f.lower().endswith(DROPPED_SUFFIXES)
            )
    for run in runs.values():
        run.imported.sort(key=lambda f: f.path)
        files = run.tfevents + run.traces + [p for w in run.writers for p in w.files.values()]
        files += [f.path for f in run.imported]
        run.updated_ns = max((file_version(p)[1] for p in files), default=0)
    return runs


def _importing_run(runs: dict[str, Run], name: str) -> Run | None:
    """The run whose imported/ folder the directory `name` is, if it is one."""
    suffix = "/" + IMPORTED_DIR.replace(os.sep, "/")
    if not ("/" + name).endswith(suffix):
        return None
    return runs.get(("/" + name)[: -len(suffix)].lstrip("/") or ".")


def _imported_files(
    dirpath: str, filenames: list[str], real_root: str, chosen: Callable[[str], bool]
) -> list[ImportedFile]:
    """The chosen files of a directory, sniffed; hidden and temporary files (a copy under
    way), snapshot pickles (read as snapshots) and links out of the logdir are left out."""
    out = []
    for filename in sorted(filenames):
        path = os.path.join(dirpath, filename)
        hidden = filename.startswith(".") or filename.endswith(".tmp")
        if hidden or is_snapshot_name(filename) or not chosen(filename):
            continue
        if not os.path.isfile(path) or not _within(path, real_root):
            continue
        found = _sniff(path, *file_version(path))
        out.append(ImportedFile(path, found.kind, found.reason))
    return out


@functools.lru_cache(maxsize=4096)
def _sniff(path: str, size: int, mtime_ns: int) -> Sniffed:
    """sniff() once per file version: discovery runs every few seconds."""
    return sniff(path)


def _enclosing_run(runs: dict[str, Run], name: str) -> Run | None:
    parts = [] if name == "." else name.split("/")
    for depth in range(len(parts), -1, -1):
        candidate = "/".join(parts[:depth]) or "."
        if candidate in runs:
            return runs[candidate]
    return None


def _writer_files(plugin_dir: str) -> list[WriterFiles]:
    writers: dict[str, WriterFiles] = {}
    for entry in sorted(os.listdir(plugin_dir)):
        path = os.path.join(plugin_dir, entry)
        task = _TASK_SUMMARY.match(entry)
        if task is not None:
            writers.setdefault(task[1], WriterFiles(task[1], int(task[2])))
            writers[task[1]].task_summaries.append(path)
            continue
        match = _WRITER_FILE.match(entry)
        if match is None or not _is_regular(path):  # a FIFO or device would block or never end
            continue
        prefix, rank, kind, _ = match.groups()
        writer = writers.setdefault(prefix, WriterFiles(prefix, int(rank)))
        writer.files[kind] = path
        writer.updated_ns = max(writer.updated_ns, file_version(path)[1])
    for writer in writers.values():
        if "meta" in writer.files:
            try:
                writer.meta = read_meta(writer.files["meta"])
                writer.rank = writer.meta.rank
            except (TbPerfError, OSError) as exc:
                writer.meta_error = str(exc)
        else:
            writer.meta_error = f"{writer.prefix}: no metadata file"
    return sorted(writers.values(), key=lambda w: (w.rank, w.prefix))


def now_ns() -> int:
    return time.time_ns()
