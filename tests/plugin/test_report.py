"""`tb-perf report`: the page shows the service's answers, escapes what runs recorded, and
loads nothing but itself."""

import html
from pathlib import Path

import pytest

from tb_perf_plugin import report, views
from tb_perf_plugin.cli import main
from tb_perf_plugin.store import RunStore
from tb_perf_plugin.text import evidence_text
from tests.conftest import write_training_run
from tests.helpers import timer_file

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _answers(logdir: Path, run: str, rank: str | None = None) -> dict:
    service = RunStore(str(logdir), executor="inline")
    try:
        return report.gather(service, run, rank)
    finally:
        service.close()


@pytest.fixture(scope="module")
def slow_data() -> tuple[dict, str]:
    answers = _answers(SAMPLE_RUNS, "ddp_slow_data")
    return answers, report.render(answers)


def test_slow_data_report_holds_the_services_findings_and_numbers(slow_data):
    answers, page = slow_data
    service = RunStore(str(SAMPLE_RUNS), executor="inline")
    try:
        summary = views.overview.summary(service, "ddp_slow_data", wait_s=None)
        findings = views.findings.findings(service, "ddp_slow_data", wait_s=None)["findings"]
    finally:
        service.close()
    assert [(f["kind"], f["ranks"]) for f in findings] == [("data_loading", [0, 1])]
    for finding in findings:
        assert html.escape(finding["title"]) in page
        assert html.escape(finding["recommendation"]) in page
        for name, item in finding["evidence"].items():  # in human units, as `analyze` shows it
            shown = html.escape(evidence_text(item))
            assert f'>{html.escape(name)}</td><td class="l name">{shown}<' in page
    assert '>median_time</td><td class="l name">17.02 ms<' in page
    for rank in summary["ranks"]:  # raw ns to sort by, ms as shown
        for stat in ("mean", "p50", "p95", "max"):
            ns = rank["step_time_ns"][stat]
            assert f'data-v="{ns}">{ns / 1e6:.2f}</td>' in page
    for span in summary["spans"]:
        assert f">{span['name']}</td>" in page
        assert f'data-v="{span["total_ns"]}">{span["total_ns"] / 1e6:.2f}</td>' in page
    assert answers["summary"] == summary
    # no traces: the breakdown is each rank's mean step split by its spans' self time
    assert "No torch.profiler traces" in page and "outside spans" in page
    assert page.count("<polyline") == len(summary["step_series"])
    assert "No memory records in this run" in page


def test_traced_run_has_breakdown_bars_and_top_operators():
    answers = _answers(SAMPLE_RUNS, "ddp_traced")
    page = report.render(answers)
    categories = answers["breakdown"]["categories"]
    for rank in answers["breakdown"]["ranks"]:
        assert f"<h3>rank {rank['rank']}</h3>" in page
        for step in rank["steps"]:
            for category in categories:
                if step["ns"][category]:
                    assert f"{step['step']} {category}: {step['ns'][category] / 1e6:.2f} ms" in page
    top = answers["operators"]["rows"]
    assert len(top) == report.TOP_ROWS < answers["operators"]["total_rows"]
    for row in top:
        assert f'data-v="{row["host_self_ns"]}">{row["host_self_ns"] / 1e6:.2f}</td>' in page


def test_memory_and_module_sections_where_the_run_has_them():
    leak = report.render(_answers(SAMPLE_RUNS, "ddp_leak"))
    assert "grows by" in leak and "rss trend" in leak and "pynvml is not installed" in leak
    modules = _answers(SAMPLE_RUNS, "ddp_modules", rank="1")
    page = report.render(modules)
    assert modules["summary"]["rank"] == 1 and "; rank 1</p>" in page
    called = [r for r in modules["modules"]["rows"] if r["total"] is not None]
    top = max(called, key=lambda r: r["total"]["total_ns"])
    assert f'data-v="{top["total"]["self_ns"]}"' in page


def test_comparison_section_shows_the_compare_answer():
    service = RunStore(str(SAMPLE_RUNS), executor="inline")
    try:
        answers = report.gather(service, "ddp_fast_data")
        body = views.compare.compare(service, "ddp_slow_data", "ddp_fast_data", wait_s=None)
    finally:
        service.close()
    assert "Compared with the baseline" not in report.render(answers)
    body["gpu"]["trace_utilization"] = {"baseline": 40.5, "candidate": 62.25, "delta": 21.75}
    answers["compare"] = body
    page = report.render(answers)
    assert 'data-v="62.25">62.2</td>' in page  # GPU utilization in %
    step = body["step_time"]
    assert step["verdict"] == "faster"
    assert f"<h3>{html.escape(step['headline'])}</h3>" in page
    for side in ("baseline", "candidate"):
        ns = step[side]["median_ns"]
        assert f'data-v="{ns}">{ns / 1e6:.2f}</td>' in page
    assert "median step, adds up to the median difference" in page  # not the mean categories
    for category in body["attribution"]:
        assert f"{category['category']} {category['delta_ns'] / 1e6:+.2f} ms</text>" in page
    spread = body["balance"]["spread"]
    assert f'data-v="{spread["candidate"]}">{spread["candidate"]:.1%}</td>' in page
    for rank in body["balance"]["ranks"]:
        assert f'data-v="{rank["delta"]}">{rank["delta"] / 1e6:.2f}</td>' in page
    for finding in body["findings"]["appeared"]:
        assert f"appeared: [{finding['severity']}] {html.escape(finding['title'])}" in page


def test_gpu_section_summarizes_each_gpu():
    gpu = {"gpu_reason": None, "ranks": [{"rank": 0, "devices": [{
        "index": 0, "name": "<H100>", "util": [50.0, None, 70.0], "power_w": [200.0, 300.0],
        "mem_used": [2 * 1024**3, 3 * 1024**3]}]}]}  # fmt: skip
    page = report._gpu_html(gpu)
    assert "&lt;H100&gt;" in page and ">60.0</td>" in page and ">3.00 GiB</td>" in page
    assert ">250.0</td>" in page


def test_names_from_the_run_are_escaped(tmp_path):
    write_training_run(tmp_path / "run", world_size=1, steps=2)
    answers = _answers(tmp_path, "run")
    answers["summary"]["spans"][0]["name"] = HOSTILE
    answers["findings"] = [{
        "kind": "hot_operator", "severity": "warning", "title": f"{HOSTILE} is hot",
        "evidence": {"operator": {"value": HOSTILE, "unit": ""}}, "recommendation": HOSTILE,
    }]  # fmt: skip
    answers["operators"]["rows"] = [{
        "name": HOSTILE, "calls": 1, "host_self_ns": 1, "host_total_ns": 1,
        "device_self_ns": 0, "device_total_ns": 0,
    }]  # fmt: skip
    answers["title"] = HOSTILE
    answers["compare"] = {
        "baseline": HOSTILE, "candidate": "run", "ranks": {"note": HOSTILE},
        "step_time": {"headline": HOSTILE, "ratio": None, "ci": [None, None], "alpha": 0.01,
                      "verdict": "inconclusive", "baseline": {"steps": 0, "median_ns": None,
                      "p95_ns": None}, "candidate": {"steps": 0, "median_ns": None,
                      "p95_ns": None}},
        "category_source": "spans", "categories": [
            {"category": HOSTILE, "baseline_ns": 1, "candidate_ns": 2, "delta_ns": 1}],
        "operators": [{"name": HOSTILE, "status": "new", "baseline_ns": 0, "candidate_ns": 1,
                       "delta_ns": 1}], "operators_total": 1,
        "kernels": [], "kernels_total": 0, "modules": [], "modules_total": 0,
        "memory": {k: {"baseline": None, "candidate": None, "delta": None}
                   for k in ("peak_bytes", "reserved_bytes", "slope_bytes_per_step")},
        "gpu": {k: {"baseline": None, "candidate": None, "delta": None}
                for k in ("trace_utilization", "tracker_utilization")},
        "balance": {"spread": {"baseline": None, "candidate": None, "delta": None}, "ranks": []},
        "findings": {"appeared": [{"severity": "info", "title": HOSTILE}], "disappeared": []},
    }  # fmt: skip
    page = report.render(answers)
    assert HOSTILE not in page and "<img" not in page
    assert page.count("<script>") == 1  # the sorting script only
    assert page.count(html.escape(HOSTILE)) >= 12


def test_span_name_recorded_by_mytimer_is_escaped(tmp_path):
    from collectors import MyTimer, RunWriter

    with RunWriter(tmp_path / "run", rank=0, world_size=1) as writer:
        timer = MyTimer(writer, gpu=False)
        timer.set_step(0)
        with timer.range(HOSTILE):
            pass
        timer.step()
        timer.close()
    page = report.render(_answers(tmp_path, "run"))
    assert html.escape(HOSTILE) in page and HOSTILE not in page


def test_cli_writes_the_report_with_a_baseline(tmp_path, capsys):
    out = tmp_path / "report.html"
    run, baseline = SAMPLE_RUNS / "ddp_fast_data", SAMPLE_RUNS / "ddp_slow_data"
    assert main(["report", str(run), "--baseline", str(baseline), "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().err
    page = out.read_text()
    assert f"tb-perf report: {html.escape(str(run))}</h1>" in page
    assert "Compared with the baseline" in page and "faster per step" in page
    assert f"baseline {html.escape(str(baseline))}, candidate" in page
    by_name = ["report", "ddp_fast_data", "--logdir", str(SAMPLE_RUNS), "--rank", "1"]
    assert main([*by_name, "--baseline", "ddp_slow_data", "-o", str(out)]) == 0
    page = out.read_text()
    assert "tb-perf report: ddp_fast_data</h1>" in page and "; rank 1</p>" in page
    assert "baseline ddp_slow_data, candidate ddp_fast_data" in page


def test_cli_exit_codes(training_logdir, tmp_path, capsys):
    out = str(tmp_path / "report.html")
    logdir = ["--logdir", str(training_logdir)]
    assert main(["report", str(tmp_path / "missing"), "-o", out]) == 2
    assert main(["report", "exp/a", *logdir, "--rank", "9", "-o", out]) == 2
    assert main(["report", "exp/a", *logdir, "--baseline", "exp/nope", "-o", out]) == 2
    assert main(["report", "exp/a", *logdir, "-o", str(tmp_path / "no" / "r.html")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not (tmp_path / "report.html").exists()
    for rank in (0, 1):
        timer_file(training_logdir / "exp/a", rank).write_text(
            '{"schema": "tb_perf.timer", "version": 99}\n'
        )
    assert main(["report", "exp/a", *logdir, "-o", out]) == 3
    assert "version 99 is not supported" in capsys.readouterr().err


def test_trace_only_run_has_gpu_and_execution_summaries(tmp_path, shared_data):
    source = shared_data / "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0"
    (tmp_path / "resnet").mkdir()
    for trace in source.iterdir():
        (tmp_path / "resnet" / trace.name).symlink_to(trace)
    answers = _answers(tmp_path, "resnet")
    page = report.render(answers)
    (gpu,) = answers["summary"]["gpus"]
    assert "<h2>GPU summary</h2>" in page and "Tesla V100-DGXS-32GB" in page
    assert f'data-v="{gpu["utilization"]}">{gpu["utilization"]:.1%}</td>' in page
    (execution,) = answers["summary"]["execution_summary"]
    compute = execution["categories"]["compute"]
    cell = f"{compute['ns_per_step'] / 1e6:.2f} ({compute['share']:.1%})"
    assert f'data-v="{compute["ns_per_step"]}">{cell}</td>' in page
    assert html.escape(answers["summary"]["spans_empty_reason"]) in page
    assert "No GpuTracker samples" in page
    long_names = [k for k in answers["kernels"]["rows"] if k["short_name"] != k["name"]]
    assert long_names  # cuDNN / CUTLASS templates: the page shows the short name, full in its title
    for kernel in long_names:
        title, short = html.escape(kernel["name"]), html.escape(kernel["short_name"])
        assert f'<td class="l name" title="{title}">{short}</td>' in page
