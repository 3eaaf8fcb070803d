"""The Modules tab in the real TensorBoard UI: the tree table and icicle over ModuleProfiler
records, collapsing and expanding a module, the per-step chart of a clicked module, and the
notes on how ModuleProfiler ran and on trace class names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.module_fixtures import write_module_run

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import FrameLocator, Page, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'


def _module_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`net`: hand-written ModuleProfiler records of two ranks; `stack`: a trace whose module
    calls are `nn.Module:` Python events (class names, not paths)."""
    logdir = tmp_path_factory.mktemp("modules_logdir")
    write_module_run(logdir / "net")
    (logdir / "stack").mkdir()
    events = [
        {"ph": "X", "cat": "python_function", "name": name, "pid": 1, "tid": 1, "ts": ts,
         "dur": dur}
        for name, ts, dur in (("nn.Module: Net_0", 10, 100), ("nn.Module: Linear_0", 20, 30),
                              ("nn.Module: Linear_1", 60, 40))
    ]  # fmt: skip
    (logdir / "stack" / "worker0.1.pt.trace.json").write_text(json.dumps({"traceEvents": events}))
    return logdir


def open_modules(page: Page, server, run: str) -> FrameLocator:
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("run-select").select_option(run)
    plugin.get_by_test_id("tab-modules").click()
    expect(plugin.get_by_test_id("module-table")).to_be_visible()
    return plugin


@pytest.mark.parametrize("tensorboard_server", [_module_logdir], ids=["modules"], indirect=True)
def test_module_tree_collapses_and_a_click_shows_time_per_step(page, tensorboard_server):
    plugin = open_modules(page, tensorboard_server, "net")
    answer = tensorboard_server.get_json("modules?run=net")
    rows = plugin.get_by_test_id("module-row")
    expect(rows).to_have_count(answer["total_rows"])
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.name)") == [
        r["path"] for r in answer["rows"]
    ]
    expect(plugin.get_by_test_id("module-phase")).to_have_value("total")
    expect(plugin.get_by_test_id("module-time")).to_be_visible()  # the run has device times
    expect(plugin.get_by_test_id("module-class-names")).to_have_count(0)
    expect(plugin.get_by_test_id("module-warnings")).to_contain_text("undeclared id")
    model = plugin.locator('[data-testid=module-row][data-name=""]')
    share = model.locator('td[data-column="pct_of_step"]')
    assert float(share.get_attribute("data-value")) == answer["rows"][0]["total"]["pct_of_step"]
    plugin.get_by_test_id("module-phase").select_option("forward")
    expect(share).to_have_attribute("data-value", "38.75")

    # collapse and expand the encoder
    toggle = plugin.locator('[data-testid=module-row][data-name="encoder"]').get_by_test_id(
        "module-toggle"
    )
    expect(toggle).to_have_attribute("aria-expanded", "true")
    toggle.click()
    expect(rows).to_have_count(3)
    expect(plugin.locator('[data-testid=module-row][data-name="encoder.0"]')).to_have_count(0)
    expect(plugin.get_by_test_id("module-toggle").nth(1)).to_have_attribute(
        "aria-expanded", "false"
    )
    plugin.locator('[data-testid=module-row][data-name="encoder"]').get_by_test_id(
        "module-toggle"
    ).click()
    expect(rows).to_have_count(4)

    # a row click: the module's time per step, one line per rank
    plugin.locator('[data-testid=module-row][data-name="encoder"]').click()
    detail = plugin.get_by_test_id("module-detail")
    expect(detail.locator("h3")).to_have_text("encoder · Encoder")
    chart = plugin.get_by_test_id("module-step-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("[data-series]")).to_have_count(2)  # rank 0: a line, rank 1: a dot
    expect(plugin.locator('[data-testid=module-row][data-name="encoder"]')).to_have_class(
        "selected"
    )

    # an icicle click selects too, and the selection is kept in the hash
    plugin.locator('[data-testid=icicle-cell][data-path="head"]').click()
    expect(detail.locator("h3")).to_have_text("head · Linear")
    frame = page.frame(url=lambda url: "plugin_entry.html" in url)
    frame.wait_for_function("new URLSearchParams(location.hash.slice(1)).get('modpath') === 'head'")

    # device time: its own columns
    plugin.get_by_test_id("module-time").select_option("device")
    expect(model.locator('td[data-column="gpu_total_ns"]')).to_have_attribute("data-value", "450")


@pytest.mark.parametrize("tensorboard_server", [_module_logdir], ids=["modules"], indirect=True)
def test_the_note_says_how_the_profiler_ran(page, tensorboard_server):
    """Rank 1 profiled a torch.compile'd model without a GPU, forward only: the note says so,
    the compiled-model sentence in bold; rank 0 alone has its own settings and no such note."""
    plugin = open_modules(page, tensorboard_server, "net")
    settings = plugin.get_by_test_id("module-settings")
    expect(settings).to_contain_text("(rank 1): backward not profiled")
    expect(settings).to_contain_text("no device times: GPU timing off (torch.cuda.is_available()")
    compiled = plugin.get_by_test_id("module-compiled")
    expect(compiled).to_be_visible()
    expect(compiled).to_contain_text("The model is torch.compile'd")
    plugin.get_by_test_id("rank-select").select_option("0")
    expect(settings).to_have_text(
        "ModuleProfiler: records aggregate 3 steps · modules to depth 2 · excluding encoder.1*."
    )
    expect(compiled).to_have_count(0)


@pytest.mark.parametrize("tensorboard_server", [_module_logdir], ids=["modules"], indirect=True)
def test_trace_class_names_are_flagged(page, tensorboard_server):
    plugin = open_modules(page, tensorboard_server, "stack")
    expect(plugin.get_by_test_id("module-class-names")).to_contain_text("class names")
    expect(plugin.get_by_test_id("module-row")).to_have_count(3)
    expect(plugin.get_by_test_id("module-phase")).to_be_hidden()  # forward only
    expect(plugin.get_by_test_id("module-time")).to_be_hidden()


def test_sample_run_with_module_profiler(page, tensorboard_server):
    """The demo logdir's ddp_modules run (two ranks, ModuleProfiler): one rank at a time."""
    plugin = open_modules(page, tensorboard_server, "ddp_modules")
    answer = tensorboard_server.get_json("modules?run=ddp_modules&rank=1")
    plugin.get_by_test_id("rank-select").select_option("1")
    expect(plugin.get_by_test_id("module-note")).to_contain_text("rank 1:")
    expect(plugin.get_by_test_id("module-note")).not_to_contain_text("rank 0:")
    expect(plugin.get_by_test_id("module-settings")).to_have_text(
        "ModuleProfiler: no device times: GPU timing off (torch.cuda.is_available() is False)."
    )
    expect(plugin.get_by_test_id("module-row")).to_have_count(answer["total_rows"])
    encoder = plugin.locator('[data-testid=module-row][data-name="encoder"]')
    total = encoder.locator('td[data-column="total_ns"]')
    (row,) = (r for r in answer["rows"] if r["path"] == "encoder")
    expect(total).to_have_attribute("data-value", str(row["total"]["total_ns"]))
    # the never-called ModuleList "encoder.layers" spans its children: the icicle goes on below
    for path in ("encoder.layers", "encoder.layers.1", "encoder.layers.1.self_attn"):
        expect(plugin.locator(f'[data-testid=icicle-cell][data-path="{path}"]')).to_have_count(1)
    plugin.locator('[data-testid=icicle-cell][data-path="encoder"]').click()
    expect(plugin.get_by_test_id("module-step-chart").locator("[data-series]")).to_have_count(1)
