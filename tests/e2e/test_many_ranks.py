"""Many-rank views in the real TensorBoard UI: a 256-rank run recorded by the collectors
(tests/plugin/many_ranks_run.py) opens with the rank × step heatmap instead of a row per rank,
lists the planted straggler as an outlier rank, and two picked ranks open the Timeline with
lanes (and tile requests) for those two ranks only. A finding about one of many ranks adds
that rank's lanes."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.plugin.many_ranks_run import (
    SLOW_RANK,
    SLOW_RANK_STEP,
    STRAGGLER,
    TRACED_WORLD_SIZE,
    WORLD_SIZE,
    independent_logdir,
    many_rank_logdir,
    traced_logdir,
)

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
pytest.importorskip("torch", reason="the collectors' run needs torch")
from playwright.sync_api import Page, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
GUTTER_PX = 56  # frontend/src/panels/rankHeatmap.ts: rank labels left of the cells
AXIS_PX = 18  # ...and step labels below them
OTHER_RANK = 200


@pytest.mark.parametrize("tensorboard_server", [many_rank_logdir], indirect=True)
def test_heatmap_outliers_and_picked_ranks_in_the_timeline(page: Page, tensorboard_server):
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    heatmap = plugin.get_by_test_id("rank-heatmap")
    expect(heatmap).to_have_attribute("data-rows", str(WORLD_SIZE), timeout=60_000)
    expect(plugin.get_by_test_id("rank-table")).to_have_count(0)  # no row per rank
    expect(plugin.get_by_test_id("heatmap-legend")).to_be_visible()

    plugin.get_by_test_id("heatmap-metric").select_option("collective_wait")
    expect(heatmap).to_have_attribute("data-metric", "collective_wait")
    outlier = plugin.locator(f'[data-testid=outlier-rank][data-rank="{STRAGGLER}"]')
    expect(outlier).to_contain_text("low")

    # hover a cell of OTHER_RANK: the tooltip names rank and step; clicking picks the rank
    box = heatmap.bounding_box()
    assert box is not None
    row_px = (box["height"] - AXIS_PX) / WORLD_SIZE
    cell = {"x": GUTTER_PX + 3, "y": OTHER_RANK * row_px + row_px / 2}
    heatmap.hover(position=cell)
    expect(plugin.get_by_test_id("heatmap-tooltip")).to_contain_text(f"rank {OTHER_RANK} · step 0")
    heatmap.click(position=cell)
    outlier.get_by_role("button").click()
    picked = plugin.get_by_test_id("picked-ranks").locator("[data-rank]")
    expect(picked).to_have_count(2)
    expect(picked.first).to_have_attribute("data-rank", str(STRAGGLER))

    tiles: list[str] = []
    page.on("request", lambda r: tiles.append(r.url) if "/timeline/tiles?" in r.url else None)
    plugin.get_by_test_id("open-picked-timeline").click()
    canvas = plugin.get_by_test_id("timeline-canvas")
    expected = f"{STRAGGLER},{OTHER_RANK}"
    expect(canvas).to_have_attribute("data-ranks", expected, timeout=60_000)
    expect(canvas).to_have_attribute("data-start", re.compile(r"-?\d+"))
    toggles = plugin.get_by_test_id("timeline-rank-toggle")
    expect(toggles).to_have_count(2)  # a compact picker, not a button per rank
    expect(plugin.get_by_test_id("timeline-rank-picker")).to_have_value(expected.replace(",", ", "))
    frame = page.frame(url=lambda url: "plugin_entry.html" in url)
    assert frame is not None
    in_hash = "new URLSearchParams(location.hash.slice(1)).get('ranks')"
    frame.wait_for_function(f"{in_hash} === '{expected}'")
    asked: list[str] = []
    for _ in range(100):  # the tile request for the new lanes follows the layout
        asked = [parse_qs(urlparse(url).query).get("ranks", ["all"])[0] for url in tiles]
        if asked and asked[-1] == expected:
            break
        page.wait_for_timeout(100)
    assert asked and asked[-1] == expected, asked

    # the picker takes a list with a range: lanes for those ranks only
    picker = plugin.get_by_test_id("timeline-rank-picker")
    picker.fill("0-2, 37")
    picker.press("Enter")
    expect(canvas).to_have_attribute("data-ranks", "0,1,2,37")
    expect(toggles).to_have_count(4)


@pytest.mark.parametrize("tensorboard_server", [many_rank_logdir], indirect=True)
def test_timeline_of_many_ranks_starts_with_the_outliers(page: Page, tensorboard_server):
    """Opened with no ranks picked, the Timeline shows the lowest rank as a reference and the
    ranks that stand out (the straggler, by the others' collective wait), four lanes at most."""
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    expect(plugin.get_by_test_id("rank-heatmap")).to_be_visible(timeout=60_000)
    plugin.get_by_test_id("tab-timeline").click()
    canvas = plugin.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-ranks", re.compile(r"^0(,\d+){1,3}$"), timeout=60_000)
    shown = [int(rank) for rank in (canvas.get_attribute("data-ranks") or "").split(",")]
    assert STRAGGLER in shown, shown
    expect(plugin.get_by_test_id("timeline-rank-toggle")).to_have_count(len(shown))


@pytest.mark.parametrize("tensorboard_server", [independent_logdir], indirect=True)
def test_a_finding_about_one_of_many_ranks_adds_its_lanes(page: Page, tensorboard_server):
    """20 ranks: the Timeline starts with a few lanes; a finding's link about another rank adds
    that rank's lanes and frames its step."""
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("tab-timeline").click()
    canvas = plugin.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-ranks", "0,1,2,3", timeout=60_000)
    plugin.get_by_test_id("tab-overview").click()
    finding = plugin.locator(f'[data-testid=finding][data-key="step_outlier:rank{SLOW_RANK}"]')
    finding.get_by_test_id("finding-link").click()
    expect(canvas).to_have_attribute("data-ranks", f"0,1,2,3,{SLOW_RANK}")
    meta = tensorboard_server.get_json("timeline/meta?run=independent")
    extent = next(s for s in meta["steps"] if s["step"] == SLOW_RANK_STEP)
    frame = page.frame(url=lambda url: "plugin_entry.html" in url)
    assert frame is not None
    frame.wait_for_function(
        """s => { const c = document.querySelector('[data-testid=timeline-canvas]');
                  if (!c) return false;
                  return Number(c.dataset.start) <= s.start && Number(c.dataset.end) >= s.end; }""",
        arg={"start": extent["start"], "end": extent["end"]},
    )


def _charted(plugin, chart: str) -> set[int]:
    labels = plugin.locator(f"[data-testid={chart}] [data-series]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.series)"
    )
    return {int(re.match(r"rank (\d+)", label).group(1)) for label in labels}


@pytest.mark.parametrize("tensorboard_server", [independent_logdir], indirect=True)
def test_memory_and_gpu_tabs_of_many_ranks_chart_the_telling_ones(page: Page, tensorboard_server):
    """20 ranks, rank r allocating (r + 1) x 64 MiB: the Memory tab charts the 5 highest and 3
    lowest peaks and lists every rank in its table; the GPU tab charts 8 ranks too."""
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("tab-memory").click()
    expect(plugin.get_by_test_id("memory-step-chart")).to_be_visible(timeout=60_000)
    expect(plugin.get_by_test_id("charted-ranks")).to_contain_text("Charted: 8 of 20 ranks")
    assert _charted(plugin, "memory-step-chart") == {0, 1, 2, 15, 16, 17, 18, 19}
    assert _charted(plugin, "memory-time-chart") == {0, 1, 2, 15, 16, 17, 18, 19}
    expect(plugin.get_by_test_id("memory-rank-row")).to_have_count(20)
    plugin.get_by_test_id("tab-gpu").click()
    expect(plugin.get_by_test_id("cpu-chart")).to_be_visible(timeout=60_000)
    expect(plugin.get_by_test_id("charted-ranks")).to_contain_text("by mean CPU use")
    assert len(_charted(plugin, "cpu-chart")) == 8
    expect(plugin.get_by_test_id("gpu-reason")).to_contain_text("ranks 0-19: ")


@pytest.mark.parametrize("tensorboard_server", [traced_logdir], indirect=True)
def test_overview_of_many_traced_ranks(page: Page, tensorboard_server):
    """20 ranks of real torch.profiler traces: the breakdown draws 8 ranks' bars, not 20, the
    heatmap shows every rank, and each finding seen on every rank is one card."""
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    breakdown = plugin.get_by_test_id("breakdown")
    expect(breakdown).to_be_visible(timeout=60_000)
    expect(breakdown.get_by_test_id("charted-ranks")).to_contain_text("Charted: 8 of 20 ranks")
    expect(breakdown.locator(".breakdown-rank")).to_have_count(8)
    expect(plugin.get_by_test_id("rank-heatmap")).to_have_attribute(
        "data-rows", str(TRACED_WORLD_SIZE), timeout=60_000
    )
    keys = plugin.get_by_test_id("finding").evaluate_all("nodes => nodes.map(n => n.dataset.key)")
    assert keys and all(key.endswith("ranks") for key in keys), keys
