"""A logdir on a filesystem that is not local: fsspec's `memory://` (pure Python, in process)
holds copies of demo runs; the plugin, given the URL as TensorBoard hands it over, analyses
a local mirror (tb_perf_plugin/remote.py) and answers as it does for the same runs on disk.
Also: only changed files are copied again, removed ones disappear, the byte budget holds,
files nobody reads are not copied, and an unreachable remote is one warning, never a crash."""

from __future__ import annotations

import json
import logging
import shutil
import threading
import time
import uuid
from pathlib import Path

import pytest

from tb_perf_plugin import remote
from tb_perf_plugin.remote import RemoteMirror, is_remote
from tests.conftest import REPO
from tests.plugin.conftest import PluginClient

fsspec = pytest.importorskip("fsspec", reason="remote logdirs are read through fsspec")

RUNS = ("ddp_leak", "ddp_traced")  # sorted, as the runs route lists them


@pytest.fixture
def memory_logdir(tmp_path, monkeypatch):
    """The demo runs copied into memory://, plus a checkpoint nobody should copy; the cache
    (and so the mirror) in tmp_path."""
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(tmp_path / "cache"))
    fs = fsspec.filesystem("memory")
    root = f"/tb-perf-{uuid.uuid4().hex}/logs"
    for name in RUNS:
        for path in sorted((REPO / "sample_runs" / name).rglob("*")):
            if path.is_file():
                fs.pipe(f"{root}/{name}/{path.relative_to(REPO / 'sample_runs' / name)}",
                        path.read_bytes())  # fmt: skip
    fs.pipe(f"{root}/ddp_leak/checkpoints/model.ckpt", b"\0" * 4096)
    yield f"memory://{root}", fs, root
    fs.rm(root, recursive=True)


def _fresh(client: PluginClient) -> None:
    """No waiting for the next sync or discovery (the tests change the remote)."""
    client.plugin._store.discovery_ttl_s = 0
    client.plugin._store.mirror.min_interval_s = 0


def test_remote_runs_answer_as_local_ones(memory_logdir):
    url, _, _ = memory_logdir
    remote_client, local_client = PluginClient(url), PluginClient(REPO / "sample_runs")
    runs = remote_client.json("runs")
    assert [r["name"] for r in runs] == list(RUNS)
    local = {r["name"]: r for r in local_client.json("runs")}
    for run in runs:
        assert (run["ranks"], run["sources"]) == (local[run["name"]]["ranks"],
                                                  local[run["name"]]["sources"])  # fmt: skip
    checked = (
        ("summary", {"run": "ddp_traced"}),
        ("timeline/meta", {"run": "ddp_traced"}),
        ("operators", {"run": "ddp_traced", "rank": "1"}),
        ("memory", {"run": "ddp_leak"}),
        ("findings", {"run": "ddp_leak"}),
    )
    for route, params in checked:
        assert remote_client.json(route, **params) == local_client.json(route, **params), route


def test_only_run_files_are_mirrored_and_tfevents_are_empty(memory_logdir):
    url, _, _ = memory_logdir
    client = PluginClient(url)
    client.json("runs")
    mirror = Path(client.plugin._store.mirror.local_root)
    assert not (mirror / "ddp_leak" / "checkpoints").exists()
    (events,) = (mirror / "ddp_traced").glob("*tfevents*")
    assert events.stat().st_size == 0
    copied = _files(mirror / "ddp_traced" / "plugins")
    assert copied == _files(REPO / "sample_runs" / "ddp_traced" / "plugins")


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_changes_are_copied_alone_and_removals_follow(memory_logdir):
    url, fs, root = memory_logdir
    client = PluginClient(url)
    _fresh(client)
    before = client.json("summary", run="ddp_leak")
    mirror = Path(client.plugin._store.mirror.local_root)
    unchanged = next((mirror / "ddp_traced" / "plugins" / "tb_perf").glob("*.pt.trace.json.gz"))
    inode = unchanged.stat().st_ino
    timer = next(p for p in fs.find(f"{root}/ddp_leak") if p.endswith("rank1.vm.15092.timer.jsonl"))
    lines = fs.cat(timer).decode().splitlines(keepends=True)
    fs.pipe(timer, "".join(lines[:-5]).encode())  # the remote file changed: fewer records
    after = client.json("summary", run="ddp_leak")
    assert after != before
    assert unchanged.stat().st_ino == inode  # not copied again
    fs.rm(f"{root}/ddp_traced", recursive=True)
    assert [r["name"] for r in client.json("runs")] == ["ddp_leak"]
    assert not unchanged.exists()
    client.json("summary", expect=404, run="ddp_traced")


def test_byte_budget_leaves_files_out_with_one_warning(memory_logdir, tmp_path, caplog):
    url, _, _ = memory_logdir
    mirror = RemoteMirror(url, tmp_path / "staging", max_bytes=20_000)
    with caplog.at_level(logging.WARNING, logger=remote.__name__):
        assert mirror.sync() and mirror.sync()
    assert len([r for r in caplog.records if "mirror budget" in r.getMessage()]) == 1
    copied = sum(p.stat().st_size for p in Path(mirror.local_root).rglob("*")
                 if p.is_file() and not p.name.startswith("."))  # fmt: skip
    assert 0 < copied <= 20_000
    (problem,) = mirror.problems
    assert "mirror budget" in problem and "TB_PERF_REMOTE_MAX_MB" in problem


def test_unreachable_remote_keeps_the_last_copy_with_one_warning(
    memory_logdir, caplog, monkeypatch
):
    url, _, _ = memory_logdir
    client = PluginClient(url)
    _fresh(client)
    assert len(client.json("runs")) == 2

    def unreachable(*args, **kwargs):
        raise ConnectionError("connection refused")

    monkeypatch.setattr(type(fsspec.filesystem("memory")), "find", unreachable)
    with caplog.at_level(logging.WARNING, logger=remote.__name__):
        for _ in range(3):
            assert [r["name"] for r in client.json("runs")] == list(RUNS)
        assert client.json("summary", run="ddp_traced")["run"] == "ddp_traced"
    warnings = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(warnings) == 1 and "ConnectionError" in warnings[0]
    monkeypatch.undo()
    with caplog.at_level(logging.INFO, logger=remote.__name__):
        client.json("runs")
    assert any("reachable again" in r.getMessage() for r in caplog.records)


def test_unknown_filesystem_is_a_warning_and_no_runs(tmp_path, caplog, monkeypatch):
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(tmp_path / "cache"))
    with caplog.at_level(logging.WARNING, logger=remote.__name__):
        client = PluginClient("nosuchfs://user:s3cret@bucket/logs")
        assert client.json("runs") == []
        client.json("summary", expect=404, run="x")
    (warning,) = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert "nosuchfs://***@bucket/logs" in warning and "s3cret" not in warning


@pytest.mark.parametrize(
    ("logdir", "expected"),
    [("s3://b/logs", True), ("memory://x", True), ("gs://b", True), ("file:///tmp/x", False),
     ("/tmp/logs", False), ("logs", False), ("C:\\logs", False), ("a:b", False)],
)  # fmt: skip
def test_is_remote(logdir, expected):
    assert is_remote(logdir) is expected


def test_file_url_is_a_local_logdir():
    client = PluginClient((REPO / "sample_runs").as_uri())
    assert client.plugin._store.mirror is None
    assert {r["name"] for r in client.json("runs")} >= set(RUNS)


@pytest.mark.parametrize(
    "path", ["/r/../etc/passwd", "/r/a/../../x", "/r//x", "/other/x", "/r/a\\..\\b", "/r/.", "/r"]
)
def test_listing_entries_outside_the_root_are_skipped(path):
    assert remote._safe_relative("/r", path) is None
    assert remote._safe_relative("/r", "/r/run/plugins/tb_perf/rank0.a.1.timer.jsonl") == (
        "run/plugins/tb_perf/rank0.a.1.timer.jsonl"
    )


def test_unwritable_cache_mirrors_into_a_temporary_folder(memory_logdir, tmp_path, caplog):
    url, _, _ = memory_logdir
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    mirror = RemoteMirror(url, blocked / "remote")
    with caplog.at_level(logging.WARNING, logger=remote.__name__):
        assert mirror.sync() and mirror.sync()
    assert not mirror.local_root.startswith(str(blocked))
    assert _files(Path(mirror.local_root) / "ddp_leak" / "plugins")
    assert len([r for r in caplog.records if "cannot create" in r.getMessage()]) == 1
    shutil.rmtree(mirror.local_root)


def test_plugin_listing_never_waits_for_a_sync(memory_logdir, monkeypatch):
    """is_active() (asked on every TensorBoard plugin listing) answers from the mirror as it
    is while a sync is held up; routes wait for it."""
    url, _, _ = memory_logdir
    client = PluginClient(url)
    release = threading.Event()
    find = type(fsspec.filesystem("memory")).find

    def held_up(self, *args, **kwargs):
        release.wait(60)
        return find(self, *args, **kwargs)

    monkeypatch.setattr(type(fsspec.filesystem("memory")), "find", held_up)
    assert client.plugin.is_active() is False  # nothing mirrored yet, and no waiting
    release.set()
    assert [r["name"] for r in client.json("runs")] == list(RUNS)
    assert client.plugin.is_active() is True


def test_a_file_gone_since_the_listing_is_skipped_and_copied_later(
    memory_logdir, tmp_path, monkeypatch, caplog
):
    """A file renamed away between listing and copy (a writer's temporary name) costs that
    file only, with one warning; the next sync copies it."""
    url, _, _ = memory_logdir
    mirror = RemoteMirror(url, tmp_path / "staging")
    memory_fs = type(fsspec.filesystem("memory"))
    real_open = memory_fs._open

    def vanished(self, path, *args, **kwargs):
        if path.endswith(".memory.jsonl"):
            raise FileNotFoundError(path)
        return real_open(self, path, *args, **kwargs)

    monkeypatch.setattr(memory_fs, "_open", vanished)
    with caplog.at_level(logging.WARNING, logger=remote.__name__):
        assert mirror.sync() and mirror.sync()
    plugin = Path(mirror.local_root) / "ddp_leak" / "plugins" / "tb_perf"
    assert not list(plugin.glob("*.memory.jsonl")) and list(plugin.glob("*.timer.jsonl"))
    (problem,) = mirror.problems
    assert "2 files not copied" in problem and "FileNotFoundError" in problem
    assert len([r for r in caplog.records if "not copied" in r.getMessage()]) == 1
    monkeypatch.undo()
    assert mirror.sync() and mirror.problems == []
    assert len(list(plugin.glob("*.memory.jsonl"))) == 2


def test_cli_reads_a_remote_logdir_whole(memory_logdir, capsys, monkeypatch):
    """The CLI waits for the mirror before it reads (it has no reload to catch up later), here
    for a remote slower than the plugin's first wait."""
    from tb_perf_plugin.cli import main

    sync = RemoteMirror.sync

    def slow_sync(self):
        time.sleep(1.5)  # longer than the service's two inline waits of 0.5 s
        return sync(self)

    monkeypatch.setattr(RemoteMirror, "sync", slow_sync)
    url, _, _ = memory_logdir
    assert main(["analyze", "ddp_leak", "--logdir", url, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["steps"] for r in report["ranks"]] == [60, 60]
