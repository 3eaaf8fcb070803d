"""The CLI's RUN argument as one file: a trace or a memory snapshot is a run of its own."""

import json
import pickle

from tb_perf_plugin.cli import main

TRACE = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/simple_add/"
    "benchmark_result_493459_1694039959_trace.json.gz"
)
SNAPSHOT = "memory_snapshots/Charran78__DocuBox/dump_snapshot.pickle"


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
