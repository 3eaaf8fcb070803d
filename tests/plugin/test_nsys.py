"""Nsight Systems SQLite ingest on the shared real exports (hpcgroup/pipit test data), checked
against `nsys stats`-derived golden intervals and the databases themselves, and on broken input.

The two exports are of different schema generations: the CloverLeaf one (nsys 2024.5, schema
3.13) has META_DATA_CAPTURE / META_DATA_EXPORT and ENUM_* tables; the MPI saxpy one (nsys
2022.2, schema 2.9) has EXPORT_META_DATA, NVTX and no ENUM_* tables.
"""

import csv
import random
import shutil
import sqlite3

import numpy as np
import pytest

from tb_perf_plugin.analysis.kernels import aggregate_kernels, trace_kernels
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import nsys
from tb_perf_plugin.ingest.nsys import read_nsys_sqlite
from tb_perf_plugin.ingest.tables import SLICE_COLUMNS, Kind, TraceMeta, build_trace_tables, intern

PIPIT = "nsys_sqlite/hpcgroup__pipit/pipit/tests/data"
CLOVERLEAF = f"{PIPIT}/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite"
CLOVERLEAF_GOLDEN = f"{PIPIT}/cloverleaf-nsys/cloverleaf_gpu_trace.csv"
SAXPY = f"{PIPIT}/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
LIMIT = 1 << 30


def _rows(tables, kind):
    return np.flatnonzero(np.asarray(tables.slices["kind"]) == kind)


def _query(path, sql):
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as db:
        return db.execute(sql).fetchall()


def _writable_copy(source, tmp_path):
    copy = tmp_path / source.name
    shutil.copyfile(source, copy)
    copy.chmod(0o644)
    return copy


def test_cloverleaf_kernels_and_copies_equal_the_golden_gpu_trace(shared_data):
    """The golden is pipit's reading of `nsys stats` gpu_trace: Enter/Leave rows whose
    timestamps are the export's own, nanoseconds since the capture start. Ours are Unix-epoch,
    so the capture start (meta.base_time_ns, from TARGET_INFO_SESSION_START_TIME) is taken off."""
    tables = read_nsys_sqlite(str(shared_data / CLOVERLEAF), LIMIT)
    base = tables.meta.base_time_ns
    assert base == 1696392839587175550  # 2023-10-04T04:13:59 UTC, the session start
    golden = {}
    with open(shared_data / CLOVERLEAF_GOLDEN, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["Event Type"] == "Enter":
                key = (int(row["Timestamp (ns)"]), int(row["_matching_timestamp"]))
                golden[key] = (row["type"], row["Name"], int(row["streamId"]))
    ours = {}
    slices, names = tables.slices, tables.names
    for kind in (Kind.KERNEL, Kind.MEMCPY):
        for i in _rows(tables, kind):
            start = int(slices["start"][i]) - base
            ours[(start, start + int(slices["dur"][i]))] = (
                kind,
                names[slices["name"][i]],
                int(slices["tid"][i]),
            )
    assert len(golden) == 1312 + 279
    assert set(ours) == set(golden)
    for key, (kind, name, stream) in ours.items():
        golden_type, golden_name, golden_stream = golden[key]
        assert stream == golden_stream
        if kind == Kind.KERNEL:
            assert golden_type == "kernel"
            assert f"::{golden_name}<" in name  # golden: short name; ours: demangled
        else:  # golden: CUDA_MEMCPY_KIND_HTOD; ours: "Memcpy HtoD (Pageable -> Device)"
            assert name.split()[1].upper() == golden_type.rsplit("_", 1)[1]


def test_cloverleaf_kernel_columns_and_memcpy_names(shared_data):
    path = shared_data / CLOVERLEAF
    tables = read_nsys_sqlite(str(path), LIMIT)
    slices, names = tables.slices, tables.names
    kernels = _rows(tables, Kind.KERNEL)
    first = kernels[0]
    expected = _query(path, """
        SELECT gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread,
               staticSharedMemory + dynamicSharedMemory, correlationId
        FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 1""")[0]  # fmt: skip
    assert names[slices["grid"][first]] == f"[{expected[0]}, {expected[1]}, {expected[2]}]"
    assert names[slices["block"][first]] == f"[{expected[3]}, {expected[4]}, {expected[5]}]"
    assert slices["registers"][first] == expected[6]
    assert slices["shared_memory"][first] == expected[7]
    assert slices["correlation"][first] == expected[8]
    # 108 SMs on the A100 of TARGET_INFO_GPU
    assert slices["blocks_per_sm"][first] == pytest.approx(expected[0] * expected[1] / 108)
    copies = {names[slices["name"][i]] for i in _rows(tables, Kind.MEMCPY)}
    assert copies == {"Memcpy HtoD (Pageable -> Device)", "Memcpy DtoH (Device -> Pageable)"}
    assert tables.meta.device_properties[0]["name"] == "NVIDIA A100-SXM4-80GB"
    assert tables.meta.thread_names["1701896/1701896"] == "cuda-cloverleaf"


def test_cloverleaf_synchronizations_sit_on_the_calling_thread(shared_data):
    tables = read_nsys_sqlite(str(shared_data / CLOVERLEAF), LIMIT)
    slices, names = tables.slices, tables.names
    runtime = _rows(tables, Kind.RUNTIME)
    label = np.array(names, dtype=object)[slices["name"][runtime]]
    syncs = runtime[np.isin(label, ["Event Sync", "Stream Sync", "Context Sync"])]
    assert len(syncs) == 1312  # every CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row
    calls = {
        int(c): i for i in runtime if (c := slices["correlation"][i]) >= 0
        and not names[slices["name"][i]].endswith("Sync")
    }  # fmt: skip
    for i in syncs[:50]:
        call = calls[int(slices["correlation"][i])]
        assert names[slices["name"][call]].endswith("Synchronize")
        assert (slices["pid"][i], slices["tid"][i]) == (slices["pid"][call], slices["tid"][call])


def test_cloverleaf_kernel_view_totals(shared_data):
    path = shared_data / CLOVERLEAF
    table = aggregate_kernels(trace_kernels(read_nsys_sqlite(str(path), LIMIT)))
    (calls, total, distinct), = _query(path, """
        SELECT COUNT(*), SUM("end" - start), COUNT(DISTINCT demangledName)
        FROM CUPTI_ACTIVITY_KIND_KERNEL""")  # fmt: skip
    assert table["calls"].sum() == calls == 1312
    assert table["total_ns"].sum() == total
    assert len(table) == distinct
    assert table["pct_of_kernel_time"].sum() == pytest.approx(100.0)
    assert table["est_sm_efficiency"].between(0, 1).all()


def test_saxpy_nvtx_ranges_nest_and_runtime_calls_link_to_kernels(shared_data):
    path = shared_data / SAXPY
    tables = read_nsys_sqlite(str(path), LIMIT)
    slices, names = tables.slices, tables.names
    nvtx = _rows(tables, Kind.USER_ANNOTATION)
    ((ranges,),) = _query(path, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)")
    assert len(nvtx) == ranges == 22
    labels = [names[slices["name"][i]] for i in nvtx]
    assert labels.count("saxpy") == 5 and labels.count("MPI_Init") == 1
    assert tables.meta.thread_names["1230493/1230493"] == "MPI Rank 0"
    starts, ends = slices["start"][nvtx], slices["start"][nvtx] + slices["dur"][nvtx]
    for a in range(len(nvtx)):  # on one thread: any two ranges are disjoint or nested
        for b in range(len(nvtx)):
            if slices["tid"][nvtx[a]] == slices["tid"][nvtx[b]]:
                overlap = min(ends[a], ends[b]) > max(starts[a], starts[b])
                nested = (starts[a] <= starts[b] and ends[b] <= ends[a]) or (
                    starts[b] <= starts[a] and ends[a] <= ends[b]
                )
                assert not overlap or nested
    saxpy_ranges = [(starts[k], ends[k]) for k, label in enumerate(labels) if label == "saxpy"]
    runtime = {int(slices["correlation"][i]): i for i in _rows(tables, Kind.RUNTIME)}
    kernels = _rows(tables, Kind.KERNEL)
    assert len(kernels) == 5
    for kernel in kernels:
        launch = runtime[int(slices["correlation"][kernel])]
        assert names[slices["name"][launch]] == "cudaLaunchKernel"  # nsys: cudaLaunchKernel_v7000
        assert slices["start"][launch] < slices["start"][kernel]
        assert any(a <= slices["start"][launch] <= b for a, b in saxpy_ranges)


def test_saxpy_without_enum_tables_names_copies_by_nsys_enums(shared_data):
    """The 2022 export has no ENUM_* tables: the built-in nsys enums must agree with the
    CloverLeaf export's ENUM tables (HtoD copies from pageable host memory to the device)."""
    tables = read_nsys_sqlite(str(shared_data / SAXPY), LIMIT)
    copies = [tables.names[tables.slices["name"][i]] for i in _rows(tables, Kind.MEMCPY)]
    assert set(copies) == {"Memcpy HtoD (Pageable -> Device)", "Memcpy DtoH (Device -> Pageable)"}


def test_built_in_enums_agree_with_the_export_enum_tables(shared_data):
    """The fallback for exports without ENUM_* tables is nsys' numbering, not CUPTI's."""
    path = shared_data / CLOVERLEAF
    copies = _query(path, "SELECT id, name, label FROM ENUM_CUDA_MEMCPY_OPER")
    assert {i: nsys._copy_kind(name, label) for i, name, label in copies} == nsys._COPY_KINDS
    memory = _query(path, "SELECT id, label FROM ENUM_CUDA_MEM_KIND")
    assert dict(memory) == nsys._MEMORY_KINDS


def test_schema_variants_on_modified_copies(shared_data, tmp_path):
    """Older, trimmed or damaged exports: no session start time (relative times, said in
    problems), no ENUM tables, text in an id column, a kernel that ends before it starts."""
    original = read_nsys_sqlite(str(shared_data / CLOVERLEAF), LIMIT)
    copy = _writable_copy(shared_data / CLOVERLEAF, tmp_path)
    with sqlite3.connect(copy) as db:
        db.execute("DROP TABLE TARGET_INFO_SESSION_START_TIME")
        db.execute("DROP TABLE ENUM_CUDA_MEMCPY_OPER")
        db.execute("DROP TABLE ENUM_CUDA_MEM_KIND")
        db.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 'cudaFree_v3020'"
                   " WHERE correlationId = (SELECT MIN(correlationId) FROM"
                   " CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId > 1)")  # fmt: skip
        db.execute(
            'UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET "end" = start - 1 WHERE correlationId = 452'
        )
    changed = read_nsys_sqlite(str(copy), LIMIT)
    assert changed.meta.base_time_ns == 0
    assert any("TARGET_INFO_SESSION_START_TIME" in p for p in changed.meta.problems)
    assert any("1 kernel row(s) without an end" in p for p in changed.meta.problems)
    assert np.array_equal(
        changed.slices["start"][_rows(changed, Kind.MEMCPY)] + original.meta.base_time_ns,
        original.slices["start"][_rows(original, Kind.MEMCPY)],
    )
    copies = {changed.names[i] for i in changed.slices["name"][_rows(changed, Kind.MEMCPY)]}
    assert copies == {"Memcpy HtoD (Pageable -> Device)", "Memcpy DtoH (Device -> Pageable)"}
    assert len(_rows(changed, Kind.KERNEL)) == 1311


def test_runtime_names_given_as_text(shared_data, tmp_path):
    copy = _writable_copy(shared_data / SAXPY, tmp_path)
    with sqlite3.connect(copy) as db:  # the 2.9 schema has a `name` text column beside nameId
        db.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET name = 'cudaMemcpyAsync_v3020'"
                   " WHERE correlationId = 107")  # fmt: skip
    tables = read_nsys_sqlite(str(copy), LIMIT)
    runtime = _rows(tables, Kind.RUNTIME)
    row = runtime[tables.slices["correlation"][runtime] == 107][0]
    assert tables.names[tables.slices["name"][row]] == "cudaMemcpyAsync"


def test_broken_inputs_are_unreadable(shared_data, tmp_path):
    source = shared_data / SAXPY
    truncated = tmp_path / "truncated.sqlite"
    truncated.write_bytes(source.read_bytes()[: source.stat().st_size // 3])
    scrambled = tmp_path / "scrambled.sqlite"
    data = bytearray(source.read_bytes())
    data[100:] = bytes(range(256)) * ((len(data) - 100) // 256) + bytes((len(data) - 100) % 256)
    scrambled.write_bytes(bytes(data))
    text = tmp_path / "trace.sqlite"
    text.write_text("Name,start,end\nkernel,1,2\n")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE runs (id INTEGER, start INTEGER)")
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    cases = {
        truncated: "corrupt",
        scrambled: "corrupt",
        text: "not an SQLite database",
        other: "not an Nsight Systems export",
        empty: "not an SQLite database",
        tmp_path / "missing.sqlite": "cannot read",
    }
    for path, message in cases.items():
        with pytest.raises(Unreadable, match=message):
            read_nsys_sqlite(str(path), LIMIT)
    with pytest.raises(Unreadable, match="over the"):
        read_nsys_sqlite(str(source), 1 << 20)


def test_damaged_copies_read_or_are_unreadable(shared_data, tmp_path):
    """Random bytes overwritten (fixed seed): every outcome is tables or Unreadable. Damage to
    the schema text once surfaced as UnicodeDecodeError from sqlite3's own error message."""
    source = (shared_data / SAXPY).read_bytes()
    rng = random.Random(7)
    outcomes = set()
    for trial in range(60):
        damaged = bytearray(source)
        for _ in range(rng.choice([1, 10, 100, 1000])):
            damaged[rng.randrange(100, len(damaged))] = rng.randrange(256)
        path = tmp_path / f"damaged{trial}.sqlite"
        path.write_bytes(bytes(damaged))
        try:
            read_nsys_sqlite(str(path), LIMIT)
            outcomes.add("read")
        except Unreadable:
            outcomes.add("unreadable")
    assert outcomes == {"read", "unreadable"}


def test_export_without_events_is_unreadable(shared_data, tmp_path):
    copy = _writable_copy(shared_data / SAXPY, tmp_path)
    with sqlite3.connect(copy) as db:
        for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                      "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"):  # fmt: skip
            db.execute(f"DELETE FROM {table}")
    with pytest.raises(Unreadable, match="no CUDA or NVTX events"):
        read_nsys_sqlite(str(copy), LIMIT)


def test_build_trace_tables_fills_sorts_and_refuses_reader_bugs():
    """The helper every non-Kineto reader (this one included) hands its columns to."""
    names = ["existing"]
    ids = intern(names, ["b", "a", None, "b", "existing"])
    assert ids.tolist() == [1, 2, -1, 1, 0] and names == ["existing", "b", "a"]
    columns = {
        "start": np.array([30, 10, 20, 10, 5]), "dur": np.array([1, 2, 3, 4, 5]),
        "kind": np.full(5, Kind.KERNEL), "name": ids,
    }  # fmt: skip
    tables = build_trace_tables(TraceMeta(path="x"), names, columns)
    assert tables.slices["start"].tolist() == [5, 10, 10, 20, 30]
    assert tables.slices["dur"].tolist() == [5, 2, 4, 3, 1]  # equal starts keep their order
    assert {c: v.dtype for c, v in tables.slices.items()} == {
        c: np.dtype(t) for c, t in SLICE_COLUMNS.items()
    }
    assert (tables.slices["registers"] == -1).all() and len(tables.memory["ts"]) == 0
    assert tables.n_events == 5
    bad = [
        ({**columns, "colour": ids}, "unknown slice column"),
        ({k: v for k, v in columns.items() if k != "kind"}, "required"),
        ({**columns, "dur": np.array([1, 2])}, "differ in length"),
        ({**columns, "dur": np.array([1, -2, 3, 4, 5])}, "negative durations"),
        ({**columns, "name": np.array([0, 1, 2, 3, 0])}, "outside the 3-string name table"),
    ]
    for given, message in bad:
        with pytest.raises(ValueError, match=message):
            build_trace_tables(TraceMeta(path="x"), names, given)
