"""Overview findings and breakdown, a finding's link into its view, and the Operators and
Kernels tabs, in the real TensorBoard UI on the sample runs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import FrameLocator, Page, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
PLANTED = Path(__file__).resolve().parents[1] / "fixtures" / "planted"


def open_run(page: Page, server, run: str) -> FrameLocator:
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("run-select").select_option(run)
    expect(plugin.get_by_test_id("overview")).to_be_visible()
    return plugin


def test_overview_findings_first_then_breakdown(page, tensorboard_server):
    plugin = open_run(page, tensorboard_server, "ddp_slow_data")
    finding = plugin.locator('[data-testid=finding][data-kind="data_loading"]').first
    expect(finding).to_have_attribute("data-severity", "critical")
    expect(finding).to_contain_text("waiting for input data")
    expect(finding).to_contain_text("num_workers")
    # no traces in this run: the breakdown says how to get one
    expect(plugin.get_by_text("record some steps with profile_steps")).to_be_visible()


def test_a_finding_link_opens_its_step_in_the_timeline(page, tensorboard_server):
    plugin = open_run(page, tensorboard_server, "ddp_traced")
    expect(plugin.get_by_test_id("breakdown-bar").first).to_be_visible()
    breakdown = tensorboard_server.get_json("breakdown?run=ddp_traced")
    assert plugin.get_by_test_id("breakdown-bar").count() == sum(
        len(r["steps"]) for r in breakdown["ranks"]
    )
    findings = tensorboard_server.get_json("findings?run=ddp_traced")["findings"]
    communication = next(f for f in findings if f["kind"] == "communication")
    step = communication["view"]["params"]["step"]
    card = plugin.locator('[data-testid=finding][data-kind="communication"]').first
    card.get_by_test_id("finding-link").click()

    expect(plugin.get_by_test_id("tab-timeline")).to_have_attribute("aria-selected", "true")
    meta = tensorboard_server.get_json("timeline/meta?run=ddp_traced")
    extent = next(s for s in meta["steps"] if s["step"] == step)
    canvas = plugin.locator('[data-testid=timeline][data-run="ddp_traced"] canvas')
    expect(canvas).to_have_attribute("data-start", re.compile(r"-?\d+"))
    frame = page.frame(url=lambda url: "plugin_entry.html" in url)
    frame.wait_for_function(
        """s => { const c = document.querySelector('[data-testid=timeline-canvas]');
                  if (!c) return false;
                  const a = Number(c.dataset.start), b = Number(c.dataset.end);
                  return a <= s.start && b >= s.end && b - a < 1.2 * (s.end - s.start); }""",
        arg={"start": extent["start"], "end": extent["end"]},
    )


def test_operators_tab_sorts_filters_and_groups(page, tensorboard_server):
    plugin = open_run(page, tensorboard_server, "ddp_traced")
    top = plugin.get_by_test_id("top-operators").locator("li")
    expect(top).to_have_count(5)
    expect(top.first).to_contain_text("gloo:all_reduce")  # host self time leads on the CPU
    plugin.get_by_role("button", name="All operators").click()
    expect(plugin.get_by_test_id("tab-operators")).to_have_attribute("aria-selected", "true")
    table = plugin.get_by_test_id("operator-table")
    expect(table).to_be_visible()
    answer = tensorboard_server.get_json("operators?run=ddp_traced")
    # operators in the table (a page of 50 at most), the annotations (MyTimer's spans) apart
    operators = [r for r in answer["rows"] if not r["annotation"]]
    annotations = [r for r in answer["rows"] if r["annotation"]]
    assert operators and annotations
    expect(plugin.get_by_test_id("operator-row")).to_have_count(min(50, len(operators)))
    expect(plugin.get_by_test_id("annotation-row")).to_have_count(min(50, len(annotations)))

    def column(key: str) -> list[float]:
        cells = table.locator(f'tbody td[data-column="{key}"]')
        return [float(v) for v in cells.evaluate_all("cs => cs.map(c => c.dataset.value)")]

    table.locator('th[data-column="calls"] button').click()  # numbers sort large-first
    calls = column("calls")
    assert calls == sorted(calls, reverse=True)
    table.locator('th[data-column="calls"] button').click()
    expect(table.locator('th[data-column="calls"]')).to_have_attribute("aria-sort", "ascending")
    calls = column("calls")
    assert calls == sorted(calls)

    plugin.get_by_test_id("operator-filter").fill("allreduce")
    names = plugin.get_by_test_id("operator-row").evaluate_all("rs => rs.map(r => r.dataset.name)")
    assert names and all("allreduce" in n for n in names)
    # the filter holds for the annotations too: gloo's record_function is one of them
    plugin.get_by_test_id("operator-filter").fill("gloo")
    expect(plugin.get_by_test_id("operator-row")).to_have_count(0)
    spans = plugin.get_by_test_id("annotation-row").evaluate_all(
        "rs => rs.map(r => r.dataset.name)"
    )
    assert spans and all("gloo" in n for n in spans)

    plugin.get_by_test_id("operator-group").select_option("input_dims")
    expect(table.locator('th[data-column="input_dims"]')).to_have_count(1)
    expect(
        plugin.locator('[data-testid=operator-table] th[data-column="input_dims"]')
    ).to_be_visible()


def test_kernels_tab_without_gpu_kernels_says_so(page, tensorboard_server):
    plugin = open_run(page, tensorboard_server, "ddp_traced")
    plugin.get_by_test_id("tab-kernels").click()
    expect(plugin.get_by_test_id("kernels")).to_contain_text("No GPU kernels in this run")


def test_modules_tab_explains_how_to_get_the_module_tree(page, tensorboard_server):
    plugin = open_run(page, tensorboard_server, "ddp_traced")
    plugin.get_by_test_id("tab-modules").click()
    expect(plugin.get_by_test_id("modules")).to_contain_text("with_stack=True")


def _straggler_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The recorded planted straggler pair (tests/fixtures/planted/straggler)."""
    logdir = tmp_path_factory.mktemp("straggler_logdir")
    shutil.copytree(PLANTED / "straggler", logdir / "straggler")
    return logdir


@pytest.mark.parametrize(
    "tensorboard_server", [_straggler_logdir], ids=["straggler"], indirect=True
)
def test_the_others_communication_wait_is_folded_under_the_straggler(page, tensorboard_server):
    found = tensorboard_server.get_json("findings?run=straggler")["findings"]
    (straggler,) = [f for f in found if f["kind"] == "straggler"]
    (wait,) = [f for f in found if f["kind"] == "communication"]
    assert wait["explained_by"] == straggler["key"]
    plugin = open_run(page, tensorboard_server, "straggler")
    top = plugin.locator("[data-testid=findings] > [data-testid=finding]")
    expect(top).to_have_count(len(found) - 1)
    card = plugin.locator(f'[data-testid=finding][data-key="{straggler["key"]}"]')
    folded = card.get_by_test_id("finding-symptoms")
    expect(folded).to_contain_text("1 finding this explains")
    symptom = folded.locator('[data-testid=finding][data-kind="communication"]')
    expect(symptom).not_to_be_visible()
    folded.locator("summary").click()
    expect(symptom).to_contain_text(wait["title"])
    # the Overview opens with what would save the most: the straggler, not its symptom
    saving = plugin.get_by_test_id("saving")
    expect(saving).to_have_count(1)
    expect(saving.first).to_have_attribute("data-key", straggler["key"])
    ms = straggler["impact"]["ns_per_step"] / 1e6
    expect(saving.first).to_contain_text(f"Saves ≈ {ms:.3g} ms per step")
