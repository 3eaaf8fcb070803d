"""The Timeline dashboard in the real TensorBoard UI, checked against the timeline routes."""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

import pytest

from tests.conftest import SHARED_DATA

pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
from playwright.sync_api import Frame, FrameLocator, Page, Route, expect  # noqa: E402

RUN = "ddp_traced"
# A logdir made only by torch.profiler's tensorboard_trace_handler: two traces of one worker
# recorded ~8 minutes apart.
TRACE_ONLY_RUN = "resnet50_num_workers_0"
TRACE_ONLY_SOURCE = SHARED_DATA / "traces/pytorch__kineto/tb_plugin/samples" / TRACE_ONLY_RUN
LONG_AGO_NS = 10**18  # file times far in the past: not "still being written"
GUTTER_WIDTH, AXIS_HEIGHT = 220, 28  # frontend/src/timeline/layout.ts
PLUGIN_IFRAME = 'iframe[src*="plugin_entry.html?name=tb_perf"]'
# Operators every torch.profiler trace of a model with nn.Linear layers holds, in preference order.
OP_CANDIDATES = ["aten::addmm", "aten::mm", "aten::linear"]


def open_timeline(page: Page, server, run: str = RUN) -> tuple[FrameLocator, Frame]:
    """Open the PERF tab, switch to the Timeline of `run` and wait for its first view window."""
    page.goto(f"{server.url}/#tb_perf")
    plugin = page.frame_locator(PLUGIN_IFRAME)
    plugin.get_by_test_id("tab-timeline").click()
    plugin.get_by_test_id("run-select").select_option(run)
    frame = page.frame(url=lambda url: "plugin_entry.html" in url)
    assert frame is not None
    wait_for_hash(frame, dashboard="timeline", run=run)
    # The first run's timeline shows until this one's has loaded: wait for its canvas and window.
    expect(plugin.locator(f'[data-testid=timeline][data-run="{run}"] canvas')).to_have_attribute(
        "data-start", re.compile(r"-?\d+")
    )
    return plugin, frame


def wait_for_hash(frame: Frame, **expected: str) -> None:
    frame.wait_for_function(
        "expected => { const p = new URLSearchParams(location.hash.slice(1));"
        " return Object.entries(expected).every(([k, v]) => p.get(k) === v); }",
        arg=expected,
    )


def view_window(plugin: FrameLocator) -> tuple[int, int]:
    canvas = plugin.get_by_test_id("timeline-canvas")
    return int(canvas.get_attribute("data-start")), int(canvas.get_attribute("data-end"))


def wait_for_window(frame: Frame, condition: str, **values: int) -> tuple[int, int]:
    """Wait until the canvas window satisfies `condition`, a JS expression of start, end, v."""
    handle = frame.wait_for_function(
        f"""v => {{
            const c = document.querySelector('[data-testid=timeline-canvas]');
            if (!c || c.dataset.start === undefined) return null;
            const start = Number(c.dataset.start), end = Number(c.dataset.end);
            return ({condition}) ? [start, end] : null;
        }}""",
        arg=values,
    )
    start, end = handle.json_value()
    return start, end


def searched_op(server) -> tuple[str, dict]:
    """The first candidate operator the run holds, with the search route's own answer for it."""
    for name in OP_CANDIDATES:
        result = server.get_json(f"timeline/search?run={RUN}&q={quote(name)}&limit=1000")
        if result["total"] > 0:
            return name, result
    pytest.fail(f"none of {OP_CANDIDATES} is in run {RUN}")


def test_step_zoom_search_next_selects_the_match(page, tensorboard_server):
    plugin, frame = open_timeline(page, tensorboard_server)
    meta = tensorboard_server.get_json(f"timeline/meta?run={RUN}")
    canvas = plugin.get_by_test_id("timeline-canvas")

    # Jump to a step in the middle of the run: the view frames exactly that step.
    index = len(meta["steps"]) // 2
    step = meta["steps"][index]
    step_width = step["end"] - step["start"]
    plugin.get_by_test_id("timeline-step-select").select_option(str(index))
    start, end = wait_for_window(
        frame,
        "start <= v.from && end >= v.to && end - start <= 1.1 * (v.to - v.from)",
        **{"from": step["start"], "to": step["end"]},
    )

    # The wheel zooms in around the cursor: the time under it stays put.
    box = canvas.bounding_box()
    cursor_x = box["x"] + box["width"] * 0.6
    before = (start, end)
    page.mouse.move(cursor_x, box["y"] + 80)
    page.mouse.wheel(0, -400)
    start, end = wait_for_window(frame, "end - start < 0.7 * v.width", width=end - start)
    assert before[0] <= start and end <= before[1]

    # With the canvas focused, W zooms in further and A pans to earlier times.
    canvas.focus()
    width = end - start
    page.keyboard.press("w")
    start, end = wait_for_window(frame, "end - start < 0.9 * v.width", width=width)
    page.keyboard.press("a")
    start, _ = wait_for_window(frame, "start < v.start", start=start)
    assert end - start < step_width

    # Search: the count is the route's total; Next goes to the first match from the view start.
    name, result = searched_op(tensorboard_server)
    matches = result["matches"]
    view_start = view_window(plugin)[0]
    expected_index = next((i for i, match in enumerate(matches) if match["start"] >= view_start), 0)
    expected = matches[expected_index]
    plugin.get_by_test_id("timeline-search").fill(name)
    count = plugin.get_by_test_id("timeline-search-count")
    total = result["total"]
    expect(count).to_have_text(f"{total:,} {'match' if total == 1 else 'matches'}")
    plugin.get_by_test_id("timeline-next").click()

    expect(canvas).to_have_attribute("data-selected", f"{expected['rank']}:{expected['id']}")
    expect(count).to_have_text(f"{expected_index + 1:,} / {total:,}")
    details = plugin.get_by_test_id("timeline-details")
    expect(details.locator(".details-title")).to_have_text(expected["name"])
    start, end = view_window(plugin)
    assert start <= expected["start"] and expected["start"] + expected["dur"] <= end
    wait_for_hash(
        frame, q=name, sel=f"{expected['rank']}:{expected['id']}", start=str(start), end=str(end)
    )

    # Enter moves on to the next match, Shift+Enter back; both wrap around.
    search_box = plugin.get_by_test_id("timeline-search")
    following = matches[(expected_index + 1) % len(matches)]
    search_box.press("Enter")
    expect(canvas).to_have_attribute("data-selected", f"{following['rank']}:{following['id']}")
    search_box.press("Shift+Enter")
    expect(canvas).to_have_attribute("data-selected", f"{expected['rank']}:{expected['id']}")


def test_view_state_is_restored_from_the_hash(page, tensorboard_server):
    name, result = searched_op(tensorboard_server)
    match = result["matches"][-1]
    start, end = match["start"] - 1000, match["start"] + match["dur"] + 1000
    event = tensorboard_server.get_json(
        f"timeline/event?run={RUN}&rank={match['rank']}&id={match['id']}"
    )
    page.goto(
        f"{tensorboard_server.url}/data/plugin_entry.html?name=tb_perf"
        f"#run={RUN}&dashboard=timeline&start={start}&end={end}"
        f"&sel={match['rank']}:{match['id']}&q={quote(name)}"
    )
    canvas = page.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-start", str(start))
    expect(canvas).to_have_attribute("data-end", str(end))
    expect(canvas).to_have_attribute("data-selected", f"{match['rank']}:{match['id']}")
    expect(page.get_by_test_id("tab-timeline")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("timeline-search")).to_have_value(name)
    expect(page.get_by_test_id("timeline-search-count")).to_contain_text("match")
    details = page.get_by_test_id("timeline-details")
    expect(details.locator(".details-title")).to_have_text(event["name"])
    expect(details).to_contain_text(event["kind"])
    for key in event["args"]:
        expect(details.get_by_test_id("timeline-details-args")).to_contain_text(key)


def test_tabs_switch_dashboards_and_keep_the_hash(page, tensorboard_server):
    plugin, frame = open_timeline(page, tensorboard_server)
    expect(plugin.get_by_test_id("rank-select")).to_be_hidden()
    expect(plugin.get_by_test_id("tab-timeline")).to_have_attribute("aria-selected", "true")

    plugin.get_by_test_id("tab-overview").click()
    expect(plugin.get_by_test_id("overview")).to_be_visible()
    expect(plugin.get_by_test_id("rank-select")).to_be_visible()
    frame.wait_for_function("!new URLSearchParams(location.hash.slice(1)).has('dashboard')")

    plugin.get_by_test_id("tab-timeline").click()
    wait_for_hash(frame, dashboard="timeline")
    expect(plugin.get_by_test_id("timeline-canvas")).to_be_visible()


def test_rank_toggles_filter_lanes_tiles_and_hash(page, tensorboard_server):
    plugin, frame = open_timeline(page, tensorboard_server)
    meta = tensorboard_server.get_json(f"timeline/meta?run={RUN}")
    ranks = [rank["rank"] for rank in meta["ranks"]]
    assert len(ranks) >= 2, "the traced sample run should have two ranks"
    hidden, shown = ranks[-1], ranks[:-1]
    toggle = plugin.locator(f'[data-testid=timeline-rank-toggle][data-rank="{hidden}"]')
    expect(toggle).to_have_attribute("aria-pressed", "true")

    # a tile request of the view before the click may still be under way: wait for one with ranks
    with page.expect_request(lambda r: "/timeline/tiles?" in r.url and "ranks=" in r.url) as tiles:
        toggle.click()
    asked = parse_qs(urlparse(tiles.value.url).query)
    assert asked["ranks"] == [",".join(map(str, shown))]
    expect(toggle).to_have_attribute("aria-pressed", "false")
    wait_for_hash(frame, ranks=",".join(map(str, shown)))

    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    frame.wait_for_function("!new URLSearchParams(location.hash.slice(1)).has('ranks')")


def test_tensorboard_reload_refetches_meta_and_tiles(page, tensorboard_server):
    open_timeline(page, tensorboard_server)
    with (
        page.expect_request(lambda r: "/data/plugin/tb_perf/timeline/meta" in r.url),
        page.expect_request(lambda r: "/data/plugin/tb_perf/timeline/tiles" in r.url),
    ):
        page.locator("button.reload-button").click()


def test_tile_progress_and_errors_keep_the_view_usable(page, tensorboard_server):
    # 202 until the test has seen the progress (the page polls again at its own pace, so a
    # fixed sequence could be gone before it is looked at), then one 500, then the server
    progress = (202, {"progress": {"done_bytes": 10, "total_bytes": 40, "fraction": 0.25}})
    failure = [(500, {"error": {"code": "internal", "message": "<b>boom</b>"}})]
    progress_seen = threading.Event()

    def tiles_route(route: Route) -> None:
        if not progress_seen.is_set():
            status, body = progress
        elif failure:
            status, body = failure.pop()
        else:
            route.continue_()
            return
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    page.route("**/data/plugin/tb_perf/timeline/tiles?*", tiles_route)
    plugin, _ = open_timeline(page, tensorboard_server)
    status = plugin.get_by_test_id("timeline-status")
    expect(status).to_contain_text("25 %")
    progress_seen.set()
    expect(status).to_contain_text("<b>boom</b> (internal)")
    expect(status).to_have_attribute("role", "alert")

    # The next view change asks again, now reaching the real server.
    plugin.get_by_test_id("timeline-canvas").focus()
    page.keyboard.press("w")
    expect(status).to_be_hidden()


def test_flow_link_jumps_to_the_other_end_and_text_is_escaped(page, tensorboard_server):
    """CPU-only sample traces have no kernels: give two real events a flow between them."""
    _, result = searched_op(tensorboard_server)
    launch, device = result["matches"][0], result["matches"][-1]
    assert (launch["rank"], launch["id"]) != (device["rank"], device["id"])
    hostile = '<img src=x onerror="window.hacked = 1">'

    def event_route(route: Route) -> None:
        event = route.fetch().json()
        if event["id"] == launch["id"] and event["rank"] == launch["rank"]:
            other, kind = device, "runtime"
            event["args"][hostile] = hostile
        else:
            other, kind = launch, "kernel"
        event["kind"] = kind
        event["flow"] = {k: other[k] for k in ("rank", "id", "lane", "start")}
        route.fulfill(content_type="application/json", body=json.dumps(event))

    page.route("**/data/plugin/tb_perf/timeline/event?*", event_route)
    page.goto(
        f"{tensorboard_server.url}/data/plugin_entry.html?name=tb_perf"
        f"#run={RUN}&dashboard=timeline&sel={launch['rank']}:{launch['id']}"
    )
    details = page.get_by_test_id("timeline-details")
    expect(details.get_by_test_id("timeline-details-args")).to_contain_text(hostile)
    expect(page.locator("img")).to_have_count(0)
    link = details.get_by_test_id("timeline-flow-link")
    expect(link).to_contain_text(device["name"])

    link.click()
    canvas = page.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-selected", f"{device['rank']}:{device['id']}")
    expect(details).to_contain_text("Launched by")
    start, end = int(canvas.get_attribute("data-start")), int(canvas.get_attribute("data-end"))
    assert start <= device["start"] and device["start"] + device["dur"] <= end
    assert page.evaluate("window.hacked") is None
    # the selection's flow end may still be on its way through event_route: let it go
    page.unroute_all(behavior="ignoreErrors")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot(page, tensorboard_server, tmp_path, theme):
    page.emulate_media(color_scheme=theme)
    plugin, _ = open_timeline(page, tensorboard_server)
    name, _ = searched_op(tensorboard_server)
    plugin.get_by_test_id("timeline-step-select").select_option("1")
    plugin.get_by_test_id("timeline-search").fill(name)
    plugin.get_by_test_id("timeline-next").click()
    expect(plugin.get_by_test_id("timeline-details").locator(".details-title")).to_contain_text(
        name
    )
    png = page.screenshot(path=tmp_path / f"timeline-{theme}.png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    canvas_png = plugin.get_by_test_id("timeline-canvas").screenshot()
    assert len(canvas_png) > 10_000


def _trace_only_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not TRACE_ONLY_SOURCE.is_dir():
        pytest.skip(f"real test data not found at {TRACE_ONLY_SOURCE}")
    run = tmp_path_factory.mktemp("trace_only") / TRACE_ONLY_RUN
    run.mkdir()
    for trace in sorted(TRACE_ONLY_SOURCE.iterdir()):
        shutil.copyfile(trace, run / trace.name)
        os.utime(run / trace.name, ns=(LONG_AGO_NS, LONG_AGO_NS))
    return run.parent


def _padded(window: dict) -> tuple[float, float]:
    """A window's extent with the room the view leaves either side (2 %, viewWindow.ts)."""
    pad = (window["end_ns"] - window["start_ns"]) * 0.02
    return window["start_ns"] - pad - 1, window["end_ns"] + pad + 1


def _canvas_pixels(frame: Frame, x: float, y: float, count: int) -> list[tuple[int, int, int]]:
    """`count` pixels of the timeline canvas from CSS point (x, y) rightwards, as RGB."""
    data = frame.evaluate(
        """([x, y, count]) => {
            const c = document.querySelector('[data-testid=timeline-canvas]');
            const dpr = c.width / c.clientWidth;
            const at = [Math.round(x * dpr), Math.round(y * dpr)];
            return Array.from(c.getContext('2d').getImageData(...at, count, 1).data);
        }""",
        [x, y, count],
    )
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 4)]


def _css_color(frame: Frame, variable: str) -> tuple[int, int, int]:
    text = frame.evaluate(
        f"getComputedStyle(document.documentElement).getPropertyValue('{variable}')"
    )
    text = text.strip().lstrip("#")
    return tuple(int(text[i : i + 2], 16) for i in (0, 2, 4))


@pytest.mark.parametrize(
    "tensorboard_server", [_trace_only_logdir], ids=["trace_only"], indirect=True
)
def test_trace_windows_picker_gaps_and_a_step_outside_every_window(page, tensorboard_server):
    """A folder of raw torch.profiler traces: the Timeline opens on the first trace's window,
    the picker moves the view to the second, "all" marks the gap between them, and a step no
    trace recorded says so."""
    plugin, frame = open_timeline(page, tensorboard_server, TRACE_ONLY_RUN)
    meta = tensorboard_server.get_json(f"timeline/meta?run={TRACE_ONLY_RUN}")
    first, second = meta["windows"]
    assert second["start_ns"] - first["end_ns"] > 400e9  # minutes apart
    canvas = plugin.get_by_test_id("timeline-canvas")

    # Opens on the first window: about a second across, not the run's ~470 s.
    expect(canvas).to_have_attribute("data-window", "0")
    lo, hi = _padded(first)
    start, end = wait_for_window(frame, "start >= v.lo && end <= v.hi", lo=lo, hi=hi)
    assert end - start < 2e9
    # the room left after the window is the start of the gap, marked as such
    expect(canvas).to_have_attribute("data-gaps", "1")
    picker = plugin.get_by_test_id("timeline-window-select")
    expect(picker.locator("option")).to_have_text(
        [  # the files' event extents: 1.0657 s and 0.9296 s
            f"1. {first['label']} (1.07 s)",
            f"2. {second['label']} (930 ms)",
            "All 2 windows, gaps marked",
        ]
    )

    # Picking the second window moves the view there, and the tiles asked for are of it.
    lo, hi = _padded(second)
    with page.expect_request(lambda r: "/timeline/tiles?" in r.url) as tiles:
        picker.select_option("1")
    start, end = wait_for_window(frame, "start >= v.lo && end <= v.hi", lo=lo, hi=hi)
    asked = parse_qs(urlparse(tiles.value.url).query)
    assert lo <= int(asked["start"][0]) < int(asked["end"][0]) <= hi
    expect(canvas).to_have_attribute("data-window", "1")

    # All: the whole run, and the gap drawn as a hatched band where the background would be.
    picker.select_option("all")
    start, end = wait_for_window(frame, "start <= 0 && end >= v.end", end=second["end_ns"])
    expect(canvas).to_have_attribute("data-gaps", "1")
    width = canvas.bounding_box()["width"]
    middle = (first["end_ns"] + second["start_ns"]) / 2
    x = GUTTER_WIDTH + (middle - start) / (end - start) * (width - GUTTER_WIDTH)
    frame.wait_for_timeout(100)  # one animation frame after the window changed
    pixels = _canvas_pixels(frame, x, AXIS_HEIGHT + 80, 40)
    surface, background = _css_color(frame, "--surface"), _css_color(frame, "--bg")
    assert surface != background
    assert background not in pixels
    assert pixels.count(surface) >= len(pixels) // 2

    # A step no trace recorded: a message, and the view stays where it is.
    step_input = plugin.get_by_test_id("timeline-step-input")
    step_input.fill("12")
    step_input.press("Enter")
    note = plugin.get_by_test_id("timeline-window-note")
    expect(note).to_be_visible()
    expect(note).to_have_text(
        "Step 12 is outside every recorded window: no trace or span holds it."
        " This run recorded steps 5-10, 16-21."
    )
    assert view_window(plugin) == (round(start), round(end))

    # A step of the second trace: its window, framing the step; the message goes.
    step = next(s for s in meta["steps"] if s["step"] == 17)
    step_input.fill("17")
    step_input.press("Enter")
    wait_for_window(
        frame,
        "start <= v.from && end >= v.to && end - start <= 1.1 * (v.to - v.from)",
        **{"from": step["start"], "to": step["end"]},
    )
    expect(canvas).to_have_attribute("data-window", "1")
    expect(picker).to_have_value("1")
    expect(note).to_be_hidden()


def test_a_collector_run_of_one_window_has_no_window_picker(page, tensorboard_server):
    """The demo's traced run: MyTimer spans hold both traced windows, so the view is the
    whole run, as before, with no picker and no gap."""
    plugin, _ = open_timeline(page, tensorboard_server)
    meta = tensorboard_server.get_json(f"timeline/meta?run={RUN}")
    assert len(meta["windows"]) == 1
    canvas = plugin.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-window", "all")
    expect(canvas).to_have_attribute("data-gaps", "0")
    expect(plugin.get_by_test_id("timeline-window-select")).to_have_count(0)
    start, end = view_window(plugin)
    assert start < 0 and end > meta["end"]


@pytest.mark.parametrize(
    "tensorboard_server", [_trace_only_logdir], ids=["trace_only"], indirect=True
)
def test_a_link_opens_its_window_and_a_match_in_another_window_opens_that(page, tensorboard_server):
    meta = tensorboard_server.get_json(f"timeline/meta?run={TRACE_ONLY_RUN}")
    first, second = meta["windows"]
    start, end = second["start_ns"] + 1000, second["start_ns"] + 100_000_000
    page.goto(
        f"{tensorboard_server.url}/data/plugin_entry.html?name=tb_perf"
        f"#run={TRACE_ONLY_RUN}&dashboard=timeline&start={start}&end={end}"
    )
    canvas = page.get_by_test_id("timeline-canvas")
    expect(canvas).to_have_attribute("data-window", "1")
    expect(canvas).to_have_attribute("data-start", str(start))
    expect(canvas).to_have_attribute("data-end", str(end))
    expect(page.get_by_test_id("timeline-window-select")).to_have_value("1")

    # ProfilerStep#5 is in the first trace only: Next opens the first window on it.
    (match,) = tensorboard_server.get_json(
        f"timeline/search?run={TRACE_ONLY_RUN}&q={quote('ProfilerStep#5')}"
    )["matches"]
    assert first["start_ns"] <= match["start"] < first["end_ns"]
    page.get_by_test_id("timeline-search").fill("ProfilerStep#5")
    expect(page.get_by_test_id("timeline-search-count")).to_have_text("1 match")
    page.get_by_test_id("timeline-next").click()
    expect(canvas).to_have_attribute("data-selected", f"{match['rank']}:{match['id']}")
    expect(canvas).to_have_attribute("data-window", "0")
    expect(page.get_by_test_id("timeline-window-select")).to_have_value("0")
    shown = int(canvas.get_attribute("data-start")), int(canvas.get_attribute("data-end"))
    assert shown[0] <= match["start"] and match["start"] + match["dur"] <= shown[1]


def test_critical_path_toggle_highlights_the_shown_steps_path(page, tensorboard_server):
    """The toggle fetches the critical path of the step in view (through its slowest rank),
    draws it over the boxes and follows the view to another step; off, the path goes."""
    plugin, frame = open_timeline(page, tensorboard_server)
    meta = tensorboard_server.get_json(f"timeline/meta?run={RUN}")
    summary = tensorboard_server.get_json(f"critical_path?run={RUN}")
    traced = [job["step"] for job in summary["job"]]
    indexes = [i for i, s in enumerate(meta["steps"]) if s["step"] in traced]
    assert len(indexes) >= 2, "the traced sample run should have two traced steps"
    canvas = plugin.get_by_test_id("timeline-canvas")
    toggle = plugin.get_by_test_id("timeline-critical-path")
    status = plugin.get_by_test_id("timeline-critical-path-status")

    first = meta["steps"][indexes[0]]
    plugin.get_by_test_id("timeline-step-select").select_option(str(indexes[0]))
    wait_for_window(
        frame, "start <= v.from && end >= v.to", **{"from": first["start"], "to": first["end"]}
    )
    expect(canvas).not_to_have_attribute("data-critical-path", re.compile(".*"))
    page.wait_for_timeout(300)  # the step's tiles drawn
    before = canvas.screenshot()
    toggle.check()
    path = tensorboard_server.get_json(f"critical_path?run={RUN}&step={first['step']}")
    assert path["timeline"], "the path has events the Timeline draws"
    expect(canvas).to_have_attribute(
        "data-critical-path", f"{first['step']}:{path['rank']}:{len(path['timeline'])}"
    )
    expect(status).to_contain_text(f"step {first['step']} on rank {path['rank']}")
    page.wait_for_timeout(300)
    assert canvas.screenshot() != before, "the path is drawn over the boxes"

    second = meta["steps"][indexes[1]]
    plugin.get_by_test_id("timeline-step-select").select_option(str(indexes[1]))
    other = tensorboard_server.get_json(f"critical_path?run={RUN}&step={second['step']}")
    expect(canvas).to_have_attribute(
        "data-critical-path", f"{second['step']}:{other['rank']}:{len(other['timeline'])}"
    )

    toggle.uncheck()
    expect(canvas).not_to_have_attribute("data-critical-path", re.compile(".*"))
    expect(status).to_have_text("")
