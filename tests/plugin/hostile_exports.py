"""Hostile "Nsight Systems exports": small SQLite files that pass a table-name and column check
but ask SQLite for unbounded work (issue 40), and broken ones. Used by tests/plugin/
test_nsys_hostile.py and benchmarks/hostile.py; each file is a few kB.

    python -m tests.plugin.hostile_exports DIR     # writes one of each into DIR
"""

from __future__ import annotations

import shutil
import sqlite3
import struct
import sys
from collections.abc import Callable
from pathlib import Path

KERNEL_TABLE = "CUPTI_ACTIVITY_KIND_KERNEL"
KERNEL_COLUMNS = ("start", "end", "deviceId", "streamId", "correlationId", "demangledName")


def _counting_view(db: sqlite3.Connection, rows: int) -> None:
    """A view of `rows` kernel-shaped rows, made by a recursive CTE (nothing stored)."""
    db.execute(
        "CREATE VIEW counted AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n "
        f"WHERE x < {rows}) SELECT x AS rowid, x AS start, x + 1 AS end, 0 AS deviceId, "
        "7 AS streamId, x AS correlationId, 'kernel' AS demangledName FROM n"
    )


def _fts_over(db: sqlite3.Connection, content: str) -> None:
    """CUPTI_ACTIVITY_KIND_KERNEL as an FTS5 external-content virtual table over `content`:
    sqlite_master lists it as type 'table' and PRAGMA table_info shows the expected columns."""
    db.execute(
        f"CREATE VIRTUAL TABLE {KERNEL_TABLE} USING fts5({', '.join(KERNEL_COLUMNS)}, "
        f"content='{content}', content_rowid='rowid')"
    )
    db.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)")


def _written(path: Path, build: Callable[[sqlite3.Connection], None]) -> Path:
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    try:
        build(db)
        db.commit()
    finally:
        db.close()
    return path


def cpu_bomb(path: Path) -> Path:
    """The kernel table scans a view counting to 1e13: SQLite works on it for days."""
    return _written(path, lambda db: (_counting_view(db, 10**13), _fts_over(db, "counted")))


def memory_bomb(path: Path, rows: int = 3_000_000) -> Path:
    """The same over a view of `rows` rows: each becomes an event (~400 B of the server's
    memory a row before the hardening; 3 M rows took 58 s and 1.6 GB)."""
    return _written(path, lambda db: (_counting_view(db, rows), _fts_over(db, "counted")))


def view_export(path: Path, rows: int = 1_000_000) -> Path:
    """The kernel table itself a view (sqlite_master says 'view': a type check catches it)."""

    def build(db: sqlite3.Connection) -> None:
        _counting_view(db, rows)
        db.execute(f"CREATE VIEW {KERNEL_TABLE} AS SELECT * FROM counted")

    return _written(path, build)


def generated_column_export(path: Path) -> Path:
    """A real kernel table whose name column is generated: each row read evaluates a 100 MB
    string (zeroblob, made by the reader, not stored in the file)."""

    def build(db: sqlite3.Connection) -> None:
        db.execute(
            f"CREATE TABLE {KERNEL_TABLE} (start INTEGER, end INTEGER, deviceId INTEGER, "
            "streamId INTEGER, correlationId INTEGER, "
            "demangledName TEXT GENERATED ALWAYS AS (hex(zeroblob(50000000))) VIRTUAL)"
        )
        db.executemany(
            f"INSERT INTO {KERNEL_TABLE} (start, end, deviceId, streamId, correlationId) "
            "VALUES (?, ?, 0, 7, ?)",
            [(i * 10, i * 10 + 5, i) for i in range(100)],
        )

    return _written(path, build)


def valid_export(path: Path, kernels: int = 200) -> Path:
    """A tiny real-shaped export: kernels with names from StringIds, a session start."""

    def build(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'relu_kernel')")
        db.execute("CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER)")
        db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000)")
        db.execute(
            f"CREATE TABLE {KERNEL_TABLE} (start INTEGER NOT NULL, end INTEGER NOT NULL, "
            "deviceId INTEGER, streamId INTEGER, correlationId INTEGER, demangledName INTEGER)"
        )
        db.executemany(
            f"INSERT INTO {KERNEL_TABLE} VALUES (?, ?, 0, 7, ?, ?)",
            [(i * 1000, i * 1000 + 600, i, 1 + i % 2) for i in range(kernels)],
        )

    return _written(path, build)


def wal_export(path: Path) -> Path:
    """A valid export in WAL mode whose last writes are still in the -wal file beside it
    (which a read-only, immutable open never sees): copied while a connection held them."""
    staging = path.with_name(path.name + ".staging")
    valid_export(staging)
    db = sqlite3.connect(staging)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("INSERT INTO StringIds VALUES (3, 'late_kernel')")
        db.commit()
        shutil.copyfile(staging, path)
        shutil.copyfile(f"{staging}-wal", f"{path}-wal")
    finally:
        db.close()
        staging.unlink(missing_ok=True)
    return path


def corrupt_page_export(path: Path) -> Path:
    """A valid export whose kernel table's pages are overwritten with garbage."""
    valid_export(path, kernels=2000)
    db = sqlite3.connect(path)
    try:
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (KERNEL_TABLE,)
        ).fetchone()
        (page_size,) = db.execute("PRAGMA page_size").fetchone()
    finally:
        db.close()
    data = bytearray(path.read_bytes())
    for page in range(root, len(data) // page_size + 1):
        offset = (page - 1) * page_size + 8
        data[offset : offset + 64] = bytes(range(7, 7 + 64))
    path.write_bytes(bytes(data))
    return path


def shared_pages_export(path: Path, rows: int = 200_000) -> Path:
    """A damaged b-tree: a real kernel table (512-byte pages, four levels) cut down to one page
    a level, every interior cell pointing at the next: 2.5 kB that scan as ~370,000 rows (the
    rows of a view, from a plain table with a real root page; `PRAGMA quick_check` finds it)."""
    page_size = 512
    source = path.with_name(path.name + ".source")
    source.unlink(missing_ok=True)
    db = sqlite3.connect(source)
    try:
        db.execute(f"PRAGMA page_size = {page_size}")
        db.execute(f"CREATE TABLE {KERNEL_TABLE} (start INTEGER, end INTEGER, demangledName TEXT)")
        db.executemany(
            f"INSERT INTO {KERNEL_TABLE} VALUES (?, ?, 'k')", ((i, i + 1) for i in range(rows))
        )
        db.commit()
        (root,) = db.execute("SELECT rootpage FROM sqlite_master").fetchone()
    finally:
        db.close()
    data = source.read_bytes()
    source.unlink()
    assert root == 2, "the table's root is the page after sqlite_master"
    out = bytearray(data[:page_size])
    number = root
    while True:  # down the leftmost path; its pages become pages 2, 3, ...
        page = bytearray(data[(number - 1) * page_size : number * page_size])
        if page[0] == 0x0D:  # the leaf
            out += page
            break
        assert page[0] == 0x05, "an interior table page"
        cells = struct.unpack(">H", page[3:5])[0]
        pointers = [struct.unpack(">H", page[12 + 2 * i : 14 + 2 * i])[0] for i in range(cells)]
        number = struct.unpack(">I", page[pointers[0] : pointers[0] + 4])[0]
        child = struct.pack(">I", len(out) // page_size + 2)
        for pointer in pointers:
            page[pointer : pointer + 4] = child
        page[8:12] = child  # the right-most pointer
        out += page
    out[28:32] = struct.pack(">I", len(out) // page_size)  # the database's size in pages
    path.write_bytes(bytes(out))
    return path


HOSTILE = {
    "cpu_bomb.sqlite": cpu_bomb,
    "memory_bomb.sqlite": memory_bomb,
    "view.sqlite": view_export,
    "generated_column.sqlite": generated_column_export,
    "wal.sqlite": wal_export,
    "corrupt_page.sqlite": corrupt_page_export,
    "shared_pages.sqlite": shared_pages_export,
}


def write_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [make(folder / name) for name, make in HOSTILE.items()]


if __name__ == "__main__":
    for written in write_all(Path(sys.argv[1])):
        print(written, written.stat().st_size)
