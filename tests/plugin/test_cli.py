import gzip
import json
import os
import re
from pathlib import Path

from tb_perf_plugin.cli import main
from tb_perf_plugin.ingest.kineto import read_trace
from tests.conftest import write_training_run
from tests.helpers import timer_file
from tests.plugin.module_fixtures import (
    COMPILED_NOTE,
    RANK0,
    RANK0_STEPS,
    RANK1_SETTINGS,
    write_rank,
)


def test_analyze_run_directory_as_json(training_logdir, capsys):
    assert main(["analyze", str(training_logdir / "exp" / "a"), "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["run"] == str(training_logdir / "exp" / "a")
    assert {row["name"] for row in summary["spans"]} == {"data", "train", "forward", "backward"}


def test_analyze_by_name_in_text_and_markdown(training_logdir, capsys):
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir), "--rank", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("run exp/a, rank 1")
    assert any(line.split()[:2] == ["data", "6"] for line in text.splitlines())
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir), "--format", "md"]) == 0
    assert "| data | 12 |" in capsys.readouterr().out


def test_usage_errors_exit_2(training_logdir, tmp_path, capsys):
    write_training_run(training_logdir / "exp" / "b", world_size=1, steps=1)
    assert main(["analyze", str(tmp_path / "missing")]) == 2
    assert main(["analyze", str(training_logdir)]) == 2  # two runs: which one?
    err = capsys.readouterr().err
    assert "is not a directory" in err and "holds 2 runs (exp/a, exp/b)" in err
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir), "--rank", "9"]) == 2


def test_unreadable_input_exits_3(training_logdir, capsys):
    for rank in (0, 1):
        path = timer_file(training_logdir / "exp/a", rank)
        path.write_text('{"schema": "tb_perf.timer", "version": 99}\n')
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir)]) == 3
    assert "version 99 is not supported" in capsys.readouterr().err


def test_a_run_of_many_unreadable_files_names_the_first_and_counts_the_rest(tmp_path, capsys):
    run = tmp_path / "logs" / "wide"
    run.mkdir(parents=True)
    for rank in range(8):
        path = run / f"worker{rank}.1.pt.trace.json"
        path.write_text('{"traceEvents": [{"ph": "X", "name": ')  # cut short
        os.utime(path, (1, 1))  # not "still being written"
    assert main(["analyze", "wide", "--logdir", str(tmp_path / "logs")]) == 3
    err = capsys.readouterr().err
    assert err.count("worker") == 5 and err.count("truncated or malformed JSON") == 6
    assert "and 3 more file(s) unreadable: 3 files refused: truncated or malformed JSON" in err


def _link_pair(tmp_path, shared_data):
    pair = tmp_path / "logs" / "pair"
    pair.mkdir(parents=True)
    source = shared_data / "traces/facebookresearch__HolisticTraceAnalysis/tests/data/trace_filter"
    for rank in (0, 1):
        os.symlink(source / f"sampled_rank-{rank}.json.gz", pair / f"rank{rank}.1.pt.trace.json.gz")
    return tmp_path / "logs"


def test_export_trace_merges_aligned_ranks(tmp_path, shared_data, capsys):
    logdir = _link_pair(tmp_path, shared_data)
    out = tmp_path / "merged.json.gz"
    code = main(
        ["export-trace", "pair", "--logdir", str(logdir), "-o", str(out), "--executor", "process"]
    )
    assert code == 0
    assert "rank 1: steps" in capsys.readouterr().err
    doc = json.load(gzip.open(out))
    events = doc["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    raw = sum(len(read_trace(str(p)).slices["start"]) for p in (logdir / "pair").iterdir())
    assert len(slices) == raw
    assert {e["pid"] for e in slices} == {0, 1}
    assert min(e["ts"] for e in slices) == 0  # microseconds from the run's origin
    assert int(doc["otherData"]["origin_unix_ns"]) > 1.6e18
    assert doc["otherData"]["alignment"]["1"]["method"] == "steps"
    threads = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"}
    assert {(e["pid"], e["tid"]) for e in slices} <= threads
    starts = [e for e in events if e["ph"] == "s"]
    assert len(starts) == len([e for e in events if e["ph"] == "f"]) > 0


def test_export_filters_and_errors(tmp_path, shared_data, capsys):
    logdir = _link_pair(tmp_path, shared_data)
    out = tmp_path / "one.json"
    assert (
        main(
            [
                "export-trace",
                "pair",
                "--logdir",
                str(logdir),
                "-o",
                str(out),
                "--ranks",
                "1",
                "--steps",
                "551:551",
            ]
        )
        == 0
    )
    events = json.loads(out.read_text())["traceEvents"]
    assert {e["pid"] for e in events if e["ph"] == "X"} == {1}
    assert (
        main(["export-trace", "pair", "--logdir", str(logdir), "-o", str(out), "--ranks", "7"]) == 2
    )
    assert (
        main(["export-trace", "pair", "--logdir", str(logdir), "-o", str(out), "--steps", "1:2"])
        == 2
    )
    err = capsys.readouterr().err
    assert (
        "this run has ranks [0, 1]" in err and "no steps 1:2 in this run (steps: 551..552)" in err
    )


def test_analyze_reports_findings_first(capsys):
    sample = str(Path(__file__).resolve().parents[2] / "sample_runs" / "ddp_slow_data")
    assert main(["analyze", sample, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # the same problem on both ranks of the pair: one finding naming both
    assert [(f["kind"], f["ranks"]) for f in report["findings"]] == [("data_loading", [0, 1])]
    assert main(["analyze", sample, "--rank", "1"]) == 0
    text = capsys.readouterr().out
    assert text.index("findings:") < text.index("span")
    assert "[critical] data_loading: Rank 0 spends" in text and "— on all 2 ranks" in text


SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"


def _ms(stats: dict | None, field: str = "total_ns") -> str:
    return f"{stats[field] / 1e6:.2f}" if stats else "-"


def _module_table(text: str) -> list[list[str]]:
    """The rows of the Modules section's table (text format), cells split on 2+ spaces, the
    module cell with its indentation."""
    table = text[text.index("\nmodules:\n") :].split("\n\n")[1]
    return [re.split(r"(?<=\S)  +", line) for line in table.splitlines()[1:]]


def test_analyze_prints_the_module_tree_of_the_modules_route(make_client, capsys):
    """The 20 modules with the most time and the ModuleList enclosing some of them, as a tree,
    with the route's numbers; json: the route's answer."""
    route = make_client(SAMPLE_RUNS).json("modules", run="ddp_modules")
    assert main(["analyze", str(SAMPLE_RUNS / "ddp_modules")]) == 0
    text = capsys.readouterr().out
    assert text.index("span") < text.index("modules:")
    assert "ModuleProfiler records: the 20 of 22 called modules with the most time" in text
    called = sorted((r for r in route["rows"] if r["total"]), key=lambda r: -r["total"]["total_ns"])
    shown = {r["path"] for r in called[:20]} | {"encoder.layers"}  # a never-called container
    expected = []
    for row in route["rows"]:
        if row["path"] not in shown:
            continue
        total = row["total"] or {}
        expected.append(
            [
                "  " * row["depth"] + (row["path"] or "(model)"),
                row["type"],
                str(total.get("calls", "-")),
                _ms(row["forward"]),
                _ms(row["backward"]),
                _ms(total, "self_ns"),
                f"{total['pct_of_step']:.1f}" if total else "-",
            ]
        )
    assert _module_table(text) == expected
    assert expected[0][:3] == ["(model)", "Classifier", "60"]

    assert main(["analyze", str(SAMPLE_RUNS / "ddp_modules"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["modules"] == {**route, "run": str(SAMPLE_RUNS / "ddp_modules")}

    by_name = ["analyze", "ddp_modules", "--logdir", str(SAMPLE_RUNS), "--format", "md"]
    assert main([*by_name, "--rank", "1", "--top", "3"]) == 0
    markdown = capsys.readouterr().out
    rank1 = make_client(SAMPLE_RUNS).json("modules", run="ddp_modules", rank="1")
    (encoder,) = (r for r in rank1["rows"] if r["path"] == "encoder")
    assert "## Modules\nModuleProfiler records: the 3 of 22 called modules" in markdown
    cells = f"{_ms(encoder['forward'])} | {_ms(encoder['backward'])}"
    assert f"| \u00a0\u00a0encoder | TransformerEncoder | 30 | {cells} |" in markdown


def test_analyze_without_module_calls_has_no_modules_section(training_logdir, capsys):
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir)]) == 0
    assert "modules:" not in capsys.readouterr().out
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["modules"] is None


def test_analyze_notes_a_compiled_model(tmp_path, capsys):
    """The compiled-model note of the metadata comes with the module table."""
    write_rank(tmp_path / "net", 0, RANK0_STEPS, RANK0, settings=RANK1_SETTINGS)
    assert main(["analyze", str(tmp_path / "net")]) == 0
    assert f"note: {COMPILED_NOTE}\n" in capsys.readouterr().out


GPU_KEYS = {"rank", "device", "name", "memory_bytes", "compute_capability", "sm_count",
            "utilization", "sm_efficiency", "occupancy", "tensor_core_share"}  # fmt: skip


def _resnet_run(tmp_path, shared_data, host: str = "worker0") -> Path:
    """The V100 ResNet-50 sample's two traces as tensorboard_trace_handler names them, with
    `host` as the worker name (its default is `<hostname>_<pid>`)."""
    run = tmp_path / "resnet"
    run.mkdir()
    source = shared_data / "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0"
    for trace in source.iterdir():
        os.symlink(trace, run / trace.name.replace("worker0", host))
    return run


def test_analyze_a_trace_only_run_prints_every_section(tmp_path, shared_data, capsys):
    run = _resnet_run(tmp_path, shared_data)
    for fmt, headings in (
        ("text", ["findings:", "GPU summary", "execution summary", "top operators:",
                  "top kernels:"]),
        ("md", ["## Findings", "## GPU summary", "## Execution summary", "## Top operators",
                "## Top kernels"]),
    ):  # fmt: skip
        assert main(["analyze", str(run), "--format", fmt, "--top", "3"]) == 0
        out = capsys.readouterr().out
        at = [out.index(heading) for heading in headings]
        assert at == sorted(at), (fmt, at)  # after the findings, in this order
        assert "Tesla V100-DGXS-32GB" in out and "31.74 GiB" in out and "ProfilerStep" in out
        assert "aten::cudnn_convolution_backward_weight" in out  # the top operator
        assert "No MyTimer spans" in out and "warnings:" not in out
    kernel_table = out[out.index("## Top kernels") :].split("\n\n")[1]
    assert len(kernel_table.splitlines()) == 2 + 3  # header, rule and --top 3 rows


def test_analyze_json_keys_of_a_trace_only_run(tmp_path, shared_data, capsys):
    run = _resnet_run(tmp_path, shared_data, host="node7_25738")  # its traces' pid
    assert main(["analyze", str(run), "--format", "json", "--top", "4"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["steps"]["count"] == 12
    (rank,) = report["ranks"]
    assert (rank["host"], rank["pid"], rank["step_source"]) == ("node7", 25738, "ProfilerStep")
    assert rank["device_step_time_ns"]["mean"] > rank["step_time_ns"]["mean"]
    (gpu,) = report["gpus"]
    assert GPU_KEYS <= set(gpu)
    assert gpu["compute_capability"] == "7.0" and gpu["sm_count"] == 80
    for share in ("utilization", "sm_efficiency", "occupancy", "tensor_core_share"):
        assert 0 <= gpu[share] <= 1, share
    (execution,) = report["execution_summary"]
    assert execution["rank"] == 0 and execution["step_ns"] == rank["step_time_ns"]["mean"]
    categories = execution["categories"]
    assert abs(sum(c["share"] for c in categories.values()) - 1.0) < 1e-9
    assert categories["dataloader"]["share"] > 0.15  # no DataLoader workers: data-bound
    assert len(report["operators"]) == 4 and len(report["kernels"]) == 4
    assert main(["analyze", str(run), "--top", "4"]) == 0
    text = capsys.readouterr().out
    for kernel in report["kernels"]:  # the text names kernels by their short names
        assert kernel["short_name"] in text
        assert kernel["short_name"] == kernel["name"] or kernel["name"] not in text
    assert any(k["short_name"] != k["name"] for k in report["kernels"])
    assert report["kernels"][0]["total_ns"] >= report["kernels"][1]["total_ns"]
    assert report["spans"] == [] and report["spans_empty_reason"]
    assert main(["analyze", str(run), "--top", "0"]) == 2
    assert "--top must be 1 or more" in capsys.readouterr().err


def test_a_handler_file_name_gives_the_host_only_with_the_traces_pid(tmp_path, shared_data, capsys):
    run = _resnet_run(tmp_path, shared_data, host="node7_123")  # not its traces' pid
    assert main(["analyze", str(run), "--format", "json"]) == 0
    (rank,) = json.loads(capsys.readouterr().out)["ranks"]
    assert (rank["host"], rank["pid"]) == (None, 25738)
