"""A run directory a script was run into twice: the UI shows the newest job, says the
directory holds two, and the Job selector opens the other one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write_training_run

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'


def _two_jobs_logdir(factory: pytest.TempPathFactory) -> Path:
    logdir = factory.mktemp("jobs")
    write_training_run(logdir / "twice", world_size=2, steps=7)
    write_training_run(logdir / "twice", world_size=1, steps=3)
    return logdir


@pytest.mark.parametrize("tensorboard_server", [_two_jobs_logdir], ids=["jobs"], indirect=True)
def test_the_job_selector_switches_between_the_jobs_of_one_directory(
    page: Page, tensorboard_server
):
    runs = tensorboard_server.get_json("runs")
    (newest,) = [run for run in runs if run["name"] == "twice"]
    older = newest["jobs"][1]["run"]
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    run_select = plugin.get_by_test_id("run-select")
    expect(run_select.locator("option")).to_have_count(1)  # the directory, not each job
    job_select = plugin.get_by_test_id("job-select")
    expect(job_select).to_be_visible()
    expect(job_select.locator("option")).to_have_count(2)
    expect(plugin.locator("main.content")).to_contain_text("holds 2 jobs")
    expect(plugin.get_by_test_id("rank-select").locator("option")).to_have_count(2)  # 1 rank
    job_select.select_option(older)
    expect(plugin.get_by_test_id("rank-select").locator("option")).to_have_count(3)  # 2 ranks
    expect(job_select).to_have_value(older)
    expect(run_select).to_have_value("twice")
