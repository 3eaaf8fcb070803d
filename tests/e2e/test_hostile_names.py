"""Names from traces and collector files that are HTML or script render as text, in the real
TensorBoard UI: span names (Overview), operator names (Operators), kernel names (Kernels), an
event's name and arguments (Timeline details), module paths and class names (Modules).

One logdir for all checks (one server): `hostile`, a real torch loop recorded by the
collectors (MyTimer spans, ModuleProfiler, profile_steps) whose span names, module path and
module class name are hostile, and whose trace's `aten::addmm` ops are renamed afterwards;
`gpu`, when ../shared/data is there, a real small GPU trace (kineto's test input) with its
gemm kernels renamed. `window.hacked` must never be set, and no `<img>` may appear.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.conftest import SHARED_DATA

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402

# Kineto writes names into its JSON unescaped: a '"' in a record_function name (so in a
# MyTimer span mirrored into the trace) makes the trace invalid JSON. No quotes here.
SPAN = "<img src=x onerror=window.hacked=1>"
MODULE = '<img src=x onerror="hacked = 2">'  # a module name has no "."
MODULE_CLASS = "<script>window.hacked = 3</script>"
OPERATOR = '<img src=x onerror="window.hacked = 4">aten::addmm'
KERNEL = '<img src=x onerror="window.hacked = 5">gemm'
GPU_TRACE = "traces/pytorch__kineto/tb_plugin/test/gpu_metrics_input.json"
LONG_AGO_NS = 10**18  # file times far in the past: not "still being written"


def _rename_in_trace(path: Path, rename) -> int:
    """Rewrite the names of a trace's events in place; the number renamed."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as handle:
        trace = json.load(handle)
    renamed = 0
    for event in trace["traceEvents"] if isinstance(trace, dict) else trace:
        name = rename(event)
        if name is not None:
            event["name"], renamed = name, renamed + 1
    with opener(path, "wt") as handle:
        json.dump(trace, handle)
    os.utime(path, ns=(LONG_AGO_NS, LONG_AGO_NS))
    return renamed


def _hostile_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch = pytest.importorskip("torch", reason="a real training loop needs torch")
    from collectors import ModuleProfiler, MyTimer, RunWriter, profile_steps

    logdir = tmp_path_factory.mktemp("hostile_names")
    run = logdir / "hostile"
    torch.manual_seed(0)
    model = torch.nn.Sequential()
    model.add_module(MODULE, type(MODULE_CLASS, (torch.nn.Linear,), {})(32, 32))
    model.add_module("head", torch.nn.Linear(32, 4))
    with RunWriter(run, rank=0, world_size=1) as writer:
        timer = MyTimer(writer, gpu=False, mirrors=("record_function",))
        timer.set_step(0)
        with ModuleProfiler(model, timer), profile_steps(timer, wait=0, warmup=1, active=2):
            for _ in range(4):
                with timer.range(SPAN):
                    model(torch.randn(16, 32)).sum().backward()
                timer.step()
        timer.close()
    (trace,) = (run / "plugins" / "tb_perf").glob("*.pt.trace.json.gz")
    renamed = _rename_in_trace(
        trace, lambda e: OPERATOR if e.get("name") == "aten::addmm" else None
    )
    assert renamed > 0, "the trace has no aten::addmm to rename"
    if (SHARED_DATA / GPU_TRACE).is_file():
        gpu = logdir / "gpu" / "worker0.1623143089861.pt.trace.json"
        gpu.parent.mkdir()
        gpu.write_bytes((SHARED_DATA / GPU_TRACE).read_bytes())
        kernel = lambda e: KERNEL if e.get("cat") == "Kernel" and "gemm" in e["name"] else None  # noqa: E731
        assert _rename_in_trace(gpu, kernel) > 0
    for path in logdir.rglob("*"):
        os.utime(path, ns=(LONG_AGO_NS, LONG_AGO_NS))
    return logdir


pytestmark = pytest.mark.parametrize(
    "tensorboard_server", [_hostile_logdir], ids=["hostile_names"], indirect=True
)


def _open(page: Page, server, run: str, dashboard: str, extra: str = "") -> Page:
    page.goto(
        f"{server.url}/data/plugin_entry.html?name=tb_perf"
        f"#run={quote(run)}&dashboard={dashboard}{extra}"
    )
    expect(page.get_by_test_id(f"tab-{dashboard}")).to_have_attribute("aria-selected", "true")
    return page


def _nothing_ran(page: Page) -> None:
    expect(page.locator("img")).to_have_count(0)
    assert page.locator("script", has_text="window.hacked").count() == 0
    assert all(frame.evaluate("() => window.hacked") is None for frame in page.frames)


def test_span_names_in_the_overview(page, tensorboard_server):
    _open(page, tensorboard_server, "hostile", "overview")
    row = page.locator("[data-testid=span-row]").filter(has_text=SPAN)
    expect(row).to_have_count(1)
    expect(row).to_contain_text(SPAN)
    assert row.get_attribute("data-name") == SPAN
    _nothing_ran(page)


def test_operator_names(page, tensorboard_server):
    answer = tensorboard_server.get_json("operators?run=hostile")
    assert OPERATOR in [row["name"] for row in answer["rows"]]
    _open(page, tensorboard_server, "hostile", "operators")
    row = page.locator("[data-testid=operator-row]").filter(has_text=OPERATOR)
    expect(row).to_have_count(1)
    expect(row).to_contain_text(OPERATOR)
    _nothing_ran(page)


def test_kernel_names(page, tensorboard_server):
    if not (SHARED_DATA / GPU_TRACE).is_file():
        pytest.skip(f"no GPU trace at {SHARED_DATA / GPU_TRACE}")
    _open(page, tensorboard_server, "gpu", "kernels")
    row = page.locator("[data-testid=kernel-row]").filter(has_text=KERNEL)
    expect(row).to_have_count(1)
    expect(row).to_contain_text(KERNEL)
    _nothing_ran(page)


@pytest.mark.parametrize("name", [SPAN, OPERATOR])
def test_event_details_on_the_timeline(page, tensorboard_server, name):
    found = tensorboard_server.get_json(f"timeline/search?run=hostile&q={quote(name)}&limit=1")
    match = found["matches"][0]
    assert match["name"] == name
    _open(page, tensorboard_server, "hostile", "timeline", f"&sel={match['rank']}:{match['id']}")
    details = page.get_by_test_id("timeline-details")
    expect(details.locator(".details-title")).to_have_text(name)
    _nothing_ran(page)


def test_module_paths_and_class_names(page, tensorboard_server):
    answer = tensorboard_server.get_json("modules?run=hostile")
    assert answer["source"] == "collector"
    assert MODULE in [row["path"] for row in answer["rows"]]
    _open(page, tensorboard_server, "hostile", "modules")
    row = page.locator("[data-testid=module-row]").filter(has_text=MODULE)
    expect(row).to_have_count(1)
    assert row.get_attribute("data-name") == MODULE
    expect(row).to_contain_text(MODULE)
    expect(row).to_contain_text(MODULE_CLASS)
    _nothing_ran(page)
