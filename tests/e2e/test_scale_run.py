"""The scale benchmark's run in the real TensorBoard UI: benchmarks/scale.py's real NCCL trace
per rank (HTA's `nccl_data`, laid end to end twice, each rank's clock skewed, a planted
straggler) opens on the rank × step heatmap with the straggler as the slow outlier rank;
picking it opens the Timeline with its lanes, and its tiles arrive. 64 ranks here;
`TB_PERF_SOAK=1` the benchmark's 1,024 (docs/SCALE.md)."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType
from urllib.parse import parse_qs, urlparse

import pytest

from tests.conftest import SHARED_DATA

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import Page, Response, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
RANKS = 1024 if os.environ.get("TB_PERF_SOAK") == "1" else 64


def _scale() -> ModuleType:
    """benchmarks/scale.py, without the benchmarks folder left on the import path."""
    saved = list(sys.path)
    try:
        return importlib.import_module("benchmarks.scale")
    finally:
        sys.path[:] = saved


def scale_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    scale = _scale()
    source = SHARED_DATA / "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
    if not (source / scale.SOURCE).exists():
        pytest.skip(f"real test data not found at {SHARED_DATA} (../shared/data beside the repo)")
    return scale.generate(RANKS, tmp_path_factory.mktemp("scale"))


@pytest.mark.parametrize("tensorboard_server", [scale_logdir], indirect=True)
def test_the_scale_run_opens_on_its_straggler_and_its_tiles_arrive(page: Page, tensorboard_server):
    straggler = _scale().STRAGGLER
    tiles: list[Response] = []
    page.on("response", lambda r: tiles.append(r) if "/timeline/tiles?" in r.url else None)
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    heatmap = plugin.get_by_test_id("rank-heatmap")
    expect(heatmap).to_have_attribute("data-rows", str(RANKS), timeout=600_000)
    plugin.get_by_test_id("heatmap-metric").select_option("step_time")
    expect(heatmap).to_have_attribute("data-metric", "step_time")
    first = plugin.get_by_test_id("outlier-rank").first
    expect(first).to_have_attribute("data-rank", str(straggler))
    expect(first).to_contain_text("high")

    first.get_by_role("button").click()
    plugin.get_by_test_id("open-picked-timeline").click()
    canvas = plugin.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-ranks", str(straggler), timeout=600_000)
    for _ in range(600):  # the straggler's tile request follows the layout
        arrived = [
            r for r in tiles
            if parse_qs(urlparse(r.url).query).get("ranks") == [str(straggler)] and r.ok
        ]  # fmt: skip
        if arrived:
            break
        page.wait_for_timeout(100)
    assert arrived, [r.url for r in tiles]
    lanes = arrived[-1].json()["lanes"]
    assert lanes and all(lane["id"].startswith(f"{straggler}/") for lane in lanes), lanes[:2]
