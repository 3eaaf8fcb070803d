"""The Python tab in the real TensorBoard UI: a run with an imported cProfile of a torch loop
shows its function table (rows and numbers as the python route answers them, sorting, the
filter), names from the profile render as text, and runs without profiles hide the tab."""

from __future__ import annotations

import cProfile
import os
from pathlib import Path

import pytest

from tests.conftest import write_training_run

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import expect  # noqa: E402

PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
HOSTILE = '<img src=x onerror="window.hacked = 1">'


def _profiled_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`py`: a cProfile of a torch loop in which a function's name and file are HTML (code
    compiled under that file name, its code object renamed), imported into the run;
    `plain`: a collector run without profiles."""
    torch = pytest.importorskip("torch", reason="a real training loop needs torch")
    logdir = tmp_path_factory.mktemp("python_logdir")
    model = torch.nn.Linear(32, 4)
    namespace: dict = {}
    source = "def scale(rows):\n    out = []\n    for r in rows:\n        out.append(sum(r))\n"
    source += "    return out\n"
    exec(compile(source, HOSTILE, "exec"), namespace)
    scale = namespace["scale"]
    scale.__code__ = scale.__code__.replace(co_name=HOSTILE)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(10):
        x = torch.randn(16, 32)
        (model(x).sum(1) * torch.tensor(scale(x.tolist()))).sum().backward()
    profiler.disable()
    imported = logdir / "py" / "plugins" / "tb_perf" / "imported"
    imported.mkdir(parents=True)
    profiler.dump_stats(imported / "train.prof")
    os.utime(imported / "train.prof", ns=(10**18, 10**18))  # not "still being written"
    write_training_run(logdir / "plain", world_size=1, steps=3)
    return logdir


@pytest.mark.parametrize("tensorboard_server", [_profiled_logdir], ids=["python"], indirect=True)
def test_python_view_shows_the_function_table_as_text(page, tensorboard_server):
    page.goto(f"{tensorboard_server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("run-select").select_option("plain")
    expect(plugin.get_by_test_id("tab-python")).to_be_hidden()
    plugin.get_by_test_id("run-select").select_option("py")
    plugin.get_by_test_id("tab-python").click()
    table = plugin.get_by_test_id("python-table")
    expect(table).to_be_visible()

    answer = tensorboard_server.get_json("python?run=py&limit=2000")
    rows = plugin.get_by_test_id("python-row")
    expect(rows).to_have_count(answer["total_rows"])
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.name)") == [
        r["function"] for r in answer["rows"]
    ]
    first = answer["rows"][0]
    cell = rows.first.locator('td[data-column="self_ns"]')
    assert int(cell.get_attribute("data-value")) == first["self_ns"]
    expect(plugin.get_by_test_id("python-files")).to_contain_text("train.prof")

    hostile = rows.filter(has_text="onerror")
    expect(hostile).to_have_count(1)
    expect(hostile.locator('td[data-column="function"]')).to_contain_text(f"{HOSTILE} {HOSTILE}:1")
    expect(plugin.locator("img")).to_have_count(0)

    # sorting by calls orders the rows by the route's numbers
    plugin.locator('th[data-column="calls"] button').click()
    calls = rows.evaluate_all(
        "rs => rs.map(r => Number(r.querySelector('td[data-column=calls]').dataset.value))"
    )
    assert calls == sorted(calls, reverse=True) and len(calls) == answer["total_rows"]

    # the filter asks the server (case-insensitive) and keeps the caption honest
    plugin.get_by_test_id("python-filter").fill("ONERROR")
    expect(rows).to_have_count(1)
    expect(plugin.get_by_test_id("python-caption")).to_contain_text(
        f"1 functions match “ONERROR” of {answer['functions']}"
    )
    assert all(frame.evaluate("() => window.hacked") is None for frame in page.frames)
