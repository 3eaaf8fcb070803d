"""Trace ingest on every shared real trace schema, and on broken input."""

import gzip
import json
import os
import threading
import zlib

import msgspec
import numpy as np
import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import kineto
from tb_perf_plugin.ingest.kineto import _helper_worthwhile, read_trace
from tb_perf_plugin.ingest.tables import NAME_COLUMNS, Kind

HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
REAL_TRACES = [
    f"{HTA}/df_index_resolver/df_index_resolver.json.gz",  # 2022, absolute µs, memory events
    f"{HTA}/nccl_parser_config/nccl_data.json.gz",  # 2024, baseTimeNanoseconds, NCCL args
    f"{HTA}/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",  # ROCm, hex-string streams
    f"{HTA}/trace_filter/sampled_rank-1.json.gz",  # compact single-line JSON
    f"{HTA}/call_stack/backward_thread.json",  # plain JSON, 4-space indent
    "traces/AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz",  # newest schema
    "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/"
    "worker0.1623143089861.pt.trace.json.gz",  # 2021 categories, "stream 7" tids
]


def _reference(path):
    """The same trace decoded whole with plain msgspec into dicts: what ingest must agree with."""
    raw = gzip.open(path).read() if str(path).endswith(".gz") else path.read_bytes()
    doc = msgspec.json.decode(raw)
    return doc, doc["traceEvents"] if isinstance(doc, dict) else doc


@pytest.mark.parametrize("relative", REAL_TRACES, ids=lambda p: p.rsplit("/", 1)[-1][:30])
def test_real_traces_agree_with_a_whole_document_decode(shared_data, relative):
    path = shared_data / relative
    tables = read_trace(str(path), chunk_bytes=1 << 20)  # small chunks: many cuts exercised
    doc, events = _reference(path)
    slices = sorted((e for e in events if e.get("ph") == "X"), key=lambda e: e["ts"])
    assert len(tables.slices["start"]) == len(slices)
    base = doc.get("baseTimeNanoseconds", 0) if isinstance(doc, dict) else 0
    expected_start = np.array([base + round(e["ts"] * 1000) for e in slices], dtype=np.int64)
    assert np.abs(tables.slices["start"] - expected_start).max() <= 250  # float64 µs at epoch
    names = np.array(tables.names, dtype=object)[tables.slices["name"]]
    assert sorted(names) == sorted(e["name"] for e in slices)
    expected_dur = sorted(round(e["dur"] * 1000) for e in slices)
    assert sorted(tables.slices["dur"].tolist()) == expected_dur
    memory = [e for e in events if e.get("name") == "[memory]"]
    assert len(tables.memory["ts"]) == len(memory)
    assert tables.meta.problems == []


def test_2021_device_events_use_args_stream_and_external_id(shared_data):
    tables = read_trace(str(shared_data / REAL_TRACES[-1]))
    kernels = tables.slices["kind"] == Kind.KERNEL
    assert set(tables.slices["tid"][kernels].tolist()) == {7}  # "tid": "stream 7"
    assert (tables.slices["external_id"][kernels] > 0).all()  # "external id" (lowercase)
    assert (tables.slices["correlation"][kernels] > 0).all()
    assert tables.memory["bytes"].sum() != 0


def test_nccl_collective_args(shared_data):
    tables = read_trace(str(shared_data / REAL_TRACES[1]))
    names = tables.names
    rows = np.flatnonzero(tables.slices["collective"] >= 0)
    assert len(rows) > 0
    kernel_rows = rows[tables.slices["kind"][rows] == Kind.KERNEL]
    assert all(names[tables.slices["name"][i]].startswith("ncclKernel") for i in kernel_rows)
    assert {names[c] for c in tables.slices["collective"][rows]} >= {"allreduce"}
    assert (tables.slices["group_size"][kernel_rows] == 2).all()
    assert tables.meta.rank == 0 and tables.meta.world_size == 2
    assert tables.meta.base_time_ns == 1711964646000000000


def _write(path, doc, gz=True):
    data = json.dumps(doc).encode()
    path.write_bytes(gzip.compress(data) if gz else data)
    return str(path)


EVENT = {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10.5, "dur": 2}


def test_bare_array_and_begin_end_pairs(tmp_path):
    doc = [
        EVENT,
        {"ph": "B", "name": "outer", "pid": 1, "tid": 2, "ts": 100},
        {"ph": "E", "name": "outer", "pid": 1, "tid": 2, "ts": 150.25},
        {"ph": "B", "name": "never_ends", "pid": 1, "tid": 2, "ts": 200},
    ]
    tables = read_trace(_write(tmp_path / "t.json", doc, gz=False))
    names = [tables.names[i] for i in tables.slices["name"]]
    assert names == ["aten::mm", "outer"]
    assert tables.slices["start"].tolist() == [10500, 100000]
    assert tables.slices["dur"].tolist() == [2000, 50250]
    assert tables.meta.problems == ["1 begin event(s) without an end were dropped"]


def test_a_begin_event_open_across_chunks_keeps_its_shapes(tmp_path):
    """A "B" event whose args hold undecoded values (Input Dims) stays open while later chunks
    are cut off the read buffer: it once kept a view of that buffer (BufferError)."""
    args = {"Input Dims": [[8, 1, 1]], "Input type": ["float"]}
    doc = [{"ph": "B", "cat": "cpu_op", "name": "outer", "pid": 1, "tid": 1, "ts": 0, "args": args}]
    doc += [{"ph": "X", "name": f"k{i % 50}", "pid": 1, "tid": 1, "ts": 1 + i, "dur": 1,
             "args": {"Input Dims": [[i, 2]]}} for i in range(20000)]  # fmt: skip
    doc.append({"ph": "E", "name": "outer", "pid": 1, "tid": 1, "ts": 30000})
    tables = read_trace(_write(tmp_path / "t.json", doc, gz=False), chunk_bytes=1 << 16)
    assert len(tables.slices["start"]) == 20001
    outer = [tables.names[i] for i in tables.slices["name"]].index("outer")
    assert tables.names[tables.slices["input_dims"][outer]] == "[[8, 1, 1]]"
    assert tables.slices["dur"][outer] == 30_000_000


def test_a_cut_with_the_buffer_still_viewed_goes_on_with_a_copy():
    """Something may still view the decoded events when their front is cut off the read
    buffer (a Dask worker's profiler thread kept a returning frame alive): the read goes on
    with a copy of what is left instead of failing with a BufferError."""
    buffer = bytearray(b'[{"ph": "X", "ts": 1}, {"ph": "X", "ts": 2}')
    cut = kineto._last_cut(buffer, len(buffer))
    assert cut is not None
    viewed = memoryview(buffer)  # held, as the profiler's frame held the events' views
    rest = kineto._drop_front(buffer, cut)
    assert rest == b'[{"ph": "X", "ts": 2}' and rest is not buffer
    viewed.release()
    assert kineto._drop_front(buffer, cut) is buffer  # in place when nothing views it


def test_events_with_missing_or_odd_fields(tmp_path):
    doc = {"traceEvents": [
        {"ph": "X", "name": "no_times"},  # defaults: ts 0, dur 0
        {"ph": "X", "name": "bad_ts", "ts": "soon", "dur": 1},  # unexpected type: skipped
        EVENT,
        {"name": "no_phase"},  # not a trace event: skipped
    ]}  # fmt: skip
    tables = read_trace(_write(tmp_path / "t.json.gz", doc))
    assert sorted(tables.names[i] for i in tables.slices["name"]) == ["aten::mm", "no_times"]
    assert tables.meta.problems == ["2 event(s) with unexpected field types skipped"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"hello", "not a JSON trace"),
        (b'{"schemaVersion": 1, "foo": []}', 'no "traceEvents" array'),
        (b'{"traceEvents": []}', "holds no events"),
        (b'{"traceEvents": [{"ph": "X", "name": "a", "ts": 1', "truncated or malformed JSON"),
    ],
)
def test_broken_files_are_refused_clearly(tmp_path, content, message):
    path = tmp_path / "t.json"
    path.write_bytes(content)
    with pytest.raises(Unreadable, match=message):
        read_trace(str(path))


def test_truncated_gzip_and_size_limit(tmp_path, shared_data):
    whole = (shared_data / REAL_TRACES[1]).read_bytes()
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(Unreadable, match="truncated gzip"):
        read_trace(str(cut))
    with pytest.raises(Unreadable, match=r"more than the 1\.0 MB limit"):
        read_trace(str(shared_data / REAL_TRACES[1]), max_bytes=1_000_000)


def _same_tables(a, b) -> None:
    """Equal row for row, names compared as text (string ids may differ)."""
    assert a.slices.keys() == b.slices.keys() and a.meta.events == b.meta.events
    for column in a.slices:
        x, y = np.asarray(a.slices[column]), np.asarray(b.slices[column])
        if column in NAME_COLUMNS:
            x = np.array([a.names[i] if i >= 0 else None for i in x], dtype=object)
            y = np.array([b.names[i] if i >= 0 else None for i in y], dtype=object)
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), column
    for column in a.memory:
        assert np.array_equal(a.memory[column], b.memory[column]), column
    assert a.meta.thread_names == b.meta.thread_names
    assert a.meta.labels == b.meta.labels and a.meta.problems == b.meta.problems


@pytest.mark.parametrize("relative", REAL_TRACES[:4], ids=lambda p: p.rsplit("/", 1)[-1][:30])
def test_helper_process_reads_the_same_tables(shared_data, relative):
    """Chunks split with a forked helper give exactly the one-process tables."""
    path = str(shared_data / relative)
    alone = read_trace(path, chunk_bytes=256 << 10, helper=False)
    split = read_trace(path, chunk_bytes=256 << 10, helper=True)
    _same_tables(alone, split)


def test_helper_inflating_through_a_small_ring_gives_the_same_tables(shared_data, monkeypatch):
    """The helper inflates a gzipped trace for both processes through a ring barely larger than
    a block, so it wraps and waits for this process at nearly every block."""
    monkeypatch.setattr(kineto, "RING_BYTES", 300 << 10)  # blocks of 256 KiB below
    path = str(shared_data / REAL_TRACES[0])
    assert path.endswith(".gz")
    alone = read_trace(path, chunk_bytes=256 << 10, helper=False)
    split = read_trace(path, chunk_bytes=256 << 10, helper=True)
    _same_tables(alone, split)


def test_the_helper_takes_a_chunk_while_this_process_has_two_of_its_own_to_decode():
    """The split of the chunks between the two processes, both sides, without processes."""
    split = kineto._Split()
    try:
        # this process still at cut 0: the first two are its own, the helper takes the next
        assert [split.decodes(cut, in_helper=True) for cut in range(4)] == [0, 0, 1, 1]
        # this process reads what it was given, saying where it is (cut 2: done with its two)
        assert [split.decodes(cut, in_helper=False) for cut in range(3)] == [1, 1, 0]
        # ... so the next is its own again, since it has nothing left to decode
        assert split.decodes(4, in_helper=True) is False
        assert [split.decodes(cut, in_helper=False) for cut in (3, 4)] == [False, True]
    finally:
        split.close(helper_ends=True)


def test_zlib_reads_what_zlib_ng_reads(shared_data, monkeypatch):
    """zlib-ng, the inflater where it is installed, and zlib, its fallback, read alike."""
    pytest.importorskip("zlib_ng", reason="zlib-ng has no wheel for this machine")
    assert kineto._INFLATE is not zlib
    path = str(shared_data / REAL_TRACES[0])
    fast = read_trace(path, chunk_bytes=256 << 10, helper=True)
    monkeypatch.setattr(kineto, "_INFLATE", zlib)
    _same_tables(fast, read_trace(path, chunk_bytes=256 << 10, helper=True))


def test_a_damaged_gzip_read_with_the_helper_says_what_is_wrong(shared_data, tmp_path):
    data = (shared_data / REAL_TRACES[0]).read_bytes()
    cut = tmp_path / "cut.pt.trace.json.gz"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(Unreadable, match="truncated gzip"):
        read_trace(str(cut), chunk_bytes=256 << 10, helper=True)


def test_helper_falls_back_where_chunks_cannot_be_split(tmp_path):
    """B/E pairs across chunks, and strings holding what looks like an event boundary."""
    boundary_lookalike = '"}, {"'
    tricky = [
        {**EVENT, "ts": float(i), "name": "x" + boundary_lookalike + str(i),
         "args": {"Input type": [boundary_lookalike]}}
        for i in range(3000)
    ]  # fmt: skip
    begin_end = [{"ph": "B", "name": "outer", "pid": 1, "tid": 2, "ts": 1},
                 *tricky,
                 {"ph": "E", "name": "outer", "pid": 1, "tid": 2, "ts": 9000}]  # fmt: skip
    for events in (tricky, begin_end):
        path = _write(tmp_path / "t.json", {"traceEvents": events, "tb_perf": {"rank": 3}})
        # gzipped (`_write`): the helper inflates it for both processes
        alone = read_trace(path, chunk_bytes=16 << 10, helper=False)
        split = read_trace(path, chunk_bytes=16 << 10, helper=True)
        _same_tables(alone, split)
        assert len(alone.slices["start"]) == len(events) - (events is begin_end)


def test_helper_only_for_big_traces_from_a_single_threaded_caller(tmp_path, monkeypatch):
    path = _write(tmp_path / "t.json", {"traceEvents": [EVENT]})
    assert not _helper_worthwhile(path)  # far below HELPER_MIN_BYTES
    monkeypatch.setattr(kineto, "HELPER_MIN_BYTES", 0)
    assert _helper_worthwhile(path) == (threading.active_count() == 1 and os.cpu_count() > 1)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not _helper_worthwhile(path)  # forking beside another thread is unsafe
    finally:
        stop.set()
        other.join()
