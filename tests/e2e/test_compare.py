"""The Compare tab in the real TensorBoard UI on the demo runs: the slow/fast DataLoader pair
reads as faster with data loading the main change and links into each run's Timeline; a traced
run against a module-tracked one sorts and filters its delta tables; a run against itself is
refused plainly; the chosen pair survives a reload through the iframe's location hash. On two
collector runs of different world sizes: the note that ranks are not matched, and a hash naming
a run that is not there. Opened without a pair, the baseline is the most similar earlier run
(same number of ranks), else none: a prompt instead of a comparison."""

from __future__ import annotations

import os

import pytest

from tests.conftest import write_training_run

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import FrameLocator, Page, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
# The route may ingest both runs first (202 with progress); allow for a cold cache.
LOAD_TIMEOUT_MS = 60_000


def open_compare(page: Page, server, baseline: str, candidate: str) -> FrameLocator:
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("tab-compare").click()
    expect(plugin.get_by_test_id("compare")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    plugin.get_by_test_id("compare-baseline").select_option(baseline)
    plugin.get_by_test_id("compare-candidate").select_option(candidate)
    return plugin


def column_values(plugin: FrameLocator, table: str, column: str) -> list[float]:
    cells = plugin.locator(f'[data-testid="{table}"] tbody td[data-column="{column}"]')
    return [float(v) for v in cells.evaluate_all("cells => cells.map(c => c.dataset.value)")]


def test_compare_demo_pair_is_faster_mostly_data(page, tensorboard_server):
    plugin = open_compare(page, tensorboard_server, "ddp_slow_data", "ddp_fast_data")
    answer = tensorboard_server.get_json(
        "compare?baseline=ddp_slow_data&candidate=ddp_fast_data", timeout_s=120
    )
    step = answer["step_time"]
    headline = plugin.get_by_test_id("compare-headline")
    expect(headline).to_have_attribute("data-verdict", "faster", timeout=LOAD_TIMEOUT_MS)
    expect(headline).to_contain_text(step["headline"])
    expect(headline).to_contain_text("mostly data")
    # the category chart: data loading is the largest change, drawn left of the zero line
    bars = plugin.get_by_test_id("category-delta")
    expect(bars.first).to_have_attribute("data-category", "data")
    assert float(bars.first.get_attribute("data-value")) < 0
    expect(bars.first.locator("rect")).to_have_class("delta-bar delta-faster")
    # the DataLoader finding (on both ranks) remains, neither run has memory samples, and both
    # ranks are balanced
    kept = plugin.get_by_test_id("findings-kept").get_by_test_id("compare-finding")
    expect(kept).to_have_count(1)
    expect(plugin.get_by_test_id("memory-none")).to_be_visible()
    expect(plugin.locator('[data-testid=balance-table] tr[data-name="rank 1"]')).to_be_visible()

    # the candidate's typical step opens in its Timeline, with the toolbar on that run
    link = plugin.get_by_test_id("timeline-link-candidate")
    expect(link).to_have_attribute("data-step", str(answer["links"]["candidate_step"]["step"]))
    link.click()
    expect(plugin.get_by_test_id("tab-timeline")).to_have_attribute("aria-selected", "true")
    expect(plugin.get_by_test_id("run-select")).to_have_value("ddp_fast_data")
    # back on Compare (the pair is kept), the baseline's link switches the run
    plugin.get_by_test_id("tab-compare").click()
    expect(plugin.get_by_test_id("compare-headline")).to_have_attribute("data-verdict", "faster")
    plugin.get_by_test_id("timeline-link-baseline").click()
    expect(plugin.get_by_test_id("tab-timeline")).to_have_attribute("aria-selected", "true")
    expect(plugin.get_by_test_id("run-select")).to_have_value("ddp_slow_data")


def test_compare_delta_tables_sort_and_filter(page, tensorboard_server):
    # A traced run against a module-tracked one: every operator vanished, every module is new.
    plugin = open_compare(page, tensorboard_server, "ddp_traced", "ddp_modules")
    table = plugin.get_by_test_id("co-delta-table")
    expect(table).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    deltas = column_values(plugin, "co-delta-table", "delta_ns")
    assert len(deltas) > 5 and deltas == sorted(deltas, reverse=True)  # largest increase first
    delta_header = table.locator('th[data-column="delta_ns"]')
    delta_header.get_by_role("button").click()
    expect(delta_header).to_have_attribute("aria-sort", "ascending")
    deltas = column_values(plugin, "co-delta-table", "delta_ns")
    assert deltas == sorted(deltas)  # largest saving first
    first = table.locator("tbody tr").first
    expect(first.locator('td[data-column="status"]')).to_have_text("vanished")
    # the filter keeps the matching rows, in the clicked order
    plugin.get_by_test_id("co-delta-filter").fill("allreduce")
    names = table.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert names and all("allreduce" in name for name in names)
    filtered = column_values(plugin, "co-delta-table", "delta_ns")
    assert filtered == sorted(filtered)
    modules = plugin.get_by_test_id("cm-delta-table")
    expect(modules.locator('tbody tr[data-name="(model)"]').first).to_be_visible()
    expect(modules.locator('td[data-column="status"]').first).to_have_text("new")


def test_compare_same_run_and_the_pair_in_the_hash(page, tensorboard_server):
    plugin = open_compare(page, tensorboard_server, "ddp_leak", "ddp_leak")
    expect(plugin.get_by_test_id("compare-problem")).to_contain_text("same run")
    expect(plugin.get_by_test_id("compare-headline")).to_have_count(0)
    # swapping a real pair, then reloading: the iframe's hash brings the same pair back
    plugin.get_by_test_id("compare-baseline").select_option("ddp_fast_data")
    plugin.get_by_test_id("compare-candidate").select_option("ddp_slow_data")
    plugin.get_by_test_id("compare-swap").click()
    expect(plugin.get_by_test_id("compare-headline")).to_have_attribute(
        "data-verdict", "faster", timeout=LOAD_TIMEOUT_MS
    )
    page.frame_locator(PLUGIN_IFRAME).locator("body").evaluate("() => location.reload()")
    expect(plugin.get_by_test_id("compare-baseline")).to_have_value("ddp_slow_data")
    expect(plugin.get_by_test_id("compare-candidate")).to_have_value("ddp_fast_data")
    expect(plugin.get_by_test_id("compare-headline")).to_have_attribute(
        "data-verdict", "faster", timeout=LOAD_TIMEOUT_MS
    )


def _world_sizes_logdir(tmp_path_factory: pytest.TempPathFactory):
    """Two short collector runs of the same loop, one with two ranks and one with one."""
    logdir = tmp_path_factory.mktemp("compare_logdir")
    write_training_run(logdir / "two_ranks", world_size=2, steps=8)
    write_training_run(logdir / "one_rank", world_size=1, steps=8)
    return logdir


@pytest.mark.parametrize("tensorboard_server", [_world_sizes_logdir], ids=["worlds"], indirect=True)
def test_compare_different_world_sizes_and_a_missing_run(page, tensorboard_server):
    plugin = open_compare(page, tensorboard_server, "two_ranks", "one_rank")
    expect(plugin.get_by_test_id("compare-ranks-note")).to_contain_text(
        "world sizes differ", timeout=LOAD_TIMEOUT_MS
    )
    expect(plugin.get_by_test_id("compare-headline")).to_be_visible()
    expect(plugin.get_by_test_id("category-delta")).not_to_have_count(0)  # MyTimer's spans
    # a link (hash) naming a run the logdir does not hold says so, and keeps the other choice
    plugin.locator("body").evaluate(
        "() => { location.hash = 'dashboard=compare&base=gone&cand=one_rank'; location.reload(); }"
    )
    expect(plugin.get_by_test_id("compare-problem")).to_contain_text(
        "The baseline run “gone” is not in this logdir"
    )
    expect(plugin.get_by_test_id("compare-candidate")).to_have_value("one_rank")


def _ages_logdir(tmp_path_factory: pytest.TempPathFactory):
    """A one-rank run, then two two-rank runs, each last written at a fixed, later time."""
    logdir = tmp_path_factory.mktemp("compare_default_logdir")
    for age, (name, world) in enumerate(
        [("a_one_rank", 1), ("b_two_ranks_old", 2), ("c_two_ranks_new", 2)], start=1
    ):
        write_training_run(logdir / name, world_size=world, steps=6)
        when = (1_700_000_000 + 1000 * age) * 10**9
        for path in (logdir / name).rglob("*"):
            os.utime(path, ns=(when, when))
    return logdir


@pytest.mark.parametrize("tensorboard_server", [_ages_logdir], ids=["ages"], indirect=True)
def test_compare_default_baseline_is_the_most_similar_earlier_run(page, tensorboard_server):
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    expect(plugin.get_by_test_id("run-select")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    plugin.locator("body").evaluate(
        "() => { location.hash = 'dashboard=compare&run=c_two_ranks_new'; location.reload(); }"
    )
    # not the alphabetically first run (one rank): the newest older run of two ranks
    expect(plugin.get_by_test_id("compare-candidate")).to_have_value(
        "c_two_ranks_new", timeout=LOAD_TIMEOUT_MS
    )
    expect(plugin.get_by_test_id("compare-baseline")).to_have_value("b_two_ranks_old")
    headline = plugin.get_by_test_id("compare-headline")
    expect(headline).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    expect(plugin.get_by_test_id("compare-ranks-note")).to_have_count(0)
    # the verdict is said once, by the headline itself
    verdict = headline.get_attribute("data-verdict")
    assert headline.inner_text().lower().count(verdict.split()[-1]) == 1
    expect(plugin.get_by_test_id("category-statistic")).to_have_attribute(
        "data-statistic", "median"
    )

    # no earlier run of one rank: no comparison until the user picks a baseline
    plugin.locator("body").evaluate(
        "() => { location.hash = 'dashboard=compare&run=a_one_rank'; location.reload(); }"
    )
    prompt = plugin.get_by_test_id("compare-prompt")
    expect(prompt).to_contain_text("Pick a baseline run", timeout=LOAD_TIMEOUT_MS)
    expect(plugin.get_by_test_id("compare-headline")).to_have_count(0)
    expect(plugin.get_by_test_id("compare-baseline")).to_have_value("")
    plugin.get_by_test_id("compare-baseline").select_option("b_two_ranks_old")
    expect(plugin.get_by_test_id("compare-ranks-note")).to_contain_text(
        "world sizes differ", timeout=LOAD_TIMEOUT_MS
    )
    expect(plugin.get_by_test_id("compare-prompt")).to_have_count(0)
