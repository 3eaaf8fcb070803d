"""One real TensorBoard server and one headless Chromium, shared by the whole test session.

`tensorboard_server` serves the repo's `sample_runs/` unless a test passes another logdir by
indirect parametrization: a path, or a callable that builds one from `tmp_path_factory`::

    @pytest.mark.parametrize("tensorboard_server", [make_logdir], indirect=True)

Tests with the same logdir share one server process.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

REPO = Path(__file__).resolve().parents[2]
SAMPLE_RUNS = REPO / "sample_runs"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STARTUP_TIMEOUT_S = 60
# How long a page action or `expect` waits for what it looks for (Playwright's default is 5 s):
# the tests check what the pages show, not how fast a busy machine computes it (a first
# Overview of a run is computed, stored and loaded while the page polls its 202s).
WAIT_MS = 60_000
expect.set_options(timeout=WAIT_MS)


@dataclass(frozen=True)
class TensorBoardServer:
    url: str
    logdir: Path

    def plugin_url(self, route: str) -> str:
        return f"{self.url}/data/plugin/tb_perf/{route}"

    def get_json(self, route: str, timeout_s: float = 30) -> object:
        """GET a plugin route, polling while it answers 202 (still ingesting)."""
        deadline = time.monotonic() + timeout_s
        while True:
            with urllib.request.urlopen(self.plugin_url(route), timeout=10) as response:
                body = json.load(response)
                if response.status != 202:
                    return body
            if time.monotonic() > deadline:
                raise TimeoutError(f"{route} still answers 202 after {timeout_s} s")
            time.sleep(0.2)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _plugin_listed(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/data/plugins_listing", timeout=2) as response:
            return "tb_perf" in json.load(response)
    except OSError:
        return False


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def tensorboard_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TensorBoardServer]:
    param: Path | str | Callable[[pytest.TempPathFactory], Path] = getattr(
        request, "param", SAMPLE_RUNS
    )
    logdir = Path(param(tmp_path_factory) if callable(param) else param)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = tmp_path_factory.mktemp("tensorboard") / "tensorboard.log"
    # Keep any on-disk cache of the plugin out of the user's cache directory.
    env = {**os.environ, "TB_PERF_CACHE_DIR": str(tmp_path_factory.mktemp("tb_perf_cache"))}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tensorboard.main",
                "--logdir",
                str(logdir),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _plugin_listed(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"TensorBoard did not list the tb_perf plugin at {url} "
                    f"(is tb-perf pip-installed?). Its log:\n{log_path.read_text()}"
                )
            time.sleep(0.2)
        yield TensorBoardServer(url=url, logdir=logdir)
    finally:
        _stop(process)


@pytest.fixture(scope="session")
def chromium_browser():
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian's chromium package)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright Python package is not installed"
    )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(chromium_browser):
    """A fresh browser context per test: no shared storage, hash or theme between tests."""
    context = chromium_browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"
