"""The Tasks tab in the real TensorBoard UI on sample_runs/ddp_pipeline: one panel per task type
and rank with the operator statistics as the `tasks` route answers them; runs without task
summaries hide the tab."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'


def test_tasks_tab_shows_each_task_types_operator_statistics(page, tensorboard_server):
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("run-select").select_option("ddp_slow_data")
    expect(plugin.get_by_test_id("tab-tasks")).to_be_hidden()
    plugin.get_by_test_id("run-select").select_option("ddp_pipeline")
    plugin.get_by_test_id("tab-tasks").click()
    answer = tensorboard_server.get_json("tasks?run=ddp_pipeline")
    panels = plugin.get_by_test_id("task")
    expect(panels).to_have_count(len(answer["tasks"]))
    for task in answer["tasks"]:
        name = f"{task['task_type']}/{task['rank']}"
        panel = plugin.locator(f'[data-testid=task][data-name="{name}"]')
        expect(panel.locator("h2")).to_have_text(f"{task['task_type']} — rank {task['rank']}")
        rows = panel.get_by_test_id("task-operator")
        expect(rows).to_have_count(len(task["operators"]))
        top = task["operators"][0]  # the table starts sorted by total, as the summary is
        cells = rows.first.locator("td").evaluate_all(
            "tds => Object.fromEntries(tds.map(td => [td.dataset.column, td.dataset.value]))"
        )
        assert cells["name"] == top["name"] and int(cells["count"]) == top["count"]
        for column in ("total_ns", "median_ns", "std_ns", "max_ns"):
            assert int(cells[column]) == top[column]
