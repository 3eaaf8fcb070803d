"""Bad input for the Kineto / Chrome trace reader (`read_trace`) and the file sniffer
(`readers.sniff`): damaged real traces, plain and gzipped, read with small chunk sizes so chunk
cuts land everywhere (and some with the forked chunk helper), wrong compression, gzip bombs and
oversized files against small limits, and a trace with millions of events in one step.

Every case must give trace tables that keep their own contract (equal column lengths, declared
dtypes, name ids inside the string table) or raise Unreadable, within the watchdog's bound.
Seeds: the demo run's traces (sample_runs/) and small shared real traces (../shared/data, where
present). Counts: a few hundred in CI; `TB_PERF_SOAK=1` runs 10,000 per reader, the 2 M-event
step and a 1 GB gzip bomb.
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import kineto
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.readers import sniff
from tb_perf_plugin.ingest.tables import MEMORY_COLUMNS, NAME_COLUMNS, SLICE_COLUMNS, TraceTables

from ._fuzz import (
    SOAK,
    case_count,
    dumps,
    gzip_bomb,
    mutate_bytes,
    mutate_json,
    run_cases,
    watchdog,
    wrong_compression,
)

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data"
HTA = SHARED / "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
SHARED_SEEDS = [
    HTA / "cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",  # CPU only, 2022
    HTA / "triton_example/triton_example.json.gz",  # Triton kernels
    HTA / "amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",  # ROCm, hex-string streams
    HTA / "call_stack/backward_thread.json",  # plain JSON
]
MAX_SEED_EVENTS = 300
MAX_BYTES = 4 << 20


def _synthetic() -> dict:
    """A small trace with every event form the reader handles: complete, begin/end, instants
    (memory), metadata, ignored phases, string pids/tids, device events with hex args."""
    events = [
        {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": "main", "args": {"name": "main"}},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": "main",
         "ts": 1000.5, "dur": 100},
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": "main", "ts": 1001,
         "dur": 10, "args": {"External id": 7, "Input Dims": [[2, 2], [2, 2]],
                             "Input type": ["float", "float"]}},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": "stream 7", "ts": 1005,
         "dur": 3, "args": {"device": "0x0", "stream": 7, "correlation": 9, "grid": [1, 1, 1],
                            "block": [32, 1, 1], "registers per thread": 32,
                            "est. achieved occupancy %": 50}},
        {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce", "pid": 0, "tid": 7,
         "ts": 1020, "dur": 5, "args": {"Collective name": "allreduce", "In msg nelems": 4,
                                        "Group size": 2, "dtype": "Float"}},
        {"ph": "B", "name": "begin-end", "pid": 1, "tid": "main", "ts": 1030},
        {"ph": "E", "name": "begin-end", "pid": 1, "tid": "main", "ts": 1040},
        {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1050,
         "args": {"Bytes": 512, "Total Allocated": 512, "Total Reserved": 2048,
                  "Device Type": 1, "Device Id": 0, "Addr": 123456}},
        {"ph": "f", "id": 9, "pid": 1, "tid": 1, "ts": 1060, "cat": "ac2g", "name": "flow"},
        {"ph": "C", "name": "counter", "pid": 1, "ts": 1070, "args": {"x": 1}},
    ]  # fmt: skip
    return {
        "schemaVersion": 1,
        "distributedInfo": {"rank": 0, "world_size": 2},
        "deviceProperties": [{"id": 0, "name": "GPU"}],
        "traceEvents": events,
        "traceName": "synthetic",
        "baseTimeNanoseconds": 1_700_000_000_000_000_000,
    }


def _seed_documents() -> list[dict | list]:
    """Decoded seed traces, each cut to its first MAX_SEED_EVENTS events."""
    paths = sorted(REPO.glob("sample_runs/ddp_pipeline/plugins/tb_perf/rank0.*VAE.1-1.*.json.gz"))
    paths += [p for p in SHARED_SEEDS if p.is_file()]
    docs: list[dict | list] = [_synthetic()]
    for path in paths:
        raw = path.read_bytes()
        doc = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
        if isinstance(doc, dict):
            doc["traceEvents"] = doc.get("traceEvents", [])[:MAX_SEED_EVENTS]
        else:
            doc = doc[:MAX_SEED_EVENTS]
        docs.append(doc)
    return docs


def check_tables(tables: TraceTables) -> None:
    """The contract every reader's tables keep (tables.build_trace_tables states it)."""
    rows = len(tables.slices["start"])
    assert set(tables.slices) == set(SLICE_COLUMNS)
    for column, dtype in SLICE_COLUMNS.items():
        assert tables.slices[column].dtype == dtype and len(tables.slices[column]) == rows
    for column in NAME_COLUMNS:
        ids = tables.slices[column]
        assert rows == 0 or (ids.min() >= -1 and ids.max() < len(tables.names)), column
    memory_rows = len(tables.memory["ts"])
    for column, dtype in MEMORY_COLUMNS.items():
        assert tables.memory[column].dtype == dtype and len(tables.memory[column]) == memory_rows
    assert all(isinstance(name, str) for name in tables.names)


def _trace_generator(docs: list[dict | list]):
    def generate(rng: random.Random) -> tuple[str, bytes]:
        doc = json.loads(json.dumps(rng.choice(docs)))
        pick = rng.random()
        if pick < 0.45:
            label, doc = mutate_json(rng, doc)
            for _ in range(rng.choice((0, 0, 1, 3))):
                more, doc = mutate_json(rng, doc)
                label += "; " + more
            data = dumps(doc)
        else:
            label, data = mutate_bytes(rng, dumps(doc))
        if rng.random() < 0.15:
            more, data = wrong_compression(rng, data)
            label += "; " + more
        elif rng.random() < 0.5:
            data = gzip.compress(data, 1)
            label += "; gzipped"
        return label, data

    return generate


def _reader(rng_seed: int = 0):
    """read_trace with a chunk size drawn per call, small enough that every seed is cut into
    many chunks; one call in 25 also forks the chunk helper."""
    rng = random.Random(rng_seed)

    def read(path: str) -> TraceTables:
        chunk = rng.choice((64, 200, 1024, 4096, 1 << 20))
        return read_trace(path, MAX_BYTES, chunk_bytes=chunk, helper=rng.random() < 0.04)

    return read


def test_damaged_traces_read_or_are_refused(tmp_path):
    run_cases(
        "kineto", _reader(), _trace_generator(_seed_documents()), case_count(400), tmp_path,
        "worker0.1.pt.trace.json.gz", check_tables,
    )  # fmt: skip


def test_sniffing_damaged_files_always_answers(tmp_path):
    """`sniff` decides from the first bytes only: it must name a kind or say why not."""
    docs = _seed_documents()
    csv_seed = (REPO / "tests/fixtures/imported/events_example.csv").read_bytes()
    trace_cases = _trace_generator(docs)

    def generate(rng: random.Random) -> tuple[str, bytes]:
        if rng.random() < 0.2:
            return mutate_bytes(rng, csv_seed)
        return trace_cases(rng)

    def check(found) -> None:
        assert isinstance(found.reason, str) and found.reason

    run_cases("sniff", sniff, generate, case_count(400), tmp_path, "imported.json.gz", check)


# --- regressions ------------------------------------------------------------------------------


def _trace_with(event: dict) -> bytes:
    events = [{"ph": "X", "name": "a", "ts": 1, "dur": 1}, event]
    return json.dumps({"traceEvents": events}).encode()


@pytest.mark.parametrize(
    "event",
    [
        {"ph": "X", "name": "b", "pid": "99999999999999999999999", "ts": 2, "dur": 1},
        {"ph": "X", "name": "b", "pid": "²", "tid": "-٣", "ts": 2, "dur": 1},
        {"ph": "X", "name": "b", "pid": 2**64, "ts": 2, "dur": 1},
        {"ph": "X", "cat": "kernel", "name": "k", "ts": 2, "dur": 1,
         "args": {"correlation": 2**64, "device": "0x" + "f" * 40, "stream": 2**63}},
        {"ph": "X", "cat": "kernel", "name": "k", "ts": 2, "dur": 1,
         "args": {"registers per thread": 2**40, "grid": [2**70]}},
        {"ph": "i", "name": "[memory]", "ts": 2,
         "args": {"Device Type": 300, "Device Id": 70000, "Addr": 2**65, "Bytes": -(2**64)}},
        {"ph": "X", "name": "b", "ts": 1e300, "dur": -1e300},
        {"ph": "X", "name": "b", "ts": -1e18, "dur": 1e17},
    ],
    ids=[
        "pid-text-past-int64", "pid-unicode-digits", "pid-past-int64", "kernel-args-past-int64",
        "kernel-int32-columns-overflow", "memory-narrow-columns-overflow", "times-past-int64-ns",
        "times-far-before-epoch",
    ],
)  # fmt: skip
def test_values_outside_the_columns_range_are_refused_or_skipped(event, tmp_path):
    """Numbers the JSON allows but the int64/int32/int8 columns cannot hold: each such event
    is skipped (and counted) or the trace refused, never an OverflowError."""
    path = tmp_path / "worker0.1.pt.trace.json"
    path.write_bytes(_trace_with(event))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warnings too: no silent garbage
        tables = read_trace(str(path))
    check_tables(tables)
    assert len(tables.slices["start"]) + len(tables.memory["ts"]) >= 1
    assert tables.meta.problems == ["1 event(s) with unexpected field types skipped"] or (
        len(tables.slices["start"]) == 2
    )


# --- limits -------------------------------------------------------------------------------


_PEAK_RSS_SCRIPT = """
import resource, sys, time
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.kineto import read_trace
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
try:
    read_trace(sys.argv[1], max_bytes=int(sys.argv[2]))
    print("read")
except Unreadable as exc:
    print("refused:", exc)
print(time.perf_counter() - started)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def _read_in_fresh_process(path: Path, limit: int) -> tuple[str, float, int]:
    """Read `path` in a fresh interpreter (a clean peak-RSS baseline): (outcome, seconds,
    bytes the peak resident set grew while reading)."""
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_RSS_SCRIPT, str(path), str(limit)],
        capture_output=True, text=True, timeout=600, cwd=REPO, check=True,
    )  # fmt: skip
    outcome, seconds, grown_kib = done.stdout.strip().splitlines()
    return outcome, float(seconds), int(grown_kib) * 1024


def test_a_gzip_bomb_stops_at_the_limit_with_bounded_memory(tmp_path):
    """64 MB of JSON whitespace inside a trace header, gzipped to about 64 kB, against a 4 MB
    limit (TB_PERF_SOAK=1: 1 GB, about 1 MB gzipped, against 64 MB): refused once the inflated
    bytes pass the limit, the peak resident set growing by no more than a few times the limit.
    Regression: one 1 MiB read of compressed data was inflated whole (up to 1 GB) before the
    limit was checked."""
    raw = (1 << 30) if SOAK else (64 << 20)
    limit = (64 << 20) if SOAK else (4 << 20)
    path = tmp_path / "bomb.pt.trace.json.gz"
    path.write_bytes(gzip_bomb(raw, b'{"traceEvents": [', b" "))
    assert path.stat().st_size < raw / 500
    outcome, _, grown = _read_in_fresh_process(path, limit)
    print(f"{raw >> 20} MB bomb against a {limit >> 20} MB limit: peak RSS +{grown >> 20} MB")
    assert outcome.startswith("refused:") and "limit" in outcome
    assert grown < 4 * limit + (16 << 20), f"peak RSS grew {grown >> 20} MB"


def test_a_bomb_of_one_endless_string_stops_at_the_limit(tmp_path):
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip_bomb(16 << 20, b'{"traceEvents": [{"name": "', b"a"))
    with watchdog(60), pytest.raises(Unreadable, match="limit"):
        read_trace(str(path), max_bytes=1 << 20)


def test_a_plain_trace_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "big.pt.trace.json"
    path.write_bytes(dumps(_synthetic()) + b" " * 4096)
    with pytest.raises(Unreadable, match="limit"):
        read_trace(str(path), max_bytes=1024)


@pytest.mark.parametrize("packing", ["plain under .gz", "gzip under .json", "gzip twice"])
def test_wrong_compression_is_read_by_content_or_refused(packing, tmp_path):
    """The name's suffix never decides: plain JSON named .gz and gzip named .json read the
    same; gzip inside gzip is refused with a clear message."""
    plain = dumps(_synthetic())
    name, data = {
        "plain under .gz": ("t.pt.trace.json.gz", plain),
        "gzip under .json": ("t.pt.trace.json", gzip.compress(plain)),
        "gzip twice": ("t.pt.trace.json.gz", gzip.compress(gzip.compress(plain))),
    }[packing]
    path = tmp_path / name
    path.write_bytes(data)
    if packing == "gzip twice":
        with pytest.raises(Unreadable, match="not a JSON trace"):
            read_trace(str(path))
        return
    tables = read_trace(str(path))
    check_tables(tables)
    assert "aten::mm" in tables.names


# --- a trace with millions of events in one step --------------------------------------------


def _one_step_trace(path: Path, events: int) -> None:
    """One ProfilerStep holding `events` tiny cpu_op events, written gzipped in pieces."""
    head = (
        b'{"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "user_annotation", '
        b'"name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": %d}' % (events + 1)
    )
    with gzip.open(path, "wb", compresslevel=1) as out:
        out.write(head)
        names = [b"aten::add", b"aten::mul", b"aten::copy_", b"aten::empty"]
        batch = 100_000
        for first in range(0, events, batch):
            out.write(
                b"".join(
                    b',{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":1,"ts":%d,"dur":0.5}'
                    % (names[i % 4], i)
                    for i in range(first, min(events, first + batch))
                )
            )
        out.write(b'], "baseTimeNanoseconds": 1700000000000000000}')


@pytest.mark.parametrize("events", [2_000_000 if SOAK else 200_000])
def test_millions_of_events_in_one_step(events, tmp_path):
    """The scaled-down CI version holds 200 k events; TB_PERF_SOAK=1 holds 2 M. Read once in a
    fresh process as the service would (time and peak-RSS growth printed; the growth bounded
    by 250 bytes per event (the table itself is 133) plus the chunk buffers), then here with
    the tables checked."""
    path = tmp_path / "step.pt.trace.json.gz"
    _one_step_trace(path, events)
    outcome, seconds, grown = _read_in_fresh_process(path, 4 << 30)
    raw = kineto._decompressed_size(str(path))
    print(
        f"{events} events in one step ({raw >> 20} MB JSON): {seconds:.2f} s, "
        f"peak RSS +{grown >> 20} MB"
    )
    assert outcome == "read"
    assert grown < 250 * events + (128 << 20), f"peak RSS grew {grown >> 20} MB"
    with watchdog(600):
        tables = read_trace(str(path), helper=False)
    check_tables(tables)
    assert len(tables.slices["start"]) == events + 1
    names = np.array(tables.names)[tables.slices["name"]]
    assert names[0] == "ProfilerStep#0"
    assert tables.slices["dur"][0] == (events + 1) * 1000
