"""`tb-perf report`'s HTML in the real browser: opened from disk, it renders its charts and
sortable tables and makes no request but for the file itself (the e2e session's browser)."""

import re
from pathlib import Path

from tb_perf_plugin import report
from tb_perf_plugin.store import RunStore

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"


def test_report_opens_offline_and_requests_nothing_but_itself(chromium_browser, tmp_path):
    service = RunStore(str(SAMPLE_RUNS), executor="inline")
    try:
        text = report.render(report.gather(service, "ddp_slow_data", None))
    finally:
        service.close()
    path = tmp_path / "report.html"
    report.write_report(str(path), text)
    context = chromium_browser.new_context(viewport={"width": 1300, "height": 900})
    requested: list[str] = []
    errors: list[str] = []

    def intercept(route):  # record every request; only the file itself may load
        requested.append(route.request.url)
        if route.request.url == path.as_uri():
            route.continue_()
        else:
            route.abort()

    context.route("**/*", intercept)
    page = context.new_page()
    page.on("request", lambda request: requested.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text))
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("networkidle")
        assert page.get_by_role("heading", name="Findings").is_visible()
        assert page.locator("svg rect").first.is_visible()
        assert page.locator("svg polyline").count() == 2
        spans = page.locator("table.sortable").nth(1)
        names = lambda: spans.locator("tbody td:first-child").all_text_contents()  # noqa: E731
        assert names()[0] == "data"  # by total time, as the service sorts
        spans.locator("th", has_text="total ms").click()  # ascending
        assert names()[-1] == "data" and names()[0] != "data"
    finally:
        context.close()
    assert set(requested) == {path.as_uri()}, requested
    assert not errors, errors
    assert not re.search(r"(src|href)=\"?(https?:)?//", text)
