"""Nsight Systems SQLite imports under attack (issue 40): small files that ask SQLite for
unbounded work are refused, each with its reason and a bounded cost; the file read is the one
opened and checked, even if its path is swapped meanwhile. The files are made by
tests/plugin/hostile_exports.py. Every refusal rests on counted rows, steps or the schema,
never on how fast this machine is; a watchdog turns a hang into a failure."""

from __future__ import annotations

import os
import tracemalloc

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import nsys
from tb_perf_plugin.ingest.readers import read_timeline_file
from tests.fuzz._fuzz import watchdog
from tests.plugin import hostile_exports

LIMIT = 1 << 30
HANG_S = 60


@pytest.mark.parametrize(
    "make, reason",
    [
        (hostile_exports.cpu_bomb, "CUPTI_ACTIVITY_KIND_KERNEL is a virtual table"),
        (hostile_exports.memory_bomb, "CUPTI_ACTIVITY_KIND_KERNEL is a virtual table"),
        (hostile_exports.view_export, "CUPTI_ACTIVITY_KIND_KERNEL is a view"),
        (hostile_exports.generated_column_export, r"has 1 generated column\(s\)"),
        (hostile_exports.wal_export, "in WAL mode"),
        (hostile_exports.corrupt_page_export, "corrupt or unreadable SQLite database"),
        (hostile_exports.shared_pages_export, "asks for more work than its size allows"),
    ],
)
def test_a_hostile_export_is_refused_with_its_reason(tmp_path, make, reason):
    path = make(tmp_path / "export.sqlite")
    assert path.stat().st_size < 64 << 10
    tracemalloc.start()
    try:
        with watchdog(HANG_S), pytest.raises(Unreadable, match=reason):
            read_timeline_file(str(path), LIMIT)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20  # the memory bomb held ~1.6 GB before


def test_shared_pages_scan_many_more_rows_than_the_file_holds(tmp_path):
    """The premise of the row budget: SQLite itself serves the damaged b-tree's rows."""
    import sqlite3

    path = hostile_exports.shared_pages_export(tmp_path / "export.sqlite")
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as db:
        (rows,) = db.execute(f"SELECT count(*) FROM {hostile_exports.KERNEL_TABLE}").fetchone()
    assert rows > 100 * path.stat().st_size


def test_a_view_that_is_not_read_is_no_reason_to_refuse(tmp_path):
    """Only the tables the reader reads must be plain: a view of the user's own stays unread."""
    import sqlite3

    path = hostile_exports.valid_export(tmp_path / "export.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE VIEW my_kernels AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL")
    tables = nsys.read_nsys_sqlite(str(path), LIMIT)
    assert len(tables.slices["start"]) == 200


def test_the_step_budget_interrupts_a_statement(tmp_path, monkeypatch):
    """With a budget of 1,000 steps a valid export asks for more (the progress handler's
    refusal, not SQLite's own error)."""
    monkeypatch.setattr(nsys, "BASE_STEPS", 1000)
    monkeypatch.setattr(nsys, "STEPS_PER_BYTE", 0)
    path = hostile_exports.valid_export(tmp_path / "export.sqlite", kernels=5000)
    with pytest.raises(Unreadable, match=r"more work than its size allows \(over 1,000 SQLite"):
        nsys.read_nsys_sqlite(str(path), LIMIT)


def test_the_deadline_interrupts_a_statement(tmp_path, monkeypatch):
    monkeypatch.setattr(nsys, "BASE_SECONDS", -1.0)
    monkeypatch.setattr(nsys, "PROGRESS_EVERY", 1)
    path = hostile_exports.valid_export(tmp_path / "export.sqlite", kernels=5000)
    with pytest.raises(Unreadable, match=r"more work than its size allows \(over -1 s"):
        nsys.read_nsys_sqlite(str(path), LIMIT)


def test_sqlite_reads_the_file_opened_not_the_path(tmp_path, monkeypatch):
    """A file swapped for a bomb after the safe opener checked it (the race docs/RELIABILITY.md
    lists): SQLite reads the descriptor, so the valid file opened is what is read."""
    path = hostile_exports.valid_export(tmp_path / "export.sqlite", kernels=300)
    bomb = hostile_exports.cpu_bomb(tmp_path / "bomb.sqlite")
    opened = nsys.open_input

    def open_then_swap(*args, **kwargs):
        handle = opened(*args, **kwargs)
        os.replace(bomb, path)
        return handle

    monkeypatch.setattr(nsys, "open_input", open_then_swap)
    with watchdog(HANG_S):
        tables = nsys.read_nsys_sqlite(str(path), LIMIT)
    assert len(tables.slices["start"]) == 300


def test_real_exports_read_well_within_their_budget(shared_data, monkeypatch):
    """The budget's headroom on the real exports (hpcgroup/pipit): under a tenth of the rows
    and a hundredth of the steps allowed."""
    budgets: list[nsys._Budget] = []
    made = nsys._Budget

    def recorded(size: int) -> nsys._Budget:
        budgets.append(made(size))
        return budgets[-1]

    monkeypatch.setattr(nsys, "_Budget", recorded)
    folder = shared_data / "nsys_sqlite"
    exports = sorted(folder.rglob("*.sqlite"))
    assert exports
    for path in exports:
        nsys.read_nsys_sqlite(str(path), LIMIT)
        budget = budgets[-1]
        assert budget.rows < budget.max_rows / 10
        assert budget.calls < budget.max_calls / 100


def test_no_room_for_the_private_copy_is_that_files_refusal(tmp_path, monkeypatch):
    path = hostile_exports.valid_export(tmp_path / "export.sqlite")
    missing = tmp_path / "no such folder"
    monkeypatch.setattr(nsys.tempfile, "tempdir", str(missing))
    with pytest.raises(Unreadable, match="cannot copy it to a private file.*TMPDIR"):
        nsys.read_nsys_sqlite(str(path), LIMIT)
