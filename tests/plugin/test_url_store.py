"""The store at a URL (`ingest.url_store`) and the caches over it, on fsspec's in-memory
filesystem: two cache directories stand for two hosts that share only the store. (Against a
real S3 API and Dask workers: test_dask_executor.py.)"""

import json
import logging
import time
import uuid

import numpy as np
import pytest

from tb_perf_plugin.executor import InlineExecutor
from tb_perf_plugin.ingest import cache as cache_module
from tb_perf_plugin.ingest.cache import (
    CachedTrace,
    TraceCache,
    TraceFacts,
    cache_key,
    ingest_to_cache,
)
from tb_perf_plugin.ingest.cache_dir import STORE_ENV, default_location, store_problem
from tb_perf_plugin.ingest.readers import FileKind
from tb_perf_plugin.ingest.url_store import MANIFEST, StoreError, UrlStore, is_url
from tb_perf_plugin.pipeline.result_cache import ResultCache, result_key

fsspec = pytest.importorskip("fsspec", reason="the test extra's fsspec")

TRACE = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz"
)


@pytest.fixture
def url():
    """A fresh store in fsspec's in-memory filesystem (one per test: it is process-wide)."""
    location = f"memory://tb-perf-test-{uuid.uuid4().hex}"
    yield location
    fs = fsspec.filesystem("memory")
    if fs.exists(location):
        fs.rm(location, recursive=True)


@pytest.fixture
def trace(tmp_path, shared_data):
    path = tmp_path / "nccl.pt.trace.json.gz"
    path.write_bytes((shared_data / TRACE).read_bytes())
    return str(path)


def _host(monkeypatch, tmp_path, name: str) -> None:
    """Act as the host whose own cache directory is `name`."""
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(tmp_path / name))


@pytest.mark.parametrize(
    ("location", "url"),
    [("s3://bucket/x", True), ("file:///tmp/x", True), ("/tmp/x", False),
     ("C:\\x", False), ("relative/x", False), ("a b://x", False)],
)  # fmt: skip
def test_urls_are_told_from_paths(location, url):
    assert is_url(location) is url


def test_an_unknown_store_protocol_is_a_problem_that_names_it(monkeypatch, caplog):
    assert "nosuchfs" in (store_problem("nosuchfs://bucket/x") or "")
    assert store_problem("memory://bucket/x") is None and store_problem("/some/dir") is None
    monkeypatch.setenv(STORE_ENV, "nosuchfs://bucket/y")
    for _ in range(3):
        assert not is_url(default_location())  # unusable: the local cache directory
    said = [r.getMessage() for r in caplog.records if "nosuchfs://bucket/y" in r.getMessage()]
    assert len(said) == 1 and said[0].endswith("the local cache directory is used")


def test_an_entry_is_fetched_whole_and_is_absent_until_its_manifest_is_put(url, tmp_path):
    store = UrlStore(url)
    entry = tmp_path / "made" / "abc"
    entry.mkdir(parents=True)
    (entry / "columns.bin").write_bytes(b"\1" * 1000)
    (entry / "meta.json").write_text("{}")
    fs = fsspec.filesystem("memory")
    fs.pipe_file(f"{url}/traces/abc/columns.bin", b"\1" * 1000)  # a writer half-way through
    assert not store.fetch_entry("traces", "abc", tmp_path / "here")
    assert not store.has_entry("traces", "abc")
    store.put_entry("traces", "abc", entry)
    assert store.has_entry("traces", "abc")
    assert store.fetch_entry("traces", "abc", tmp_path / "here")
    fetched = tmp_path / "here" / "abc"
    assert sorted(p.name for p in fetched.iterdir()) == ["columns.bin", "meta.json"]
    assert (fetched / "columns.bin").read_bytes() == b"\1" * 1000
    assert store.read_entry_file("traces", "abc", "meta.json") == b"{}"
    assert store.fetch_entry("traces", "abc", tmp_path / "here")  # a second fetch: no error


def test_a_rewritten_or_damaged_entry_is_not_fetched(url, tmp_path):
    store = UrlStore(url)
    fs = fsspec.filesystem("memory")
    fs.pipe_file(f"{url}/traces/short/columns.bin", b"\1" * 10)
    fs.pipe_file(f"{url}/traces/short/{MANIFEST}", json.dumps({"columns.bin": 1000}).encode())
    assert not store.fetch_entry("traces", "short", tmp_path / "here")
    fs.pipe_file(f"{url}/traces/evil/{MANIFEST}", json.dumps({"../../outside": 1}).encode())
    with pytest.raises(StoreError, match="damaged manifest"):
        store.fetch_entry("traces", "evil", tmp_path / "here")
    assert [p.name for p in (tmp_path / "here").iterdir()] == []  # no entry, no staging left
    assert not (tmp_path / "outside").exists()


def test_handed_over_files_are_taken_once_and_stale_ones_removed(url):
    store = UrlStore(url)
    where = store.put_file("summaries", "rank3.x.summary", b"summary")
    assert where == f"{url}/summaries/rank3.x.summary"
    assert store.take_file(where) == b"summary"
    with pytest.raises(FileNotFoundError):
        store.take_file(where)
    with pytest.raises(StoreError, match="not in the store"):
        store.take_file("memory://elsewhere/summaries/rank3.x.summary")
    store.put_file("summaries", "old.summary", b"old")
    store.put_file("summaries", "new.summary", b"new")
    store.remove_older("summaries", 3600)
    assert len(fsspec.filesystem("memory").ls(f"{url}/summaries")) == 2
    time.sleep(0.05)
    store.remove_older("summaries", 0.01)  # both are older than that now
    assert not fsspec.filesystem("memory").find(f"{url}/summaries")


def test_a_store_that_fails_warns_once_per_outage(url, tmp_path, caplog, monkeypatch):
    caplog.set_level(logging.INFO)
    store = UrlStore(url)
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "f").write_bytes(b"x")

    def refuse(*args, **kwargs):
        raise PermissionError("read-only credentials")

    with monkeypatch.context() as patched:
        patched.setattr(store._fs, "put_file", refuse)
        for _ in range(3):
            with pytest.raises(StoreError, match="read-only credentials"):
                store.put_entry("traces", "e", tmp_path / "e")
    store.put_entry("traces", "e", tmp_path / "e")  # writes again: the next outage warns
    failed = [r for r in caplog.records if "failed (PermissionError" in r.getMessage()]
    assert len(failed) == 1
    assert any("takes writes again" in r.getMessage() for r in caplog.records)


def test_another_host_reads_a_trace_from_the_store_only_when_it_opens_it(
    url, trace, tmp_path, monkeypatch
):
    """A worker parses the trace (into its own cache directory and the store); the serving
    host reads the run knowing the trace by its metadata alone, and copies its tables only
    when it opens them."""
    _host(monkeypatch, tmp_path, "worker")
    facts = ingest_to_cache(trace, url, 1 << 30)
    assert isinstance(facts, TraceFacts)
    key = cache_key(trace)
    assert (tmp_path / "worker" / "traces" / key).is_dir()

    _host(monkeypatch, tmp_path, "server")

    def parse(*args):
        raise AssertionError("parsed on the serving host")

    monkeypatch.setattr(cache_module, "read_timeline_file", parse)
    server = TraceCache(url)
    assert server.root == tmp_path / "server"
    (read,) = server.read_all([(trace, FileKind.KINETO)], 1 << 30, InlineExecutor())
    assert read.meta == facts.meta and isinstance(read.held, CachedTrace)
    assert read.held.slices == facts.slices > 0
    assert not (server.traces_dir / key).exists()  # known by its metadata
    tables = read.held.open()
    assert (server.traces_dir / key).is_dir()  # fetched on open, and mapped from there
    assert tables.mapping is not None and len(tables.slices["start"]) == facts.slices

    _host(monkeypatch, tmp_path, "worker")
    assert ingest_to_cache(trace, url, 1 << 30) == facts  # in the store already: not parsed


def test_results_cross_the_store_between_hosts(url, tmp_path, monkeypatch):
    _host(monkeypatch, tmp_path, "worker")
    name = result_key("kind", ("run", 1))
    assert ResultCache(url).store_as(name, "kind", {"numbers": np.arange(5)}, [])
    _host(monkeypatch, tmp_path, "server")
    server = ResultCache(url)
    assert server.load("kind", ("run", 2), []) is None  # another version: a miss
    loaded = server.load("kind", ("run", 1), [])
    assert loaded is not None and loaded.value["numbers"].tolist() == [0, 1, 2, 3, 4]
    assert [p.name for p in server.root.iterdir()] == [name]  # fetched into its own cache
