"""A logdir that others can write to: links out of it, FIFOs, devices, unreadable folders,
bombs and dying workers must not leak a file, hang a request, inflate the server or break it
for good (issue 16; the threat model in docs/RELIABILITY.md).

Every check that a request does not hang runs under a watchdog of 60 s: a hang is forever,
a slow machine is seconds, so the verdict does not depend on how busy the machine is.
"""

from __future__ import annotations

import concurrent.futures
import gc
import gzip
import json
import os
import shutil
import signal
import time
import tracemalloc
import weakref
from pathlib import Path

import pytest

from tb_perf_plugin import discovery
from tb_perf_plugin.cli import main as cli_main
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.executor import ProcessPool
from tb_perf_plugin.ingest import kineto
from tb_perf_plugin.ingest.files import open_input
from tb_perf_plugin.ingest.tasks import read_task_summary
from tb_perf_plugin.store import RunStore
from tests.conftest import REPO
from tests.fuzz._fuzz import watchdog
from tests.plugin.conftest import PluginClient

SECRET = "TB-PERF-SECRET-OUTSIDE-f00d"
PLUGIN = Path("plugins") / "tb_perf"
PREFIX = "rank1.h.2"
HANG_S = 60


def _valid_run(logdir: Path, name: str = "good") -> Path:
    shutil.copytree(REPO / "sample_runs" / "ddp_traced", logdir / name)
    return logdir / name


def _outside(root: Path) -> Path:
    """Files outside the logdir with the secret in them, shaped like what each reader wants."""
    outside = root / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"root:{SECRET}:20228:0:99999\n")
    event = {"ph": "X", "cat": "cpu_op", "name": SECRET, "ts": 1, "dur": 2, "pid": 1, "tid": 1}
    trace = {"traceEvents": [event]}
    (outside / "trace.json").write_text(json.dumps(trace))
    (outside / "array.json").write_text(json.dumps(trace["traceEvents"]))
    plugin = REPO / "sample_runs" / "ddp_traced" / PLUGIN
    timer = next(plugin.glob("rank0.*.timer.jsonl")).read_text()
    (outside / "timer.jsonl").write_text(timer.replace('"forward"', f'"{SECRET}"'))
    meta = json.loads(next(plugin.glob("rank0.*.meta.json")).read_text())
    meta["host"] = SECRET
    (outside / "meta.json").write_text(json.dumps(meta))
    (outside / "events.csv").write_text(f"name,start_ns,dur_ns\n{SECRET},1,2\n")
    return outside


def _link_out(run: Path, outside: Path) -> list[str]:
    """Links of every kind of file a run has, leading out of the logdir: absolute, relative
    and chained. Returns their paths relative to the run."""
    plugin = run / PLUGIN
    links = {
        PLUGIN / f"{PREFIX}.steps1-1.pt.trace.json.gz": outside / "secret.txt",
        PLUGIN / f"{PREFIX}.steps2-2.pt.trace.json": outside / "trace.json",
        Path(f"worker7.{SECRET[:4]}.pt.trace.json"): outside / "array.json",
        PLUGIN / f"{PREFIX}.timer.jsonl": outside / "timer.jsonl",
        PLUGIN / f"{PREFIX}.meta.json": outside / "meta.json",
        PLUGIN / f"{PREFIX}.task-DIT.summary.json": outside / "secret.txt",
        PLUGIN / f"{PREFIX}.snapshot.step.1.pickle": outside / "secret.txt",
        PLUGIN / "imported" / "secret.csv": outside / "events.csv",
        Path("secret.prof"): outside / "secret.txt",
    }
    (plugin / "imported").mkdir()
    for link, target in links.items():
        os.symlink(target, run / link)
    os.symlink(
        os.path.relpath(outside / "trace.json", plugin), plugin / "rank3.h.4.steps1-1.pt.trace.json"
    )
    os.symlink(run / "chain", plugin / "rank4.h.5.steps1-1.pt.trace.json")  # link -> link -> out
    os.symlink(outside / "trace.json", run / "chain")
    return [str(p) for p in links] + [
        str(PLUGIN / "rank3.h.4.steps1-1.pt.trace.json"),
        str(PLUGIN / "rank4.h.5.steps1-1.pt.trace.json"),
    ]


ROUTES = ("summary", "findings", "breakdown", "operators", "kernels", "memory", "gpu", "tasks",
          "timeline/meta", "python", "critical_path")  # fmt: skip


def _answers(client: PluginClient, run: str) -> list[str]:
    bodies = []
    for route in ROUTES:
        response = client.get(route, run=run)
        assert response.status_code < 500, (route, response.get_data(as_text=True))
        bodies.append(response.get_data(as_text=True))
    search = client.get("timeline/search", run=run, q=SECRET[:12])
    bodies.append(search.get_data(as_text=True))
    return bodies


def test_links_out_of_the_logdir_are_never_read(tmp_path):
    logdir = tmp_path / "logs"
    run = _valid_run(logdir)
    links = _link_out(run, _outside(tmp_path))
    inside = run / "inside.pt.trace.json.gz"  # a link that stays inside keeps working
    os.symlink(next((run / PLUGIN).glob("rank0.*.pt.trace.json.gz")), inside)
    client = PluginClient(logdir)
    with watchdog(HANG_S):
        bodies = _answers(client, "good")
        export = tmp_path / "merged.json"
        assert cli_main(["export-trace", str(run), "-o", str(export)]) == 0
    for body in [*bodies, export.read_text()]:
        assert SECRET not in body and "root:" not in body
    summary = client.json("summary", run="good")
    (warning,) = [w for w in summary["warnings"] if "outside the logdir" in w]
    for link in links:
        assert link in warning or "more" in warning
    assert "TB_PERF_FOLLOW_LINKS=1" in warning
    ranks = discovery.discover_runs(str(logdir))["good"]
    assert str(inside) in ranks.traces


def test_following_links_is_the_owners_opt_in(tmp_path):
    logdir = tmp_path / "logs"
    run = logdir / "r"
    run.mkdir(parents=True)
    os.symlink(_outside(tmp_path) / "trace.json", run / "rank0.1.pt.trace.json")
    assert discovery.discover_runs(str(logdir)) == {}  # the run's only file is refused
    assert discovery.discover_runs(str(logdir), follow_links=True)["r"].traces
    with watchdog(HANG_S):
        ops = PluginClient(logdir, follow_links=True).json("operators", run="r")
    assert SECRET in json.dumps(ops)


def _fifos(run: Path) -> None:
    """A FIFO named like every file a reader opens."""
    plugin = run / PLUGIN
    for name in (
        f"{PREFIX}.steps1-1.pt.trace.json",
        f"{PREFIX}.timer.jsonl",
        f"{PREFIX}.meta.json",
        f"{PREFIX}.memory.jsonl",
        f"{PREFIX}.task-DIT.summary.json",
        f"{PREFIX}.snapshot.step.1.pickle",
    ):
        os.mkfifo(plugin / name)
    (plugin / "imported").mkdir(exist_ok=True)
    os.mkfifo(plugin / "imported" / "fifo.sqlite")
    os.mkfifo(run / "fifo.prof")
    os.mkfifo(run / "worker9.fifo.pt.trace.json")


def test_fifos_hang_nothing(tmp_path):
    logdir = tmp_path / "logs"
    for name in ("a", "b"):  # FIFOs in two runs once took both pool workers
        _fifos(_valid_run(logdir, name))
    shutil.copytree(REPO / "sample_runs" / "ddp_slow_data", logdir / "fresh")
    client = PluginClient(logdir)
    with watchdog(HANG_S):
        for name in ("a", "b"):
            bodies = _answers(client, name)
            assert all(client.get("tasks", run=name).status_code == 200 for _ in range(5))
        assert client.json("summary", run="fresh")["ranks"]
        snapshot = client.get("snapshot", run="a", file=f"{PLUGIN}/{PREFIX}.snapshot.step.1.pickle")
        assert snapshot.status_code in (400, 404), snapshot.get_data(as_text=True)
        assert cli_main(["analyze", str(logdir / "a"), "--format", "json"]) == 0
    assert bodies
    warnings = " ".join(client.json("summary", run="a")["warnings"])
    assert "a FIFO, not a regular file" in warnings


def test_a_fifo_or_device_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    with watchdog(HANG_S):
        for path in (fifo, "/dev/zero", "/dev/null", "/dev/full", "/dev/urandom", tmp_path):
            with pytest.raises(Unreadable, match="not a regular file"):
                open_input(str(path), 1 << 20)


def test_a_task_summary_linked_to_dev_zero_allocates_nothing(tmp_path):
    link = tmp_path / f"{PREFIX}.task-DIT.summary.json"
    os.symlink("/dev/zero", link)
    tracemalloc.start()
    try:
        with pytest.raises(Unreadable, match="character device"):
            read_task_summary(str(link), 4 << 30)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_devices_are_refused_even_when_links_are_followed(tmp_path):
    logdir = tmp_path / "logs"
    run = _valid_run(logdir)
    os.symlink("/dev/zero", run / PLUGIN / f"{PREFIX}.task-DIT.summary.json")
    os.symlink("/dev/zero", run / PLUGIN / f"{PREFIX}.steps1-1.pt.trace.json")
    client = PluginClient(logdir, follow_links=True)
    with watchdog(HANG_S):
        tasks = client.json("tasks", run="good")
        summary = client.json("summary", run="good")
    assert tasks["tasks"] == []
    assert any("character device" in w for w in summary["warnings"])


@pytest.fixture
def unlistable(monkeypatch):
    """Make folders unlistable: chmod 000, and, where the tests run as root (whom permissions
    do not stop), a filesystem layer that answers EACCES for them."""
    denied: list[str] = []
    real_listdir, real_scandir = os.listdir, os.scandir

    def guard(path) -> None:
        if any(os.path.abspath(os.fspath(path)) == d for d in denied):
            raise PermissionError(13, "Permission denied", os.fspath(path))

    def listdir(path="."):
        guard(path)
        return real_listdir(path)

    def scandir(path="."):
        guard(path)
        return real_scandir(path)

    if os.geteuid() == 0:
        monkeypatch.setattr(os, "listdir", listdir)
        monkeypatch.setattr(os, "scandir", scandir)

    def deny(folder: Path) -> None:
        denied.append(os.path.abspath(folder))
        folder.chmod(0)

    yield deny
    for folder in denied:
        os.chmod(folder, 0o755)


def test_an_unreadable_folder_is_a_warning_of_its_run(tmp_path, unlistable):
    logdir = tmp_path / "logs"
    _valid_run(logdir, "locked")
    _valid_run(logdir, "good")
    (logdir / "other").mkdir()
    unlistable(logdir / "locked" / PLUGIN)
    unlistable(logdir / "other")
    client = PluginClient(logdir)
    runs = {run["name"] for run in client.json("runs")}
    assert {"locked", "good"} <= runs
    assert client.json("summary", run="good")["ranks"]
    response = client.get("summary", run="locked")
    assert response.status_code in (200, 404), response.get_data(as_text=True)
    assert "plugins/tb_perf: cannot be listed (Permission denied)" in response.get_data(
        as_text=True
    )


def test_a_trace_head_then_spaces_is_not_buffered(tmp_path):
    """1 MB of gzip (a trace's head, then 200 MB of spaces) once made a worker hold it all."""
    path = tmp_path / "rank0.1.pt.trace.json.gz"
    head = b'{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2, "pid": 1, "tid": 1}, {"ph'
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(head)
        for _ in range(200):
            out.write(b" " * (1 << 20))
    assert path.stat().st_size < 1 << 20
    tracemalloc.start()
    try:
        with pytest.raises(Unreadable, match="no boundary between two events"):
            kineto.read_trace(str(path), helper=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < kineto.MAX_EVENT_BYTES * 2.5  # before: the whole 200 MB, several times


def _pid(_: int) -> int:
    return os.getpid()


@pytest.mark.parametrize("retire_rss_bytes, workers_seen", [(0, 6), (1 << 40, 1)])
def test_a_worker_holding_too_much_memory_is_replaced(retire_rss_bytes, workers_seen):
    """Every worker holds more than 0 bytes: each task gets a fresh one; none holds 1 TiB."""
    pool = ProcessPool(max_workers=1, retire_rss_bytes=retire_rss_bytes)
    try:
        pids = [pool.submit(_pid, i).result(timeout=HANG_S) for i in range(6)]
    finally:
        pool.shutdown()
    assert len(set(pids)) == workers_seen


def _die_once(marker: str) -> int:
    """SIGKILL (what the OOM killer sends) this worker the first time, answer the second."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def _die(_: str) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


def test_a_killed_worker_is_that_files_warning_and_the_pool_recovers(tmp_path):
    pool = ProcessPool(max_workers=2)
    try:
        with watchdog(HANG_S):
            assert pool.submit(_die_once, str(tmp_path / "marker")).result() > 0  # retried once
            dying = pool.submit(_die, "x")
            with pytest.raises(Unreadable, match="died"):
                dying.result()
            after = [pool.submit(_pid, i) for i in range(4)]
            assert all(f.result() > 0 for f in after)
    finally:
        pool.shutdown()


def test_a_task_alone_runs_in_a_process_that_exits(tmp_path):
    """`submit_alone` (the merge of a run's analysis): a process of its own, not a pool worker,
    gone once the task returned; one that is killed fails its future, the pool goes on."""
    pool = ProcessPool(max_workers=1)
    try:
        with watchdog(HANG_S):
            worker = pool.submit(_pid, 0).result()
            alone = pool.submit_alone(_pid, 0).result()
            assert alone not in (worker, os.getpid())
            deadline = time.monotonic() + HANG_S
            while os.path.exists(f"/proc/{alone}") and time.monotonic() < deadline:
                time.sleep(0.05)  # reaped by its pool's shutdown
            assert not os.path.exists(f"/proc/{alone}")
            with pytest.raises(concurrent.futures.process.BrokenProcessPool):
                pool.submit_alone(_die, "x").result()
            assert pool.submit(_pid, 1).result() == worker  # the pool's worker untouched
    finally:
        pool.shutdown()


def test_the_service_parses_after_a_worker_was_killed(tmp_path, monkeypatch):
    """Through the real process pool of the service: a worker killed under one run's parse
    (the pool's processes, found by the children of this one) leaves later parses working."""
    monkeypatch.setenv("TB_PERF_EXECUTOR", "process")
    logdir = tmp_path / "logs"
    for name in ("a", "b"):
        _valid_run(logdir, name)
    service = RunStore(str(logdir))
    pool = service._executor.get()
    with watchdog(HANG_S):
        victim = pool.submit(_pid, 0).result()
        os.kill(victim, signal.SIGKILL)
        for name in ("a", "b"):
            tables = service.tables(service.find_run(name), wait_s=None)
            assert len(tables.traces) == 4 and not any("died" in w for w in tables.warnings)
    service.close()


class _Big:
    """Stands in for a bomb's objects."""


def test_a_failed_job_keeps_its_error_text_not_its_data(tmp_path):
    _valid_run(tmp_path / "logs")
    service = RunStore(str(tmp_path / "logs"))
    run = service.find_run("good")
    alive: list[weakref.ref] = []

    def work(job):
        data = _Big()
        alive.append(weakref.ref(data))
        raise Unreadable("bomb refused")

    for _ in range(2):
        with pytest.raises(Unreadable, match="bomb refused"):
            service._jobs.result((run.name, "bomb"), ("v1",), 1, work, None)
    gc.collect()
    assert alive and alive[0]() is None
    service.close()


def test_the_sniffer_never_quotes_a_files_bytes(tmp_path):
    path = tmp_path / "rank0.1.pt.trace.json"
    path.write_text(f"root:{SECRET}:20228:0:99999\n")
    with pytest.raises(Unreadable) as refused:
        kineto.read_trace(str(path), helper=False)
    assert SECRET not in refused.value.message and "root" not in refused.value.message
