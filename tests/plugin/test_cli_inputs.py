"""The CLI's RUN argument as one file: a trace or a memory snapshot is a run of its own."""

import json
import pickle
from pathlib import Path

from tb_perf_plugin import views
from tb_perf_plugin.cli import main
from tb_perf_plugin.store import RunStore

TRACE = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/simple_add/"
    "benchmark_result_493459_1694039959_trace.json.gz"
)
SNAPSHOT = "memory_snapshots/Charran78__DocuBox/dump_snapshot.pickle"
RICH_SNAPSHOT = "memory_snapshots/MAGMA27__assignment2-systems/memory_snapshot.pickle"


def test_analyze_report_and_export_a_single_trace_file(shared_data, tmp_path, capsys):
    trace = shared_data / TRACE
    assert main(["analyze", str(trace), "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["run"] == str(trace) and [r["rank"] for r in summary["ranks"]] == [0]
    assert "host_bound" in {finding["kind"] for finding in summary["findings"]}
    assert main(["report", str(trace), "-o", str(tmp_path / "report.html")]) == 0
    assert "host_bound" in (tmp_path / "report.html").read_text()
    assert main(["export-trace", str(trace), "-o", str(tmp_path / "merged.json")]) == 0
    events = json.loads((tmp_path / "merged.json").read_text())["traceEvents"]
    assert any(event.get("cat") == "kernel" for event in events)


def test_analyze_a_single_snapshot_file(shared_data, capsys):
    assert main(["analyze", str(shared_data / SNAPSHOT), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["run"] == str(shared_data / SNAPSHOT)


def _snapshot_answer(path: Path) -> dict:
    store = RunStore(str(path.parent), executor="inline")
    try:
        return views.memory.snapshot(store, ".", path.name, wait_s=None)
    finally:
        store.close()


def test_analyze_of_a_snapshot_prints_its_peak_and_where_the_bytes_were_allocated(
    shared_data, capsys
):
    snapshot = shared_data / RICH_SNAPSHOT
    assert main(["analyze", str(snapshot), "--format", "json", "--top", "3"]) == 0
    (brief,) = json.loads(capsys.readouterr().out)["snapshots"]
    (device,) = _snapshot_answer(snapshot)["devices"]
    assert brief["file"] == snapshot.name and brief["format"] == "2.5+"
    (shown,) = brief["devices"]
    assert shown["peak_live_bytes"] == device["peak"]["live_bytes"] > 12 * 2**30
    assert shown["peak_reserved_bytes"] == device["peak"]["reserved_bytes"]
    frames = [f["peak_bytes"] for f in shown["top_frames"]]
    assert len(frames) == 3 and frames == sorted(frames, reverse=True)
    assert shown["top_frames"][0]["label"].endswith("model.py:39 (forward)")
    assert main(["analyze", str(snapshot), "--top", "3"]) == 0
    text = capsys.readouterr().out
    assert "memory snapshots:" in text and "12.97 GiB" in text and "model.py:39 (forward)" in text
    # no empty trace sections for a run that has none
    assert "GPU summary" not in text and "top kernels" not in text
    assert "no torch.profiler traces and no collector records in this run" in text


def test_analyze_names_an_unreadable_snapshot_and_reads_the_others(shared_data, tmp_path, capsys):
    good = shared_data / SNAPSHOT
    for rank, data in ((0, good.read_bytes()), (1, good.read_bytes()[:2000])):
        (tmp_path / f"snapshot_rank{rank}.pickle").write_bytes(data)
    assert main(["analyze", str(tmp_path), "--format", "json"]) == 0
    snapshots = json.loads(capsys.readouterr().out)["snapshots"]
    assert [s["rank"] for s in snapshots] == [0, 1]
    assert snapshots[0]["devices"][0]["peak_live_bytes"] > 0
    assert "snapshot_rank1.pickle" in snapshots[1]["error"] and "devices" not in snapshots[1]


def test_a_file_that_is_neither_exits_3_saying_why(tmp_path, capsys):
    (tmp_path / "model.pkl").write_bytes(pickle.dumps({"weights": [0.5]}))
    (tmp_path / "config.json").write_text('{"lr": 0.1}')
    (tmp_path / "notes.txt").write_text("notes")
    assert main(["analyze", str(tmp_path / "model.pkl")]) == 3
    assert main(["analyze", str(tmp_path / "config.json")]) == 3
    assert main(["analyze", str(tmp_path / "notes.txt")]) == 3
    err = capsys.readouterr().err.splitlines()
    assert "model.pkl is not a memory snapshot" in err[0]
    assert "config.json is not a torch.profiler trace (JSON without `traceEvents`" in err[1]
    assert "notes.txt is neither a torch.profiler trace" in err[2]


def test_another_tools_file_is_pointed_to_ingest(shared_data, capsys):
    (profile,) = (shared_data / "cprofile").glob("*/train.prof")
    assert main(["analyze", str(profile)]) == 3
    err = capsys.readouterr().err
    assert "train.prof is a file of kind pstats" in err and "tb-perf ingest FILE --run RUN" in err
