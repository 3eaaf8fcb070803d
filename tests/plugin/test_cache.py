import json
import logging
import os
import re
import shutil
import time
from dataclasses import replace

import numpy as np
import pytest

from tb_perf_plugin import views
from tb_perf_plugin.ingest import cache as cache_module
from tb_perf_plugin.ingest.cache import TraceCache, TraceFacts, cache_key, ingest_to_cache
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.readers import READERS, FileKind
from tb_perf_plugin.store import RunStore
from tests.conftest import REPO

TRACE = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz"
)


@pytest.fixture
def trace(tmp_path, shared_data):
    path = tmp_path / "nccl.pt.trace.json.gz"
    path.write_bytes((shared_data / TRACE).read_bytes())
    return str(path)


def test_warm_load_is_memory_mapped_and_equal(tmp_path, trace):
    cache = TraceCache(tmp_path / "cache")
    cold = cache.read(trace)
    warm = cache.read(trace)
    assert warm.mapping is not None and not warm.slices["start"].flags.writeable
    assert warm.names == cold.names and warm.meta.rank == cold.meta.rank
    for column, values in cold.slices.items():
        assert np.array_equal(warm.slices[column], values), column


def test_a_trace_read_again_shares_its_mapping_and_opens_no_more_files(tmp_path, trace):
    """A live run is read again at every change: its unchanged traces must not map their
    columns once more each time (every mapped column holds a file descriptor)."""
    cache = TraceCache(tmp_path / "cache")
    cache.read(trace)  # parsed and stored
    first = cache.read(trace)  # mapped
    open_files = len(os.listdir("/proc/self/fd"))
    again = [cache.read(trace) for _ in range(20)]
    assert all(tables is first for tables in again)
    assert len(os.listdir("/proc/self/fd")) == open_files
    os.utime(trace, ns=(1, 1))  # a changed file is a new entry
    assert cache.read(trace) is not first


def test_key_changes_with_the_file(tmp_path, trace):
    before = cache_key(trace)
    os.utime(trace, ns=(1, 1))
    assert cache_key(trace) != before


def test_executor_task_leaves_the_tables_in_the_cache(tmp_path, trace):
    facts = ingest_to_cache(trace, str(tmp_path / "c"), 1 << 30)
    assert (tmp_path / "c" / "traces" / cache_key(trace)).is_dir()
    tables = TraceCache(tmp_path / "c").read(trace)  # what the task tells is what is stored
    assert facts == TraceFacts(tables.meta, len(tables.slices["start"]), len(tables.memory["ts"]))
    assert ingest_to_cache(trace, str(tmp_path / "c"), 1 << 30) == facts  # found, not parsed


def test_least_recently_used_entries_are_evicted(tmp_path, trace, shared_data):
    other = tmp_path / "other.pt.trace.json.gz"
    other.write_bytes((shared_data / TRACE).read_bytes())
    os.utime(other, ns=(10**18, 10**18))
    cache = TraceCache(tmp_path / "cache")
    cache.read(trace)
    first_size = sum(f.stat().st_size for f in (cache.traces_dir / cache_key(trace)).iterdir())
    cache.max_bytes = int(first_size * 1.5)  # room for one entry only
    cache.read(str(other))  # the first was used just now: kept past the cap (a run in use)
    assert len(list(cache.traces_dir.iterdir())) == 2
    an_hour_ago = time.time() - 3600
    os.utime(cache.traces_dir / cache_key(trace), (an_hour_ago, an_hour_ago))
    cache.evict()  # as the next entry stored does: what was not used for an hour goes
    assert [p.name for p in cache.traces_dir.iterdir()] == [cache_key(str(other))]


def test_unwritable_cache_parses_with_one_warning(tmp_path, trace, caplog, monkeypatch):
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    monkeypatch.setattr(cache_module.TraceCache, "_warned_unwritable", False)
    cache = TraceCache(blocked)
    with caplog.at_level(logging.WARNING):
        first = cache.read(trace)
        cache.read(trace)
    assert len(first.slices["start"]) == len(read_trace(trace).slices["start"])
    warnings = [r for r in caplog.records if "not writable" in r.getMessage()]
    assert len(warnings) == 1


def test_imported_timelines_are_cached_by_kind_and_reader_version(tmp_path, monkeypatch):
    events = tmp_path / "rank0.events.csv"
    events.write_text("name,start_ns,dur_ns\nstep,1000,500\n")
    key = cache_key(str(events), FileKind.EVENTS)
    assert key != cache_key(str(events), FileKind.KINETO)
    assert isinstance(ingest_to_cache(str(events), str(tmp_path / "c"), 1 << 20, FileKind.EVENTS),
                      TraceFacts)  # fmt: skip
    warm = TraceCache(tmp_path / "c").read(str(events), FileKind.EVENTS, 1 << 20)
    assert warm.mapping is not None and warm.names == ["step"]  # from the cache, mapped
    reader = READERS[FileKind.EVENTS]
    monkeypatch.setitem(READERS, FileKind.EVENTS, replace(reader, version=reader.version + 1))
    assert cache_key(str(events), FileKind.EVENTS) != key  # a new reader misses


@pytest.mark.parametrize(
    ("blocked", "executor"),
    [("a-file", "thread"), ("under-a-file/cache", "thread"), ("a-file", "process")],
)
def test_service_on_an_unwritable_cache_answers_with_one_warning(
    tmp_path, caplog, capfd, monkeypatch, blocked, executor
):
    """TB_PERF_CACHE_DIR naming a file (or a folder under one, which no user can create):
    the traced demo run still loads and every trace view answers, parsed in memory; one
    warning for the whole service, however many files, requests and pool processes (which
    would log to stderr)."""
    (tmp_path / blocked.split("/")[0]).write_text("not a folder")
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(tmp_path / blocked))
    monkeypatch.setattr(cache_module.TraceCache, "_warned_unwritable", False)
    shutil.copytree(REPO / "sample_runs" / "ddp_traced", tmp_path / "logs" / "ddp_traced")
    service = RunStore(str(tmp_path / "logs"), inline_wait_s=120, executor=executor)
    try:
        with caplog.at_level(logging.WARNING):
            summary = views.overview.summary(service, "ddp_traced")
            meta = views.timeline.timeline_meta(service, "ddp_traced")
            operators = views.operators.operators(service, "ddp_traced")
            service.trace_cache.read(service.find_run("ddp_traced").traces[0])
    finally:
        service.close()
    assert summary["run"] == "ddp_traced" and meta["events"] > 0 and operators["rows"]
    assert len(service.find_run("ddp_traced").traces) == 4
    warnings = [r for r in caplog.records if "not writable" in r.getMessage()]
    assert len(warnings) == 1, [r.getMessage() for r in caplog.records]
    assert str(tmp_path / blocked) in warnings[0].getMessage()
    assert not (tmp_path / "a-file").is_dir()
    assert "not writable" not in capfd.readouterr().err


def _mapped_rss_kb(path: str) -> int:
    """This process' resident kB of the mapping of `path` (/proc/self/smaps)."""
    total, inside = 0, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                inside = line.rstrip().endswith(path)
            elif inside and line.startswith("Rss:"):
                total += int(line.split()[1])
    return total


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="reads Linux's smaps")
def test_released_pages_leave_the_process_and_read_back_the_same(tmp_path, trace):
    """What a pass over every rank relies on (RunTables.rank_traces): a mapped column read
    through takes its pages into this process, release_pages gives them back, and the column
    reads the same afterwards."""
    cache = TraceCache(tmp_path / "cache")
    cache.read(trace)  # parsed and stored
    tables = cache.read(trace)  # mapped
    file = str(cache.traces_dir / cache_key(trace) / "columns.bin")
    totals = {name: int(column.sum()) for name, column in tables.slices.items()}  # every page
    assert _mapped_rss_kb(file) * 1024 >= sum(c.nbytes for c in tables.slices.values()) // 2
    tables.release_pages()
    assert _mapped_rss_kb(file) == 0
    assert {name: int(column.sum()) for name, column in tables.slices.items()} == totals


@pytest.mark.parametrize("damage", ["truncated_columns", "offset_past_the_end", "object_dtype"])
def test_a_damaged_entry_is_parsed_again(tmp_path, trace, caplog, damage):
    """An entry the index does not match (a truncated columns file, a column placed past its
    end, a type never stored: an object column would unpickle) is one warning and a parse."""
    cache = TraceCache(tmp_path / "cache")
    expected = {c: np.array(v) for c, v in cache.read(trace).slices.items()}  # copies
    cache_module._OPEN.clear()  # nothing maps the entry when it is damaged (in place here)
    entry = cache.traces_dir / cache_key(trace)
    meta = json.loads((entry / "meta.json").read_text())
    if damage == "truncated_columns":
        columns = entry / "columns.bin"
        columns.write_bytes(columns.read_bytes()[: columns.stat().st_size // 2])
    elif damage == "offset_past_the_end":
        meta["columns"][-1]["offset"] = 1 << 40
    else:
        meta["columns"][0]["dtype"] = "|O"
    (entry / "meta.json").write_text(json.dumps(meta))
    with caplog.at_level(logging.WARNING):
        again = TraceCache(tmp_path / "cache").read(trace)
    reason = "not a stored column" if damage == "object_dtype" else "ends past the file"
    assert f"{reason}); re-parsing" in caplog.text
    for column, values in expected.items():
        assert np.array_equal(again.slices[column], values), column


def test_a_cache_smaller_than_the_runs_read_says_so_once(tmp_path, trace, caplog, monkeypatch):
    """A cap smaller than the runs being read: the traces in use stay past it (evicted, each
    read would parse them all again), with one warning naming the setting; a fitting cache
    says nothing."""
    monkeypatch.setattr(cache_module.TraceCache, "_warned_too_small", False)
    other = tmp_path / "other.pt.trace.json.gz"
    shutil.copyfile(trace, other)
    roomy = TraceCache(tmp_path / "roomy")
    with caplog.at_level(logging.WARNING):
        roomy.read(trace)
        roomy.read(str(other))
    assert "TB_PERF_CACHE_MAX_MB" not in caplog.text
    small = TraceCache(tmp_path / "small", max_bytes=1)  # room for no entry at all
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            small.read(trace)
            small.read(str(other))
    assert caplog.text.count("raise TB_PERF_CACHE_MAX_MB") == 1
