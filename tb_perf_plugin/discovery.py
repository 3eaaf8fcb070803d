"""Finding runs, ranks and their files under a logdir (the run contract in docs/FORMAT.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import re
import stat
import threading
import time
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .errors import InvalidArgument, NotFound, TbPerfError, Unreadable
from .ingest.files import file_kind, follow_links_from_env, refusal
from .ingest.meta import RankMeta, read_meta
from .ingest.readers import (
    DROPPED_SUFFIXES,
    FileKind,
    Sniffed,
    is_memory_snapshot,
    is_snapshot_name,
    sniff,
)

logger = logging.getLogger(__name__)

PLUGIN_DIR = os.path.join("plugins", "tb_perf")
IMPORTED_DIR = os.path.join(PLUGIN_DIR, "imported")
LIVE_WINDOW_NS = 60 * 10**9  # a writer that wrote within this window and did not close is live
IN_PROGRESS_NS = 5 * 10**9  # a file changed this recently may still be being written
# rank, host, pid, then the writer id (older files have none): `rank0.n1.42.20261202T061500-a3f9c1`
_WRITER_ID = r"\d{8}T\d{6}-[0-9a-f]{6}"
_PREFIX = rf"(rank(\d+)\.[A-Za-z0-9-]+\.\d+(?:\.{_WRITER_ID})?)"
_WRITER_FILE = re.compile(rf"^{_PREFIX}\.([a-z_]+)\.(jsonl|json)$")
_TASK_SUMMARY = re.compile(rf"^{_PREFIX}\.task-[A-Za-z0-9_-]+\.summary\.json$")
_TRACE_SUFFIXES = (".pt.trace.json", ".pt.trace.json.gz")
_JSON_SUFFIXES = (".json", ".json.gz")
TFEVENTS_MARK = "events.out.tfevents."  # in the name of every TensorBoard event file
FOLLOW_LINKS_HINT = (
    "tensorboard --tb_perf_follow_links or TB_PERF_FOLLOW_LINKS=1 follows such links"
)
_WORKER_RANK = re.compile(r"(?:rank|worker)[-_]?(\d+)", re.IGNORECASE)
_LOGGED_ORPHANS: set[tuple[str, str]] = set()  # (path, reason) of no run, logged once
LOGGED_ORPHANS = 4096  # paths remembered as logged; past them, one line says so, once
SHOWN_REFUSED = 10  # of a run's files left out for a reason, named; the others counted
LEFT_OUT = 1000  # paths of no run kept for the notices route; the others counted
_ORPHANS_FULL: list[bool] = []  # whether the line about the paths not logged went out
# what a path left out of the logdir (and of every run) is: LeftOut.kind
OUTSIDE_LINK = "outside_link"  # a link out of the logdir, not followed without the opt-in
BROKEN_LINK = "broken_link"  # a link that leads nowhere (or loops)
UNLISTABLE = "unlistable"  # a folder that cannot be listed
NOT_READ = "not_read"  # a file that is not a regular file, or cannot be read
JOB_SEPARATOR = "@"  # `<run>@<job id>`: an older job of a run directory that holds several


@dataclass(slots=True)
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

    @property
    def started_ns(self) -> int:
        return self.meta.started_unix_ns if self.meta is not None else self.updated_ns

    @property
    def ended_ns(self) -> int:
        """When it closed, else when it last wrote."""
        if self.meta is not None and self.meta.closed_unix_ns is not None:
            return self.meta.closed_unix_ns
        return self.updated_ns

    def describe(self) -> str:
        if self.meta is None:
            return self.prefix
        started = time.strftime("%H:%M:%S", time.gmtime(self.meta.started_unix_ns // 10**9))
        return f"pid {self.meta.pid} on {self.meta.host[:64]}, started {started} UTC"


@dataclass(frozen=True)
class Job:
    """The writers of one run of a job: a run directory a script was run into twice holds two."""

    id: str  # the first writer's id (older files: its start time)
    run: str  # the run name its views are served under
    started_unix_ns: int
    ranks: tuple[int, ...]


@dataclass(slots=True)
class ImportedFile:
    """A file from another tool in the run (docs/IMPORT.md); `kind` None: not importable,
    `reason` says why (shown as a warning)."""

    path: str
    kind: FileKind | None
    reason: str


@dataclass(frozen=True)
class LeftOut:
    """A path of the logdir that discovery left out and that belongs to no run: shown by the
    `notices` route, so that a logdir without runs says why rather than looking empty."""

    path: str  # relative to the logdir, "/"-separated ("." is the logdir itself)
    kind: str  # OUTSIDE_LINK, BROKEN_LINK, UNLISTABLE or NOT_READ
    reason: str  # in words, with what to do about it where something can be done


@dataclass
class _RunIndex:
    """A run's lists (`Run._indexed`) looked up by file: its writers by their files' prefix
    (with their place in the list), its traces, the numbers of its traces' worker names, and
    its rank if it has only one (`(None,)`: several or none; None: not known yet)."""

    lists: tuple[list, ...]
    sizes: tuple[int, ...]
    writers: dict[str, tuple[int, WriterFiles]]
    traces: set[str]
    workers: dict[str, int] | None = None  # made when first asked (a string a trace)
    only_rank: tuple[int | None] | None = None


def _leading(name: str) -> Iterator[str]:
    """Each start of `name` that a dot follows (`rank0.h.1` of `rank0.h.1.timer.jsonl`): the
    writer prefixes that may have named it."""
    at = name.find(".")
    while at >= 0:
        yield name[:at]
        at = name.find(".", at + 1)


@dataclass
class Run:
    name: str  # relative to the logdir, "/"-separated; "." is the logdir itself
    path: str
    tfevents: list[str] = field(default_factory=list)
    writers: list[WriterFiles] = field(default_factory=list)
    traces: list[str] = field(default_factory=list)
    snapshots: list[str] = field(default_factory=list)  # memory snapshot pickles, never loaded here
    imported: list[ImportedFile] = field(default_factory=list)  # by path
    # files and folders of the run left out, as (path relative to the run, reason): the first
    # SHOWN_REFUSED of each reason; the others counted by reason in `refused_more`
    refused: list[tuple[str, str]] = field(default_factory=list)
    refused_more: dict[str, int] = field(default_factory=dict)
    updated_ns: int = 0
    directory: str = ""  # the run directory's name: `name` unless this is an older job in it
    jobs: list[Job] = field(default_factory=list)  # newest first, when the directory holds 2+
    job: str | None = None  # this run's job id, when the directory holds 2+
    notices: list[str] = field(default_factory=list)  # several jobs, a rank claimed twice
    _index: _RunIndex | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.directory = self.directory or self.name

    def __getstate__(self) -> dict:
        """Pickled (sent to a worker) without its index, made again there if asked."""
        return {**self.__dict__, "_index": None}

    @property
    def ranks(self) -> list[int]:
        """Ranks of the collector files, and of traces as far as their names tell (ingest may
        learn better from a trace's distributedInfo: `ranks_after_reading`)."""
        return self.ranks_after_reading((), ())

    def ranks_after_reading(self, read: Collection[str], found: Iterable[int]) -> list[int]:
        """The ranks once the files at the paths `read` were read and gave the ranks `found`
        (a trace's own rank: its metadata or distributedInfo): those, the collector files'
        ranks, and the ranks the names of the other trace and imported files tell (files new
        since the read). A file that was read and gave no rank (unreadable) adds none."""
        ranks = {w.rank for w in self.writers} | set(found)
        for path in self.traces:
            if path not in read and self.writer_of(path) is None:
                ranks.add(self.rank_from_trace_name(path))
        ranks |= {self.rank_from_file_name(f.path) for f in self.imported
                  if f.kind is not None and f.path not in read}  # fmt: skip
        return sorted(ranks)

    def snapshot_rank(self, path: str) -> int | None:
        """A snapshot's rank: its writer's (`<prefix>.snapshot.<region>.<n>.pickle`), else a
        `rank<N>` / `worker<N>` in its name, else the run's only rank, else unknown."""
        writer = self.writer_of(path)
        if writer is not None:
            return writer.rank
        match = _WORKER_RANK.search(os.path.basename(path))
        if match:
            return int(match.group(1))
        index = self._indexed()
        if index.only_rank is None:
            ranks = self.ranks
            index.only_rank = (ranks[0] if len(ranks) == 1 else None,)
        return index.only_rank[0]

    def writer_of(self, path: str) -> WriterFiles | None:
        """The first of the writers whose files are named `<its prefix>.*` that named the file
        at `path`, if one did."""
        by_prefix = self._indexed().writers
        found = [by_prefix[lead] for lead in _leading(os.path.basename(path)) if lead in by_prefix]
        return min(found, key=lambda item: item[0])[1] if found else None

    def has_trace(self, path: str) -> bool:
        """Whether `path` is one of `traces`."""
        return path in self._indexed().traces

    def _indexed(self) -> _RunIndex:
        """What the lookups by file ask of the run's lists, made once for the lists it was
        made of (again if they changed): asked once for each of a run's files, each lookup
        walking every writer or trace cost a run of 50,000 files minutes."""
        lists = (self.traces, self.imported, self.writers)
        sizes = (len(self.traces), len(self.imported), len(self.writers))
        index = self._index
        if (
            index is None
            or index.sizes != sizes
            or any(a is not b for a, b in zip(index.lists, lists, strict=True))
        ):
            writers: dict[str, tuple[int, WriterFiles]] = {}
            for at, writer in enumerate(self.writers):
                writers.setdefault(writer.prefix, (at, writer))
            index = self._index = _RunIndex(lists, sizes, writers, set(self.traces))
        return index

    def rank_from_trace_name(self, path: str) -> int:
        """`rank3.<ts>.pt.trace.json` or `worker_3...` is rank 3; other worker names are
        numbered in sorted order (torch-tb-profiler's `<worker>.<ts>.pt.trace.json`)."""
        worker = os.path.basename(path).split(".", 1)[0]
        match = _WORKER_RANK.search(worker)
        if match:
            return int(match.group(1))
        # numbered once for the run (sorted again for each trace, 5,000 traces named so took
        # 12 s, and every listing of the runs asks for every trace's rank)
        index = self._indexed()
        if index.workers is None:
            names = sorted({os.path.basename(p).split(".", 1)[0] for p in self.traces})
            index.workers = {name: number for number, name in enumerate(names)}
        return index.workers.get(worker, 0)

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

    def discovery_warnings(self) -> list[str]:
        """What discovery noticed: files left out, several jobs, a rank claimed twice."""
        return self.notices + self.refusal_warnings()

    def refusal_warnings(self) -> list[str]:
        """One warning per reason files were left out, naming them (at most 10)."""
        by_reason: dict[str, list[str]] = {}
        for path, reason in self.refused:
            by_reason.setdefault(reason, []).append(path)
        warnings = []
        for reason, paths in by_reason.items():
            more = len(paths) - SHOWN_REFUSED + self.refused_more.get(reason, 0)
            named = ", ".join(paths[:SHOWN_REFUSED]) + (f" and {more:,} more" if more > 0 else "")
            warnings.append(f"not read: {named}: {reason}")
        return warnings

    def refuse(self, path: str, reason: str) -> None:
        """`path` (relative to the run) is left out for `reason`: kept among the first
        SHOWN_REFUSED of that reason, else counted (a run of 50,000 FIFOs kept 50,000)."""
        if sum(r == reason for _, r in self.refused) < SHOWN_REFUSED:
            self.refused.append((path, reason))
        else:
            self.refused_more[reason] = self.refused_more.get(reason, 0) + 1

    def status(self, now_ns: int, rank: int | None = None) -> str:
        """finished / live / stopped over all writers, or those of one rank."""
        statuses = {w.status(now_ns) for w in self.writers if rank is None or w.rank == rank}
        if not statuses:  # raw traces only: nothing says whether the job closed cleanly
            return "live" if now_ns - self.updated_ns < LIVE_WINDOW_NS else "finished"
        if "live" in statuses:
            return "live"
        return "finished" if statuses == {"finished"} else "stopped"

    def signature(self) -> tuple:
        """Changes whenever a file of the run changes (the cache key of its tables), and once
        more when a recent file becomes old enough not to be still being written: what was
        read of it while it was may have been a half-written file's error."""
        paths = [p for w in self.writers for p in [*sorted(w.files.values()), *w.task_summaries]]
        paths += self.traces
        paths += [f.path for f in self.imported]
        now = time.time_ns()
        return tuple(_version_entry(path, now) for path in paths)


def _version_entry(path: str, now_ns: int) -> tuple[str, int, int, bool]:
    """A signature's entry: (path, size, mtime in ns, whether it may be still being written);
    one tuple a file, the run's signature being asked for at every request about it."""
    try:
        st = os.stat(path)
        size, mtime = st.st_size, st.st_mtime_ns
    except OSError:
        size, mtime = -1, -1  # gone (file_version)
    return (path, size, mtime, now_ns - mtime < IN_PROGRESS_NS)


def recently_changed(path: str) -> bool:
    """Whether the file changed within IN_PROGRESS_NS (OSError if it is gone)."""
    return time.time_ns() - os.stat(path).st_mtime_ns < IN_PROGRESS_NS


def file_version(path: str) -> tuple[int, int]:
    """(size, mtime in ns) of a file, (-1, -1) when it is gone: what tells a changed file."""
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


def _is_trace(name: str) -> bool:
    """Named as torch.profiler names its traces."""
    return name.endswith(_TRACE_SUFFIXES)


@dataclass
class _Gate:
    """Which files of the logdir may be read (ingest/files.py), and what was left out."""

    real_root: str
    follow_links: bool
    refused: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (kind, reason)
    _inside: dict[str, bool] = field(default_factory=dict)  # folder -> its real path is ours
    # what the last discovery kept of each file (its path, its ImportedFile), by path
    earlier: dict[str, str] = field(default_factory=dict)
    earlier_imported: dict[str, ImportedFile] = field(default_factory=dict)

    def join(self, folder: str, name: str) -> str:
        """`folder`/`name`: the very string the last discovery kept for it, if it kept one.
        Discovery runs every few seconds, and a run's files are kept as long as it is
        discovered: made anew each time, a run of 50,000 files left 50,000 strings a few
        seconds old wherever the heap had room while other work came and went, and the
        heap's pages they were scattered over could not go back to the system."""
        path = os.path.join(folder, name)
        return self.earlier.get(path, path)

    def imported(self, path: str, found: Sniffed) -> ImportedFile:
        """An ImportedFile of `path` sniffed as `found` (the last discovery's, if the same)."""
        before = self.earlier_imported.get(path)
        if before is not None and (before.kind, before.reason) == (found.kind, found.reason):
            return before
        return ImportedFile(path, found.kind, found.reason)

    def admits(self, path: str, *, regular: bool = True) -> bool:
        """Whether `path` is the logdir's (or a link the owner allowed) and, with `regular`,
        a regular file: FIFOs, devices and sockets would block a reader or never end."""
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISLNK(mode) and self._folder_inside(path):
            # Not a link, in a folder whose real path is the logdir's: so is the file's (what
            # refusal's realpath would find, without resolving every folder of the path again)
            if regular and not stat.S_ISREG(mode):
                self.refused[path] = (NOT_READ, f"{file_kind(mode)}, not a regular file")
                return False
            return True
        reason = refusal(path, self.real_root, self.follow_links)
        kind = NOT_READ
        if reason is not None:
            kind = OUTSIDE_LINK if os.path.exists(path) else BROKEN_LINK
        elif regular:
            try:
                mode = os.stat(path).st_mode
            except OSError as exc:
                reason = f"cannot be read ({exc.strerror or exc})"
            else:
                if not stat.S_ISREG(mode):
                    reason = f"{file_kind(mode)}, not a regular file"
        if reason is not None:
            self.refused[path] = (kind, reason)
        return reason is None

    def walked(self, folder: str, real: str) -> None:
        """The walk met `folder`, whose real path is `real`: `_folder_inside` need not
        resolve it again."""
        self._inside[folder] = os.path.commonpath([real, self.real_root]) == self.real_root

    def _folder_inside(self, path: str) -> bool:
        """Whether the real path of the folder holding `path` is one the gate admits (any
        folder when links are followed), resolved once per folder."""
        if self.follow_links:
            return True
        folder = os.path.dirname(path)
        inside = self._inside.get(folder)
        if inside is None:
            real = os.path.realpath(folder)
            inside = os.path.commonpath([real, self.real_root]) == self.real_root
            self._inside[folder] = inside
        return inside

    def enters(self, link: str) -> bool:
        """Whether the walk may enter the folder behind the link `link` (ingest/files.py's
        rule for files, for folders)."""
        real = os.path.realpath(link)
        if not os.path.isdir(real):
            self.refused[link] = (BROKEN_LINK, "a link that leads nowhere")
        elif self.follow_links or os.path.commonpath([real, self.real_root]) == self.real_root:
            return True
        else:
            reason = f"a link to a folder outside the logdir ({FOLLOW_LINKS_HINT})"
            self.refused[link] = (OUTSIDE_LINK, reason)
        return False

    def not_listed(self, error: OSError) -> None:
        """os.walk's onerror: a folder that cannot be listed is refused, not an error."""
        if error.filename is not None:
            path = os.fspath(error.filename)
            self.refused[path] = (UNLISTABLE, f"cannot be listed ({error.strerror or error})")

    def listing(self, dirpath: str) -> list[str]:
        """The names in a directory; an unreadable one is refused, not an error."""
        try:
            return sorted(os.listdir(dirpath))
        except OSError as exc:
            self.refused[dirpath] = (UNLISTABLE, f"cannot be listed ({exc.strerror or exc})")
            return []


@dataclass
class Discovery:
    """What one discovery found: the runs by name, and what it left out of no run."""

    runs: dict[str, Run] = field(default_factory=dict)
    left_out: list[LeftOut] = field(default_factory=list)  # by path, the first LEFT_OUT
    left_out_more: int = 0  # left out of no run beyond those

    def kept_paths(self) -> dict[str, str]:
        """Every file path its runs keep, by itself (what the next discovery reuses)."""
        paths: dict[str, str] = {}
        for run in self.runs.values():
            for path in (*run.tfevents, *run.traces, *run.snapshots):
                paths[path] = path
            for writer in run.writers:
                for path in (*writer.files.values(), *writer.task_summaries):
                    paths[path] = path
            for imported in run.imported:
                paths[imported.path] = imported.path
        return paths

    def kept_imported(self) -> dict[str, ImportedFile]:
        return {f.path: f for run in self.runs.values() for f in run.imported}


def discover_runs(logdir: str, follow_links: bool | None = None) -> dict[str, Run]:
    """The runs of `discover` alone, for callers that do not show what was left out."""
    return discover(logdir, follow_links).runs


def discover(
    logdir: str, follow_links: bool | None = None, earlier: Discovery | None = None
) -> Discovery:
    """Every run under `logdir` by name (the run contract in docs/FORMAT.md). Links to folders
    are entered where their real folder is not walked anyway (each real folder once, so link
    cycles end); links out of the logdir (folders or files) only with `follow_links` (default
    TB_PERF_FOLLOW_LINKS). What is left out (such links, FIFOs, devices, unreadable folders)
    is listed in its run's `refused`, or, when it belongs to no run, in `left_out` (and logged
    once). `logdir` may also be one trace or snapshot file: then it is run "." of that file
    alone. `earlier`: the last discovery of the same logdir, whose path strings and imported
    files are kept where they are unchanged (`_Gate.join`)."""
    root = os.path.abspath(logdir)
    if os.path.isfile(root):
        return Discovery(_single_file_run(root))
    runs: dict[str, Run] = {}
    if not os.path.isdir(root):
        return Discovery(runs)
    follow = follow_links_from_env() if follow_links is None else follow_links
    gate = _Gate(os.path.realpath(root), follow)
    if earlier is not None:
        gate.earlier, gate.earlier_imported = earlier.kept_paths(), earlier.kept_imported()
    for dirpath, dirnames, filenames in _walk(root, gate):
        rel = os.path.relpath(dirpath, root)
        name = "." if rel == "." else rel.replace(os.sep, "/")
        importer = _importing_run(runs, name)
        if importer is not None:  # <run>/plugins/tb_perf/imported: every file, nothing deeper
            dirnames[:] = []
            importer.imported += _imported_files(dirpath, filenames, gate, lambda f: True)
            continue
        events = [f for f in filenames if is_tfevents_name(f)]
        plugin_dir = os.path.join(dirpath, PLUGIN_DIR)  # a link out of the logdir is not one
        has_plugin_dir = os.path.isdir(plugin_dir) and gate.admits(plugin_dir, regular=False)
        if events or has_plugin_dir:
            run = runs[name] = Run(name, dirpath)
            run.tfevents = [gate.join(dirpath, f) for f in events]
            if has_plugin_dir:
                run.writers = _writer_files(plugin_dir, gate)
        owner = _enclosing_run(runs, name)
        traces = _trace_files(dirpath, filenames, gate)
        snapshots = [gate.join(dirpath, f) for f in filenames if is_snapshot_name(f)]
        snapshots = [path for path in snapshots if gate.admits(path)]  # before any is read
        if owner is None:  # a folder of traces, or of snapshots only, is a run of its own
            snapshots = [path for path in snapshots if _is_snapshot(path, *file_version(path))]
            if traces or snapshots:
                owner = runs[name] = Run(name, dirpath)
        if owner is not None:
            owner.traces.extend(traces)
            owner.snapshots.extend(snapshots)
        if name in runs:  # files dropped into the run directory itself
            runs[name].imported += _imported_files(
                dirpath, filenames, gate, lambda f: f.lower().endswith(DROPPED_SUFFIXES)
            )
    left_out = _hand_out_refusals(runs, root, gate.refused)
    for run in runs.values():
        _settle(run)
    for run in list(runs.values()):
        runs.update(_split_jobs(run))
    return Discovery(runs, left_out[:LEFT_OUT], max(0, len(left_out) - LEFT_OUT))


def is_tfevents_name(name: str) -> bool:
    """A TensorBoard event file, as TensorBoard's writers name them. (TensorBoard itself takes
    any name that contains `tfevents`, which makes a source file `_tfevents.py` a run.)"""
    return TFEVENTS_MARK in name


def is_trace_candidate(name: str) -> bool:
    """A name a JSON trace may have: `*.json` or `*.json.gz` (its content decides)."""
    return name.lower().endswith(_JSON_SUFFIXES) and not name.startswith(".")


def _trace_files(dirpath: str, filenames: list[str], gate: _Gate) -> list[str]:
    """The torch.profiler traces of a directory the gate admits: files named as torch.profiler
    names them (a damaged one is then reported when read), and other JSON files whose first
    bytes are a trace's (`rank0.json.gz`, Chrome traces; not the collectors' own files)."""
    traces = []
    for filename in filenames:
        path = gate.join(dirpath, filename)
        named = _is_trace(filename)
        ours = _WRITER_FILE.match(filename) or _TASK_SUMMARY.match(filename)
        if not named and (ours or not is_trace_candidate(filename)):
            continue
        if gate.admits(path) and (
            named or _sniff(path, *file_version(path)).kind is FileKind.KINETO
        ):
            traces.append(path)
    return traces


def _single_file_run(path: str) -> dict[str, Run]:
    """Run "." of one trace or snapshot file, named by whoever runs the command (its links are
    theirs to follow); no run for a file of any other kind."""
    run = Run(".", os.path.dirname(path))
    if is_trace_candidate(os.path.basename(path)) and sniff(path).kind is FileKind.KINETO:
        run.traces = [path]
    elif is_memory_snapshot(path):
        run.snapshots = [path]
    else:
        return {}
    _settle(run)
    return {".": run}


def command_line_root(run: str, logdir: str | None) -> str:
    """Where a command line's RUN is looked for: --logdir, else RUN itself (a run directory, or
    one trace or snapshot file: a run of its own)."""
    if logdir is not None or os.path.isfile(run):
        return logdir or run
    if not os.path.isdir(run):
        raise InvalidArgument(
            f"{run!r} is not a directory (give a run directory, a trace or snapshot file, or "
            "--logdir)"
        )
    return run


def command_line_run(run: str, logdir: str | None, runs: dict[str, Run], job: str | None) -> str:
    """The name, among `runs` (discovered under `command_line_root`), of the run a command
    line's RUN (with --logdir: a run name in it) and --job name."""
    if logdir is not None:
        name = run
    elif os.path.isfile(run):
        if not runs:
            raise Unreadable(single_file_refusal(run))
        name = "."
    else:
        # an older job of a directory is a run too (`<name>@<job>`), picked with --job
        names = sorted(n for n, found in runs.items() if n == found.directory)
        if "." in names:
            name = "."
        elif len(names) == 1:
            name = names[0]
        elif not names:
            raise NotFound(f"no tb-perf run or torch.profiler trace under {run!r}")
        else:
            listing = ", ".join(names[:20]) + (" ..." if len(names) > 20 else "")
            raise InvalidArgument(
                f"{run!r} holds {len(names)} runs ({listing}); use --logdir {run} NAME"
            )
    return name if job is None else _job_run(runs, name, job)


def _job_run(runs: dict[str, Run], name: str, job: str) -> str:
    """The run name of job `job` (its id, or the start of one) of run `name`'s directory."""
    found = runs.get(name)
    if found is None:
        raise NotFound(f"no run named {name!r} under the logdir")
    jobs = found.jobs
    if not jobs:
        raise InvalidArgument(f"--job {job!r}: run {name!r} holds one job")
    matches = [j for j in jobs if j.id == job] or [j for j in jobs if j.id.startswith(job)]
    if len(matches) != 1:
        listing = ", ".join(j.id for j in jobs)
        which = "matches several" if matches else "is not one"
        raise InvalidArgument(f"--job {job!r} {which} of the run's jobs (newest first: {listing})")
    return matches[0].run


def single_file_refusal(path: str) -> str:
    """Why the file at `path` is not a run of its own, in words."""
    name = os.path.basename(path)
    if is_snapshot_name(name):
        return f"{name} is not a memory snapshot (a pickled torch.cuda.memory._snapshot())"
    found = sniff(path)
    if found.kind is not None:  # a kineto file not named *.json[.gz], or another tool's
        return (
            f"{name} is a file of kind {found.kind.value} ({found.reason}): import it into a run "
            "with `tb-perf ingest FILE --run RUN` (docs/IMPORT.md)"
        )
    if is_trace_candidate(name):
        return f"{name} is not a torch.profiler trace ({found.reason})"
    return f"{name} is neither a torch.profiler trace (*.json, *.json.gz) nor a memory snapshot"


def _settle(run: Run) -> None:
    """Sort what discovery found of a run and date it by its newest file."""
    run.imported.sort(key=lambda f: f.path)
    files = run.tfevents + run.traces + [p for w in run.writers for p in w.files.values()]
    files += [f.path for f in run.imported]
    run.updated_ns = max((file_version(p)[1] for p in files), default=0)


def _walk(root: str, gate: _Gate) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk of the logdir, top-down and sorted, without hidden folders (a caller may prune
    `dirnames`); then the folders behind links it met, each under the link's name, where the
    real folder was not walked already (so a link to a run shows it once, under its own name,
    and a cycle ends) and the gate lets the walk in."""
    walked: set[str] = set()
    pending = [root]
    while pending:
        top = pending.pop(0)
        if top != root and not gate.enters(top):
            continue
        for dirpath, dirnames, filenames in os.walk(top, onerror=gate.not_listed):
            real = os.path.realpath(dirpath)
            if real in walked:  # reached already, by its own path or another link
                dirnames[:] = []
                continue
            walked.add(real)
            gate.walked(dirpath, real)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            filenames.sort()
            yield dirpath, dirnames, filenames
            pending += [
                os.path.join(dirpath, d)
                for d in dirnames
                if os.path.islink(os.path.join(dirpath, d))
            ]


def _group_jobs(writers: list[WriterFiles]) -> list[list[WriterFiles]]:
    """Writers in jobs, oldest job first. Writers join the job under way unless it has a writer
    of the same rank that ended before they started: a second run into the same directory.
    (Ranks of one job run at once; a rank's writer starting while another of that rank runs is
    a clash within the job, left to the caller.)"""
    jobs: list[list[WriterFiles]] = []
    ended: dict[int, int] = {}  # rank -> when the job under way's first writer of it ended
    for writer in sorted(writers, key=lambda w: (w.started_ns, w.rank, w.prefix)):
        if not jobs or ended.get(writer.rank, writer.started_ns) < writer.started_ns:
            jobs.append([writer])
            ended = {}
        else:
            jobs[-1].append(writer)
        ended[writer.rank] = min(ended.get(writer.rank, writer.ended_ns), writer.ended_ns)
    return jobs


def _job_id(writers: list[WriterFiles]) -> str:
    first = writers[0]  # an id is a run name's part: only one of the collectors' form is taken
    writer_id = first.meta.writer_id if first.meta is not None else None
    if writer_id is not None and re.fullmatch(_WRITER_ID, writer_id):
        return writer_id
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(first.started_ns // 10**9))


def _without_clashes(writers: list[WriterFiles]) -> tuple[list[WriterFiles], list[str]]:
    """One writer per rank (the first to start) and a warning naming each pair that clashed."""
    kept: dict[int, WriterFiles] = {}
    notices = []
    clashes = 0
    for writer in writers:
        first = kept.setdefault(writer.rank, writer)
        if first is not writer and (clashes := clashes + 1) <= SHOWN_REFUSED:
            notices.append(
                f"rank {writer.rank} is claimed by two processes of one job: {first.describe()} "
                f"and {writer.describe()} (files {first.prefix}.* and {writer.prefix}.*); "
                "showing the first. Give each process its own RANK (or run directory)"
            )
    if clashes > SHOWN_REFUSED:  # each of 50,000 writers of one rank was a notice
        notices.append(
            f"{clashes - SHOWN_REFUSED:,} more processes claim a rank another process of the "
            "job claims; showing the first of each rank"
        )
    return sorted(kept.values(), key=lambda w: (w.rank, w.prefix)), notices


def _owned(paths: list[str], prefixes: set[str], others: set[str], newest: bool) -> list[str]:
    """A job's files: its writers' (named `<prefix>.*`, a prefix of `prefixes`), and (the
    newest job's) those of no writer (of no prefix of `others` either)."""

    def named_by(path: str, chosen: set[str]) -> bool:
        return any(lead in chosen for lead in _leading(os.path.basename(path)))

    return [
        path
        for path in paths
        if named_by(path, prefixes) or (newest and not named_by(path, others))
    ]


def _split_jobs(run: Run) -> dict[str, Run]:
    """The run limited to its newest job, and one run per older job (`<name>@<job id>`), with
    the notices that say so; in every job, one writer per rank (the files of a writer left out
    for claiming a rank twice are left out too)."""
    groups = _group_jobs(run.writers)[::-1]  # newest first
    if not groups:
        return {}
    cleaned = [_without_clashes(group) for group in groups]
    ids = [_job_id(group) for group in groups]
    names = [run.name] + [f"{run.name}{JOB_SEPARATOR}{job_id}" for job_id in ids[1:]]
    several = len(groups) > 1
    jobs = [
        Job(job_id, name, writers[0].started_ns, tuple(sorted({w.rank for w in writers})))
        for job_id, name, (writers, _) in zip(ids, names, cleaned, strict=True)
    ]
    every = ", ".join(job.id for job in jobs)
    split: dict[str, Run] = {}
    for index, (job, (writers, clashes)) in enumerate(zip(jobs, cleaned, strict=True)):
        prefixes = {w.prefix for w in writers}  # sets: 50,000 writers took minutes as tuples
        others = {w.prefix for w in run.writers} - prefixes
        newest = index == 0
        notices = clashes
        if several:
            which = "the newest" if newest else f"job {job.id}"
            notices = [
                f"this run directory holds {len(jobs)} jobs (a script run into it more than "
                f"once); showing {which}; pick another with the Job selector or `tb-perf --job "
                f"ID` (jobs, newest first: {every})",
                *clashes,
            ]
        split[job.run] = dataclasses.replace(
            run,
            name=job.run,
            directory=run.name,
            writers=writers,
            traces=_owned(run.traces, prefixes, others, newest),
            snapshots=_owned(run.snapshots, prefixes, others, newest),
            tfevents=run.tfevents if newest else [],
            imported=run.imported if newest else [],
            refused=run.refused if newest else [],
            refused_more=run.refused_more if newest else {},
            jobs=jobs if several else [],
            job=job.id if several else None,
            notices=notices,
        )
    return split


def _hand_out_refusals(
    runs: dict[str, Run], root: str, refused: dict[str, tuple[str, str]]
) -> list[LeftOut]:
    """Each refused path goes to the run that holds it; the rest (a folder that holds no run
    yet, perhaps because it could not be listed or is a link out of the logdir) is returned,
    by its path relative to the logdir, and logged the first time a discovery meets it
    (discovery runs every few seconds)."""
    left_out = []
    orphans = []
    for path, (kind, reason) in sorted(refused.items()):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        owner = _enclosing_run(runs, "." if rel == "." else rel)
        if owner is not None:
            owner.refuse(os.path.relpath(path, owner.path), reason)
            continue
        left_out.append(LeftOut(rel, kind, reason))
        if (path, reason) in _LOGGED_ORPHANS:
            continue
        if len(_LOGGED_ORPHANS) < LOGGED_ORPHANS:  # remembered for ever: bounded
            _LOGGED_ORPHANS.add((path, reason))
            orphans.append(f"{rel}: {reason}")
        elif not _ORPHANS_FULL:
            _ORPHANS_FULL.append(True)
            logger.warning(
                "tb_perf: more than %d paths left out of the logdir; the others are not "
                "logged (the PERF tab lists them)", LOGGED_ORPHANS,
            )  # fmt: skip
    if orphans:
        logger.warning("tb_perf: left out of the logdir %s: %s", root, "; ".join(orphans[:20]))
    return left_out


def _importing_run(runs: dict[str, Run], name: str) -> Run | None:
    """The run whose imported/ folder the directory `name` is, if it is one."""
    suffix = "/" + IMPORTED_DIR.replace(os.sep, "/")
    if not ("/" + name).endswith(suffix):
        return None
    return runs.get(("/" + name)[: -len(suffix)].lstrip("/") or ".")


def _imported_files(
    dirpath: str, filenames: list[str], gate: _Gate, chosen: Callable[[str], bool]
) -> list[ImportedFile]:
    """The chosen files of a directory, sniffed; hidden and temporary files (a copy under
    way), snapshot pickles (read as snapshots) and files the gate refuses are left out."""
    out = []
    for filename in filenames:
        path = gate.join(dirpath, filename)
        hidden = filename.startswith(".") or filename.endswith(".tmp")
        if hidden or is_snapshot_name(filename) or not chosen(filename):
            continue
        if os.path.isdir(path) or not gate.admits(path):
            continue
        out.append(gate.imported(path, _sniff(path, *file_version(path))))
    return out


V = TypeVar("V", bound=Hashable)
VERDICTS = 1 << 16  # file versions whose verdicts are kept
SHARED_VERDICTS = 1 << 10  # distinct verdicts kept once each


class _Verdicts(Generic[V]):
    """What `judge(path)` said of each file version: discovery runs every few seconds and reads
    only a bounded head of a file, once per version. Kept by a 16-byte digest of the path,
    size and modification time, at most VERDICTS of them (the oldest go first), each distinct
    verdict once: about 120 B a file, where an lru_cache of paths and verdicts held about
    500 B (a verdict's text made anew for each file, and every path it was asked about)."""

    def __init__(self, judge: Callable[[str], V], capacity: int = VERDICTS) -> None:
        self._judge = judge
        self.capacity = capacity
        self._lock = threading.Lock()
        self._verdicts: dict[bytes, V] = {}
        self._shared: dict[V, V] = {}

    def __call__(self, path: str, size: int, mtime_ns: int) -> V:
        version = b"%d:%d:" % (size, mtime_ns) + os.fsencode(path)
        key = hashlib.blake2b(version, digest_size=16).digest()
        with self._lock:
            if key in self._verdicts:
                return self._verdicts[key]
        verdict = self._judge(path)
        with self._lock:
            if verdict in self._shared or len(self._shared) < SHARED_VERDICTS:
                verdict = self._shared.setdefault(verdict, verdict)
            self._verdicts[key] = verdict
            while len(self._verdicts) > self.capacity:
                del self._verdicts[next(iter(self._verdicts))]
        return verdict

    def __len__(self) -> int:
        return len(self._verdicts)

    def cache_clear(self) -> None:
        with self._lock:
            self._verdicts.clear()
            self._shared.clear()


# the module's names are looked up at each call (tests replace them)
_sniff: _Verdicts[Sniffed] = _Verdicts(lambda path: sniff(path))
_is_snapshot: _Verdicts[bool] = _Verdicts(lambda path: is_memory_snapshot(path))


def _enclosing_run(runs: dict[str, Run], name: str) -> Run | None:
    parts = [] if name == "." else name.split("/")
    for depth in range(len(parts), -1, -1):
        candidate = "/".join(parts[:depth]) or "."
        if candidate in runs:
            return runs[candidate]
    return None


def _writer_files(plugin_dir: str, gate: _Gate) -> list[WriterFiles]:
    writers: dict[str, WriterFiles] = {}
    for entry in gate.listing(plugin_dir):
        path = gate.join(plugin_dir, entry)
        task = _TASK_SUMMARY.match(entry)
        if task is not None:
            if gate.admits(path):
                writers.setdefault(task[1], WriterFiles(task[1], int(task[2])))
                writers[task[1]].task_summaries.append(path)
            continue
        match = _WRITER_FILE.match(entry)
        if match is None or not gate.admits(path):
            continue
        prefix, rank, kind, _ = match.groups()
        writer = writers.get(prefix) or writers.setdefault(prefix, WriterFiles(prefix, int(rank)))
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
