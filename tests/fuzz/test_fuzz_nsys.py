"""Bad input for the Nsight Systems SQLite reader (`read_nsys_sqlite`): a real export cut down to
its CUDA and NVTX tables, then damaged page by page (flipped, cut, spliced bytes) and row by
row (values of every SQLite type and extreme integers in the columns the reader casts, dropped
tables and renamed columns, empty string tables).

Every case must give trace tables that keep their contract or raise Unreadable within the
watchdog's bound. Seed: ../shared/data's saxpy MPI export (skipped where absent). Counts: a few
hundred in CI, 10,000 with `TB_PERF_SOAK=1`.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.nsys import read_nsys_sqlite

from ._fuzz import case_count, mutate_bytes, run_cases
from .test_fuzz_kineto import check_tables

REPO = Path(__file__).resolve().parents[2]
PIPIT = REPO.parent / "shared/data/nsys_sqlite/hpcgroup__pipit/pipit/tests/data"
SEED_EXPORT = PIPIT / "saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
KEEP_ROWS = 40  # per table: the seed stays small, so cases stay fast
MAX_BYTES = 16 << 20
READ_TABLES = (
    "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS",
    "StringIds", "ThreadNames", "PROCESSES", "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME",
    "ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND",
)  # fmt: skip
VALUES = (
    "NULL", "-1", "0", "1", "9223372036854775807", "-9223372036854775808", "1e300", "-1e300",
    "0.5", "'text'", "''", "x'ff00fe'", "'名前'", "zeroblob(64)", "randomblob(16)",
    "9223372036854775807 / 2", "'12'", "'0x10'",
)  # fmt: skip


def _seed_bytes() -> bytes:
    if not SEED_EXPORT.is_file():
        pytest.skip(f"the real nsys export is not at {SEED_EXPORT} (../shared/data)")
    source = sqlite3.connect(f"file:{SEED_EXPORT}?mode=ro", uri=True)
    db = sqlite3.connect(":memory:")
    source.backup(db)
    source.close()
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in tables:
        if table not in READ_TABLES:
            db.execute(f'DROP TABLE "{table}"')
        else:
            kept = f'SELECT rowid FROM "{table}" ORDER BY rowid LIMIT {KEEP_ROWS}'
            db.execute(f'DELETE FROM "{table}" WHERE rowid NOT IN ({kept})')
    db.commit()
    db.execute("VACUUM")
    data = db.serialize()
    db.close()
    return data


def _mutate_rows(rng: random.Random, seed: bytes) -> tuple[str, bytes]:
    db = sqlite3.connect(":memory:")
    db.deserialize(seed)
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    labels = []
    for _ in range(rng.choice((1, 1, 2, 4))):
        table = rng.choice(tables)
        columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
        op = rng.randrange(8)
        try:
            if op <= 3 and columns:
                column, value = rng.choice(columns), rng.choice(VALUES)
                where = "" if rng.random() < 0.3 else f"WHERE rowid % {rng.randint(2, 5)} = 0"
                db.execute(f'UPDATE "{table}" SET "{column}" = {value} {where}')
                labels.append(f"{table}.{column} = {value}")
            elif op == 4:
                db.execute(f'DROP TABLE "{table}"')
                tables.remove(table)
                labels.append(f"{table} dropped")
            elif op == 5 and columns:
                column = rng.choice(columns)
                db.execute(f'ALTER TABLE "{table}" RENAME COLUMN "{column}" TO "{column}_x"')
                labels.append(f"{table}.{column} renamed")
            elif op == 6:
                db.execute(f'DELETE FROM "{table}"')
                labels.append(f"{table} emptied")
            else:
                db.execute(f'INSERT INTO "{table}" SELECT * FROM "{table}"')
                labels.append(f"{table} rows doubled")
        except sqlite3.Error as exc:  # a mutation SQLite itself refuses: try another
            labels.append(f"({exc})")
    db.commit()
    data = db.serialize()
    db.close()
    return "; ".join(labels), data


def test_damaged_nsys_exports_read_or_are_refused(tmp_path):
    seed = _seed_bytes()

    def generate(rng: random.Random) -> tuple[str, bytes]:
        if rng.random() < 0.5:
            return _mutate_rows(rng, seed)
        label, data = mutate_bytes(rng, seed[100:])  # the header's magic stays
        return label, seed[:100] + data

    run_cases(
        "nsys", lambda path: read_nsys_sqlite(path, MAX_BYTES), generate, case_count(300),
        tmp_path, "report.sqlite", check_tables,
    )  # fmt: skip


def test_an_export_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "report.sqlite"
    path.write_bytes(_seed_bytes())
    with pytest.raises(Unreadable, match="limit"):
        read_nsys_sqlite(str(path), 4096)


def test_runtime_calls_without_any_known_name_are_read(tmp_path):
    """Regression: with no string table and no other events, no name is known at all."""
    db = sqlite3.connect(":memory:")
    db.deserialize(_seed_bytes())
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
        if table != "CUPTI_ACTIVITY_KIND_RUNTIME":
            db.execute(f'DROP TABLE "{table}"')
    db.commit()
    path = tmp_path / "report.sqlite"
    path.write_bytes(db.serialize())
    tables = read_nsys_sqlite(str(path), MAX_BYTES)
    check_tables(tables)
    assert len(tables.slices["start"]) and (tables.slices["name"] == -1).all()
