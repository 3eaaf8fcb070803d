"""Nsight Systems SQLite exports (`nsys export --type sqlite`) to the trace tables of a Kineto
trace, so the timeline, Kernel and operator views read them unchanged.

Read: CUDA kernels, memcpys and memsets (device events: pid = device, tid = stream), CUDA
runtime calls and CUPTI synchronizations (on their CPU thread), and NVTX push/pop and start/end
ranges (USER_ANNOTATION on their thread). Runtime calls keep CUPTI's `correlationId` as
`correlation`, the value their kernels and copies carry. Names follow Kineto's: runtime calls
lose nsys' `_v7000` version suffix, copies read "Memcpy HtoD (Pageable -> Device)".

Schema generations differ (tables created lazily, so any may be absent; names as StringIds ids
or as text; META_DATA_* or EXPORT_META_DATA): columns are looked up before use. Times are the
export's nanoseconds since the capture start plus TARGET_INFO_SESSION_START_TIME's Unix epoch.

A logdir is writable by others (docs/RELIABILITY.md's threat model), and a small SQLite file
can ask for unbounded work: a view or a virtual table under a table's name, a b-tree whose
pages are shared. So the file is opened once, checked (size, header, not WAL) on that
descriptor, and SQLite reads a private copy of those bytes, never the path again,
read-only and immutable, with schema functions untrusted; only plain tables (a real root page,
no generated column) are read, and every query runs under a budget (`_Budget`: VM steps and
rows proportional to the file's size, and a deadline): past it the file is refused as asking
for more work than its size allows. Every sqlite3 error becomes Unreadable. Rows arrive in
batches straight into int64 columns.
"""

from __future__ import annotations

import itertools
import os
import re
import sqlite3
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import BinaryIO

import numpy as np

from ..errors import Unreadable
from .files import Head, Verdict, human_bytes, open_input
from .tables import Kind, TraceMeta, TraceTables, build_trace_tables, intern

SQLITE_MAGIC = b"SQLite format 3\x00"
SQLITE_HEADER_BYTES = 100
BATCH_ROWS = 1 << 16
# The budget of one file's reads (`_Budget`). A table row takes at least ~9 bytes of its file
# and the reader reads each table two or three times: a dense real-shaped export (kernels
# only) takes 0.08 rows and 1.8 VM steps per byte, the real exports of ../shared/data under
# 0.01 and 0.1 (docs/RELIABILITY.md): 12x and 55x headroom at least.
ROWS_PER_BYTE = 1.0
STEPS_PER_BYTE = 100
BASE_ROWS = 100_000
BASE_STEPS = 20_000_000
BASE_SECONDS = 30.0
BYTES_PER_SECOND = 1 << 20
PROGRESS_EVERY = 1000  # VM steps between two calls of the progress handler
COPY_CHUNK_BYTES = 1 << 20
NSYS_TABLES = (
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "NVTX_EVENTS",
)
_READ_TABLES = {
    *NSYS_TABLES, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "StringIds", "TARGET_INFO_GPU",
    "TARGET_INFO_SESSION_START_TIME", "ThreadNames", "PROCESSES",
}  # fmt: skip
# nsys' own enums, for exports without ENUM_* tables (CUPTI numbers memory kinds differently).
_COPY_KINDS = {
    0: "Unknown", 1: "HtoD", 2: "DtoH", 3: "HtoA", 4: "AtoH", 5: "AtoA", 6: "AtoD", 7: "DtoA",
    8: "DtoD", 9: "HtoH", 10: "PtoP", 11: "Unified HtoD", 12: "Unified DtoH",
    13: "Unified DtoD",
}  # fmt: skip
_MEMORY_KINDS = {
    0: "Pageable", 1: "Pinned", 2: "Device", 3: "Array", 4: "Managed", 5: "Device Static",
    6: "Managed Static", 7: "Unknown",
}  # fmt: skip
_SYNC_KINDS = {1: "Event Sync", 2: "Stream Wait Event", 3: "Stream Sync", 4: "Context Sync"}
_NVTX_RANGES = (59, 60)  # NvtxPushPopRange, NvtxStartEndRange
_API_VERSION = re.compile(r"_v\d+$")
_COPY_DIRECTION = re.compile(r"^(UVM_)?([A-Z])TO([A-Z])$")


def sniff(head: Head) -> Verdict | None:
    if head.data.startswith(SQLITE_MAGIC):
        return Verdict(True, "SQLite database (an Nsight Systems export)")
    return None


def _copy_kind(name: str, label: str) -> str:
    """ENUM_CUDA_MEMCPY_OPER's CUDA_MEMCPY_KIND_HTOD as Kineto's "HtoD" (UVM_HTOD: "Unified
    HtoD"); other kinds by their label."""
    match = _COPY_DIRECTION.match(name.removeprefix("CUDA_MEMCPY_KIND_"))
    if match is None:
        return label
    return ("Unified " if match[1] else "") + f"{match[2]}to{match[3]}"


def read_nsys_sqlite(path: str, max_bytes: int) -> TraceTables:
    """One Nsight Systems SQLite export as TraceTables (times int64 Unix-epoch ns). Raises
    Unreadable for a file over `max_bytes`, not SQLite, in WAL mode, corrupt, not an nsys
    export, or asking for more work than its size allows."""
    name = os.path.basename(path)
    try:
        handle = open_input(path, max_bytes, "Nsight Systems export")
    except OSError as exc:
        raise Unreadable(f"{name}: cannot read ({exc.strerror or exc})") from None
    with handle:
        header = handle.read(SQLITE_HEADER_BYTES)
        if not header.startswith(SQLITE_MAGIC):
            raise Unreadable(f"{name}: not an SQLite database (no SQLite header)")
        if header[18:20] != b"\x01\x01":  # the write and read versions: 2 is WAL
            raise Unreadable(
                f"{name}: an SQLite database in WAL mode (its latest writes may be in "
                f"{name}-wal, which is not read): make it one file first, e.g. "
                f"sqlite3 {name} 'PRAGMA journal_mode=DELETE'"
            )
        budget = _Budget(os.fstat(handle.fileno()).st_size)
        try:
            connection = _connect(handle, budget)
            try:
                return _Export(connection, path, budget).tables()
            finally:
                connection.close()
        # sqlite3 decodes its own error messages as UTF-8: a damaged schema can make that fail
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if budget.exceeded is not None:
                raise Unreadable(budget.refusal(name)) from None
            raise Unreadable(f"{name}: corrupt or unreadable SQLite database ({exc})") from None
        except OSError as exc:  # the private copy: a full or unwritable temporary folder
            raise Unreadable(
                f"{name}: cannot copy it to a private file to read ({exc.strerror or exc}; "
                "TMPDIR picks the folder)"
            ) from None


def _connect(handle: BinaryIO, budget: _Budget) -> sqlite3.Connection:
    """The database of the opened file, read-only and immutable (no locks, no journal or WAL
    looked for), the schema's functions untrusted, values no longer than the file (Python
    3.11+), every statement under `budget`. SQLite opens files by path, and the logdir's path
    may have been swapped since it was checked (for a FIFO, a bigger file): so it opens a
    private copy of the `budget.size` bytes checked, removed once open."""
    fd, copy = tempfile.mkstemp(prefix="tb-perf-nsys-", suffix=".sqlite")
    try:
        with os.fdopen(fd, "wb") as out:
            handle.seek(0)
            left = budget.size
            while left > 0 and (chunk := handle.read(min(left, COPY_CHUNK_BYTES))):
                out.write(chunk)
                left -= len(chunk)
        connection = sqlite3.connect(
            f"file:{urllib.parse.quote(copy)}?mode=ro&immutable=1", uri=True
        )
        try:
            connection.text_factory = _lenient_text
            setlimit = getattr(connection, "setlimit", None)  # Python 3.11+
            if setlimit is not None:
                setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max(budget.size, 1 << 20))  # type: ignore[attr-defined]
            connection.set_progress_handler(budget.progress, PROGRESS_EVERY)
            connection.execute("PRAGMA trusted_schema = OFF")
            connection.execute("PRAGMA query_only = ON")
            connection.execute("PRAGMA schema_version").fetchall()  # the file is open now
        except BaseException:
            connection.close()
            raise
    finally:
        os.unlink(copy)
    return connection


class _Budget:
    """What reading one export may cost: VM steps and rows in proportion to its `size` (rows
    are stored in the file; a view, a virtual table or pages shared by a damaged b-tree make
    more of them than its bytes hold), and wall time. Steps and rows are counted, so a refusal
    does not depend on how busy the machine is; the deadline only backs them up."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.max_rows = BASE_ROWS + int(ROWS_PER_BYTE * size)
        self.max_calls = (BASE_STEPS + STEPS_PER_BYTE * size) // PROGRESS_EVERY
        self.deadline = time.monotonic() + BASE_SECONDS + size / BYTES_PER_SECOND
        self.rows = 0
        self.calls = 0
        self.exceeded: str | None = None

    def progress(self) -> int:
        """SQLite's progress handler: nonzero interrupts the statement."""
        self.calls += 1
        if self.calls > self.max_calls:
            self.exceeded = f"over {self.max_calls * PROGRESS_EVERY:,} SQLite steps"
        elif self.calls % 64 == 0 and time.monotonic() > self.deadline:
            self.exceeded = f"over {BASE_SECONDS + self.size / BYTES_PER_SECOND:.0f} s"
        return int(self.exceeded is not None)

    def take(self, rows: int) -> None:
        self.rows += rows
        if self.rows > self.max_rows:
            self.exceeded = f"over {self.max_rows:,} rows"
            raise sqlite3.OperationalError("row budget exceeded")

    def refusal(self, name: str) -> str:
        return (
            f"{name}: this export asks for more work than its size allows ({self.exceeded} "
            f"for {human_bytes(self.size)}): not read (a damaged or crafted database; a real "
            "Nsight Systems export reads in a fraction of that)"
        )


def _lenient_text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


class _Export:
    """One open export: which tables and columns it has, its strings, the columns being built."""

    def __init__(self, connection: sqlite3.Connection, path: str, budget: _Budget) -> None:
        self.db = connection
        self.budget = budget
        self.meta = TraceMeta(path=path)
        self.tables_present = self._plain_tables()
        self.names: list[str] = []
        self.parts: list[dict[str, np.ndarray]] = []
        self._strings: dict[int, str] | None = None

    def tables(self) -> TraceTables:
        name = os.path.basename(self.meta.path)
        if not self.tables_present & {*NSYS_TABLES, "StringIds"}:
            raise Unreadable(
                f"{name}: an SQLite database but not an Nsight Systems export (none of the "
                f"tables {', '.join(NSYS_TABLES)}); export with nsys export --type sqlite"
            )
        self._time_base()
        self._device_properties()
        self._kernels()
        self._memcpys()
        self._memsets()
        runtime_threads = self._runtime()
        self._synchronizations(runtime_threads)
        self._nvtx()
        self._thread_names()
        slices = {
            column: np.concatenate([part[column] for part in self.parts])
            if self.parts
            else np.zeros(0, np.int64)
            for column in ("start", "dur", "kind", "name", "pid", "tid", "correlation", "grid",
                           "block", "registers", "shared_memory", "blocks_per_sm")
        }  # fmt: skip
        if not len(slices["start"]):
            raise Unreadable(
                f"{name}: the export holds no CUDA or NVTX events (was nsys run with "
                "--trace=cuda,nvtx?)"
            )
        return build_trace_tables(self.meta, self.names, slices)

    # --- schema helpers ----------------------------------------------------------------------

    def _plain_tables(self) -> set[str]:
        """The export's plain tables (a real root page, CREATE TABLE). A name this reader reads
        that is anything else (a view; a virtual table, whose rows its module makes; a shadow
        table of one) refuses the file: no Nsight Systems export has one, and its rows are
        not bounded by the file's bytes."""
        plain, other = set(), {}
        for kind, table, root, sql in self.batches(
            "SELECT type, name, rootpage, sql FROM sqlite_master WHERE type IN ('table', 'view')"
        ):
            if not isinstance(table, str):
                continue
            virtual = kind == "table" and (
                not isinstance(root, int) or root <= 0
                or not isinstance(sql, str) or sql.lstrip()[:12].upper() != "CREATE TABLE"
            )  # fmt: skip
            if kind == "view" or virtual:
                other[table] = "a view" if kind == "view" else "a virtual table"
            else:
                plain.add(table)
        for vtab in [t for t, what in other.items() if what == "a virtual table"]:
            for table in [t for t in plain if t.startswith(vtab + "_")]:
                other[table] = f"a shadow table of the virtual table {vtab}"
        name = os.path.basename(self.meta.path)
        for table, what in other.items():
            if table in _READ_TABLES or table.startswith("ENUM_"):
                raise Unreadable(
                    f"{name}: {table} is {what}, which no Nsight Systems export has: not read "
                    "(only plain tables are)"
                )
        return plain

    def columns(self, table: str) -> set[str]:
        """A plain table's stored columns; one with a generated column (computed by the
        reader at each read: unbounded work per row) refuses the file."""
        if table not in self.tables_present:
            return set()
        info = list(self.batches(f'PRAGMA table_xinfo("{table}")'))
        generated = sum(row[6] in (2, 3) for row in info)
        if generated:  # counted, not named: a refusal never quotes the file's own text
            raise Unreadable(
                f"{os.path.basename(self.meta.path)}: {table} has {generated} generated "
                "column(s), which no Nsight Systems export has: not read"
            )
        return {row[1] for row in info if row[6] == 0}

    def fetched(self, sql: str) -> Iterator[list[tuple]]:
        """The query's rows in batches, counted against the budget (every query goes through
        here)."""
        cursor = self.db.execute(sql)
        while batch := cursor.fetchmany(BATCH_ROWS):
            self.budget.take(len(batch))
            yield batch

    def batches(self, sql: str) -> Iterator[tuple]:
        """The query's rows, one by one."""
        for batch in self.fetched(sql):
            yield from batch

    def rows(self, sql: str, width: int) -> Iterator[np.ndarray]:
        """The query's rows in batches, as int64 arrays of `width` columns (the SQL casts
        and COALESCEs every column to an integer)."""
        for batch in self.fetched(sql):
            yield np.array(batch, dtype=np.int64).reshape(-1, width)

    def select(self, table: str, expressions: list[str], where: str = "") -> np.ndarray:
        """All rows of integer `expressions` (cast, NULL -> -1) as one (rows, columns) array."""
        sql = ", ".join(f"COALESCE(CAST({e} AS INTEGER), -1)" for e in expressions)
        query = f'SELECT {sql} FROM "{table}"' + (f" WHERE {where}" if where else "")
        parts = list(self.rows(query, len(expressions)))
        return np.concatenate(parts) if parts else np.zeros((0, len(expressions)), np.int64)

    def strings(self) -> dict[int, str]:
        if self._strings is None:
            self._strings = {}
            if "StringIds" in self.tables_present:
                self._strings.update(
                    (key, value)
                    for key, value in self.batches("SELECT id, value FROM StringIds")
                    if isinstance(value, str)
                )
        return self._strings

    def name_ids(self, string_ids: np.ndarray, texts: list[str | None] | None = None) -> np.ndarray:
        """Our name ids of nsys StringIds ids, or of per-row `texts` where given (not None)."""
        strings = self.strings()
        distinct, inverse = np.unique(string_ids, return_inverse=True)
        ours = intern(self.names, (strings.get(int(i)) for i in distinct))
        out = ours[inverse.reshape(-1)] if len(string_ids) else np.zeros(0, np.int32)
        if texts is not None:
            rows = [i for i, text in enumerate(texts) if text is not None]
            if rows:
                out[rows] = intern(self.names, (texts[i] for i in rows))
        return out

    def texts(self, table: str, column: str, where: str = "") -> list[str | None]:
        """A text column, one value per row (None where not text), in the table's row order."""
        query = f'SELECT CASE WHEN typeof("{column}") = \'text\' THEN "{column}" END FROM "{table}"'
        return [row[0] for row in self.batches(query + (f" WHERE {where}" if where else ""))]

    def enum(
        self,
        table: str,
        fallback: dict[int, str],
        label: Callable[[str, str], str] | None = None,
    ) -> dict[int, str]:
        """An ENUM_* table as {id: text}, through `label(name, label)`, else `fallback`."""
        if not {"id", "name", "label"} <= self.columns(table):
            return fallback
        out = dict(fallback)
        for key, enum_name, enum_label in self.batches(f'SELECT id, name, label FROM "{table}"'):
            if isinstance(key, int) and isinstance(enum_label, str):
                out[key] = label(str(enum_name), enum_label) if label else enum_label
        return out

    def add(self, kind: Kind, start: np.ndarray, end: np.ndarray, name: np.ndarray,
            pid: np.ndarray, tid: np.ndarray, **columns: np.ndarray) -> None:  # fmt: skip
        """Queue one table's rows; rows without a proper interval are dropped and counted."""
        keep = (start >= 0) & (end >= start)
        dropped = int(len(start) - keep.sum())
        if dropped:
            self.meta.problems.append(
                f"{dropped} {kind.name.lower()} row(s) without an end (or ending before they "
                "start) skipped"
            )
        part = {
            "start": start[keep] + self.meta.base_time_ns,
            "dur": (end - start)[keep],
            "kind": np.full(int(keep.sum()), kind, np.int8),
            "name": name[keep], "pid": pid[keep], "tid": tid[keep],
        }  # fmt: skip
        rows = int(keep.sum())
        for column, fill in (("correlation", -1), ("grid", -1), ("block", -1), ("registers", -1),
                             ("shared_memory", -1), ("blocks_per_sm", -1.0)):  # fmt: skip
            values = columns.get(column)
            part[column] = values[keep] if values is not None else np.full(rows, fill)
        self.parts.append(part)

    # --- metadata ----------------------------------------------------------------------------

    def _time_base(self) -> None:
        if "utcEpochNs" in self.columns("TARGET_INFO_SESSION_START_TIME"):
            found = self.select("TARGET_INFO_SESSION_START_TIME", ["utcEpochNs"])
            if len(found) and found[0, 0] > 0:
                self.meta.base_time_ns = int(found[0, 0])
                return
        self.meta.problems.append(
            "no TARGET_INFO_SESSION_START_TIME in the export: times are nanoseconds since the "
            "capture start, not Unix-epoch"
        )

    def _device_properties(self) -> None:
        wanted = {
            "id": "id", "name": "name", "totalMemory": "totalGlobalMem",
            "computeMajor": "computeMajor", "computeMinor": "computeMinor", "smCount": "numSms",
            "maxThreadsPerBlock": "maxThreadsPerBlock", "threadsPerWarp": "warpSize",
            "maxRegistersPerBlock": "regsPerBlock", "maxRegistersPerSm": "regsPerMultiprocessor",
            "maxShmemPerBlock": "sharedMemPerBlock", "maxShmemPerSm": "sharedMemPerMultiprocessor",
            "maxWarpsPerSm": "maxWarpsPerSm", "clockRate": "clockRate",
            "memoryBandwidth": "memoryBandwidth",
        }  # fmt: skip
        present = [c for c in wanted if c in self.columns("TARGET_INFO_GPU")]
        if "id" not in present:
            return
        query = "SELECT " + ", ".join(f'"{c}"' for c in present) + " FROM TARGET_INFO_GPU"
        for row in itertools.islice(self.batches(query), 256):
            device = {wanted[c]: v for c, v in zip(present, row, strict=True) if v is not None}
            if isinstance(device.get("maxWarpsPerSm"), int) and isinstance(
                device.get("warpSize"), int
            ):
                device["maxThreadsPerMultiProcessor"] = device["maxWarpsPerSm"] * device["warpSize"]
            self.meta.device_properties.append(device)

    def _sm_count(self, devices: np.ndarray) -> np.ndarray:
        """SMs of each row's device (0 where unknown)."""
        counts = {
            d["id"]: d["numSms"]
            for d in self.meta.device_properties
            if isinstance(d.get("id"), int) and isinstance(d.get("numSms"), int)
        }
        return np.array([counts.get(int(d), 0) for d in devices], np.int64)

    def _thread_names(self) -> None:
        pids = set()
        for part in self.parts:
            kinds = part["kind"]
            host = (kinds == Kind.RUNTIME) | (kinds == Kind.USER_ANNOTATION)
            pids.update(np.unique(part["pid"][host]).tolist())
        if {"globalTid", "nameId"} <= self.columns("ThreadNames"):
            strings = self.strings()
            for global_tid, name_id in self.select("ThreadNames", ["globalTid", "nameId"]).tolist():
                pid, tid = (global_tid >> 24) & 0xFFFFFF, global_tid & 0xFFFFFF
                if pid in pids and name_id in strings:
                    self.meta.thread_names[f"{pid}/{tid}"] = strings[name_id]
        if {"pid", "name"} <= self.columns("PROCESSES"):
            for pid, process in self.batches("SELECT pid, name FROM PROCESSES"):
                if pid in pids and isinstance(process, str):
                    self.meta.thread_names.setdefault(str(pid), process)

    # --- event tables ------------------------------------------------------------------------

    def _kernels(self) -> None:
        table = "CUPTI_ACTIVITY_KIND_KERNEL"
        present = self.columns(table)
        if not {"start", "end"} <= present:
            return
        name_column = next(
            (c for c in ("demangledName", "shortName", "mangledName", "name") if c in present),
            None,
        )
        if name_column is None:
            self.meta.problems.append(f"{table} has no kernel name column")
            return

        def column(name: str) -> str:
            return f'"{name}"' if name in present else "-1"

        shape = ["gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ"]
        values = self.select(table, [
            "start", "end", column("deviceId"), column("streamId"), column("correlationId"),
            f'CASE WHEN typeof("{name_column}") = \'integer\' THEN "{name_column}" END',
            *map(column, shape), column("registersPerThread"),
            f"{column('staticSharedMemory')} + {column('dynamicSharedMemory')}"
            if {"staticSharedMemory", "dynamicSharedMemory"} <= present
            else "-1",
        ])  # fmt: skip
        texts = self.texts(table, name_column)
        grid, block = values[:, 6:9], values[:, 9:12]
        sm_count = self._sm_count(values[:, 2])
        blocks = grid.prod(axis=1)
        blocks_per_sm = np.where(
            (sm_count > 0) & (grid.min(axis=1) > 0), blocks / np.maximum(sm_count, 1), -1.0
        )
        self.add(
            Kind.KERNEL, values[:, 0], values[:, 1], self.name_ids(values[:, 5], texts),
            values[:, 2], values[:, 3], correlation=values[:, 4],
            grid=self._shape_ids(grid), block=self._shape_ids(block),
            registers=values[:, 12], shared_memory=values[:, 13], blocks_per_sm=blocks_per_sm,
        )  # fmt: skip

    def _shape_ids(self, xyz: np.ndarray) -> np.ndarray:
        """Name ids of "[x, y, z]" texts (Kineto's form), -1 where a dimension is unknown."""
        distinct, inverse = np.unique(xyz, axis=0, return_inverse=True)
        texts = [None if min(d) < 0 else f"[{d[0]}, {d[1]}, {d[2]}]" for d in distinct.tolist()]
        ids = intern(self.names, texts)
        return ids[inverse.reshape(-1)] if len(xyz) else np.zeros(0, np.int32)

    def _memcpys(self) -> None:
        table = "CUPTI_ACTIVITY_KIND_MEMCPY"
        present = self.columns(table)
        if not {"start", "end"} <= present:
            return
        copy_kinds = self.enum("ENUM_CUDA_MEMCPY_OPER", _COPY_KINDS, _copy_kind)
        memory_kinds = self.enum("ENUM_CUDA_MEM_KIND", _MEMORY_KINDS)
        values = self.select(table, [
            "start", "end", *(f'"{c}"' if c in present else "-1" for c in (
                "deviceId", "streamId", "correlationId", "copyKind", "srcKind", "dstKind")),
        ])  # fmt: skip
        combos, inverse = np.unique(values[:, 5:8], axis=0, return_inverse=True)
        labels = [
            f"Memcpy {copy_kinds.get(c, 'Unknown')} "
            f"({memory_kinds.get(s, 'Unknown')} -> {memory_kinds.get(d, 'Unknown')})"
            for c, s, d in combos.tolist()
        ]
        names = intern(self.names, labels)[inverse.reshape(-1)] if len(values) else values[:, 0]
        self.add(Kind.MEMCPY, values[:, 0], values[:, 1], names, values[:, 2], values[:, 3],
                 correlation=values[:, 4])  # fmt: skip

    def _memsets(self) -> None:
        table = "CUPTI_ACTIVITY_KIND_MEMSET"
        present = self.columns(table)
        if not {"start", "end"} <= present:
            return
        memory_kinds = self.enum("ENUM_CUDA_MEM_KIND", _MEMORY_KINDS)
        values = self.select(table, [
            "start", "end", *(f'"{c}"' if c in present else "-1" for c in (
                "deviceId", "streamId", "correlationId", "memKind")),
        ])  # fmt: skip
        kinds, inverse = np.unique(values[:, 5], return_inverse=True)
        labels = [f"Memset ({memory_kinds.get(k, 'Unknown')})" for k in kinds.tolist()]
        names = intern(self.names, labels)[inverse.reshape(-1)] if len(values) else values[:, 0]
        self.add(Kind.MEMSET, values[:, 0], values[:, 1], names, values[:, 2], values[:, 3],
                 correlation=values[:, 4])  # fmt: skip

    def _runtime(self) -> dict[int, tuple[int, int]]:
        """Read the runtime calls; return correlation id -> (pid, tid) of the calling thread."""
        table = "CUPTI_ACTIVITY_KIND_RUNTIME"
        present = self.columns(table)
        if not {"start", "end", "globalTid"} <= present:
            return {}
        values = self.select(table, [
            "start", "end", "globalTid",
            '"correlationId"' if "correlationId" in present else "-1",
            '"nameId"' if "nameId" in present else "-1",
        ])  # fmt: skip
        texts = self.texts(table, "name") if "name" in present else None
        names = self.name_ids(values[:, 4], texts)
        # cudaLaunchKernel_v7000 -> cudaLaunchKernel, as Kineto names them
        versionless = intern(self.names, (_API_VERSION.sub("", n) for n in self.names))
        if len(versionless):  # else no name is known: every id is already -1
            names = np.where(names >= 0, versionless[np.maximum(names, 0)], -1)
        pid, tid = (values[:, 2] >> 24) & 0xFFFFFF, values[:, 2] & 0xFFFFFF
        self.add(Kind.RUNTIME, values[:, 0], values[:, 1], names, pid, tid,
                 correlation=values[:, 3])  # fmt: skip
        return dict(zip(values[:, 3].tolist(), zip(pid.tolist(), tid.tolist(), strict=True),
                        strict=True))  # fmt: skip

    def _synchronizations(self, runtime_threads: dict[int, tuple[int, int]]) -> None:
        """CUPTI synchronization records, on the thread of the runtime call they belong to."""
        table = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
        present = self.columns(table)
        if not {"start", "end", "correlationId", "syncType"} <= present:
            return
        values = self.select(table, ["start", "end", "correlationId", "syncType"])
        threads = [runtime_threads.get(c) for c in values[:, 2].tolist()]
        known = np.array([t is not None for t in threads], bool)
        if not known.all():
            self.meta.problems.append(
                f"{int((~known).sum())} synchronization(s) without their runtime call skipped"
            )
        values = values[known]
        pid_tid = np.array([t for t in threads if t is not None], np.int64).reshape(-1, 2)
        labels = [_SYNC_KINDS.get(k, "Synchronization") for k in values[:, 3].tolist()]
        self.add(Kind.RUNTIME, values[:, 0], values[:, 1], intern(self.names, labels),
                 pid_tid[:, 0], pid_tid[:, 1], correlation=values[:, 2])  # fmt: skip

    def _nvtx(self) -> None:
        """Push/pop and start/end ranges; marks and domain records are skipped."""
        table = "NVTX_EVENTS"
        present = self.columns(table)
        if not {"start", "end", "eventType", "globalTid"} <= present:
            return
        where = f"eventType IN {_NVTX_RANGES}"
        values = self.select(table, [
            "start", "end", "globalTid", '"textId"' if "textId" in present else "-1",
        ], where)  # fmt: skip
        texts = self.texts(table, "text", where) if "text" in present else None
        names = self.name_ids(values[:, 3], texts)
        unnamed = names < 0
        if unnamed.any():
            names[unnamed] = intern(self.names, ["NVTX range"])[0]
        pid, tid = (values[:, 2] >> 24) & 0xFFFFFF, values[:, 2] & 0xFFFFFF
        self.add(Kind.USER_ANNOTATION, values[:, 0], values[:, 1], names, pid, tid)
