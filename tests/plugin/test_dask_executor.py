"""The Dask executor against a real `distributed.LocalCluster` whose workers have their own
cache directory: traces come back packed and only the serving process caches them; with the
store (TB_PERF_STORE: a shared directory, or an s3:// URL served by moto) the workers write
it, summarize the ranks and merge them."""

import argparse
import gzip
import json
import logging
import os
import shutil
import socket
from pathlib import Path

import numpy as np
import pytest
from tensorboard.backend import application
from tensorboard.plugins import base_plugin
from werkzeug import test, wrappers

from tb_perf_plugin import cli, executor, views
from tb_perf_plugin.errors import ExecutorUnavailable, Unreadable
from tb_perf_plugin.ingest import cache as cache_module
from tb_perf_plugin.ingest.readers import FileKind, read_timeline_file
from tb_perf_plugin.ingest.transfer import pack, parse_packed, unpack
from tb_perf_plugin.pipeline import analyze, rank_summary
from tb_perf_plugin.plugin import TbPerfPlugin
from tb_perf_plugin.store import RunStore
from tests.plugin.test_rank_summaries import _answers as every_route

distributed = pytest.importorskip(
    "distributed", reason="the dask extra is not installed (pip install 'tb-perf[dask]')"
)
import dask  # noqa: E402  (installed with distributed)

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"
TRACED = SAMPLE_RUNS / "ddp_traced"  # real torch.profiler traces of a 2-rank gloo run


@pytest.fixture(scope="module")
def worker_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("worker-cache")


def _cluster(**options) -> "distributed.LocalCluster":
    # a task that kills its worker fails at once instead of being retried on the others
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        return distributed.LocalCluster(
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # the scheduler's health/metrics server: any free port, not 8787 (taken by the
            # module's other cluster)
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            **options,
        )


@pytest.fixture(scope="module")
def scheduler(worker_cache):
    with _cluster(n_workers=2, env={"TB_PERF_CACHE_DIR": str(worker_cache)}) as cluster:
        yield cluster.scheduler_address.replace("tcp://", "dask://")


@pytest.fixture
def logdir(tmp_path) -> Path:
    shutil.copytree(TRACED, tmp_path / "logs" / "traced")
    return tmp_path / "logs"


def _answers(service: RunStore) -> dict:
    run = "traced"
    return {
        "summary": views.overview.summary(service, run, wait_s=120),
        "operators": views.operators.operators(service, run, wait_s=120),
        "breakdown": views.breakdown.breakdown(service, run, wait_s=120),
        "meta": views.timeline.timeline_meta(service, run, wait_s=120),
        "tiles": views.timeline.timeline_tiles(
            service, run, "0", "1" + "0" * 18, "800", "0,1", wait_s=120
        ),  # fmt: skip
    }


def _answers_inline(logdir: Path, tmp_path: Path) -> dict:
    local = RunStore(str(logdir), executor="inline", cache_dir=str(tmp_path / "local-cache"))
    try:
        return _answers(local)
    finally:
        local.close()


def _refused_here(monkeypatch, *names: tuple[object, str]) -> None:
    """Make each (module, function) fail if called: work the workers must do, not this
    process."""

    def here(*args, **kwargs):
        raise AssertionError("done in the serving process, not by the workers")

    for module, name in names:
        monkeypatch.setattr(module, name, here)


def test_dask_answers_what_the_local_executor_answers(scheduler, worker_cache, logdir, tmp_path):
    server_cache = tmp_path / "server-cache"
    on_dask = RunStore(str(logdir), executor=scheduler, cache_dir=str(server_cache))
    local = RunStore(str(logdir), executor="inline", cache_dir=str(tmp_path / "local-cache"))
    try:
        remote_answers = _answers(on_dask)
        assert remote_answers == _answers(local)
        assert remote_answers["meta"]["events"] > 1000  # the traces were read, not skipped
        traces = on_dask.tables(on_dask.find_run("traced")).traces
        assert len(traces) == 4 and {t.rank for t in traces} == {0, 1}
    finally:
        on_dask.close()
        local.close()
    assert len(list((server_cache / "traces").iterdir())) == 4  # only the server caches
    assert not (worker_cache / "traces").exists()  # the workers wrote nothing of their own


def test_with_the_shared_store_the_workers_parse_summarize_and_merge(
    scheduler, worker_cache, logdir, tmp_path, monkeypatch
):
    """TB_PERF_STORE, a directory the workers mount at the same path (here: this machine's):
    the Dask workers write the parsed traces there, make each rank's summary and merge the
    run's analysis, as local pool workers do; the serving process unpacks no tables and
    analyses nothing itself, and answers as the local executor does."""
    store_dir = tmp_path / "store"
    monkeypatch.setenv("TB_PERF_STORE", str(store_dir))
    monkeypatch.setattr(rank_summary, "MIN_RANKS_ON_WORKERS", 1)  # the demo run has 2 ranks
    expected = _answers_inline(logdir, tmp_path)
    _refused_here(monkeypatch, (cache_module, "_unpacked"), (analyze, "analyze_run"))
    on_dask = RunStore(str(logdir), executor=scheduler)  # the store is the cache directory
    try:
        assert on_dask.trace_cache.root == store_dir
        assert _answers(on_dask) == expected
    finally:
        on_dask.close()
    assert len(list((store_dir / "traces").iterdir())) == 4  # written by the workers
    assert not (worker_cache / "traces").exists()


def test_a_store_url_without_its_driver_is_refused_with_the_reason(scheduler, logdir, monkeypatch):
    monkeypatch.setenv("TB_PERF_STORE", "nosuchfs://bucket/tb-perf")
    service = RunStore(str(logdir), executor=scheduler)
    try:
        with pytest.raises(ExecutorUnavailable, match="TB_PERF_STORE='nosuchfs://bucket/tb-perf'"):
            service.tables(service.find_run("traced"), wait_s=120)
    finally:
        service.close()


@pytest.fixture(scope="module")
def s3():
    """A real S3 API (moto's server on a free port) with an empty bucket, and what reaches it:
    the endpoint and credentials, as environment variables for the workers (fsspec reads
    FSSPEC_S3_* at import) and as fsspec's configuration here."""
    moto_server = pytest.importorskip("moto.server", reason="the test extra's moto[server]")
    pytest.importorskip("s3fs", reason="the test extra's s3fs")
    import fsspec.config

    keys = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "us-east-1"}  # fmt: skip
    saved = {name: os.environ.get(name) for name in keys}
    os.environ.update(keys)
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    previous = fsspec.config.conf.get("s3")
    fsspec.config.conf["s3"] = {"endpoint_url": endpoint}
    fs = fsspec.filesystem("s3", endpoint_url=endpoint)
    fs.mkdir("tb-perf-store")
    try:
        yield {**keys, "FSSPEC_S3_ENDPOINT_URL": endpoint}, fs
    finally:
        server.stop()
        if previous is None:
            fsspec.config.conf.pop("s3", None)
        else:
            fsspec.config.conf["s3"] = previous
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture(scope="module")
def s3_scheduler(s3, tmp_path_factory):
    """A cluster whose workers reach the S3 store and have a cache directory of their own."""
    env, _ = s3
    workers_cache = tmp_path_factory.mktemp("s3-workers-cache")
    with _cluster(n_workers=2, env={**env, "TB_PERF_CACHE_DIR": str(workers_cache)}) as cluster:
        yield cluster.scheduler_address.replace("tcp://", "dask://"), workers_cache


def test_with_a_store_url_the_workers_parse_summarize_and_merge(
    s3, s3_scheduler, logdir, tmp_path, monkeypatch, caplog
):
    """TB_PERF_STORE=s3://…: no file system shared. The workers put the parsed traces, the
    merged analysis and the timeline pieces in the bucket; the serving process unpacks no
    tables, analyses nothing, parses nothing, and fetches what it serves into its own cache
    directory: the answers are the local executor's."""
    _, fs = s3
    scheduler, workers_cache = s3_scheduler
    monkeypatch.setenv("TB_PERF_STORE", "s3://tb-perf-store/cache")
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(tmp_path / "server-cache"))
    monkeypatch.setattr(rank_summary, "MIN_RANKS_ON_WORKERS", 1)  # the demo run has 2 ranks
    expected = _answers_inline(logdir, tmp_path)
    _refused_here(monkeypatch, (cache_module, "_unpacked"),
                  (cache_module, "read_timeline_file"), (analyze, "analyze_run"))  # fmt: skip
    assert expected["tiles"]["lanes"]  # the tiles take the ranks' pieces
    on_dask = RunStore(str(logdir), executor=scheduler)
    try:
        assert on_dask.trace_cache.location == "s3://tb-perf-store/cache"
        assert _answers(on_dask) == expected
    finally:
        on_dask.close()
    assert len(fs.ls("tb-perf-store/cache/traces")) == 4  # put there by the workers
    assert len(list((workers_cache / "traces").iterdir())) == 4  # their own copies
    assert not fs.find("tb-perf-store/cache/summaries")  # handed over, taken by the merge
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # no task failed
    fetched = tmp_path / "server-cache"
    assert not list((fetched / "traces").iterdir())  # the views shown open no trace: none copied
    results = {p.name for p in (fetched / "results").iterdir()}
    assert len(results) >= 3  # the analysis and the two ranks' timeline pieces, at least
    assert results <= {p.rsplit("/", 1)[-1] for p in fs.ls("tb-perf-store/cache/results")}


def test_with_a_store_url_every_analysis_route_answers_as_the_serving_process(
    s3, s3_scheduler, logdir, tmp_path, monkeypatch
):
    scheduler, _ = s3_scheduler
    monkeypatch.setenv("TB_PERF_STORE", "s3://tb-perf-store/every-route")
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(tmp_path / "server-cache"))
    monkeypatch.setattr(rank_summary, "MIN_RANKS_ON_WORKERS", 1)
    local = RunStore(str(logdir), executor="inline", cache_dir=str(tmp_path / "local-cache"))
    expected = every_route(local)
    local.close()
    on_dask = RunStore(str(logdir), executor=scheduler)
    try:
        assert every_route(on_dask) == expected
    finally:
        on_dask.close()


def test_a_store_url_that_fails_leaves_the_traces_with_the_serving_process(
    s3, s3_scheduler, logdir, tmp_path, monkeypatch, caplog
):
    """A bucket that does not exist: the workers cannot put anything, send the tables back,
    and the serving process keeps them in its own cache; the answers are the same."""
    scheduler, _ = s3_scheduler
    monkeypatch.setenv("TB_PERF_STORE", "s3://no-such-bucket/cache")
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(tmp_path / "server-cache"))
    expected = _answers_inline(logdir, tmp_path)
    on_dask = RunStore(str(logdir), executor=scheduler)
    try:
        assert _answers(on_dask) == expected
    finally:
        on_dask.close()
    assert len(list((tmp_path / "server-cache" / "traces").iterdir())) == 4
    failed = [
        r for r in caplog.records if "the store s3://no-such-bucket/cache failed" in r.getMessage()
    ]
    assert len(failed) == 1  # once in this process, not once per trace


def test_a_warm_cache_sends_no_task(scheduler, logdir, tmp_path, monkeypatch):
    cache_dir = str(tmp_path / "cache")
    first = RunStore(str(logdir), executor="inline", cache_dir=cache_dir)
    views.overview.summary(first, "traced", wait_s=120)
    first.close()

    def refuse(*args):
        raise AssertionError("a cached trace was parsed again")

    monkeypatch.setattr(cache_module, "parse_packed", refuse)
    again = RunStore(str(logdir), executor=scheduler, cache_dir=cache_dir)
    try:
        assert len(again.tables(again.find_run("traced"), wait_s=120).traces) == 4
    finally:
        again.close()


def test_results_over_the_cap_are_refused_with_a_warning(scheduler, logdir, tmp_path, monkeypatch):
    monkeypatch.setattr(cache_module, "DEFAULT_MAX_RESULT_BYTES", 1000)
    service = RunStore(str(logdir), executor=scheduler, cache_dir=str(tmp_path / "cache"))
    try:
        tables = service.tables(service.find_run("traced"), wait_s=120)
    finally:
        service.close()
    assert not tables.traces
    refused = [w for w in tables.warnings if "a worker may return" in w]
    assert len(refused) == 4 and "TB_PERF_MAX_RESULT_MB" in refused[0]
    assert len(tables.steps) > 0  # the timer files are still read


def test_the_cli_runs_on_the_cluster(scheduler, logdir, capsys):
    run = str(logdir / "traced")
    assert cli.main(["analyze", run, "--executor", scheduler, "--format", "json"]) == 0
    on_dask = json.loads(capsys.readouterr().out)
    assert cli.main(["analyze", run, "--executor", "inline", "--format", "json"]) == 0
    assert on_dask == json.loads(capsys.readouterr().out)


def test_task_errors_and_lost_workers_reach_the_caller_as_such(scheduler, tmp_path):
    pool = executor.make_executor(scheduler)
    try:
        missing = pool.submit(
            parse_packed, str(tmp_path / "gone.json"), 1 << 20, FileKind.KINETO, 1 << 20
        )
        with pytest.raises(FileNotFoundError):  # the task's own error, as raised
            missing.result(timeout=60)
        killed = pool.submit(os._exit, 1)  # the worker process dies under the task
        with pytest.raises(Unreadable, match="Dask workers reading it died"):
            killed.result(timeout=60)
        assert pool.submit(sum, [1, 2]).result(timeout=60) == 3  # the nanny restarted it
    finally:
        pool.shutdown()


def test_an_unreachable_scheduler_is_a_503_until_it_is_up(logdir, monkeypatch):
    """Through the plugin's flag: a clear 503 while the scheduler is down, retried by the next
    request (not cached as the run's error), and answers once a cluster listens there."""
    monkeypatch.setattr(executor, "DASK_CONNECT_TIMEOUT_S", 1)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    flags = argparse.Namespace(tb_perf_executor=f"dask://127.0.0.1:{port}")
    plugin = TbPerfPlugin(base_plugin.TBContext(logdir=str(logdir), flags=flags))
    plugin._store.inline_wait_s = 120
    client = test.Client(application.TensorBoardWSGI([plugin]), wrappers.Response)
    url = "/data/plugin/tb_perf/summary?run=traced"
    try:
        down = client.get(url)
        assert down.status_code == 503, down.get_data(as_text=True)
        error = down.get_json()["error"]
        assert error["code"] == "executor_unavailable"
        assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in error["message"]
        with _cluster(n_workers=1, scheduler_port=port):
            up = client.get(url)
            assert up.status_code == 200, up.get_data(as_text=True)
            assert up.get_json()["run"] == "traced"
    finally:
        plugin._store.close()
    with pytest.raises(ValueError, match="unknown executor 'dask:/x'"):
        executor.make_executor("dask:/x")


def test_packed_tables_round_trip_exactly(shared_data):
    path = next(
        shared_data.glob("traces/facebookresearch__HolisticTraceAnalysis/**/sampled_rank-0.json.gz")
    )
    tables = read_timeline_file(str(path), 1 << 30, FileKind.KINETO)
    message = parse_packed(str(path), 1 << 30, FileKind.KINETO, 1 << 30)
    back = unpack(message, str(path))
    with gzip.open(path) as raw:
        assert len(message) * 10 < len(raw.read())  # compact: deflated columns, not JSON
    assert back.names == tables.names and back.meta == tables.meta
    for table in ("slices", "memory"):
        mine, theirs = getattr(tables, table), getattr(back, table)
        assert mine.keys() == theirs.keys()
        for column in mine:
            np.testing.assert_array_equal(mine[column], theirs[column])
            assert mine[column].dtype == theirs[column].dtype
    with pytest.raises(Unreadable, match="over the 0 MB a worker may return"):
        parse_packed(str(path), 1 << 30, FileKind.KINETO, 10)
    for garbage in (b"", b"not zlib", pack(tables)[:-20]):
        with pytest.raises(ValueError, match="not a packed trace table"):
            unpack(garbage, str(path))
