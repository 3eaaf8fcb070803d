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

The database opens read-only and immutable, after a size and magic-header check; every
sqlite3 error becomes Unreadable. Rows arrive in batches straight into int64 columns.
"""

from __future__ import annotations

import os
import re
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator

import numpy as np

from ..errors import Unreadable
from .files import Head, Verdict, open_input
from .tables import Kind, TraceMeta, TraceTables, build_trace_tables, intern

SQLITE_MAGIC = b"SQLite format 3\x00"
BATCH_ROWS = 1 << 16
NSYS_TABLES = (
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "NVTX_EVENTS",
)
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
    Unreadable for a file over `max_bytes`, not SQLite, corrupt, or not an nsys export."""
    name = os.path.basename(path)
    try:
        with open_input(path, max_bytes, "Nsight Systems export") as handle:
            magic = handle.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise Unreadable(f"{name}: cannot read ({exc.strerror or exc})") from None
    if magic != SQLITE_MAGIC:
        raise Unreadable(f"{name}: not an SQLite database (no SQLite header)")
    quoted = urllib.parse.quote(os.path.abspath(path))
    try:
        connection = sqlite3.connect(f"file:{quoted}?mode=ro&immutable=1", uri=True)
        connection.text_factory = _lenient_text
        try:
            return _Export(connection, path).tables()
        finally:
            connection.close()
    # sqlite3 decodes its own error messages as UTF-8: a damaged schema can make that fail too
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise Unreadable(f"{name}: corrupt or unreadable SQLite database ({exc})") from None


def _lenient_text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


class _Export:
    """One open export: which tables and columns it has, its strings, the columns being built."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self.db = connection
        self.meta = TraceMeta(path=path)
        listing = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        self.tables_present = {row[0] for row in listing}
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

    def columns(self, table: str) -> set[str]:
        if table not in self.tables_present:
            return set()
        return {row[1] for row in self.db.execute(f'PRAGMA table_info("{table}")')}

    def rows(self, sql: str, width: int) -> Iterator[np.ndarray]:
        """The query's rows in batches, as int64 arrays of `width` columns (the SQL casts
        and COALESCEs every column to an integer)."""
        cursor = self.db.execute(sql)
        while batch := cursor.fetchmany(BATCH_ROWS):
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
                cursor = self.db.execute("SELECT id, value FROM StringIds")
                while batch := cursor.fetchmany(BATCH_ROWS):
                    self._strings.update(
                        (key, value) for key, value in batch if isinstance(value, str)
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
        cursor = self.db.execute(query + (f" WHERE {where}" if where else ""))
        out: list[str | None] = []
        while batch := cursor.fetchmany(BATCH_ROWS):
            out.extend(row[0] for row in batch)
        return out

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
        for key, enum_name, enum_label in self.db.execute(f'SELECT id, name, label FROM "{table}"'):
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
        for row in self.db.execute(query).fetchmany(256):
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
            for pid, process in self.db.execute("SELECT pid, name FROM PROCESSES"):
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
