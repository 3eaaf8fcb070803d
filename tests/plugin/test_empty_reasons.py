"""`empty_reason` of the views with nothing to show (issue 16, build item 5; docs/HTTP_API.md):
null when the view has rows, else a sentence saying why, for the run or the selected rank.
The variants of real traces are tests/plugin/test_trace_variants.py; these are the cases they
do not reach (a rank without kernels beside one with, a `q` matching nothing, an unreadable
task summary, ranks of a trace whose file name says another), and the summary's
`empty_reason` of runs without traces or collector steps (issue 19)."""

from __future__ import annotations

import cProfile
import json
import os
import shutil

from tests.plugin.conftest import PluginClient

SNAPSHOT = "memory_snapshots/Charran78__DocuBox/dump_snapshot.pickle"


def _trace(rank: int, kernels: bool) -> dict:
    events = [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
         "ts": 11, "dur": 2, "args": {"correlation": 7}},
    ]  # fmt: skip
    if kernels:
        events.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 14,
                       "dur": 3, "args": {"correlation": 7, "device": 0, "stream": 7}})  # fmt: skip
    return {"distributedInfo": {"rank": rank, "world_size": 2}, "traceEvents": events}


def test_a_rank_without_kernels_says_so_and_the_other_has_none(tmp_path):
    run = tmp_path / "pair"
    run.mkdir()
    (run / "worker0.1.pt.trace.json").write_text(json.dumps(_trace(0, kernels=True)))
    (run / "worker1.1.pt.trace.json").write_text(json.dumps(_trace(1, kernels=False)))
    client = PluginClient(tmp_path)
    assert client.json("kernels", run="pair")["empty_reason"] is None
    assert client.json("kernels", run="pair", rank=0)["empty_reason"] is None
    answer = client.json("kernels", run="pair", rank=1)
    assert answer["rows"] == [] and answer["empty_reason"].startswith(
        "No GPU kernels in rank 1 of this run: its trace holds no GPU kernel events"
    )
    assert client.json("operators", run="pair", rank=1)["empty_reason"] is None
    memory = client.json("memory", run="pair", rank=1)
    assert memory["ranks"] == [] and "rank 1 of this run" in memory["empty_reason"]
    assert "[memory] events" not in memory["empty_reason"]  # the trace holds none


def test_a_run_without_traces_says_it_has_none(tmp_path):
    imported = tmp_path / "prof" / "plugins" / "tb_perf" / "imported"
    imported.mkdir(parents=True)
    profiler = cProfile.Profile()
    profiler.enable()
    sorted(range(1000), key=lambda v: -v)
    profiler.disable()
    profiler.dump_stats(str(imported / "rank0.loop.prof"))
    os.utime(imported / "rank0.loop.prof", ns=(10**18, 10**18))  # not still being written
    client = PluginClient(tmp_path)
    for route, start in (("kernels", "No GPU kernels in this run: it has no traces"),
                         ("operators", "No operators in this run: it has no traces"),
                         ("modules", "No module calls in this run: no ModuleProfiler records, "
                                     "and it has no traces")):  # fmt: skip
        answer = client.json(route, run="prof")
        assert answer["rows"] == [] and answer["empty_reason"].startswith(start), answer
    assert client.json("python", run="prof")["empty_reason"] is None
    answer = client.json("python", run="prof", q="zz-no-such-function")
    assert answer["rows"] == [] and answer["empty_reason"] == (
        "No function matches 'zz-no-such-function'."
    )
    tasks = client.json("tasks", run="prof")
    assert tasks["tasks"] == [] and tasks["empty_reason"].startswith(
        "No profile_task summaries in this run"
    )


def test_an_unreadable_task_summary_is_the_reason(tmp_path):
    data = tmp_path / "t2i" / "plugins" / "tb_perf"
    data.mkdir(parents=True)
    (data / "rank0.node0.7.task-DIT.summary.json").write_text('{"schema": "tb_perf.task_')
    answer = PluginClient(tmp_path).json("tasks", run="t2i")
    assert answer["tasks"] == [] and answer["warnings"]
    assert answer["empty_reason"] == (
        "No readable profile_task summaries in this run: see the warnings."
    )


def test_ranks_are_the_traces_own_once_read(tmp_path):
    """Two traces named worker0 and worker1 that are ranks 4 and 5 by their distributedInfo:
    `runs` first says what the names say, every route then 4 and 5 (no phantom 0 and 1)."""
    run = tmp_path / "pair"
    run.mkdir()
    for name, rank in (("worker0", 4), ("worker1", 5)):
        (run / f"{name}.1.pt.trace.json").write_text(json.dumps(_trace(rank, kernels=True)))
    client = PluginClient(tmp_path)
    assert client.json("runs")[0]["ranks"] == [0, 1]
    summary = client.json("summary", run="pair")
    assert [r["rank"] for r in summary["ranks"]] == [4, 5]
    assert [r["rank"] for r in client.json("timeline/meta", run="pair")["ranks"]] == [4, 5]
    assert client.json("runs")[0]["ranks"] == [4, 5]
    error = client.json("kernels", expect=400, run="pair", rank=0)["error"]
    assert "ranks: [4, 5]" in error["message"]
    # a trace added since the read: its name's rank until the run is read again
    (run / "worker2.1.pt.trace.json").write_text(json.dumps(_trace(6, kernels=True)))
    client.plugin._store.discover(force=True)
    assert client.json("runs")[0]["ranks"] == [2, 4, 5]
    assert [r["rank"] for r in client.json("summary", run="pair")["ranks"]] == [4, 5, 6]
    assert client.json("runs")[0]["ranks"] == [4, 5, 6]


def _timeline_says(client: PluginClient, run: str, reason: str) -> None:
    """The Timeline of a run with nothing to draw: 404, with the summary's sentence."""
    error = client.json("timeline/meta", expect=404, run=run)["error"]
    assert error["message"] == (
        f"run {run!r} has no trace events or MyTimer spans to draw. {reason}"
    )


def test_a_run_of_snapshots_alone_points_to_the_memory_tab(tmp_path, shared_data):
    (tmp_path / "oom").mkdir()
    for name in ("rank0.pickle", "rank1.pickle"):
        shutil.copyfile(shared_data / SNAPSHOT, tmp_path / "oom" / name)
    client = PluginClient(tmp_path)
    summary = client.json("summary", run="oom")
    assert summary["empty_reason"] == (
        "This run holds no traces or collector steps, only 2 memory snapshots: open the Memory tab."
    )
    assert summary["empty_view"] == "memory"
    _timeline_says(client, "oom", summary["empty_reason"])


def test_a_run_of_tensorboard_events_alone_says_where_its_data_is(tmp_path):
    (tmp_path / "scalars").mkdir()
    (tmp_path / "scalars" / "events.out.tfevents.1.host").write_bytes(b"")
    client = PluginClient(tmp_path)
    summary = client.json("summary", run="scalars")
    assert summary["empty_view"] is None
    assert summary["empty_reason"].startswith(
        "This run holds no traces or collector steps, only 1 TensorBoard event file: its "
        "scalars and other summaries are in TensorBoard's own tabs"
    )
    _timeline_says(client, "scalars", summary["empty_reason"])


def test_a_run_of_a_cprofile_alone_points_to_the_python_tab(tmp_path):
    imported = tmp_path / "prof" / "plugins" / "tb_perf" / "imported"
    imported.mkdir(parents=True)
    profiler = cProfile.Profile()
    profiler.enable()
    sorted(range(100))
    profiler.disable()
    profiler.dump_stats(str(imported / "rank0.loop.prof"))
    os.utime(imported / "rank0.loop.prof", ns=(10**18, 10**18))  # not still being written
    (tmp_path / "prof" / "events.out.tfevents.1.host").write_bytes(b"")
    summary = PluginClient(tmp_path).json("summary", run="prof")
    assert summary["empty_view"] == "python"
    assert summary["empty_reason"] == (
        "This run holds no traces or collector steps, only 1 cProfile profile and 1 "
        "TensorBoard event file: open the Python tab."
    )


def test_a_run_with_a_trace_has_no_empty_reason(tmp_path):
    (tmp_path / "pair").mkdir()
    (tmp_path / "pair" / "worker0.1.pt.trace.json").write_text(json.dumps(_trace(0, True)))
    summary = PluginClient(tmp_path).json("summary", run="pair")
    assert (summary["empty_reason"], summary["empty_view"]) == (None, None)


def test_a_run_whose_collectors_wrote_nothing_yet_says_so(tmp_path):
    (tmp_path / "starting" / "plugins" / "tb_perf").mkdir(parents=True)
    summary = PluginClient(tmp_path).json("summary", run="starting")
    assert summary["empty_view"] is None
    assert summary["empty_reason"] == (
        "This run holds no traces, collector steps or other records yet: its collectors have "
        "written no step so far."
    )
