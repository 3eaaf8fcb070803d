"""The run store: the runs under the logdir, their read tables and everything derived from
them, each computed once per version of the run's files (docs/ARCHITECTURE.md, contracts).

A facade: discovery (discovery.py), reading a run (pipeline/), its analysis and timeline,
snapshots (ingest/snapshot.py) and the job pool (jobs.py) do the work; the views (views/) read
what they need through it and shape their answers. Thread-safe (TensorBoard's server is
threaded). Starts no thread or process in its constructor: the job pool and the ingest
executor are created by the first request that needs them. A request waits briefly for work
that takes long; while it runs, the store raises `Progress` (HTTP 202).
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from .analysis import memory_snapshot
from .analysis.memory import SnapshotFacts, snapshot_facts
from .analysis.modules import ModuleData
from .discovery import Discovery, LeftOut, Run, discover, file_version
from .errors import NotFound, TbPerfError, Unreadable
from .executor import LazyExecutor
from .ingest.cache import TraceCache
from .ingest.files import follow_links_from_env
from .ingest.snapshot import Snapshot, read_snapshot
from .jobs import Job, JobPool
from .params import rank_param, required, shown
from .pipeline.analyze import RunAnalysis, analysis_of, module_data
from .pipeline.cache_keys import still_written
from .pipeline.lanes import build_timeline, rank_input, rank_piece
from .pipeline.rank_summary import on_workers
from .pipeline.rank_timeline import build_timeline_on
from .pipeline.read import FileWarnings, RunTables, TraceFile, read_run
from .pipeline.result_cache import ResultCache, Stored, result_key
from .pipeline.run_timeline import RunTimeline, TimelineOutline
from .pipeline.timeline import Timeline
from .remote import RemoteMirror, is_remote, local_path

DEFAULT_MAX_FILE_BYTES = int(float(os.environ.get("TB_PERF_MAX_FILE_MB", "4096")) * 1e6)
CACHED_SNAPSHOTS = 4  # loaded snapshots kept (their tables take a few times the file's size)
CACHED_PIECES = 32  # ranks' timeline pieces kept loaded (the rest are read again when shown)
INLINE_WAIT = -1.0  # as a `wait_s` argument: the store's inline_wait_s; None waits until done

T = TypeVar("T")


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


class PieceCache:
    """The ranks' timeline pieces last used, by run, version and rank: what is mapped of a
    timeline is bounded by this, not by the run's ranks."""

    def __init__(self, capacity: int = CACHED_PIECES) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._loaded: OrderedDict[tuple, Timeline] = OrderedDict()

    def get(self, key: tuple, load: Callable[[], Timeline]) -> Timeline:
        with self._lock:
            if key in self._loaded:
                self._loaded.move_to_end(key)
                return self._loaded[key]
        piece = load()
        self.keep(key, piece)
        return piece

    def holds(self, key: tuple) -> bool:
        with self._lock:
            return key in self._loaded

    def keep(self, key: tuple, piece: Timeline) -> None:
        with self._lock:
            self._loaded[key] = piece
            self._loaded.move_to_end(key)
            while len(self._loaded) > self.capacity:
                self._loaded.popitem(last=False)


class Signatures:
    """Runs' signatures (`Run.signature`, the versions of the snapshots an analysis reads),
    each computed once for the requests that ask for it while it is computed: every request
    about a run asks for it, and it stats every file of the run. A client's six panels polling
    a run of 50,000 files made six at a time, each a tuple a file, which left the server's
    heap fragmented once they were freed (and kept a core busy). A request that comes while
    one is computed gets that one: begun a moment before it came, as if it had come a moment
    earlier."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._computing: dict[tuple[str, str], tuple[Run, concurrent.futures.Future]] = {}

    def of(self, run: Run, kind: str, compute: Callable[[], T]) -> T:
        """`compute()`, the `kind` of signature of `run` (this very Run: one discovered again
        may have other files), or the one computed for it now."""
        key = (run.name, kind)
        with self._lock:
            found = self._computing.get(key)
            if found is not None and found[0] is run:
                future, mine = found[1], False
            else:
                future, mine = concurrent.futures.Future(), True
                self._computing[key] = (run, future)
        if not mine:
            value: T = future.result()
            return value
        try:
            value = compute()
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            with self._lock:
                if self._computing.get(key, (None,))[0] is run:
                    del self._computing[key]
        future.set_result(value)
        return value


class RunStore:
    """The logdir's runs and what is read and derived of each, cached by file version."""

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
        # what the store reads depends on these too: results read under others are not served
        self.result_cache = ResultCache(cache_dir, settings=(max_file_bytes, self.follow_links))
        self._executor = LazyExecutor(executor)
        self._lock = threading.Lock()
        self._runs: dict[str, Run] = {}
        self._left_out: list[LeftOut] = []
        self._left_out_more = 0  # left out beyond those listed (discovery.LEFT_OUT)
        self._discovery: Discovery | None = None  # the last one (the next reuses its paths)
        self._discovering = False  # a request is walking the logdir
        self._discovered_at = float("-inf")
        self._jobs = JobPool(on_executor_lost=self._executor.shutdown)
        self._file_reads: dict[str, Any] = {}  # last read of each record file
        self._snapshots = SnapshotCache()
        self._pieces = PieceCache()
        self._signatures = Signatures()

    # --- runs --------------------------------------------------------------------------------

    def discover(
        self, force: bool = False, *, wait_s: float | None = INLINE_WAIT
    ) -> dict[str, Run]:
        """The runs by name, found again every `discovery_ttl_s`. A remote logdir's mirror is
        brought up to date first, waiting for that up to `wait_s` seconds. The walk runs
        outside the store's lock: while one request walks the logdir, the others get the runs
        found last (a logdir of 50,000 files takes a second to walk, every few seconds)."""
        if self.mirror is not None:
            self.mirror.refresh(self.wait(wait_s))
            force = force or self.mirror.generation != self._mirror_generation
        with self._lock:
            due = force or time.monotonic() - self._discovered_at > self.discovery_ttl_s
            found_once = self._discovery is not None
            if not due or (self._discovering and found_once and not force):
                return self._runs
            self._discovering = True
            earlier = self._discovery
            generation = self.mirror.generation if self.mirror is not None else None
        local = self.mirror.local_root if self.mirror else local_path(self.logdir)
        try:
            found = discover(local, self.follow_links, earlier)
        finally:
            with self._lock:
                self._discovering = False
        with self._lock:
            if generation is not None:
                self._mirror_generation = generation
            self._discovery = found
            self._runs, self._left_out = found.runs, found.left_out
            self._left_out_more = found.left_out_more
            self._discovered_at = time.monotonic()
            self._jobs.forget_runs_except(self._runs)
            return self._runs

    def left_out(self, *, wait_s: float | None = INLINE_WAIT) -> list[LeftOut]:
        """What the last discovery left out of the logdir and of every run (by path)."""
        self.discover(wait_s=wait_s)
        with self._lock:
            return self._left_out

    def left_out_counted(self) -> tuple[list[LeftOut], int]:
        """`left_out` and how many paths it left out in all (it lists discovery.LEFT_OUT)."""
        self.discover()
        with self._lock:
            return self._left_out, len(self._left_out) + self._left_out_more

    def has_runs(self) -> bool:
        return bool(self.discover(wait_s=0))  # asked on every plugin listing: never waits

    def has_notices(self) -> bool:
        """Whether something was left out of the logdir (never waits, as `has_runs`)."""
        return bool(self.left_out(wait_s=0))

    def find_run(self, name: str | None) -> Run:
        """The run named `name`: `InvalidArgument` without one, `NotFound` if there is none."""
        name = required(name, "run")
        run = self.discover().get(name)
        if run is None or not os.path.isdir(run.path):  # new since, or removed since, discovery
            run = self.discover(force=True).get(name)
        if run is None:
            raise NotFound(f"no run named {shown(name)} under the logdir")
        return run

    def ranks(self, run: Run, tables: RunTables | None = None) -> list[int]:
        """The run's ranks once its tables are read: a trace's own (its distributedInfo, say:
        the timeline's), not its file name's, so every view agrees (a name's rank only for
        files new since the read). Without tables: the tables held, else the files' names."""
        if tables is None:
            tables = self._jobs.kept((run.name, "tables"))
            if tables is None:
                return run.ranks
        return run.ranks_after_reading({entry[0] for entry in tables.signature}, tables.ranks)

    def selected_rank(self, run: Run, tables: RunTables, rank: str | None) -> int | None:
        """The rank a request's `rank` parameter names, one of the run's ranks once read
        (`InvalidArgument` otherwise); None when not given (every rank)."""
        return rank_param(self.ranks(run, tables), rank)

    def wait(self, wait_s: float | None) -> float | None:
        """`wait_s` with INLINE_WAIT resolved to the store's inline wait."""
        return self.inline_wait_s if wait_s == INLINE_WAIT else wait_s

    # --- what is read and derived of a run ---------------------------------------------------

    def tables(self, run: Run, wait_s: float | None = None) -> RunTables:
        """The run's tables; `Progress` if not read within `wait_s` seconds (None: waits until
        read; INLINE_WAIT: the store's inline wait, as every `wait_s` of the store)."""
        signature = self._signatures.of(run, "files", run.signature)
        total = sum(max(size, 0) for path, size, *_ in signature if not path.endswith(".meta.json"))

        def work(job: Job) -> RunTables:
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

        return self._jobs.result((run.name, "tables"), signature, total, work, self.wait(wait_s))

    def derived(
        self,
        run: Run,
        kind: str,
        build: Callable[[RunTables], T],
        wait_s: float | None = None,
        extra_signature: tuple = (),
    ) -> T:
        """`build(tables)` for this run version (and of the files in `extra_signature`), as a
        job after the tables' own, cached under `kind` (one name per kind of result) in memory
        and on disk (`ResultCache`: a restart computes nothing again)."""
        wait = self.wait(wait_s)
        tables = self.tables(run, wait)
        signature = tables.signature + extra_signature  # of the version read (live: maybe older)
        total = sum(t.slices for t in tables.traces) + len(tables.spans)

        def work(job: Job) -> T:
            found = self.result_cache.load(kind, signature, tables.traces)
            if found is None:
                built = build(tables)
                found = self.result_cache.store(kind, signature, built, tables.traces)
                found = found or Stored(built)
            job.advance(total)
            return found.value

        return self._jobs.result((run.name, kind), signature, total, work, wait)

    def timeline(self, run: Run, wait_s: float | None = None) -> RunTimeline:
        """The run's timeline: every rank's lanes on rank 0's clock, with zoom levels; its
        outline computed once per version, each rank's piece stored apart and read when
        shown (`PieceCache`)."""
        tables = self.tables(run, wait_s)
        if not len(tables.spans) and not any(t.slices for t in tables.traces):
            raise NotFound(f"run {run.name!r} has no trace events or MyTimer spans to draw")

        def stored_piece(rank: int, read: RunTables, piece: Timeline) -> Timeline:
            """The rank's piece as stored and served (the piece itself if not stored)."""
            stored = self.result_cache.store(f"timeline:{rank}", read.signature, piece, read.traces)
            return stored.value if stored else piece

        def build(read: RunTables) -> TimelineOutline:  # `read`: the version `derived` read
            def keep(rank: int, piece: Timeline) -> None:
                self._pieces.keep((run.name, read.signature, rank), stored_piece(rank, read, piece))

            executor = self._executor.get()
            if still_written(read.signature) or not on_workers(read, executor, self.trace_cache):
                return build_timeline(read, keep)  # here (a live run's pieces are not stored)

            def entry(rank: int) -> str:
                return result_key(f"timeline:{rank}", read.signature, self.result_cache.settings)

            root = self.trace_cache.location
            return build_timeline_on(executor, read, root, self.max_file_bytes, entry, keep)

        found = self.derived(run, "timeline", build, wait_s)

        def load(rank: int) -> Timeline:
            stored = self.result_cache.load(f"timeline:{rank}", tables.signature, tables.traces)
            if stored is not None:
                return stored.value
            # evicted from the cache, or never stored (an unwritable cache, a live run)
            built = rank_piece(
                rank_input(tables, rank, found.alignments[rank]), found.origin_ns, found.gap_ns
            )
            return stored_piece(rank, tables, built)

        def piece(rank: int) -> Timeline:
            return self._pieces.get((run.name, tables.signature, rank), lambda: load(rank))

        def ready(ranks: list[int]) -> None:
            settings = self.result_cache.settings
            self.result_cache.fetch([
                result_key(f"timeline:{rank}", tables.signature, settings)
                for rank in ranks if not self._pieces.holds((run.name, tables.signature, rank))
            ])  # fmt: skip

        return RunTimeline(found, piece, ready)

    def analysis(self, run: Run, wait_s: float | None = None) -> RunAnalysis:
        """The run's analysis (breakdowns, operators, kernels, findings), computed once per
        version of its files and of the snapshots the memory findings read."""
        snapshots, extra = self._signatures.of(run, "snapshots", lambda: _snapshot_versions(run))

        def build(tables: RunTables) -> RunAnalysis:
            facts, problems = self._snapshot_facts(run, snapshots)
            return analysis_of(
                run, tables, self._executor.get(), self.trace_cache, self.max_file_bytes,
                facts, problems,
            )  # fmt: skip

        return self.derived(run, "analysis", build, wait_s, extra)

    def module_data(self, run: Run, wait_s: float | None = None) -> ModuleData:
        """The run's module calls (ModuleProfiler records, else traces), computed once."""
        return self.derived(run, "modules", module_data, wait_s)

    def snapshot(
        self, run: Run, file: str | None, wait_s: float | None = None
    ) -> tuple[str, Snapshot]:
        """The path and contents of the run's snapshot named `file` (its path relative to the
        run, as the memory route lists it; looked up among the discovered files, never joined
        into a path), loaded as a job: a large pickle answers with progress first."""
        file = required(file, "file")
        path = next((p for p in run.snapshots if relative_path(run, p) == file), None)
        if path is None:
            raise NotFound(f"no memory snapshot {shown(file)} in run {run.name!r}")
        version = file_version(path)
        snapshot = self._jobs.result(
            (run.name, f"snapshot:{file}"), (path, *version), max(version[0], 0),
            lambda job: self._snapshots.get(path, self.max_file_bytes), self.wait(wait_s),
            keep=False,  # the snapshot cache keeps it (and lets it go)
        )  # fmt: skip
        return path, snapshot

    def pair(
        self,
        runs: tuple[Run, Run],
        kind: str,
        build: Callable[[], T],
        wait_s: float | None = None,
    ) -> T:
        """`build()` of two runs (their own results already cached), once per pair of their
        versions, cached under the first run as `kind:<second run>`."""
        signature = runs[0].signature() + (None,) + runs[1].signature()
        return self._jobs.result(
            (runs[0].name, f"{kind}:{runs[1].name}"), signature, 1, lambda job: build(),
            self.wait(wait_s),
        )  # fmt: skip

    def _snapshot_facts(
        self, run: Run, snapshots: list[tuple[int | None, str]]
    ) -> tuple[list[SnapshotFacts], list[str]]:
        """What the memory findings use of each snapshot, and why a snapshot was skipped."""
        facts: list[SnapshotFacts] = []
        problems = FileWarnings("snapshot")  # a few named, the rest counted (50,000 ranks')
        for rank, path in snapshots:
            name = relative_path(run, path)
            try:
                snap = self._snapshots.get(path, self.max_file_bytes)
                facts.append(snapshot_facts(
                    name, rank, memory_snapshot.snapshot_summary(snap),
                    functools.partial(memory_snapshot.by_first_user_frame, snap),
                ))  # fmt: skip
            except TbPerfError as exc:  # messages name the file: say where it is
                folder = os.path.dirname(name)
                base = os.path.basename(path)
                named = exc.message.startswith(base)
                where = (f"{folder}/" if folder else "") if named else f"{name}: "
                reason = exc.message[len(base) :].lstrip(": ") if named else exc.message
                problems.add(f"snapshot {where}{exc.message}", f"refused: {reason}")
        return facts, problems.warnings()

    def close(self) -> None:
        self._jobs.close()
        self._executor.shutdown()


def relative_path(run: Run, path: str) -> str:
    """A file's path relative to its run, as the routes name files."""
    return os.path.relpath(path, run.path).replace(os.sep, "/")


def selected_traces(tables: RunTables, selected: int | None) -> list[TraceFile]:
    """The traces read of the selected rank (all without one)."""
    return [t for t in tables.traces if selected is None or t.rank == selected]


def _snapshot_versions(run: Run) -> tuple[list[tuple[int | None, str]], tuple]:
    """`newest_snapshots` and their versions (path, size, modification time)."""
    snapshots = newest_snapshots(run)
    return snapshots, tuple((p, *file_version(p)) for _, p in snapshots)


def newest_snapshots(run: Run) -> list[tuple[int | None, str]]:
    """(rank, path) of the newest snapshot of each rank (of no known rank: one more)."""
    newest: dict[int | None, tuple[int, str]] = {}
    for path in run.snapshots:
        rank, mtime = run.snapshot_rank(path), file_version(path)[1]
        if rank not in newest or mtime > newest[rank][0]:
            newest[rank] = (mtime, path)
    return [(rank, path) for rank, (_, path) in newest.items()]


__all__ = ["INLINE_WAIT", "RunStore", "relative_path", "selected_traces"]
