"""Every HTTP route against hostile requests, through TensorBoard's real WSGI app.

The routes are enumerated from `TbPerfPlugin.get_plugin_apps()`, so a new route (or a new
parameter of a route, read from its handler's source) fails
`test_every_route_has_a_parameter_table` until it is listed in ROUTES. Each parameter of each
route is then replaced by each hostile value (path tricks, links out of the logdir, wrong
types, huge numbers and strings, non-UTF-8 bytes, repeated and unknown parameters) while the
others stay valid. Every answer must be 200/202/400/404 with a JSON body (an `error` object
unless 200/202), never a 5xx, a traceback or the content of a file outside the logdir, and the
server must answer a normal request afterwards.

A seeded random sweep mixes valid, hostile and random values: 300 requests in CI, 5,000 with
`TB_PERF_SOAK=1`; then 8 threads at once: 200 requests in CI, 1,600 with `TB_PERF_SOAK=1`.
"""

from __future__ import annotations

import concurrent.futures
import inspect
import os
import random
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest
from werkzeug import test, wrappers

from tb_perf_plugin import plugin
from tests.conftest import REPO, SHARED_DATA
from tests.plugin.conftest import PluginClient

SECRET = "TB-PERF-OUTSIDE-THE-LOGDIR-7d1e"  # in files outside the logdir; never in an answer
SAMPLE_RUNS = ("ddp_traced", "ddp_modules", "ddp_leak", "ddp_compiled", "ddp_pipeline")
SNAPSHOT = "plugins/tb_perf/rank0.vm.15091.snapshot.step.0.pickle"
MAGMA = "memory_snapshots/MAGMA27__assignment2-systems/memory_snapshot.pickle"
SOAK = os.environ.get("TB_PERF_SOAK") == "1"

# route -> valid values of every parameter it reads (a hostile value replaces one at a time)
ROUTES: dict[str, dict[str, str]] = {
    "/runs": {},
    "/notices": {},
    "/summary": {"run": "ddp_traced", "rank": "0"},
    "/findings": {"run": "ddp_traced"},
    "/breakdown": {"run": "ddp_traced", "rank": "1"},
    "/distributed": {"run": "ddp_traced", "rank": "1"},
    "/critical_path": {"run": "ddp_traced", "rank": "1", "step": "16"},
    "/operators": {"run": "ddp_traced", "rank": "0", "group_by": "name", "limit": "5"},
    "/kernels": {
        "run": "ddp_traced",
        "rank": "0",
        "limit": "5",
        "q": "gemm",
        "group_by": "operator",
    },
    "/python": {"run": "ddp_compiled", "rank": "0", "sort": "self_ns", "q": "mm", "limit": "5"},
    "/tasks": {"run": "ddp_pipeline"},
    "/modules": {"run": "ddp_modules", "rank": "0"},
    "/module_steps": {"run": "ddp_modules", "rank": "0", "path": "encoder", "phase": "forward"},
    "/memory": {"run": "ddp_leak", "rank": "1"},
    "/memory/operators": {
        "run": "ddp_traced",
        "rank": "0",
        "device": "",
        "start": "0",
        "end": "1900000000000000000",
        "limit": "5",
    },
    "/gpu": {"run": "ddp_leak", "rank": "0"},
    "/rank_heatmap": {"run": "ddp_traced", "metric": "collective_wait"},
    "/compare": {"baseline": "ddp_traced", "candidate": "ddp_leak"},
    "/snapshot": {"run": "ddp_leak", "file": SNAPSHOT},
    "/snapshot/tile": {
        "run": "ddp_leak",
        "file": SNAPSHOT,
        "device": "0",
        "start": "0",
        "end": "1000000",
        "width_px": "100",
    },
    "/snapshot/allocation": {"run": "ddp_leak", "file": SNAPSHOT, "device": "0", "index": "0"},
    "/timeline/meta": {"run": "ddp_traced"},
    "/timeline/tiles": {
        "run": "ddp_traced",
        "start": "0",
        "end": "1000000000",
        "width_px": "800",
        "ranks": "0,1",
    },
    "/timeline/event": {"run": "ddp_traced", "rank": "0", "id": "0"},
    "/timeline/search": {"run": "ddp_traced", "q": "aten", "limit": "10", "ranks": "0"},
}

# values as they reach the handler (percent-encoded on the way); RAW_QUERIES are sent as is
HOSTILE = (
    "", " ", "../", "../../../../etc/passwd", "/etc/passwd", "ddp_traced/../ddp_leak",
    "./ddp_traced", "ddp_traced/", "%2e%2e%2f%2e%2e%2f", "..%2f..%2fetc", "a\x00b", "\x00",
    "..\\..\\windows\\win.ini", "C:\\Windows\\win.ini", "outside", "linked_run",
    "linked.pickle", "evil",
    "abc", "1.5", "-1", "-0", "+1", "1e3", "0x10", "--5", " 7 ", "²", "٣", "½", "NaN", "inf",
    str(10**30), str(-(10**30)), str(10**12), str(10**9), "9" * 5000, "1," * 5000,
    str(2**63 - 1), str(-(2**63)), str(2**63), str(2**62),
    "0,0,0", ",", "x" * 100_000, "<script>window.hacked=1</script>", "\ud800", "\ufffd",
    "🙂", "${jndi:ldap://x}", "'; DROP TABLE runs; --",
)  # fmt: skip
RAW_QUERIES = ("%ff%fe", "%c0%af", "%e2%82", "%", "%zz", "%00", "%2e%2e%2f%00")


def _outside_links(logdir: Path, outside: Path) -> None:
    """Links from inside the logdir to files and a directory outside it, with secrets."""
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text(SECRET)
    (outside / "events.out.tfevents.1.host").write_text(SECRET)
    (outside / "rank0.outside.pt.trace.json").write_text(SECRET)
    os.symlink(outside, logdir / "linked_run")
    plugin = logdir / "ddp_leak" / "plugins" / "tb_perf"
    os.symlink(secret, plugin / "linked.pickle")
    os.symlink(secret, plugin / "rank0.vm.15091.snapshot.step.9.pickle")
    os.symlink(secret, logdir / "ddp_compiled" / "secret.prof")
    os.symlink(outside, plugin / "imported_link")
    # a run whose plugins/ folder is a link to real collector files outside, with secret names
    linked = outside / "plugins" / "tb_perf"
    shutil.copytree(REPO / "sample_runs" / "ddp_fast_data" / "plugins" / "tb_perf", linked)
    for timer in linked.glob("*.timer.jsonl"):
        timer.write_text(timer.read_text().replace('"forward"', f'"{SECRET}"'))
    (logdir / "evil").mkdir()
    (logdir / "evil" / "events.out.tfevents.1.host").write_bytes(b"")
    os.symlink(outside / "plugins", logdir / "evil" / "plugins")


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> PluginClient:
    """Copies of the demo runs (a real snapshot in ddp_leak when ../shared/data is there) and
    links out of the logdir; one client, so each run is ingested once for the module."""
    root = tmp_path_factory.mktemp("hardening")
    logdir = root / "logs"
    for name in SAMPLE_RUNS:
        shutil.copytree(REPO / "sample_runs" / name, logdir / name)
    if (SHARED_DATA / MAGMA).is_file():
        shutil.copyfile(SHARED_DATA / MAGMA, logdir / "ddp_leak" / SNAPSHOT)
    _outside_links(logdir, root / "outside")
    return PluginClient(logdir)


def _query(params: dict[str, str]) -> str:
    return "&".join(f"{_quoted(k)}={_quoted(v)}" for k, v in params.items())


def _quoted(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _check(client: PluginClient, route: str, query: str) -> int:
    response = client._client.get(f"/data/plugin/tb_perf{route}", query_string=query)
    text = response.get_data(as_text=True)
    where = f"{route}?{query[:200]!r}"
    assert response.status_code in (200, 202, 400, 404), f"{where}: {response.status_code} {text}"
    assert response.mimetype == "application/json", where
    body = response.get_json()
    if response.status_code >= 400:
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, where
        assert body["error"]["code"] in ("invalid_argument", "not_found", "unreadable"), where
    elif response.status_code == 202:
        assert "progress" in body, where
    assert "Traceback" not in text and SECRET not in text, where
    return response.status_code


def test_every_route_has_a_parameter_table(client):
    """ROUTES lists every route and exactly the query parameters its view is given."""
    apps = client.plugin.get_plugin_apps()
    assert set(apps) - {"/static/*"} == set(ROUTES), "list each new route's parameters in ROUTES"
    for route, params in ROUTES.items():
        view, passed = plugin.ROUTES[route]
        assert set(passed) == set(params), route
        # the view takes the store, then exactly these, in order (and maybe wait_s)
        taken = [p for p in inspect.signature(view).parameters if p not in ("store", "wait_s")]
        assert len(taken) == len(passed), (route, taken, passed)


def test_valid_requests_answer(client):
    for route, params in ROUTES.items():
        if route.startswith("/snapshot") and not (SHARED_DATA / MAGMA).is_file():
            continue
        assert _check(client, route, _query(params)) == 200, route


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_hostile_parameter_values(client, route):
    """Every parameter of the route replaced by every hostile value, the others valid; then
    each parameter repeated with a hostile value, unknown parameters, and non-UTF-8 bytes."""
    valid = ROUTES[route]
    statuses = []
    for name in valid:
        for value in HOSTILE:
            statuses.append(_check(client, route, _query({**valid, name: value})))
        for raw in RAW_QUERIES:
            others = _query({k: v for k, v in valid.items() if k != name})
            statuses.append(_check(client, route, f"{others}&{name}={raw}"))
        repeated = _query(valid) + "&" + _query({name: "../../etc/passwd"})
        statuses.append(_check(client, route, repeated))
        without = _query({k: v for k, v in valid.items() if k != name})
        statuses.append(_check(client, route, without))
    for raw in RAW_QUERIES:
        statuses.append(_check(client, route, f"{raw}=1&{_query(valid)}"))
    statuses.append(_check(client, route, _query({**valid, "unknown": "1", "run/../x": "y"})))
    statuses.append(_check(client, route, "&&&=&==" + _query(valid)))
    if valid:
        assert any(status == 400 or status == 404 for status in statuses)


@pytest.mark.parametrize(
    "path",
    ["../plugin.py", "..%2fplugin.py", "%2e%2e/service.py", "/etc/passwd", "index.js%00.png",
     "..\\plugin.py", "./index.js/..", "a" * 10_000, "%ff%fe", "../../../../../etc/passwd"],
)  # fmt: skip
def test_static_route_serves_only_shipped_files(client, path):
    response = client._client.get(f"/data/plugin/tb_perf/static/{path}")
    assert response.status_code in (200, 404), response.status_code
    if response.status_code == 200:  # a shipped file, reached by a normalized URL
        served = response.get_data()
        shipped = [p.read_bytes() for p in (REPO / "tb_perf_plugin" / "static").iterdir()]
        assert served in shipped
    else:
        assert response.get_json()["error"]["code"] == "not_found"


def test_links_out_of_the_logdir_are_not_runs_or_snapshots(client):
    runs = {run["name"]: run for run in client.json("runs")}
    assert set(runs) == {*SAMPLE_RUNS, "evil"}  # not linked_run, whose tfevents file is outside
    assert runs["evil"]["sources"] == ["tfevents"] and runs["evil"]["ranks"] == []
    assert client.json("summary", run="evil")["spans"] == []  # its linked timer files unread
    error = client.json("timeline/meta", expect=404, run="evil")["error"]
    assert error["message"] == (
        "run 'evil' has no trace events or MyTimer spans to draw. This run holds no traces or "
        "collector steps, only 1 TensorBoard event file: its scalars and other summaries are "
        "in TensorBoard's own tabs; torch.profiler traces or the collectors' records (README "
        "quick start) give this tab its data."
    )
    (notice,) = client.json("notices")["notices"]  # linked_run, a link to a folder outside
    assert (notice["path"], notice["kind"]) == ("linked_run", "outside_link")
    files = [s["file"] for s in client.json("memory", run="ddp_leak")["snapshots"]]
    assert not any("linked" in f or "step.9" in f for f in files)


def _random_value(rng: random.Random, valid: str) -> str:
    choice = rng.random()
    if choice < 0.3:
        return valid
    if choice < 0.6:
        return rng.choice(HOSTILE)
    if choice < 0.8:
        return str(rng.choice([-1, 1]) * rng.randrange(10 ** rng.randrange(1, 40)))
    alphabet = "0123456789-+.,/\\%:;<>&'\"\x00 abcxyz\u00e9\u0663\ud7ff🙂"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def test_seeded_random_sweep(client):
    rng = random.Random(9)
    routes = sorted(ROUTES)
    for _ in range(5000 if SOAK else 300):
        route = rng.choice(routes)
        params = {k: _random_value(rng, v) for k, v in ROUTES[route].items() if rng.random() < 0.9}
        if rng.random() < 0.1:
            params[rng.choice(["rank", "limit", "x", "run"])] = rng.choice(HOSTILE)
        _check(client, route, _query(params))
    assert client.json("summary", run="ddp_traced")["run"] == "ddp_traced"  # still up


def test_concurrent_hostile_requests(client):
    """Threads (TensorBoard's server is threaded) mixing hostile and valid requests; each
    thread its own WSGI client over the one app."""
    app = client._client.application

    def worker(seed: int) -> None:
        own = PluginClient.__new__(PluginClient)
        own._client = test.Client(app, wrappers.Response)
        rng = random.Random(seed)
        for _ in range(200 if SOAK else 25):
            route = rng.choice(sorted(ROUTES))
            params = {k: _random_value(rng, v) for k, v in ROUTES[route].items()}
            _check(own, route, _query(params))

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for future in [pool.submit(worker, seed) for seed in range(8)]:
            future.result()


def test_server_answers_after_the_barrage(client):
    assert [r["name"] for r in client.json("runs")] == sorted([*SAMPLE_RUNS, "evil"])
    assert client.json("timeline/meta", run="ddp_traced")["events"] > 0
