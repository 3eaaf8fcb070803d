"""The Memory and GPU tabs in the real TensorBoard UI, on a logdir of real short CPU training
loops (MyTimer + MemorySampler + GpuTracker, recorded by tests/fixtures/planted/generate.py):
the curve and the leak finding with its fitted line, the GPU tab's reason for having no GPU
data, and the snapshot viewer on a real snapshot (zoom, a click shows an allocation's details)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA
from tests.plugin.test_memory_leak import RECORDED
from tests.plugin.test_memory_routes import write_memory_run
from tests.plugin.test_trace_memory import RECORDED as TRACE_MEMORY

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import FrameLocator, Page, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
MAGMA = SHARED_DATA / "memory_snapshots/MAGMA27__assignment2-systems/memory_snapshot.pickle"


def _memory_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`leak`: the recorded loop keeping 1 MiB a step, with GpuTracker sampling every 20 ms on
    a machine without GPUs; `gpus`: hand-written records of two ranks, one with GPU samples;
    `snap`: a run holding a real memory snapshot (when ../shared/data is there)."""
    logdir = tmp_path_factory.mktemp("memory_logdir")
    shutil.copytree(RECORDED / "leak", logdir / "leak")
    write_memory_run(logdir / "gpus")
    if MAGMA.is_file():
        (logdir / "snap").mkdir()
        (logdir / "snap" / "events.out.tfevents.1.host.1").write_bytes(b"")
        shutil.copyfile(MAGMA, logdir / "snap" / "memory_snapshot.pickle")
    return logdir


def open_tab(page: Page, server, run: str, tab: str) -> FrameLocator:
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("run-select").select_option(run)
    plugin.get_by_test_id(f"tab-{tab}").click()
    expect(plugin.get_by_test_id(tab)).to_be_visible()
    return plugin


@pytest.mark.parametrize("tensorboard_server", [_memory_logdir], ids=["memory"], indirect=True)
def test_memory_tab_shows_the_curve_and_the_leak(page, tensorboard_server):
    plugin = open_tab(page, tensorboard_server, "leak", "memory")
    answer = tensorboard_server.get_json("memory?run=leak")
    leak = plugin.locator('[data-testid=finding][data-kind="memory_leak"]')
    expect(leak).to_have_count(1)
    expect(leak).to_contain_text("resident memory (RSS) grows by")
    chart = plugin.get_by_test_id("memory-step-chart")
    expect(chart.locator('polyline[data-series="RSS"]')).to_have_count(1)
    points = chart.locator('polyline[data-series="RSS"]').get_attribute("points")
    assert len(points.split()) == len(answer["ranks"][0]["steps"])
    trend = chart.locator("polyline.chart-dashed")  # the fitted line of the leak
    expect(trend).to_have_count(1)
    expect(trend).to_have_attribute("data-series", re.compile(r"^leak trend \(1\.\d+ MiB/step\)$"))
    expect(plugin.get_by_test_id("memory-time-chart")).to_be_visible()
    slope = plugin.locator('[data-testid=memory-rank-row] td[data-column="slope"]')
    assert float(slope.get_attribute("data-value")) == answer["ranks"][0]["trend"]["slope"]
    expect(plugin.get_by_test_id("no-snapshots")).to_be_visible()


@pytest.mark.parametrize("tensorboard_server", [_memory_logdir], ids=["memory"], indirect=True)
def test_gpu_tab_says_why_there_is_no_gpu_data(page, tensorboard_server):
    plugin = open_tab(page, tensorboard_server, "leak", "gpu")
    answer = tensorboard_server.get_json("gpu?run=leak")
    expect(plugin.get_by_test_id("gpu-reason")).to_contain_text(answer["gpu_reason"])
    expect(plugin.get_by_test_id("gpu-util-chart")).to_have_count(0)
    # the process side, with the steps marked
    cpu = plugin.get_by_test_id("cpu-chart")
    expect(cpu.locator('polyline[data-series="this process"]')).to_have_count(1)
    assert cpu.locator("line.chart-mark").count() > 0
    expect(plugin.get_by_test_id("cpu-rss-chart")).to_be_visible()


@pytest.mark.parametrize("tensorboard_server", [_memory_logdir], ids=["memory"], indirect=True)
def test_gpu_tab_curves_per_gpu_with_step_marks(page, tensorboard_server):
    plugin = open_tab(page, tensorboard_server, "gpus", "gpu")
    expect(plugin.get_by_test_id("gpu-reason")).to_have_count(0)
    expect(plugin.get_by_test_id("gpu-rank-reasons")).to_contain_text(
        "rank 1: pynvml is not installed"
    )
    for chart in ("gpu-util-chart", "gpu-power-chart", "gpu-clock-chart", "gpu-temp-chart"):
        line = plugin.get_by_test_id(chart).locator("polyline.chart-line")
        expect(line).to_have_attribute("data-series", "rank 0 GPU 0 NVIDIA H100")
    memory = plugin.get_by_test_id("gpu-memory-chart")
    expect(memory.locator("polyline.chart-dashed")).to_have_attribute(
        "data-series", "rank 0 GPU 0 NVIDIA H100 total"
    )
    # 40 steps of 100 ms within the 4 s sampled: a mark per step start
    expect(plugin.get_by_test_id("gpu-util-chart").locator("line.chart-mark")).to_have_count(40)
    # one rank selected: the other's reason is gone, its CPU line alone
    plugin.get_by_test_id("rank-select").select_option("1")
    expect(plugin.get_by_test_id("gpu-reason")).to_contain_text("pynvml is not installed")
    expect(plugin.get_by_test_id("cpu-chart").locator("polyline")).to_have_count(1)


@pytest.mark.parametrize("tensorboard_server", [_memory_logdir], ids=["memory"], indirect=True)
def test_memory_tab_rank_selection_and_fragmentation(page, tensorboard_server):
    plugin = open_tab(page, tensorboard_server, "gpus", "memory")
    findings = plugin.get_by_test_id("finding")
    expect(findings).to_have_count(2)
    chart = plugin.get_by_test_id("memory-step-chart")
    expect(chart.locator('polyline[data-series="rank 0 allocated"]')).to_have_count(1)
    expect(chart.locator("polyline.chart-dashed")).to_have_count(1)
    plugin.get_by_test_id("rank-select").select_option("1")
    expect(findings).to_have_count(1)
    expect(findings.first).to_have_attribute("data-kind", "fragmentation")
    expect(chart.locator("polyline.chart-dashed")).to_have_count(0)
    expect(
        plugin.locator('[data-testid=memory-step-chart] polyline[data-series="allocated"]')
    ).to_have_count(1)
    row = plugin.locator('[data-testid=memory-rank-row] td[data-column="unused"]')
    expect(row).to_contain_text("7.00 GiB (70 %)")


@pytest.mark.parametrize("tensorboard_server", [_memory_logdir], ids=["memory"], indirect=True)
def test_snapshot_viewer_zooms_and_shows_an_allocation(page, tensorboard_server):
    if not MAGMA.is_file():
        pytest.skip(f"real test data not found at {MAGMA}")
    plugin = open_tab(page, tensorboard_server, "snap", "memory")
    expect(plugin.get_by_test_id("snapshot-select")).to_have_value("memory_snapshot.pickle")
    expect(plugin.get_by_test_id("peak-frame").first).to_contain_text("model.py:39 (forward)")
    status = plugin.get_by_test_id("snapshot-status")
    expect(status).to_contain_text("allocations drawn")
    before = status.text_content()
    canvas = plugin.get_by_test_id("snapshot-canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 100)
    page.mouse.wheel(0, -600)  # zoom in around the middle
    expect(status).not_to_have_text(before)
    plugin.get_by_test_id("snapshot-reset").click()
    expect(status).to_have_text(before)
    # the lowest block in the middle: an allocation live throughout, at the bottom
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 22)
    details = plugin.get_by_test_id("snapshot-allocation")
    expect(details).to_contain_text("Allocation")
    expect(details.locator('[data-field="size"]')).to_contain_text("B)")
    expect(details.locator('[data-field="lifetime"]')).to_be_visible()


def test_memory_tab_on_the_demo_leak_run(page, tensorboard_server):
    """sample_runs/ddp_leak: rank 1 keeps 1 MiB a step; the tab shows its curve and the leak."""
    plugin = open_tab(page, tensorboard_server, "ddp_leak", "memory")
    leak = plugin.locator('[data-testid=finding][data-kind="memory_leak"]')
    expect(leak).to_have_count(1)
    expect(leak).to_contain_text("Rank 1")
    chart = plugin.get_by_test_id("memory-step-chart")
    expect(chart.locator("polyline.chart-dashed")).to_have_count(1)
    plugin.get_by_test_id("tab-gpu").click()
    expect(plugin.get_by_test_id("gpu")).to_contain_text("pynvml is not installed")


def _trace_memory_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`leak`: a plain torch.profiler run (profile_memory=True, no collectors) keeping 1 MiB a
    step (tests/fixtures/trace_memory)."""
    logdir = tmp_path_factory.mktemp("trace_memory_logdir")
    shutil.copytree(TRACE_MEMORY / "leak", logdir / "leak")
    return logdir


@pytest.mark.parametrize(
    "tensorboard_server", [_trace_memory_logdir], ids=["trace_memory"], indirect=True
)
def test_a_trace_only_run_shows_its_memory_events_per_step_and_the_leak(page, tensorboard_server):
    plugin = open_tab(page, tensorboard_server, "leak", "memory")
    (rank,) = tensorboard_server.get_json("memory?run=leak")["ranks"]
    expect(plugin.get_by_test_id("memory-from-traces")).to_contain_text("profile_memory=True")
    leak = plugin.locator('[data-testid=finding][data-kind="memory_leak"]')
    expect(leak).to_contain_text("allocated CPU memory (torch.profiler's memory events) grows")
    chart = plugin.get_by_test_id("memory-step-chart")
    allocated = chart.locator('polyline[data-series="allocated"]')
    expect(allocated).to_have_count(1)
    assert len(allocated.get_attribute("points").split()) == len(rank["steps"])
    expect(chart.locator("polyline.chart-dashed")).to_have_count(1)  # the fitted leak line


@pytest.mark.parametrize(
    "tensorboard_server", [_trace_memory_logdir], ids=["trace_memory"], indirect=True
)
def test_the_operator_table_follows_the_chosen_steps(page, tensorboard_server):
    """The per-operator memory table of the whole trace, then of one step: the kept 1 MiB
    tensor is aten::ones', 30 times over the trace and once in a step."""
    plugin = open_tab(page, tensorboard_server, "leak", "memory")
    panel = plugin.get_by_test_id("operator-memory")
    expect(panel).to_be_visible()
    ones = panel.locator('[data-testid=operator-memory-row][data-name="aten::ones"]')
    allocated = ones.locator('td[data-column="allocation_bytes"]')
    expect(allocated).to_have_attribute("data-value", str(30 * 1024**2))
    expect(panel.get_by_test_id("operator-memory-caption")).to_contain_text("whole trace")
    panel.get_by_test_id("operator-memory-from").select_option(label="step 10")
    panel.get_by_test_id("operator-memory-to").select_option(label="step 10")
    expect(panel.get_by_test_id("operator-memory-caption")).to_contain_text("chosen steps")
    expect(allocated).to_have_attribute("data-value", str(1024**2))
    expect(ones.locator('td[data-column="calls"]')).to_have_attribute("data-value", "1")


@pytest.mark.parametrize(
    "tensorboard_server", [_trace_memory_logdir], ids=["trace_memory"], indirect=True
)
def test_dragging_across_the_step_curves_picks_the_operator_tables_steps(page, tensorboard_server):
    """A drag across the middle of the per-step chart narrows the operator table to the steps
    under it: the selects say which, and aten::ones' allocations are one 1 MiB per step."""
    plugin = open_tab(page, tensorboard_server, "leak", "memory")
    panel = plugin.get_by_test_id("operator-memory")
    expect(panel.get_by_test_id("operator-memory-caption")).to_contain_text("whole trace")
    area = plugin.get_by_test_id("memory-step-chart").locator("rect.chart-hover")
    box = area.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.3, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, y, steps=5)
    page.mouse.up()
    expect(panel.get_by_test_id("operator-memory-caption")).to_contain_text("chosen steps")
    expect(plugin.locator("[data-testid=memory-step-chart] rect.chart-range")).to_be_visible()
    first = panel.get_by_test_id("operator-memory-from")
    last = panel.get_by_test_id("operator-memory-to")
    steps = [
        int(s.removeprefix("step "))
        for s in (first.evaluate("s => s.selectedOptions[0].text"),
                  last.evaluate("s => s.selectedOptions[0].text"))
    ]  # fmt: skip
    assert 0 < steps[1] - steps[0] < 30, steps
    ones = panel.locator('[data-testid=operator-memory-row][data-name="aten::ones"]')
    expect(ones.locator('td[data-column="allocation_bytes"]')).to_have_attribute(
        "data-value", str((steps[1] - steps[0] + 1) * 1024**2)
    )
