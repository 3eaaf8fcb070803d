"""The Distributed tab and the Overview's distributed section in the real TensorBoard UI, on
shared NCCL traces (shared/data/SOURCES.md, HTA @f4d0062c): the A100 rank with all-reduce and
broadcast kernels carrying their collective args, and two ranks of one 128-rank job with
SendRecv kernels only. What the page shows is what the `distributed` route answers."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import expect  # noqa: E402

from tests.conftest import SHARED_DATA  # noqa: E402

from .test_memory import open_tab  # noqa: E402
from .test_overview import row_cells  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
HTA = SHARED_DATA / "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
RUNS = {
    "a100": [HTA / "nccl_parser_config/nccl_data.json.gz"],
    "p2p": [HTA / f"trace_filter/sampled_rank-{rank}.json.gz" for rank in (0, 1)],
}
SPLIT = ("computation_ns", "overlap_ns", "exposed_ns", "other_ns")


def _nccl_logdir(tmp_path_factory) -> Path:
    """The traces copied (a finished run: written an hour ago), one run per job."""
    logdir = tmp_path_factory.mktemp("distributed")
    finished = time.time() - 3600
    for run, traces in RUNS.items():
        for trace in traces:
            if not trace.is_file():
                pytest.skip(f"real test data not found at {trace}")
            copy = logdir / run / trace.name
            copy.parent.mkdir(exist_ok=True)
            copy.write_bytes(trace.read_bytes())
            os.utime(copy, (finished, finished))
    return logdir


def _bar_parts(bar) -> dict[str, int]:
    parts = bar.locator("[data-part]").evaluate_all(
        "spans => spans.map(s => [s.dataset.part, Number(s.dataset.value)])"
    )
    return dict(parts)


LOGDIR = pytest.mark.parametrize("tensorboard_server", [_nccl_logdir], ids=["nccl"], indirect=True)


@LOGDIR
def test_distributed_tab_shows_the_collectives_and_the_split(page, tensorboard_server):
    answer = tensorboard_server.get_json("distributed?run=a100")
    plugin = open_tab(page, tensorboard_server, "a100", "distributed")
    rows = plugin.get_by_test_id("collectives-table-row")
    expect(rows).to_have_count(len(answer["collectives"]))
    for row in answer["collectives"]:
        cells = row_cells(plugin.locator(
            f'[data-testid=collectives-table-row][data-name="{row["name"]}/{row["group"]}"]'
        ))  # fmt: skip
        assert int(cells["bytes"][0]) == row["bytes"]
        assert int(cells["calls"][0]) == row["calls"]
        assert int(cells["total_ns"][0]) == row["total_ns"]
        assert float(cells["bus_bandwidth"][0]) == row["bus_bandwidth"]
        assert cells["bus_bandwidth"][1] == f"{row['bus_bandwidth'] / 1e9:.2f} GB/s"
        assert int(cells["slowest_rank"][0]) == row["slowest_rank"] == 0
    first = rows.first.locator("td[data-column=name]")
    expect(first).to_have_text("all_reduce")  # most time first
    (rank,) = answer["ranks"]
    bar = plugin.get_by_test_id("distributed-ranks-bar")
    expect(bar).to_have_count(1)
    assert _bar_parts(bar) == {key: rank[key] for key in SPLIT}
    # one rank: its steps too, each as the route splits it
    steps = plugin.get_by_test_id("distributed-steps-bar")
    expect(steps).to_have_count(len(rank["steps"]))
    for index, step in enumerate(rank["steps"]):
        assert _bar_parts(steps.nth(index)) == {key: step[key] for key in SPLIT}
    expect(plugin.get_by_test_id("point-to-point")).to_have_count(0)
    expect(plugin.get_by_test_id("distributed-empty")).to_have_count(0)


@LOGDIR
def test_point_to_point_ranks_and_the_overview_section(page, tensorboard_server):
    answer = tensorboard_server.get_json("distributed?run=p2p")
    plugin = open_tab(page, tensorboard_server, "p2p", "overview")
    section = plugin.get_by_test_id("overview-distributed")
    expect(section.get_by_test_id("overview-distributed-ranks-bar")).to_have_count(2)
    expect(section.get_by_test_id("overview-collectives-row")).to_have_count(1)
    section.get_by_test_id("open-distributed").click()
    expect(plugin.get_by_test_id("distributed")).to_be_visible()
    bars = plugin.get_by_test_id("distributed-ranks-bar")
    expect(bars).to_have_count(2)
    for index, rank in enumerate(answer["ranks"]):
        assert _bar_parts(bars.nth(index)) == {key: rank[key] for key in SPLIT}
    expect(plugin.get_by_test_id("collectives")).to_have_count(0)  # SendRecv only
    (p2p,) = answer["point_to_point"]
    cells = row_cells(plugin.get_by_test_id("point-to-point-table-row"))
    assert int(cells["calls"][0]) == p2p["calls"] == 20
    assert cells["bytes"][1] == "—" and cells["bus_bandwidth"][1] == "—"  # no args to size them
    per_rank = plugin.get_by_test_id("point-to-point-per-rank-row")
    expect(per_rank).to_have_count(2)
    totals = per_rank.locator("td[data-column=total_ns]").evaluate_all(
        "tds => tds.map(td => Number(td.dataset.value))"
    )
    assert sorted(totals) == sorted(r["total_ns"] for r in p2p["per_rank"])


@LOGDIR
def test_compare_shows_each_collectives_bandwidth_in_both_runs(page, tensorboard_server):
    answer = tensorboard_server.get_json("compare?baseline=a100&candidate=p2p", timeout_s=120)
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("tab-compare").click()
    plugin.get_by_test_id("compare-baseline").select_option("a100")
    plugin.get_by_test_id("compare-candidate").select_option("p2p")
    rows = plugin.get_by_test_id("compare-collective-row")
    expect(rows).to_have_count(len(answer["collectives"]))  # all_reduce, broadcast, send_recv
    for row in answer["collectives"]:
        cells = row_cells(plugin.locator(
            f'[data-testid=compare-collective-row][data-name="{row["name"]}/{row["group"] or ""}"]'
        ))  # fmt: skip
        assert cells["status"][1] == row["status"]
        for side in ("baseline", "candidate"):
            value = row["bus_bandwidth"][side]
            assert cells[f"bus_bandwidth_{side}"][0] == (None if value is None else str(value))
    statuses = {r["name"]: r["status"] for r in answer["collectives"]}
    assert statuses == {"all_reduce": "vanished", "broadcast": "vanished", "send_recv": "new"}
