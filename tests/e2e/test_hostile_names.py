"""Names and texts from traces, snapshots and collector files that are HTML or script render as
text, in the real TensorBoard UI, wherever a view shows them:

- MyTimer span names: Overview's span table, Operators' annotations, the Timeline's details
  and tooltip, Compare's step-time headline and category chart;
- operator names (the trace's `aten::addmm` renamed afterwards, and the real operators of an
  autograd.Function with a hostile class name): Operators' table and bars, Overview's top
  operators and hotspot finding, the Timeline's details and tooltip, Tasks, Compare's deltas
  and findings; kernel names (Kernels);
- module paths and class names: Modules, Compare's module deltas;
- memory snapshot frames (file and function names): the Memory tab's groups, largest
  allocations, an allocation's details and the viewer's hover, the memory_peak finding;
- run names: the toolbar, Compare's pickers and Timeline links;
- profile_task's task type and operator regex: Tasks;
- reasons: a stopped collector's (Overview's warnings). A capture's reason (docs/CAPTURE.md,
  metadata `capture.reason`) is recorded with a hostile role, but no view shows it: the plugin
  does not read the metadata's `capture` section.

One logdir for all checks (one server): `hostile`, a real torch loop recorded by the collectors
(MyTimer spans, ModuleProfiler, profile_steps, MemorySnapshotter, create_capture, then
profile_task), the two Compare runs named like scripts (MyTimer spans and ModuleProfiler), and
`gpu`, when ../shared/data is there, a real small GPU trace (kineto's test input) with its gemm
kernels renamed. `window.hacked` must never be set, and no `<img>` may appear.
"""

from __future__ import annotations

import gzip
import json
import os
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.conftest import SHARED_DATA
from tests.e2e.conftest import WAIT_MS

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import Page, expect  # noqa: E402

# Kineto writes names into its JSON unescaped, and turns the backslash of an escaped '"' in
# metadata into "/": a '"' in a record_function name (so in a MyTimer span mirrored into the
# trace), an autograd Function's name or a profile_task type (in the trace's `tb_perf` key)
# makes the trace invalid JSON. No quotes in those. Each payload sets its own number.
SPAN = "<img src=x onerror=window.hacked=1>"
MODULE = '<img src=x onerror="hacked = 2">'  # a module name has no "."
MODULE_CLASS = "<script>window.hacked = 3</script>"
OPERATOR = '<img src=x onerror="window.hacked = 4">aten::addmm'
KERNEL = '<img src=x onerror="window.hacked = 5">gemm'
FUNCTION = "<img src=x onerror=window.hacked=6>"  # an autograd.Function: ops FUNCTION(Backward)
TASK = "<img src=x onerror=window.hacked=7>DIT"  # a profile_task type
TASK_OPS = "<script>window.hacked = 8</script>|Backward$|^aten::mm$"  # its operator regex
FRAME_FILE = "<img src=x onerror=window.hacked=9>"  # "<...>" files are user code
FRAME_NAME = '<img src=x onerror="window.hacked = 10">'
BASELINE = "<img src=x onerror=window.hacked=11>"  # the Compare runs
CANDIDATE = '<img src=x onerror="window.hacked = 12">'
COMPARE_SPAN = "<img src=x onerror=window.hacked=13>"
ROLE = "<img src=x onerror=window.hacked=14>"  # a capture role: the capture's reason names it
STOP_REASON = '<img src=x onerror="window.hacked = 15"> disk full'
GPU_TRACE = "traces/pytorch__kineto/tb_plugin/test/gpu_metrics_input.json"
LONG_AGO_NS = 10**18  # file times far in the past: not "still being written"
GIB = 1 << 30
# frontend/src/timeline/layout.ts
AXIS_HEIGHT, GUTTER_WIDTH, RANK_HEADER_HEIGHT, ROW_HEIGHT, COUNTER_HEIGHT = 28, 220, 24, 18, 36


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


class _HostileMemoryApi:
    """torch.cuda.memory's calls for MemorySnapshotter on a machine without CUDA: `snapshot()`
    answers what torch's `_snapshot()` would after the allocator ran out of memory (the
    format of tests/plugin/test_memory_snapshot_routes.py), its stacks through a frame of
    torch into a hostile user frame; one allocation of 6 GiB is live throughout."""

    def record_memory_history(self, enabled, **kwargs) -> None:
        pass

    def attach_oom_observer(self, observer) -> None:
        pass

    def snapshot(self) -> dict:
        torch_frame = {"filename": "/venv/site-packages/torch/nn/modules/linear.py",
                       "line": 125, "name": "forward"}  # fmt: skip
        frames = [torch_frame, {"filename": FRAME_FILE, "line": 7, "name": FRAME_NAME}]

        def entry(action: str, addr: int, size: int, time_us: int) -> dict:
            return {"action": action, "addr": addr, "size": size, "stream": 0,
                    "time_us": time_us, "frames": frames}  # fmt: skip

        return {
            "segments": [{"device": 0, "address": 0, "total_size": 8 * GIB,
                          "allocated_size": 6 * GIB, "active_size": 6 * GIB,
                          "requested_size": 6 * GIB, "stream": 0, "segment_type": "large",
                          "blocks": [{"address": 0, "size": 6 * GIB, "requested_size": 6 * GIB,
                                      "state": "active_allocated", "frames": frames},
                                     {"address": 6 * GIB, "size": 2 * GIB, "requested_size": 0,
                                      "state": "inactive", "frames": []}]}],
            "device_traces": [[
                entry("alloc", 0, 6 * GIB, 1_000),
                entry("alloc", 6 * GIB, GIB, 1_200),
                entry("free_requested", 6 * GIB, GIB, 1_500),
                entry("free_completed", 6 * GIB, GIB, 1_500),
                entry("oom", 0, 4 * GIB, 2_000),
            ]],
            "allocator_settings": {},
        }  # fmt: skip


def _function(torch, name: str, seconds: float):
    """An autograd.Function called `name` whose forward takes `seconds` of its own (self) time:
    torch.profiler records it as operators `name` and `<name>Backward`."""

    def forward(ctx, x):
        time.sleep(seconds)
        return x * 2

    def backward(ctx, grad):
        return grad * 2

    methods = {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    return type(name, (torch.autograd.Function,), methods)


def _hostile_run(torch, run: Path) -> None:
    """MyTimer spans, ModuleProfiler, profile_steps, a hostile autograd Function, a memory
    snapshot, a capture that selects no process, a stopped collector, then profile_task."""
    from collectors import (
        MemorySnapshotter,
        ModuleProfiler,
        MyTimer,
        RunWriter,
        TaskProfiler,
        create_capture,
        profile_steps,
    )

    torch.manual_seed(0)
    model = torch.nn.Sequential()
    model.add_module(MODULE, type(MODULE_CLASS, (torch.nn.Linear,), {})(32, 32))
    model.add_module("head", torch.nn.Linear(32, 4))
    hot = _function(torch, FUNCTION, 0.02)  # the traced steps' hotspot
    config = {"roles": [ROLE, "other"],
              "captures": [{"trigger": "step", "windows": [{"start": 1, "stop": 2}],
                            "roles": ["other"]}]}  # fmt: skip
    with RunWriter(run, rank=0, world_size=1) as writer:
        timer = MyTimer(writer, gpu=False, mirrors=("record_function",))
        capture = create_capture(config, timer=timer, role=ROLE)
        assert not capture.enabled
        snapshots = MemorySnapshotter(timer, enabled=True, memory_api=_HostileMemoryApi())
        timer.set_step(0)
        with ModuleProfiler(model, timer), snapshots.region("steps"):
            with profile_steps(timer, wait=0, warmup=1, active=2):
                for _ in range(4):
                    with timer.range(SPAN):
                        hot.apply(model(torch.randn(16, 32))).sum().backward()
                    timer.step()
            tasks = TaskProfiler(timer, types=[TASK], ops=TASK_OPS, skip_first=0, max_captures=1)
            for _ in range(2):
                with tasks.task(TASK), timer.range(SPAN):
                    x = torch.randn(16, 32, requires_grad=True)
                    hot.apply(x @ x.T).sum().backward()
                timer.step()
            tasks.close()
        with pytest.warns(RuntimeWarning, match="MemorySampler stopped at step 5"):
            writer.collector_stopped("MemorySampler", 5, STOP_REASON)  # as on a full disk
        capture.close()
        timer.close()
    assert len(snapshots.files) == 1


def _compare_run(torch, run: Path, span_s: float) -> None:
    """A run to compare: MyTimer's hostile span (taking `span_s` a step) and ModuleProfiler's
    hostile module path, no traces (Compare splits its steps by the spans)."""
    from collectors import ModuleProfiler, MyTimer, RunWriter

    torch.manual_seed(0)
    model = torch.nn.Sequential()
    model.add_module(MODULE, torch.nn.Linear(32, 32))
    with RunWriter(run, rank=0, world_size=1) as writer:
        timer = MyTimer(writer, gpu=False)
        timer.set_step(0)
        with ModuleProfiler(model, timer, backward_every_n_steps=1):
            for _ in range(8):
                with timer.range(COMPARE_SPAN):
                    model(torch.randn(16, 32)).sum().backward()
                    time.sleep(span_s)
                timer.step()
        timer.close()


def _hostile_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch = pytest.importorskip("torch", reason="a real training loop needs torch")
    logdir = tmp_path_factory.mktemp("hostile_names")
    run = logdir / "hostile"
    _hostile_run(torch, run)
    (trace,) = (run / "plugins" / "tb_perf").glob("*.steps*.pt.trace.json.gz")
    renamed = _rename_in_trace(
        trace, lambda e: OPERATOR if e.get("name") == "aten::addmm" else None
    )
    assert renamed > 0, "the trace has no aten::addmm to rename"
    _compare_run(torch, logdir / BASELINE, 0.002)
    _compare_run(torch, logdir / CANDIDATE, 0.012)
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


def _named(page: Page, test_id: str, name: str, attribute: str = "data-name"):
    """The elements of `test_id` whose `attribute` is `name` (a CSS string: JSON's escapes)."""
    value = json.dumps(name, ensure_ascii=False)
    return page.locator(f"[data-testid={test_id}][{attribute}={value}]")


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


def _hover_until(page: Page, x: float, y: float, title, text: str) -> None:
    """Hover (x, y) until the tooltip's `title` reads `text`: what is under the pointer is
    known once the view's data has loaded, and the tooltip follows pointer moves only."""
    deadline = time.monotonic() + WAIT_MS / 1000
    nudge = 0
    while not (title.is_visible() and title.inner_text() == text):
        assert time.monotonic() < deadline, f"no tooltip {text!r}: {title.all_inner_texts()}"
        nudge = 1 - nudge  # a move to another pixel of the same box
        page.mouse.move(x + nudge, y)
        page.wait_for_timeout(100)


def test_operator_and_span_names_in_the_operators_tab(page, tensorboard_server):
    _open(page, tensorboard_server, "hostile", "operators")
    bars = page.get_by_test_id("operator-bars")
    expect(bars.locator(".top-bar-label").first).to_have_text(FUNCTION)  # the hotspot leads
    annotation = _named(page, "annotation-row", SPAN)
    expect(annotation).to_have_count(1)
    expect(annotation).to_contain_text(SPAN)
    for name in (FUNCTION, f"{FUNCTION}Backward"):
        page.get_by_test_id("operator-filter").fill(name)  # whatever page the row is on
        row = _named(page, "operator-row", name)
        expect(row).to_have_count(1)
        expect(row).to_contain_text(name)
    _nothing_ran(page)


def test_findings_warnings_and_top_operators_in_the_overview(page, tensorboard_server):
    _open(page, tensorboard_server, "hostile", "overview")
    hotspot = page.locator("[data-testid=finding][data-kind=hotspot]")
    expect(hotspot.locator(".finding-title")).to_contain_text(FUNCTION)
    peak = page.locator("[data-testid=finding][data-kind=memory_peak]")
    expect(peak).to_contain_text(f"{FRAME_FILE}:7 ({FRAME_NAME})")
    expect(page.get_by_test_id("top-operators").locator("li").first).to_contain_text(FUNCTION)
    expect(page.get_by_test_id("warnings")).to_contain_text(
        f"rank 0: MemorySampler data ends at step 5 ({STOP_REASON})"
    )
    _nothing_ran(page)


def test_capture_reason_is_recorded_and_runs_nothing(page, tensorboard_server):
    """create_capture records why it selects no process, naming the hostile role. No view
    shows a capture's metadata (the plugin does not read it); the run's pages run nothing."""
    (meta,) = (tensorboard_server.logdir / "hostile" / "plugins" / "tb_perf").glob("*.meta.json")
    capture = json.loads(meta.read_text())["capture"]
    assert capture == {"enabled": False, "reason": f"no capture selects rank 0, role {ROLE!r}"}
    for dashboard in ("overview", "timeline"):
        page.goto("about:blank")  # a new hash alone would not load another tab
        _open(page, tensorboard_server, "hostile", dashboard)
        expect(page.get_by_test_id(dashboard)).to_be_visible()
        _nothing_ran(page)


def test_snapshot_frames_in_the_memory_tab(page, tensorboard_server):
    frame = f"{FRAME_FILE}:7 ({FRAME_NAME})"
    _open(page, tensorboard_server, "hostile", "memory")
    group = page.get_by_test_id("peak-frame")
    expect(group).to_have_count(1)
    expect(group).to_contain_text(frame)
    assert group.get_attribute("data-name") == frame
    expect(page.get_by_test_id("peak-allocation").first).to_contain_text(frame)
    finding = page.locator("[data-testid=finding][data-kind=memory_peak]")
    expect(finding).to_contain_text(frame)
    # the 6 GiB block is live throughout and fills the plot: click its middle
    status = page.get_by_test_id("snapshot-status")
    expect(status).to_contain_text("allocations drawn")
    canvas = page.get_by_test_id("snapshot-canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 40)
    details = page.get_by_test_id("snapshot-allocation")
    expect(details.locator('[data-field="first user frame"]')).to_have_text(frame)
    expect(details.get_by_test_id("allocation-frames").locator("li").nth(1)).to_have_text(frame)
    expect(page.get_by_test_id("snapshot-hover")).to_contain_text(frame)
    _nothing_ran(page)


def test_task_type_operators_and_regex_in_the_tasks_tab(page, tensorboard_server):
    _open(page, tensorboard_server, "hostile", "tasks")
    task = page.get_by_test_id("task")
    expect(task).to_have_count(1)
    assert task.get_attribute("data-name") == f"{TASK}/0"
    expect(task.locator("h2")).to_have_text(f"{TASK} — rank 0")
    expect(task.locator("code")).to_have_text(TASK_OPS)
    row = _named(page, "task-operator", f"cpu_op/{FUNCTION}Backward")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(f"{FUNCTION}Backward")
    _nothing_ran(page)


@pytest.mark.parametrize("name", [SPAN, FUNCTION])
def test_event_tooltips_on_the_timeline(page, tensorboard_server, name):
    """The view framed on one event: hovering its row anywhere in the time area is on it."""
    found = tensorboard_server.get_json(f"timeline/search?run=hostile&q={quote(name)}&limit=50")
    match = next(m for m in found["matches"] if m["name"] == name)
    event = tensorboard_server.get_json(
        f"timeline/event?run=hostile&rank={match['rank']}&id={match['id']}"
    )
    meta = tensorboard_server.get_json("timeline/meta?run=hostile")
    (rank,) = [r for r in meta["ranks"] if r["rank"] == match["rank"]]
    top = RANK_HEADER_HEIGHT  # frontend/src/timeline/layout.ts: the rank's header, its lanes
    for lane in rank["lanes"]:
        if lane["id"] == match["lane"]:
            break
        top += COUNTER_HEIGHT if lane["kind"] == "counter" else lane["rows"] * ROW_HEIGHT + 6
    end = match["start"] + match["dur"]
    _open(page, tensorboard_server, "hostile", "timeline", f"&start={match['start']}&end={end}")
    canvas = page.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-start", str(match["start"]))
    box = canvas.bounding_box()
    x = box["x"] + (GUTTER_WIDTH + box["width"]) / 2
    y = box["y"] + AXIS_HEIGHT + top + 3 + (event["row"] + 0.5) * ROW_HEIGHT
    _hover_until(page, x, y, page.locator(".timeline-tooltip .tooltip-title"), name)
    _nothing_ran(page)


def test_compare_headline_categories_modules_and_run_names(page, tensorboard_server):
    pair = f"&base={quote(BASELINE)}&cand={quote(CANDIDATE)}"
    answer = tensorboard_server.get_json(
        f"compare?baseline={quote(BASELINE)}&candidate={quote(CANDIDATE)}"
    )
    headline = answer["step_time"]["headline"]
    assert f"mostly {COMPARE_SPAN} +" in headline, headline
    _open(page, tensorboard_server, CANDIDATE, "compare", pair)
    expect(page.get_by_test_id("compare-headline")).to_have_text(headline)
    for picker, run in (("compare-baseline", BASELINE), ("compare-candidate", CANDIDATE)):
        expect(page.get_by_test_id(picker)).to_have_value(run)
        expect(page.get_by_test_id(picker).locator("option:checked")).to_have_text(run)
    expect(page.get_by_test_id("run-select").locator("option:checked")).to_have_text(
        f"{CANDIDATE} (finished)"
    )
    category = _named(page, "category-delta", COMPARE_SPAN, "data-category")
    expect(category).to_have_count(1)
    expect(category.locator("title")).to_contain_text(COMPARE_SPAN)
    label = COMPARE_SPAN[:19] + "…"  # cut to LABEL_CHARACTERS (20), frontend/src/compare
    expect(category.locator("text").first).to_have_text(label)
    module = page.locator("[data-testid=cm-delta-row]").filter(has_text=MODULE)
    expect(module).to_have_count(2)  # forward and backward
    expect(module.first).to_contain_text(MODULE)
    for side, run in (("baseline", BASELINE), ("candidate", CANDIDATE)):
        link = page.get_by_test_id(f"timeline-link-{side}")
        expect(link).to_contain_text(f"{side} {run}, step ")
        assert link.get_attribute("data-run") == run
    _nothing_ran(page)


def test_compare_operator_deltas_and_findings(page, tensorboard_server):
    """The hostile run against one without traces: every operator is new in the candidate."""
    pair = f"&base={quote(BASELINE)}&cand=hostile"
    _open(page, tensorboard_server, "hostile", "compare", pair)
    expect(page.get_by_test_id("compare-headline")).to_be_visible()
    for name in (OPERATOR, FUNCTION, f"{FUNCTION}Backward"):
        page.get_by_test_id("co-delta-filter").fill(name)  # whatever page the row is on
        row = _named(page, "co-delta-row", name)
        expect(row).to_have_count(1)
        expect(row).to_contain_text(name)
    appeared = page.get_by_test_id("findings-appeared")
    expect(appeared.locator("[data-kind=hotspot]")).to_contain_text(FUNCTION)
    _nothing_ran(page)
