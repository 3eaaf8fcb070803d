import argparse
import gzip
import json
import logging
import os
import pickle
import shutil
import stat
from collections import OrderedDict

from tensorboard.backend import application
from tensorboard.plugins import base_plugin
from werkzeug import test, wrappers

from tb_perf_plugin.discovery import (
    LIVE_WINDOW_NS,
    _Gate,
    discover_runs,
    now_ns,
    single_file_refusal,
)
from tb_perf_plugin.ingest.files import file_kind, refusal
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.readers import snapshot_head
from tb_perf_plugin.plugin import TbPerfPlugin
from tests.conftest import write_training_run


def test_run_contract(tmp_path):
    write_training_run(tmp_path / "exp" / "a", world_size=1, steps=1)
    (tmp_path / "exp" / "a" / "profiler").mkdir()
    (tmp_path / "exp" / "a" / "profiler" / "worker0.1.pt.trace.json").write_text("[]")
    (tmp_path / "old_tb_profiler_run").mkdir()
    (tmp_path / "old_tb_profiler_run" / "host_123.1700.pt.trace.json.gz").write_bytes(b"")
    (tmp_path / "just_notes").mkdir()
    (tmp_path / "just_notes" / "README.txt").write_text("not a run")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "events.out.tfevents.1.x").write_bytes(b"")
    runs = discover_runs(str(tmp_path))
    assert sorted(runs) == ["exp/a", "old_tb_profiler_run"]
    # a trace belongs to the nearest enclosing run, never a run of its own
    assert [os.path.basename(p) for p in runs["exp/a"].traces] == ["worker0.1.pt.trace.json"]
    assert runs["exp/a"].sources == ["tfevents", "timer", "trace"]
    assert runs["old_tb_profiler_run"].sources == ["trace"]


def test_logdir_itself_can_be_a_run(tmp_path):
    write_training_run(tmp_path, world_size=1, steps=1)
    assert list(discover_runs(str(tmp_path))) == ["."]


def test_status_of_a_killed_writer(tmp_path):
    write_training_run(tmp_path / "r", world_size=1, steps=1)
    run = discover_runs(str(tmp_path))["r"]
    assert run.status(now_ns()) == "finished"
    run.writers[0].meta.closed_unix_ns = None  # as if killed before close()
    assert run.status(now_ns()) == "live"
    assert run.status(now_ns() + LIVE_WINDOW_NS + 1) == "stopped"


def test_torch_tb_profiler_samples_open_as_runs(shared_data):
    samples = shared_data / "traces/pytorch__kineto/tb_plugin/samples"
    runs = discover_runs(str(samples))
    assert sorted(runs) == ["resnet50_num_workers_0", "resnet50_num_workers_4"]
    assert len(runs["resnet50_num_workers_0"].traces) == 2  # two spans of one worker


def test_record_files_that_are_not_regular_files_are_left_out(tmp_path):
    """A FIFO would block a reader for ever and a link to /dev/full or /dev/zero never ends."""
    write_training_run(tmp_path / "r", world_size=1, steps=1)
    data = tmp_path / "r" / "plugins" / "tb_perf"
    prefix = next(data.glob("*.meta.json")).name.removesuffix(".meta.json")
    os.mkfifo(data / f"{prefix}.memory.jsonl")
    os.symlink("/dev/zero", data / f"{prefix}.system.jsonl")
    (writer,) = discover_runs(str(tmp_path))["r"].writers
    assert sorted(writer.files) == ["meta", "timer"]


HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
SNAPSHOT = "memory_snapshots/Charran78__DocuBox/dump_snapshot.pickle"


def test_traces_are_recognised_by_content_whatever_their_name(shared_data, tmp_path):
    """Real traces named `rank<N>.json.gz` make a run; JSON that is no trace does not."""
    job = tmp_path / "job"
    job.mkdir()
    for rank in (0, 1):
        shutil.copy(shared_data / HTA / f"trace_filter/sampled_rank-{rank}.json.gz",
                    job / f"rank{rank}.json.gz")  # fmt: skip
    (job / "config.json").write_text('{"lr": 0.1}')
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "results.json").write_text('[{"phase": 1}]')
    (notes / "trace.json").write_text('{"traceEvents": [')  # a head is enough: it is a trace
    runs = discover_runs(str(tmp_path))
    assert sorted(runs) == ["job", "notes"]
    assert [os.path.basename(p) for p in runs["job"].traces] == ["rank0.json.gz", "rank1.json.gz"]
    assert runs["job"].ranks == [0, 1] and runs["job"].sources == ["trace"]
    assert [os.path.basename(p) for p in runs["notes"].traces] == ["trace.json"]


def test_a_bare_array_of_events_is_a_trace(tmp_path):
    (tmp_path / "chrome").mkdir()
    (tmp_path / "chrome" / "export.json").write_text('[{"ph": "X", "name": "a", "ts": 1}]')
    assert [os.path.basename(p) for p in discover_runs(str(tmp_path))["chrome"].traces] == [
        "export.json"
    ]


def test_a_folder_of_memory_snapshots_is_a_run_but_not_one_of_checkpoints(shared_data, tmp_path):
    (tmp_path / "oom").mkdir()
    shutil.copy(shared_data / SNAPSHOT, tmp_path / "oom" / "rank0.pickle")
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "model.pkl").write_bytes(pickle.dumps({"weights": [1.0, 2.0]}))
    (tmp_path / "checkpoints" / "state.pickle").write_bytes(pickle.dumps(OrderedDict(a=1)))
    (tmp_path / "checkpoints" / "zip.pkl").write_bytes(b"PK\x03\x04" + bytes(100))
    runs = discover_runs(str(tmp_path))
    assert sorted(runs) == ["oom"]
    assert (
        runs["oom"].sources == ["snapshot"]
        and runs["oom"].snapshot_rank(runs["oom"].snapshots[0]) == 0
    )


def test_snapshot_heads_are_judged_by_their_first_opcodes():
    """Every pickle protocol; a snapshot dict, or the plain list of segments."""
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert snapshot_head(pickle.dumps({"segments": [], "device_traces": []}, protocol))
        assert snapshot_head(pickle.dumps({"device_traces": []}, protocol))
        assert snapshot_head(pickle.dumps([{"device": 0, "address": 1}], protocol))
        assert not snapshot_head(pickle.dumps({"model": {"segments": []}}, protocol))
        assert not snapshot_head(pickle.dumps([], protocol))
        assert not snapshot_head(pickle.dumps(OrderedDict(segments=[]), protocol))
    assert not snapshot_head(b"") and not snapshot_head(b"\x80\x04\x95")  # cut short
    assert not snapshot_head(b"not a pickle at all")


def test_only_tensorboard_event_files_make_a_run(tmp_path):
    """TensorBoard takes any name holding `tfevents`; a source file `_tfevents.py` is none."""
    (tmp_path / "site-packages" / "collectors").mkdir(parents=True)
    (tmp_path / "site-packages" / "collectors" / "_tfevents.py").write_text("# source")
    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "events.out.tfevents.1700000000.host.42.0").write_bytes(b"")
    runs = discover_runs(str(tmp_path))
    assert sorted(runs) == ["exp"] and runs["exp"].sources == ["tfevents"]


def _trace_run(path):
    path.mkdir(parents=True)
    (path / "host_1.1700.pt.trace.json").write_text('{"traceEvents": []}')


def test_links_to_folders_inside_the_logdir_are_followed_once(tmp_path):
    """A run behind a link into a hidden folder shows under the link's name; a link to a run
    that is walked anyway does not show it twice; a link cycle ends."""
    _trace_run(tmp_path / ".store" / "abc")
    _trace_run(tmp_path / "real")
    os.symlink(tmp_path / ".store" / "abc", tmp_path / "exp")
    os.symlink("real", tmp_path / "latest")
    os.symlink("..", tmp_path / "real" / "up")  # a cycle back to the logdir
    os.symlink(tmp_path / "real" / "up", tmp_path / "real" / "up_again")
    runs = discover_runs(str(tmp_path), follow_links=False)
    assert sorted(runs) == ["exp", "real"]
    assert runs["exp"].traces == [str(tmp_path / "exp" / "host_1.1700.pt.trace.json")]
    assert runs["real"].refused == []


def test_links_into_one_stored_tree_list_each_folder_once(tmp_path):
    """`a` links a subfolder of what `b` links: the subfolder is walked once, under `a`."""
    _trace_run(tmp_path / ".store" / "x" / "sub")
    _trace_run(tmp_path / ".store" / "x" / "other")
    os.symlink(os.path.join(".store", "x", "sub"), tmp_path / "a")
    os.symlink(os.path.join(".store", "x"), tmp_path / "b")
    runs = discover_runs(str(tmp_path), follow_links=False)
    assert sorted(runs) == ["a", "b/other"]


def test_a_run_linked_from_outside_needs_the_owners_opt_in(tmp_path, caplog):
    _trace_run(tmp_path / "elsewhere" / "run")
    logdir = tmp_path / "logs"
    logdir.mkdir()
    os.symlink(tmp_path / "elsewhere" / "run", logdir / "exp")
    os.symlink(tmp_path / "nowhere.json.gz", logdir / "rank0.json.gz")
    caplog.set_level(logging.WARNING, logger="tb_perf_plugin.discovery")
    assert discover_runs(str(logdir), follow_links=False) == {}
    assert discover_runs(str(logdir), follow_links=False) == {}
    (warning,) = [r.getMessage() for r in caplog.records]  # once, not at every discovery
    assert "exp: a link to a folder outside the logdir" in warning
    assert (
        "--tb_perf_follow_links" in warning
        and "rank0.json.gz: a link that leads nowhere" in warning
    )
    assert sorted(discover_runs(str(logdir), follow_links=True)) == ["exp"]


def test_a_link_out_of_a_run_is_named_in_the_runs_warnings(tmp_path):
    _trace_run(tmp_path / "elsewhere")
    _trace_run(tmp_path / "logs" / "run")
    os.symlink(tmp_path / "elsewhere", tmp_path / "logs" / "run" / "profiler")
    run = discover_runs(str(tmp_path / "logs"), follow_links=False)["run"]
    assert len(run.traces) == 1
    (warning,) = run.discovery_warnings()
    assert warning.startswith("not read: profiler: a link to a folder outside the logdir")


def _full_rule(path: str, real_root: str, follow: bool, regular: bool) -> str | None:
    """The gate's rule spelled out: ingest/files.py's refusal (every link resolved), then, for
    a file to read, a regular file."""
    reason = refusal(path, real_root, follow)
    if reason is None and regular:
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            return f"cannot be read ({exc.strerror or exc})"
        if not stat.S_ISREG(mode):
            return f"{file_kind(mode)}, not a regular file"
    return reason


def test_the_gates_shortcut_for_plain_files_answers_as_the_full_rule(tmp_path):
    """The gate resolves each folder once and takes a file that is no link at its folder's
    word: for every kind of entry, linked folders in and out included, it says what the full
    rule says."""
    logdir, outside = tmp_path / "logdir", tmp_path / "outside"
    (logdir / "run" / "sub").mkdir(parents=True)
    outside.mkdir()
    (logdir / "run" / "a.json").write_text("{}")
    (outside / "o.json").write_text("{}")
    os.mkfifo(logdir / "run" / "fifo.json")
    os.symlink(logdir / "run", logdir / "alias")  # a folder link inside
    os.symlink(outside, logdir / "out")  # ... and out
    os.symlink(logdir / "run" / "a.json", logdir / "run" / "link_in.json")
    os.symlink(outside / "o.json", logdir / "run" / "link_out.json")
    os.symlink(tmp_path / "nowhere", logdir / "run" / "dangling.json")
    os.symlink("loop.json", logdir / "run" / "loop.json")
    os.symlink("/dev/null", logdir / "run" / "device.json")
    names = [
        "run/a.json", "run/fifo.json", "run/sub", "run/link_in.json", "run/link_out.json",
        "run/dangling.json", "run/loop.json", "run/device.json", "run/missing.json",
        "alias/a.json", "alias/fifo.json", "alias", "out", "out/o.json",
    ]  # fmt: skip
    real_root = os.path.realpath(logdir)
    for follow in (False, True):
        for regular in (True, False):
            gate = _Gate(real_root, follow)
            for name in names:
                path = str(logdir / name)
                want = _full_rule(path, real_root, follow, regular)
                assert gate.admits(path, regular=regular) is (want is None), (name, follow)
                assert gate.refused.get(path, (None, None))[1] == want, (name, follow, regular)
    assert _full_rule(str(logdir / "out/o.json"), real_root, False, True) is not None


def test_a_single_trace_or_snapshot_file_is_a_run(shared_data, tmp_path):
    trace = shared_data / HTA / "critical_path/simple_add"
    (trace_file,) = trace.glob("*.json.gz")
    run = discover_runs(str(trace_file))["."]
    assert run.traces == [str(trace_file)] and run.path == str(trace)
    snapshot = discover_runs(str(shared_data / SNAPSHOT))["."]
    assert snapshot.snapshots == [str(shared_data / SNAPSHOT)] and snapshot.traces == []
    (tmp_path / "model.pkl").write_bytes(pickle.dumps({"weights": []}))
    assert discover_runs(str(tmp_path / "model.pkl")) == {}
    assert "not a memory snapshot" in single_file_refusal(str(tmp_path / "model.pkl"))


def _plugin_client(logdir: str, **flags) -> test.Client:
    context = base_plugin.TBContext(logdir=logdir, flags=argparse.Namespace(**flags))
    return test.Client(application.TensorBoardWSGI([TbPerfPlugin(context)]), wrappers.Response)


def test_logdir_spec_gets_one_clear_message_and_the_working_directory_is_not_read(
    tmp_path, monkeypatch
):
    """TensorBoard leaves the context's logdir empty with --logdir_spec; a logdir of "" would
    have been the working directory."""
    write_training_run(tmp_path / "cwd_run", world_size=1, steps=1)
    monkeypatch.chdir(tmp_path)
    spec = _plugin_client("", logdir_spec=f"a:{tmp_path / 'cwd_run'}")
    response = spec.get("/data/plugin/tb_perf/runs")
    assert response.status_code == 404
    error = response.get_json()["error"]
    assert "--logdir_spec" in error["message"] and "--logdir DIR" in error["message"]
    listing = spec.get("/data/plugins_listing").get_json()
    assert listing["tb_perf"]["enabled"]  # the tab shows, to say so
    no_logdir = _plugin_client("", logdir_spec="")
    assert no_logdir.get("/data/plugin/tb_perf/summary?run=cwd_run").status_code == 404
    assert not no_logdir.get("/data/plugins_listing").get_json()["tb_perf"]["enabled"]


def test_a_trace_whose_header_fills_the_head_is_still_a_trace(shared_data, tmp_path):
    """A many-rank job's `distributedInfo` (every process group's ranks) can push
    `traceEvents` past the 64 KiB discovery reads; Kineto's header still tells the trace."""
    with gzip.open(shared_data / HTA / "trace_filter/sampled_rank-0.json.gz") as handle:
        trace = json.load(handle)
    groups = [{"pg_name": str(g), "ranks": list(range(1024))} for g in range(16)]
    trace["distributedInfo"]["pg_config"] = groups
    text = json.dumps(trace)  # schemaVersion, record_shapes, distributedInfo, traceEvents
    assert text.index('"traceEvents"') > 64 << 10
    (tmp_path / "job").mkdir()
    (tmp_path / "job" / "rank0.json.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "job" / "manifest.json").write_text('{"schemaVersion": 2, "mediaType": "x"}')
    (path,) = discover_runs(str(tmp_path))["job"].traces
    assert os.path.basename(path) == "rank0.json.gz"
    assert len(read_trace(path, 1 << 30).slices["start"]) > 0


def test_a_snapshot_linked_from_outside_is_not_read_without_the_opt_in(
    shared_data, tmp_path, monkeypatch
):
    """Its first bytes are not even sniffed: nothing outside the logdir is read."""
    from tb_perf_plugin import discovery

    sniffed = []
    real_sniff = discovery.is_memory_snapshot
    monkeypatch.setattr(
        discovery, "is_memory_snapshot", lambda p: sniffed.append(p) or real_sniff(p)
    )
    discovery._is_snapshot.cache_clear()
    (tmp_path / "logs" / "oom").mkdir(parents=True)
    os.symlink(shared_data / SNAPSHOT, tmp_path / "logs" / "oom" / "snapshot_rank0.pickle")
    assert discover_runs(str(tmp_path / "logs"), follow_links=False) == {}
    assert sniffed == []
    runs = discover_runs(str(tmp_path / "logs"), follow_links=True)
    assert runs["oom"].sources == ["snapshot"] and len(sniffed) == 1
