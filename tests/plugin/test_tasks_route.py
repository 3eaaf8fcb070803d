"""The `tasks` route: profile_task's summaries of a real task-profiled loop, as the collector
wrote them, with their rank and file; a damaged summary is a warning, never a failure."""

from __future__ import annotations

import json

import pytest

from tests.plugin.conftest import PluginClient

torch = pytest.importorskip("torch")

from collectors import MyTimer, TaskProfiler  # noqa: E402


@pytest.fixture(scope="module")
def task_logdir(tmp_path_factory):
    logdir = tmp_path_factory.mktemp("tasks")
    timer = MyTimer(logdir / "t2i", gpu=False)
    tasks = TaskProfiler(timer, types="DIT,vae", ops=r"^aten::(linear|addmm)$", skip_first=0)
    torch.manual_seed(0)
    dit, vae = torch.nn.Linear(16, 16), torch.nn.Linear(16, 4)
    x = torch.randn(4, 16)
    with torch.no_grad():
        for step in range(3):
            timer.set_step(step)
            with tasks.task("TEXT"):
                x = x.tanh()
            for _ in range(2):
                with tasks.task("DIT"):
                    x = dit(x)
            with tasks.task("VAE"):
                vae(x)
    tasks.close()
    timer.close()
    return logdir


def test_tasks_route_answers_the_summaries_per_type_and_rank(task_logdir):
    client = PluginClient(task_logdir)
    (run,) = client.json("runs")
    assert "tasks" in run["sources"]
    body = client.json("tasks", run="t2i")
    assert body["warnings"] == []
    assert [(t["task_type"], t["rank"]) for t in body["tasks"]] == [("DIT", 0), ("vae", 0)]
    for task in body["tasks"]:
        on_disk = json.loads((task_logdir / "t2i" / task["file"]).read_text())
        assert task["operators"] == on_disk["operators"] and task["operators"]
        assert task["invocations"] == on_disk["invocations"]
        assert task["invocations_seen"] == on_disk["invocations_seen"]
        assert {op["name"] for op in task["operators"]} <= {"aten::linear", "aten::addmm"}
    dit = body["tasks"][0]
    assert dit["invocations_seen"] == 6 and len(dit["invocations"]) == 2  # at most 2 traced


def test_a_damaged_summary_is_a_warning(task_logdir, tmp_path):
    run = tmp_path / "t2i"
    data = run / "plugins" / "tb_perf"
    data.mkdir(parents=True)
    for path in (task_logdir / "t2i" / "plugins" / "tb_perf").glob("*.meta.json"):
        (data / path.name).write_bytes(path.read_bytes())
    for path in (task_logdir / "t2i" / "plugins" / "tb_perf").glob("*.summary.json"):
        text = path.read_text()
        (data / path.name).write_text(text[: len(text) // 2] if "DIT" in path.name else text)
    body = PluginClient(tmp_path).json("tasks", run="t2i")
    assert [t["task_type"] for t in body["tasks"]] == ["vae"]
    (warning,) = body["warnings"]
    assert warning.startswith("rank 0: ") and "task-DIT.summary.json: not a task summary" in warning


def test_unknown_run_is_404(task_logdir):
    PluginClient(task_logdir).json("tasks", expect=404, run="nope")
