"""Logdirs that hold no tb-perf collector files open in the real TensorBoard UI (issue 19):
one written only by torch.profiler's `tensorboard_trace_handler`, one of bare `rank<N>.json.gz`
traces, one of memory snapshot pickles only, and one whose run is a link inside the logdir.
Each lists its run and the Overview opens on it, agreeing with the plugin's routes. A logdir
whose only run is a link out of it says so on the No-runs page; the snapshots' run says what
it holds and opens the Memory tab, and its link out of the logdir is one folded line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import FrameLocator, Page, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
LOAD_TIMEOUT_MS = 120_000  # reading a run's traces, cold: a bound on the wait, not a verdict
HTA = SHARED_DATA / "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
RANK_TRACES = [HTA / f"trace_filter/sampled_rank-{rank}.json.gz" for rank in (0, 1)]
SIMPLE_ADD = HTA / "critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz"
SNAPSHOTS = [
    SHARED_DATA / "memory_snapshots/MAGMA27__assignment2-systems/memory_snapshot.pickle",
    SHARED_DATA / "memory_snapshots/silmont2000__assignment2-systems/mem_snapshot.pickle",
]


def _shared(*paths: Path) -> None:
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        pytest.skip(f"real test data not found: {', '.join(missing)}")


def _trace_handler_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What `tensorboard_trace_handler` alone writes: a real CPU profile of a small MLP, two
    active ProfilerStep windows, in `<logdir>/mlp/worker0.<ts>.pt.trace.json`."""
    torch = pytest.importorskip("torch")
    from torch.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler

    logdir = tmp_path_factory.mktemp("trace_handler")
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    x = torch.randn(32, 64)
    with profile(
        activities=[ProfilerActivity.CPU],
        schedule=schedule(wait=0, warmup=1, active=2, repeat=1),
        on_trace_ready=tensorboard_trace_handler(str(logdir / "mlp"), worker_name="worker0"),
    ) as prof:
        for _ in range(4):
            model(x).sum().backward()
            prof.step()
    return logdir


def _bare_rank_traces_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two real ranks' traces (HolisticTraceAnalysis' NCCL job), renamed `rank<N>.json.gz`."""
    _shared(*RANK_TRACES)
    logdir = tmp_path_factory.mktemp("bare_ranks")
    (logdir / "job").mkdir()
    for rank, trace in enumerate(RANK_TRACES):
        shutil.copyfile(trace, logdir / "job" / f"rank{rank}.json.gz")
    return logdir


def _snapshots_only_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two real memory snapshots in a folder, beside a folder of checkpoint pickles (no run)
    and a link to a folder outside the logdir (not followed)."""
    _shared(*SNAPSHOTS)
    logdir = tmp_path_factory.mktemp("snapshots_only")
    os.symlink(tmp_path_factory.mktemp("outside"), logdir / "shared")
    (logdir / "oom").mkdir()
    for snapshot in SNAPSHOTS:
        shutil.copyfile(snapshot, logdir / "oom" / snapshot.name)
    (logdir / "checkpoints").mkdir()
    (logdir / "checkpoints" / "model.pkl").write_bytes(b"\x80\x04\x95\x10\x00\x00\x00\x00\x00")
    return logdir


def _outside_link_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A logdir whose only run is `runs/x`, a link to a run folder outside it."""
    _shared(SIMPLE_ADD)
    outside = tmp_path_factory.mktemp("outside_run")
    shutil.copyfile(SIMPLE_ADD, outside / SIMPLE_ADD.name)
    logdir = tmp_path_factory.mktemp("outside_link")
    (logdir / "runs").mkdir()
    os.symlink(outside, logdir / "runs" / "x")
    return logdir


def _linked_run_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's folder lives in a hidden folder of the logdir and shows through a relative
    link `exp -> .store/exp-2026`; a link back to the logdir inside it makes a cycle."""
    _shared(SIMPLE_ADD)
    logdir = tmp_path_factory.mktemp("linked_run")
    stored = logdir / ".store" / "exp-2026"
    stored.mkdir(parents=True)
    shutil.copyfile(SIMPLE_ADD, stored / SIMPLE_ADD.name)
    os.symlink("../..", stored / "up")
    os.symlink(os.path.join(".store", "exp-2026"), logdir / "exp")
    return logdir


def open_overview(page: Page, server, run: str) -> FrameLocator:
    """The PERF tab with `run` chosen, once its Overview has rendered."""
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    expect(plugin.get_by_test_id("run-select").locator("option")).to_have_count(1)
    expect(plugin.get_by_test_id("run-select")).to_have_value(run)
    expect(plugin.get_by_test_id("overview")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    expect(plugin.locator("main.content")).not_to_have_attribute("aria-busy", "true")
    expect(plugin.get_by_test_id("error")).to_have_count(0)
    return plugin


def expect_top_operator(plugin: FrameLocator, server, run: str) -> None:
    """The Overview's first top operator is the operators route's first."""
    rows = server.get_json(f"operators?run={run}&group_by=name&limit=5")["rows"]
    assert rows, f"run {run} has no operators"
    top = plugin.get_by_test_id("top-operators").locator(".top-name").first
    expect(top).to_have_text(rows[0]["name"])


@pytest.mark.parametrize(
    "tensorboard_server", [_trace_handler_logdir], ids=["trace_handler"], indirect=True
)
def test_a_logdir_of_tensorboard_trace_handler_output_opens(page, tensorboard_server):
    (run,) = tensorboard_server.get_json("runs")
    assert run["name"] == "mlp" and run["sources"] == ["trace"]
    plugin = open_overview(page, tensorboard_server, "mlp")
    summary = tensorboard_server.get_json("summary?run=mlp")
    assert summary["steps"]["count"] == 2  # the two active ProfilerStep windows
    expect(plugin.get_by_test_id("rank-table").locator("tbody tr")).to_have_count(1)
    expect_top_operator(plugin, tensorboard_server, "mlp")


@pytest.mark.parametrize(
    "tensorboard_server", [_bare_rank_traces_logdir], ids=["bare_ranks"], indirect=True
)
def test_a_folder_of_bare_rank_traces_opens_as_one_run(page, tensorboard_server):
    (run,) = tensorboard_server.get_json("runs")
    assert run["name"] == "job" and run["ranks"] == [0, 1]
    plugin = open_overview(page, tensorboard_server, "job")
    expect(plugin.get_by_test_id("rank-table").locator("tbody tr")).to_have_count(2)
    options = plugin.get_by_test_id("rank-select").locator("option")
    expect(options.filter(has_text="1")).to_have_count(1)
    expect_top_operator(plugin, tensorboard_server, "job")


@pytest.mark.parametrize(
    "tensorboard_server", [_snapshots_only_logdir], ids=["snapshots_only"], indirect=True
)
def test_a_folder_of_memory_snapshots_opens_as_a_run(page, tensorboard_server):
    (run,) = tensorboard_server.get_json("runs")  # not the checkpoints folder
    assert run["name"] == "oom" and run["sources"] == ["snapshot"]
    plugin = open_overview(page, tensorboard_server, "oom")
    summary = tensorboard_server.get_json("summary?run=oom")
    assert summary["empty_view"] == "memory"
    expect(plugin.get_by_test_id("empty-run")).to_contain_text(summary["empty_reason"])
    expect(plugin.get_by_test_id("rank-table")).to_have_count(0)  # no empty tables
    expect(plugin.get_by_test_id("spans-empty")).to_have_count(0)
    fold = plugin.get_by_test_id("logdir-notices-fold")
    expect(fold).to_contain_text("1 path left out of the logdir — show")
    expect(plugin.get_by_test_id("logdir-notice")).not_to_be_visible()
    fold.locator("summary").click()
    expect(plugin.get_by_test_id("logdir-notice")).to_have_text(
        "shared: a link to a folder outside the logdir (tensorboard --tb_perf_follow_links or "
        "TB_PERF_FOLLOW_LINKS=1 follows such links)"
    )
    plugin.get_by_test_id("tab-timeline").click()
    expect(plugin.get_by_test_id("timeline-empty")).to_contain_text(summary["empty_reason"])
    expect(plugin.get_by_test_id("error")).to_have_count(0)
    plugin.get_by_test_id("tab-overview").click()
    plugin.get_by_test_id("empty-run-open").click()
    expect(plugin.get_by_test_id("tab-memory")).to_have_attribute("aria-selected", "true")
    select = plugin.get_by_test_id("snapshot-select")
    expect(select.locator("option")).to_have_count(len(SNAPSHOTS))
    expect(plugin.get_by_test_id("snapshot-summary")).to_be_visible()


@pytest.mark.parametrize(
    "tensorboard_server", [_outside_link_logdir], ids=["outside_link"], indirect=True
)
def test_a_logdir_of_a_link_out_of_it_says_why_it_has_no_runs(page, tensorboard_server):
    assert tensorboard_server.get_json("runs") == []
    (notice,) = tensorboard_server.get_json("notices")["notices"]
    assert notice["path"] == "runs/x"
    page.goto(f"{tensorboard_server.url}/#tb_perf")  # the PERF tab shows, to explain
    plugin = page.frame_locator(PLUGIN_IFRAME)
    expect(plugin.get_by_test_id("empty")).to_contain_text("No runs yet")
    expect(plugin.get_by_test_id("empty")).to_contain_text("1 path left out of the logdir")
    expect(plugin.get_by_test_id("logdir-notice")).to_have_text(f"runs/x: {notice['message']}")
    assert str(tensorboard_server.logdir.parent) not in plugin.locator("body").inner_text()


@pytest.mark.parametrize(
    "tensorboard_server", [_linked_run_logdir], ids=["linked_run"], indirect=True
)
def test_a_run_behind_a_link_inside_the_logdir_opens(page, tensorboard_server):
    (run,) = tensorboard_server.get_json("runs")
    assert run["name"] == "exp" and run["sources"] == ["trace"]
    plugin = open_overview(page, tensorboard_server, "exp")
    expect_top_operator(plugin, tensorboard_server, "exp")
