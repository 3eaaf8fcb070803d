"""The Overview dashboard in the real TensorBoard UI, checked against the plugin's own routes."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from urllib.parse import parse_qs

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import Frame, FrameLocator, Page, Route, expect  # noqa: E402

from tests.conftest import SHARED_DATA  # noqa: E402

RUN = "ddp_slow_data"
PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
# Reading a run (cold cache) takes seconds, more on a busy machine: the page says so ("Reading
# run files… 50 %") until it is read; the wait is a bound, not a verdict
LOAD_TIMEOUT_MS = 120_000
NS_PER_UNIT = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}
DURATION_COLUMNS = ["total_ns", "self_ns", "mean_ns", "p50_ns", "p95_ns"]


def open_plugin(page: Page, server) -> tuple[FrameLocator, Frame]:
    """Open the PERF tab of the real TensorBoard UI and wait for the Overview of RUN."""
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    expect(plugin.get_by_test_id("run-select").locator(f'option[value="{RUN}"]')).to_have_count(1)
    plugin.get_by_test_id("run-select").select_option(RUN)  # not the first run of sample_runs
    expect(plugin.get_by_test_id("span-table")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    expect(plugin.locator("main.content")).not_to_have_attribute("aria-busy", "true")
    expect(plugin.get_by_test_id("span-table")).to_be_visible()
    frame = page.frame(url=lambda url: "plugin_entry.html" in url)
    assert frame is not None
    return plugin, frame


def hash_params(frame: Frame) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(frame.evaluate("location.hash.slice(1)")).items()}


def wait_for_hash(frame: Frame, **expected: str) -> None:
    frame.wait_for_function(
        "expected => { const p = new URLSearchParams(location.hash.slice(1));"
        " return Object.entries(expected).every(([k, v]) => p.get(k) === v); }",
        arg=expected,
    )


def parse_duration(text: str) -> float:
    match = re.fullmatch(r"([\d,.]+) (ns|µs|ms|s)", text)
    assert match, f"not a formatted duration: {text!r}"
    return float(match[1].replace(",", "")) * NS_PER_UNIT[match[2]]


def row_cells(row) -> dict[str, tuple[str | None, str]]:
    """column key -> (raw data-value, displayed text)."""
    cells = row.locator("td").evaluate_all(
        "tds => tds.map(td => [td.dataset.column, td.dataset.value ?? null, td.textContent])"
    )
    return {column: (value, text) for column, value, text in cells}


def span_values(plugin: FrameLocator, column: str) -> list[float]:
    return plugin.locator(f'[data-testid=span-row] td[data-column="{column}"]').evaluate_all(
        "tds => tds.map(td => Number(td.dataset.value))"
    )


def test_span_table_agrees_with_summary_route(page, tensorboard_server):
    plugin, _ = open_plugin(page, tensorboard_server)
    summary = tensorboard_server.get_json(f"summary?run={RUN}")
    spans = {span["name"]: span for span in summary["spans"]}
    expect(plugin.get_by_test_id("span-row")).to_have_count(len(spans))

    cells = row_cells(plugin.locator('[data-testid=span-row][data-name="forward"]'))
    forward = spans["forward"]
    assert forward["calls"] > 0
    assert cells["calls"] == (str(forward["calls"]), f"{forward['calls']:,}")
    for column in DURATION_COLUMNS:
        raw, text = cells[column]
        assert int(raw) == forward[column]
        # Three significant digits: the display is within 1 % of the exact value.
        assert parse_duration(text) == pytest.approx(forward[column], rel=0.01)
    assert float(cells["pct_of_step"][0]) == pytest.approx(forward["pct_of_step"])
    assert cells["pct_of_step"][1].endswith(" %")

    # Default order is the server's: total time, largest first.
    assert span_values(plugin, "total_ns") == sorted(span_values(plugin, "total_ns"), reverse=True)

    ranks = plugin.get_by_test_id("rank-row")
    expect(ranks).to_have_count(len(summary["ranks"]))
    for rank in summary["ranks"]:
        row = plugin.locator(f'[data-testid=rank-row][data-name="{rank["rank"]}"]')
        rank_cells = row_cells(row)
        assert rank_cells["host"][1] == rank["host"]
        assert int(rank_cells["p95"][0]) == rank["step_time_ns"]["p95"]

    chart = plugin.get_by_test_id("step-chart")
    for series in summary["step_series"]:
        line = chart.locator(f'polyline[data-series="rank {series["rank"]}"]')
        points = line.get_attribute("points").split()
        assert len(points) == len(series["steps"])


def test_rank_switch_updates_view_and_hash(page, tensorboard_server):
    plugin, frame = open_plugin(page, tensorboard_server)
    assert hash_params(frame) == {"run": RUN}
    rank_summary = tensorboard_server.get_json(f"summary?run={RUN}&rank=1")
    forward_calls = next(s["calls"] for s in rank_summary["spans"] if s["name"] == "forward")

    plugin.get_by_test_id("rank-select").select_option("1")

    wait_for_hash(frame, run=RUN, rank="1")
    forward_calls_cell = plugin.locator(
        '[data-testid=span-row][data-name="forward"] td[data-column="calls"]'
    )
    expect(forward_calls_cell).to_have_attribute("data-value", str(forward_calls))
    expect(plugin.locator("[data-testid=step-chart] polyline")).to_have_count(1)
    expect(plugin.locator("[data-testid=rank-row].selected")).to_have_attribute("data-name", "1")

    plugin.get_by_test_id("rank-select").select_option("")
    frame.wait_for_function("!new URLSearchParams(location.hash.slice(1)).has('rank')")


def test_sorting_by_header_is_kept_in_the_hash(page, tensorboard_server):
    plugin, frame = open_plugin(page, tensorboard_server)
    calls_header = plugin.locator('[data-testid=span-table] th[data-column="calls"]')

    calls_header.get_by_role("button").click()
    wait_for_hash(frame, sort="calls", dir="desc")
    expect(calls_header).to_have_attribute("aria-sort", "descending")
    assert span_values(plugin, "calls") == sorted(span_values(plugin, "calls"), reverse=True)

    calls_header.get_by_role("button").click()
    wait_for_hash(frame, sort="calls", dir="asc")
    assert span_values(plugin, "calls") == sorted(span_values(plugin, "calls"))


def test_view_state_is_restored_from_the_hash(page, tensorboard_server):
    # The plugin's entry document itself, as TensorBoard serves it to the iframe.
    page.goto(
        f"{tensorboard_server.url}/data/plugin_entry.html?name=tb_perf"
        f"#run={RUN}&rank=1&sort=name&dir=asc"
    )
    expect(page.get_by_test_id("rank-select")).to_have_value("1")
    expect(page.get_by_test_id("run-select")).to_have_value(RUN)
    expect(page.locator('[data-testid=span-table] th[data-column="name"]')).to_have_attribute(
        "aria-sort", "ascending"
    )
    names = page.get_by_test_id("span-row").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert names == sorted(names)


def test_chart_tooltip_shows_step_and_value(page, tensorboard_server):
    plugin, _ = open_plugin(page, tensorboard_server)
    summary = tensorboard_server.get_json(f"summary?run={RUN}")
    chart = plugin.get_by_test_id("step-chart")

    chart.locator("rect.chart-hover").hover()

    tooltip = plugin.get_by_test_id("step-chart-tooltip")
    expect(tooltip).to_be_visible()
    step = int(re.fullmatch(r"step (\d+)", tooltip.locator(".tooltip-title").inner_text())[1])
    rows = tooltip.locator(".tooltip-row").all_inner_texts()
    assert len(rows) == len(summary["step_series"])
    for series, row in zip(summary["step_series"], rows, strict=True):
        label, value = row.split(": ")
        assert label == f"rank {series['rank']}"
        expected = series["time_ns"][series["steps"].index(step)]
        assert parse_duration(value) == pytest.approx(expected, rel=0.01)


def test_follows_tensorboard_dark_mode(page, tensorboard_server):
    page.emulate_media(color_scheme="dark")
    plugin, _ = open_plugin(page, tensorboard_server)
    assert "dark-mode" in page.evaluate("document.body.className")
    html = plugin.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")
    expect(plugin.locator("body")).to_have_css("background-color", "rgb(48, 48, 48)")

    # TensorBoard's theme toggle flips the class on its body; the plugin follows live.
    page.evaluate("document.body.classList.remove('dark-mode')")
    expect(html).to_have_attribute("data-theme", "light")
    expect(plugin.locator("body")).to_have_css("background-color", "rgb(255, 255, 255)")


def test_tensorboard_reload_button_refetches(page, tensorboard_server):
    open_plugin(page, tensorboard_server)
    with (
        page.expect_request(lambda r: "/data/plugin/tb_perf/runs" in r.url),
        page.expect_request(lambda r: "/data/plugin/tb_perf/summary" in r.url),
    ):
        page.locator("button.reload-button").click()


def test_progress_then_data_and_server_errors(page, tensorboard_server):
    answers = iter(
        [
            (202, {"progress": {"done_bytes": 10, "total_bytes": 40, "fraction": 0.25}}),
            (404, {"error": {"code": "not_found", "message": "unknown run '<b>gone</b>'"}}),
        ]
    )

    def summary_route(route: Route) -> None:
        status, body = next(answers, (None, None))
        if status is None:
            route.continue_()
        else:
            route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    page.route("**/data/plugin/tb_perf/summary?*", summary_route)
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    # First answer is 202: a progress bar, then (500 ms later) the error body, shown as text.
    expect(plugin.get_by_test_id("progress")).to_contain_text("25 %")
    error = plugin.get_by_test_id("error")
    expect(error).to_contain_text("unknown run '<b>gone</b>' (not_found)")
    expect(error.locator("b")).to_have_count(0)

    # A new selection asks again; the route now reaches the real server.
    plugin.get_by_test_id("rank-select").select_option("0")
    expect(plugin.get_by_test_id("span-row").first).to_be_visible()
    expect(plugin.get_by_test_id("error")).to_have_count(0)


def test_screenshot(page, tensorboard_server, tmp_path):
    plugin, _ = open_plugin(page, tensorboard_server)
    png = page.screenshot(path=tmp_path / "overview.png", full_page=True)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    chart_png = plugin.get_by_test_id("step-chart").screenshot()
    assert chart_png.startswith(b"\x89PNG\r\n\x1a\n") and len(chart_png) > 1000


def _empty_logdir(tmp_path_factory) -> object:
    return tmp_path_factory.mktemp("empty_logdir")


@pytest.mark.parametrize("tensorboard_server", [_empty_logdir], ids=["empty"], indirect=True)
def test_empty_logdir_explains_what_to_do(page, tensorboard_server):
    # The tab is inactive without runs, but TensorBoard still opens it by its hash.
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    expect(plugin.get_by_test_id("empty")).to_contain_text("No runs yet")
    expect(plugin.get_by_test_id("empty")).to_contain_text("README quick start")
    expect(plugin.get_by_test_id("run-select")).to_be_hidden()


def test_warnings_and_server_text_render_as_text(page, tensorboard_server):
    hostile = '<img src=x onerror="window.hacked = 1">'
    truncated = "rank 1: last line is truncated (ignored)"

    def summary_route(route: Route) -> None:
        if f"run={RUN}" not in route.request.url:  # the first run, shown before RUN is picked
            route.continue_()
            return
        try:
            summary = route.fetch().json()
        except PlaywrightError:  # the page dropped this request for a newer one
            return
        summary["warnings"] = [truncated, hostile]
        summary["spans"][0]["name"] = hostile
        route.fulfill(content_type="application/json", body=json.dumps(summary))

    tensorboard_server.get_json(f"summary?run={RUN}")  # loaded: the page's request answers 200
    page.route("**/data/plugin/tb_perf/summary?*", summary_route)
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("run-select").select_option(RUN)  # not the first run of sample_runs
    warnings = plugin.get_by_test_id("warnings")
    expect(warnings).to_contain_text("2 warnings")
    expect(warnings.locator("li")).to_have_text([truncated, hostile])
    hostile_row = plugin.locator(f"[data-testid=span-row][data-name='{hostile}']")
    expect(hostile_row).to_contain_text(hostile)
    expect(plugin.locator("img")).to_have_count(0)


def test_compiled_run_shows_mfu_per_rank_and_torch_compile(page, tensorboard_server):
    """sample_runs/ddp_compiled: FlopsCounter's MFU in the rank table, CompileMonitor's
    recompilations in the torch.compile panel, both as the summary route has them."""
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("run-select").select_option("ddp_compiled")
    expect(plugin.get_by_test_id("compile-table")).to_be_visible()
    summary = tensorboard_server.get_json("summary?run=ddp_compiled")
    for rank in summary["ranks"]:
        cells = row_cells(plugin.locator(f'[data-testid=rank-row][data-name="{rank["rank"]}"]'))
        assert float(cells["mfu"][0]) == pytest.approx(rank["compute"]["mfu"])
        assert cells["mfu"][1] == f"{rank['compute']['mfu'] * 100:.1f} %"
        compiled = row_cells(
            plugin.locator(f'[data-testid=compile-row][data-name="{rank["rank"]}"]')
        )
        assert compiled["recompiles"][1] == str(rank["compile"]["recompiles"])
        assert compiled["graphs"][1] == str(rank["compile"]["graphs"])
    reasons = plugin.get_by_test_id("compile-reasons").locator("li")
    expect(reasons.first).to_contain_text("size mismatch at index 0")
    findings = plugin.locator("[data-kind=recompilation]")  # the same on every rank: one
    expect(findings).to_have_count(1)
    expect(findings).to_contain_text(f"on all {len(summary['ranks'])} ranks")


RESNET_SAMPLE = "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0"
TRACE_RUN = "resnet50"


def _trace_only_logdir(tmp_path_factory) -> Path:
    """A logdir made only by tensorboard_trace_handler: the V100 ResNet-50 sample's two traces
    (copied), named as its default worker name `<hostname>_<pid>` names them."""
    source = SHARED_DATA / RESNET_SAMPLE
    if not source.is_dir():
        pytest.skip(f"real test data not found at {source}")
    run = tmp_path_factory.mktemp("trace_only") / TRACE_RUN
    run.mkdir()
    finished = time.time() - 3600  # written an hour ago: a finished run, not a live one
    for trace in source.iterdir():
        copy = run / trace.name.replace("worker0", "gpuhost_25738")
        copy.write_bytes(trace.read_bytes())
        os.utime(copy, (finished, finished))
    return run.parent


def _open_trace_run(page: Page, server) -> FrameLocator:
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    expect(plugin.get_by_test_id("gpu-summary-table")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    expect(plugin.locator("main.content")).not_to_have_attribute("aria-busy", "true")
    return plugin


@pytest.mark.parametrize("tensorboard_server", [_trace_only_logdir], ids=["trace_only"],
                         indirect=True)  # fmt: skip
def test_trace_only_run_shows_gpu_summary_execution_summary_and_ranks(page, tensorboard_server):
    plugin = _open_trace_run(page, tensorboard_server)
    summary = tensorboard_server.get_json(f"summary?run={TRACE_RUN}")
    (gpu,) = summary["gpus"]
    cells = row_cells(plugin.locator('[data-testid=gpu-summary-row][data-name="0/0"]'))
    assert cells["name"][1] == "Tesla V100-DGXS-32GB"
    assert (cells["compute_capability"][1], cells["sm_count"][1]) == ("7.0", "80")
    assert cells["memory_bytes"][1] == "31.7 GiB"
    for share in ("utilization", "sm_efficiency", "occupancy", "tensor_core_share"):
        assert float(cells[share][0]) == pytest.approx(gpu[share]), share
        assert cells[share][1] == f"{gpu[share] * 100:.1f} %", share

    (execution,) = summary["execution_summary"]
    cells = row_cells(plugin.locator('[data-testid=execution-row][data-name="0"]'))
    assert int(cells["step_ns"][0]) == execution["step_ns"]
    for category, part in execution["categories"].items():
        assert int(cells[category][0]) == part["ns_per_step"], category
        duration, share = re.fullmatch(r"(.+) \((.+)\)", cells[category][1]).groups()
        assert parse_duration(duration) == pytest.approx(part["ns_per_step"], rel=0.01, abs=1)
        assert share == ("<0.1 %" if 0 < part["share"] < 0.0005 else f"{part['share'] * 100:.1f} %")

    (rank,) = summary["ranks"]
    cells = row_cells(plugin.locator('[data-testid=rank-row][data-name="0"]'))
    assert (cells["host"][1], cells["pid"][1]) == ("gpuhost", "25738")
    assert (cells["steps"][1], cells["step_source"][1]) == ("12", "ProfilerStep")
    assert int(cells["mean"][0]) == rank["step_time_ns"]["mean"] == execution["step_ns"]
    assert int(cells["device_mean"][0]) == rank["device_step_time_ns"]["mean"]
    expect(plugin.get_by_test_id("spans-empty")).to_have_text(summary["spans_empty_reason"])
    expect(plugin.get_by_test_id("warnings")).to_have_count(0)  # nothing here is a warning


@pytest.mark.parametrize("tensorboard_server", [_trace_only_logdir], ids=["trace_only"],
                         indirect=True)  # fmt: skip
def test_breakdown_bars_share_a_time_axis_with_ms_labels(page, tensorboard_server):
    plugin = _open_trace_run(page, tensorboard_server)
    (rank,) = tensorboard_server.get_json(f"breakdown?run={TRACE_RUN}")["ranks"]
    steps = rank["steps"]
    expect(plugin.get_by_test_id("breakdown-bar")).to_have_count(len(steps))
    ticks = plugin.get_by_test_id("breakdown-axis").locator(".breakdown-tick").all_text_contents()
    assert ticks[0].startswith("0") and all(t.endswith(" ms") for t in ticks), ticks
    longest = max(s["duration_ns"] for s in steps)
    assert parse_duration(ticks[-2]) < longest <= parse_duration(ticks[-1])
    # each bar as long as its step on that axis; compute's part labelled with its time
    widths = plugin.locator("[data-testid=breakdown-bar] .breakdown-bar").evaluate_all(
        "bars => bars.map(b => b.getBoundingClientRect().width)"
    )
    for step, width in zip(steps, widths, strict=True):
        assert width / widths[0] == pytest.approx(step["duration_ns"] / steps[0]["duration_ns"],
                                                  rel=0.02)  # fmt: skip
    label = plugin.locator("[data-testid=breakdown-bar]").first.locator(".category-compute")
    assert parse_duration(label.text_content()) == pytest.approx(
        steps[0]["ns"]["compute"], rel=0.01
    )


@pytest.mark.parametrize("tensorboard_server", [_trace_only_logdir], ids=["trace_only"],
                         indirect=True)  # fmt: skip
def test_gpu_tab_shows_the_traces_gpu_summary(page, tensorboard_server):
    plugin = _open_trace_run(page, tensorboard_server)
    plugin.get_by_test_id("tab-gpu").click()
    gpu_tab = plugin.get_by_test_id("gpu")
    expect(gpu_tab.get_by_test_id("gpu-summary-row")).to_have_count(1)
    expect(gpu_tab.get_by_test_id("gpu-summary-row")).to_contain_text("Tesla V100-DGXS-32GB")
    expect(gpu_tab.get_by_test_id("gpu-reason")).to_contain_text("No GpuTracker samples")
