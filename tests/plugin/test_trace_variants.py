"""Every route and every CLI command on structural variants of real traces (issue 16).

tests/plugin/trace_variants.py derives, from three real traces of different shapes (a 2021
V100 ResNet-50 training trace, a two-rank NCCL pair, a DDP rank with memory totals; each cut
to a window of 1,500-2,500 events), variants that lack whole kinds of events: no device events
(a CUPTI range-profiler trace), no CPU ops, no runtime, no flows, no ProfilerStep, GPU only,
one host thread, no deviceProperties, no distributedInfo, every event twice, shuffled events
and an empty event list. Each variant is a run `<base>/<variant>` of one logdir, its rank r
written as `worker<r>.1.pt.trace.json`.

On every variant, every route of the plugin (enumerated from `get_plugin_apps()`, so a new
route fails `test_every_route_is_exercised` until it has parameters here) is called with
valid parameters for that run: each rank, every heatmap metric, a time window from
`timeline/meta`, an event id from a tile, a search term from a tile's names, a module from
`modules`, the variant compared with its base. The answer must be 200/400/404 JSON, never a
5xx or a traceback, an error must say why, and an answer with nothing to show must carry a
reason. Every CLI command (`analyze` in each format, `export-trace`, `report`, `diff`) runs
in-process: exit code 0, 2 or 3, a message on stderr when not 0, no traceback.
"""

from __future__ import annotations

import contextlib
import gzip
import inspect
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tb_perf_plugin.analysis.ranks import RankMetric
from tb_perf_plugin.cli import main
from tests.conftest import SHARED_DATA
from tests.plugin import trace_variants
from tests.plugin.conftest import PluginClient
from tests.plugin.trace_variants import BASES, VARIANTS

CASES = [(base, variant) for base in BASES for variant in VARIANTS]
POLL_DEADLINE_S = 120.0  # a 202 is polled until this; the client already waits inline
FINISHED_AGE_S = 3600  # files written an hour ago: finished, whatever the clock does
NO_SNAPSHOT = "plugins/tb_perf/rank0.none.1.snapshot.step.0.pickle"


@pytest.fixture(scope="module")
def logdir(tmp_path_factory) -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real test data not found at {SHARED_DATA} (../shared/data beside the repo)")
    root = tmp_path_factory.mktemp("variants") / "logs"
    for base in BASES.values():
        docs = trace_variants.load_base(SHARED_DATA, base)
        for name, make in VARIANTS.items():
            trace_variants.write_run(
                root / base.name / name, [make(doc) for doc in docs], age_s=FINISHED_AGE_S
            )
    return root


@pytest.fixture(scope="module")
def client(logdir) -> PluginClient:
    return PluginClient(logdir)


# --- answers ----------------------------------------------------------------------------------


class Answers:
    """Requests of one variant, each checked as it answers; counts what was asked."""

    def __init__(self, client: PluginClient) -> None:
        self.client = client
        self.requests = 0
        self.routes: set[str] = set()

    def get(self, route: str, **params: Any) -> tuple[int, Any]:
        self.requests += 1
        self.routes.add(f"/{route}")
        params = {k: str(v) for k, v in params.items() if v is not None}
        deadline = time.monotonic() + POLL_DEADLINE_S
        while True:
            response = self.client.get(route, **params)
            text = response.get_data(as_text=True)
            where = f"{route}?{params}"
            if response.status_code != 202:
                break
            assert "progress" in response.get_json(), where
            assert time.monotonic() < deadline, f"{where}: still 202 after {POLL_DEADLINE_S} s"
            time.sleep(0.05)
        assert response.status_code in (200, 400, 404), f"{where}: {response.status_code} {text}"
        assert response.mimetype == "application/json", where
        assert "Traceback (most recent call last)" not in text, f"{where}: {text[:2000]}"
        body = response.get_json()
        if response.status_code != 200:
            error = body["error"]
            assert error["code"] in ("invalid_argument", "not_found", "unreadable"), where
            assert len(error["message"]) > 10, f"{where}: an error that does not say why"
        return response.status_code, body


def _says_why(body: dict[str, Any], *keys: str) -> bool:
    """A non-empty warning or reason string among `keys` (lists of strings or strings)."""
    for key in keys:
        value = body.get(key)
        if isinstance(value, str) and value.strip():
            return True
        if isinstance(value, list) and any(isinstance(v, str) and v.strip() for v in value):
            return True
    return False


def _run_routes(answers: Answers, run: str, baseline: str) -> dict[str, Any]:
    """Every route on one run, with parameters taken from the run's own answers."""
    get = answers.get
    seen: dict[str, Any] = {}
    status, runs = get("runs")
    assert status == 200 and run in {r["name"] for r in runs}
    status, notices = get("notices")  # the logdir's variants leave nothing out
    assert (status, notices) == (200, {"notices": [], "total": 0})
    ranks = next(r["ranks"] for r in runs if r["name"] == run)
    rank_args = [None, *ranks]

    status, summary = get("summary", run=run)
    seen["summary"] = (status, summary)
    if status == 200:  # the ranks once the run is read (the frontend takes them from here too)
        ranks = [r["rank"] for r in summary["ranks"]]
        rank_args = [None, *ranks]
    for rank in ranks:
        get("summary", run=run, rank=rank)
    seen["findings"] = get("findings", run=run)
    for rank in rank_args:
        seen.setdefault("breakdown", get("breakdown", run=run, rank=rank))
        seen.setdefault("distributed", get("distributed", run=run, rank=rank))
        seen.setdefault("critical_path", get("critical_path", run=run, rank=rank))
        for group_by in ("name", "input_dims"):
            seen.setdefault("operators", get("operators", run=run, rank=rank, group_by=group_by,
                                             limit=5))  # fmt: skip
        seen.setdefault("kernels", get("kernels", run=run, rank=rank, limit=5))
        seen.setdefault("python", get("python", run=run, rank=rank, sort="self_ns", q="a",
                                      limit=5))  # fmt: skip
        seen.setdefault("memory", get("memory", run=run, rank=rank))
        seen.setdefault("memory/operators", get("memory/operators", run=run, rank=rank,
                                                device="", start="", end="", limit=5))  # fmt: skip
        seen.setdefault("gpu", get("gpu", run=run, rank=rank))
        seen.setdefault("modules", get("modules", run=run, rank=rank))
    seen["tasks"] = get("tasks", run=run)
    status, modules = seen["modules"]
    paths = [row["path"] for row in modules.get("rows", [])[:2]] if status == 200 else []
    for path in paths or ["no.such.module"]:
        for phase in ("forward", "backward", "total"):
            get("module_steps", run=run, rank=ranks[0] if ranks else None, path=path, phase=phase)
    for metric in RankMetric:
        seen[f"rank_heatmap:{metric.value}"] = get("rank_heatmap", run=run, metric=metric.value)
    seen["compare"] = get("compare", baseline=baseline, candidate=run)
    get("compare", baseline=run, candidate=baseline)
    # no variant holds a snapshot: each snapshot route must say so, not fail
    get("snapshot", run=run, file=NO_SNAPSHOT)
    get("snapshot/tile", run=run, file=NO_SNAPSHOT, device=0, start=0, end=1000, width_px=100)
    get("snapshot/allocation", run=run, file=NO_SNAPSHOT, device=0, index=0)

    status, meta = get("timeline/meta", run=run)
    seen["timeline/meta"] = (status, meta)
    end = meta["end"] + 1 if status == 200 else 1_000_000
    # the timeline's ranks: a trace's distributedInfo may name another rank than its file
    # name (test_ranks_agree_between_runs_and_the_timeline)
    if status == 200:
        ranks = [r["rank"] for r in meta["ranks"]]
    rank_list = ",".join(map(str, ranks)) or None
    windows = [(0, end), (end // 3, max(end // 3 + 1, end // 2))]
    if status == 200 and meta["steps"]:
        step = meta["steps"][0]
        windows.append((step["start"], max(step["end"], step["start"] + 1)))
    ids: dict[int, int] = {}
    names: list[str] = []
    for start, stop in windows:
        status, tiles = get("timeline/tiles", run=run, start=start, end=stop, width_px=800,
                            ranks=rank_list)  # fmt: skip
        if status != 200:
            continue
        names += tiles["names"]
        for lane in tiles["lanes"]:
            rank = int(lane["id"].split("/", 1)[0])
            for event_id in lane["boxes"]["id"]:
                if event_id >= 0:
                    ids.setdefault(rank, event_id)
        for flow in tiles["flows"]:
            ids.setdefault(flow["to"]["rank"], flow["to"]["id"])
    for rank in ranks:
        event_id = ids.get(rank, 0)
        status, event = get("timeline/event", run=run, rank=rank, id=event_id)
        if rank in ids:
            assert status == 200 and event["id"] == event_id, (run, rank, event)
    terms = [names[0][:12]] if names else []
    for term in [*terms, "ProfilerStep", "cuda", "zz-no-such-event"]:
        status, found = get("timeline/search", run=run, q=term, limit=10, ranks=rank_list)
        if status == 200 and term in terms:
            assert found["total"] > 0, (run, term)
    return seen


# --- routes -----------------------------------------------------------------------------------


def test_every_route_is_exercised(client):
    """The routes `_run_routes` calls are every route of the plugin, each with exactly the
    parameters its handler reads."""
    apps = client.plugin.get_plugin_apps()
    answers = Answers(client)
    _run_routes(answers, "resnet/full", "resnet/full")
    assert answers.routes == set(apps) - {"/static/*"}, "give each new route its parameters"
    source = inspect.getsource(_run_routes)
    for route in answers.routes:
        handler = inspect.getsource(inspect.unwrap(apps[route]))
        handler_params = set(re.findall(r'args\.get\("(\w+)"\)', handler))
        calls = re.findall(rf'get\(\s*"{route[1:]}"((?:[^()]|\([^()]*\))*)\)', source)
        passed = {name for call in calls for name in re.findall(r"(\w+)=", call)}
        assert handler_params <= passed, f"{route}: {sorted(handler_params - passed)} not passed"


@pytest.mark.parametrize(("base", "variant"), CASES)
def test_every_route_answers_every_variant(client, base, variant):
    answers = Answers(client)
    run = f"{base}/{variant}"
    seen = _run_routes(answers, run, f"{base}/full")
    assert answers.routes == set(client.plugin.get_plugin_apps()) - {"/static/*"}
    status, summary = seen["summary"]
    if variant == "empty_events":
        # nothing to show: the routes of the run's traces say the trace holds no events
        for route in ("summary", "findings", "breakdown", "distributed", "kernels",
                      "timeline/meta"):  # fmt: skip
            status, body = seen[route]
            assert status == 404 and "holds no events" in body["error"]["message"], route
        return
    assert status == 200, summary
    _check_empty_states(run, seen)


def _check_empty_states(run: str, seen: dict[str, Any]) -> None:
    """The views with nothing to show that say why in the answer (the ones that do not are
    test_empty_views_say_why)."""
    status, summary = seen["summary"]
    # an empty span table says why in its own reason, not in a warning that is not one
    assert bool(summary["spans"]) != _says_why(summary, "spans_empty_reason"), (run, summary)
    assert not any("MyTimer" in w for w in summary["warnings"]), (run, summary["warnings"])
    # a run of traces has an Overview: not the notice of a run without any
    assert (summary["empty_reason"], summary["empty_view"]) == (None, None), (run, summary)
    status, gpu = seen["gpu"]
    if status == 200 and not gpu["ranks"]:
        assert _says_why(gpu, "gpu_reason"), (run, gpu)
    for metric in RankMetric:
        status, heatmap = seen[f"rank_heatmap:{metric.value}"]
        if status == 200 and not heatmap["ranks"]:
            assert _says_why(heatmap, "reason"), (run, metric, heatmap)
    status, compare = seen["compare"]
    if status == 200 and compare["step_time"]["ratio"] is None:
        assert _says_why(compare["step_time"], "headline"), (run, compare)
    for route, rows in EMPTY_REASON_ROWS.items():  # the views whose answer says `empty_reason`
        status, body = seen[route]
        if status == 200:
            assert bool(body[rows]) != _says_why(body, "empty_reason"), (run, route, body)
    status, meta = seen["timeline/meta"]
    assert status == 200 and meta["events"] > 0 and meta["ranks"], (run, meta)
    if run.startswith("ddp_memory/") and not run.endswith(("gpu_only", "one_thread")):
        # its [memory] events with totals are a counter lane
        lanes = [lane for rank in meta["ranks"] for lane in rank["lanes"]]
        assert any(lane["kind"] == "counter" for lane in lanes), (run, lanes)


# the views that say why they are empty in `empty_reason` (null when not): route -> the list
EMPTY_REASON_ROWS = {"kernels": "rows", "operators": "rows", "memory": "ranks", "modules": "rows",
                     "memory/operators": "rows",
                     "python": "rows", "tasks": "tasks"}  # fmt: skip

# views that answered an empty list and no warning, reason or message (issue 16, build item 5;
# the frontend wrote its own sentence for most): (route, variant where it is empty)
SILENT_EMPTY_VIEWS = [
    ("kernels", "no_device_events"),
    ("operators", "gpu_only"),
    ("memory", "no_profiler_step"),  # its [memory] events fall in no step
    ("modules", "full"),
    ("python", "full"),
    ("tasks", "full"),
]


@pytest.mark.parametrize(("route", "variant"), SILENT_EMPTY_VIEWS)
def test_empty_views_say_why(client, route, variant):
    status, body = Answers(client).get(route, run=f"ddp_memory/{variant}")
    assert status == 200
    assert body[EMPTY_REASON_ROWS[route]] == []
    assert _says_why(body, "empty_reason"), body
    if route == "memory":  # the trace's [memory] events, without steps to read them over
        assert "[memory] events" in body["empty_reason"], body
        assert "fall in no step" in body["empty_reason"], body


def test_the_traces_memory_events_are_the_memory_view(client):
    """ddp_memory's trace was recorded with profile_memory=True: its "Total Allocated" per step
    is rank 1's memory, from the trace (there are no MemorySampler records)."""
    status, body = Answers(client).get("memory", run="ddp_memory/full")
    assert status == 200 and body["empty_reason"] is None
    (rank,) = body["ranks"]
    assert (rank["rank"], rank["source"]) == (1, "trace") and rank["device"].startswith("cuda")
    assert rank["steps"] and rank["max_peak"]["bytes"] > 0


def test_ranks_agree_between_runs_and_the_timeline(logdir):
    """ddp_memory's trace is rank 1 by its distributedInfo, written as worker0.1.pt.trace.json
    (a torch-tb-profiler worker name): once the run is read every route gives it rank 1 (there
    was a phantom rank 0 with empty views in `summary`, and `runs` said [0], so the frontend
    asked the timeline for rank 0: 400). Before, `runs` numbers it by its file name
    (docs/HTTP_API.md) and does not read the run to learn better."""
    client = PluginClient(logdir)  # nothing read yet
    answers = Answers(client)
    run = "ddp_memory/full"

    def listed() -> list[int]:
        return next(r["ranks"] for r in answers.get("runs")[1] if r["name"] == run)

    assert listed() == [0]  # the file name's
    assert not client.plugin._store._jobs._jobs  # `runs` started no read
    _, summary = answers.get("summary", run=run)
    _, meta = answers.get("timeline/meta", run=run)
    timeline = [r["rank"] for r in meta["ranks"]]
    assert timeline == [1]
    assert [r["rank"] for r in summary["ranks"]] == timeline
    assert listed() == timeline
    for route in ("summary", "breakdown", "distributed", "operators", "kernels", "memory", "gpu",
                  "modules", "python"):  # fmt: skip
        status, body = answers.get(route, run=run, rank=0)
        assert status == 400 and "ranks: [1]" in body["error"]["message"], (route, body)
        assert answers.get(route, run=run, rank=1)[0] == 200, route
    rank_list = ",".join(map(str, timeline))
    status, _ = answers.get("timeline/tiles", run=run, start=0, end=meta["end"] + 1,
                            width_px=100, ranks=rank_list)  # fmt: skip
    assert status == 200


def test_runtime_without_device_events_has_a_timeline(client, logdir, tmp_path):
    """Issue 16, item 11: launches with correlation ids and flow starts but no kernels (a
    CUPTI range-profiler trace) made timeline/meta, timeline/search and export-trace fail
    with IndexError in `_flow_partners`."""
    for base in BASES:
        run = f"{base}/no_device_events"
        answers = Answers(client)
        status, meta = answers.get("timeline/meta", run=run)
        assert status == 200 and meta["events"] > 0
        lanes = [lane for rank in meta["ranks"] for lane in rank["lanes"]]
        assert lanes and all(lane["kind"] != "gpu" for lane in lanes)
        status, found = answers.get("timeline/search", run=run, q="cuda", limit=5)
        assert status == 200 and found["total"] > 0
        status, tiles = answers.get("timeline/tiles", run=run, start=0, end=meta["end"] + 1,
                                    width_px=400)  # fmt: skip
        assert status == 200 and tiles["flows"] == []
        out = tmp_path / f"{base}.json"
        code, _, err = _cli(["export-trace", run, "--logdir", str(logdir), "-o", str(out)])
        assert code == 0, err
        assert any(e["ph"] == "X" for e in json.loads(out.read_text())["traceEvents"])


def test_profiler_step_is_an_annotation_in_the_2021_schema(client):
    """docs/HTTP_API.md: `annotation` marks `record_function` and `ProfilerStep#N` rows; the
    hotspot rule leaves annotations out. The 2021 trace (one step in its window, as with a
    profiler schedule of active=1) must not say "ProfilerStep#5 takes 55% of ... step time"."""
    answers = Answers(client)
    _, operators = answers.get("operators", run="resnet/full", limit=1000)
    steps = [row for row in operators["rows"] if row["name"].startswith("ProfilerStep#")]
    _, findings = answers.get("findings", run="resnet/full")
    hotspots = [f["title"] for f in findings["findings"] if f["kind"] == "hotspot"]
    assert steps and all(row["annotation"] for row in steps), steps
    assert not any("ProfilerStep" in title for title in hotspots), hotspots


def test_compare_with_a_run_without_steps_names_the_real_reason(client):
    """Both runs hold the same rank 0 trace; the candidate has no ProfilerStep. The note must
    not say the world sizes differ (1 vs 0 ranks)."""
    _, body = Answers(client).get(
        "compare", baseline="resnet/full", candidate="resnet/no_profiler_step"
    )
    assert body["step_time"]["headline"]
    assert body["ranks"] == {
        "matched": [0], "baseline_world": 1, "candidate_world": 1,
        "note": "the candidate has no completed steps (no MyTimer step, no ProfilerStep#N): "
        "step times are not compared",
    }  # fmt: skip


def test_a_finished_empty_trace_stops_being_still_written(tmp_path, monkeypatch):
    """A complete trace with an empty event list, first read within IN_PROGRESS_NS of its
    write, is "still being written; shown once complete"; once it is old enough it is a
    trace that holds no events. The clock is moved by making IN_PROGRESS_NS 0."""
    from tb_perf_plugin import discovery

    logdir = tmp_path / "logs"
    trace_variants.write_run(logdir / "empty", [{"schemaVersion": 1, "traceEvents": []}])
    client = PluginClient(logdir)
    answers = Answers(client)
    status, summary = answers.get("summary", run="empty")
    assert status == 200 and any("still being written" in w for w in summary["warnings"])
    monkeypatch.setattr(discovery, "IN_PROGRESS_NS", 0)  # the file is now old enough
    status, summary = answers.get("summary", run="empty")
    assert status == 404 and "holds no events" in summary["error"]["message"]


# --- a hand-made trace for item 11, without ../shared/data --------------------------------------


def _launch_only_trace(with_kernels: bool, with_launches: bool = True) -> dict[str, Any]:
    """A step of three cudaLaunchKernel calls under an aten op, with correlation ids and ac2g
    flow starts; with_kernels adds the kernels they launched (and the flow ends)."""
    pid, tid = 100, 100
    events: list[dict[str, Any]] = [
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": "main"}},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": pid, "tid": tid,
         "ts": 1000, "dur": 400},
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": pid, "tid": tid, "ts": 1010,
         "dur": 300, "args": {"External id": 1}},
    ]  # fmt: skip
    for i in range(3):
        corr = 50 + i
        if with_launches:
            events.append({
                "ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid,
                "tid": tid, "ts": 1020 + 50 * i, "dur": 20,
                "args": {"correlation": corr, "External id": 1},
            })  # fmt: skip
            events.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": corr, "pid": pid,
                           "tid": tid, "ts": 1020 + 50 * i})  # fmt: skip
        if with_kernels:
            events.append({
                "ph": "X", "cat": "kernel", "name": f"add_kernel_{i}", "pid": 0, "tid": 7,
                "ts": 1100 + 50 * i, "dur": 30,
                "args": {"device": 0, "stream": 7, "correlation": corr, "External id": 1},
            })  # fmt: skip
            events.append({"ph": "f", "cat": "ac2g", "name": "ac2g", "id": corr, "pid": 0,
                           "tid": 7, "ts": 1100 + 50 * i, "bp": "e"})  # fmt: skip
    return {"schemaVersion": 1, "traceEvents": events}


@pytest.mark.parametrize(
    ("kernels", "launches"), [(False, True), (True, False), (True, True)],
    ids=["launches_without_kernels", "kernels_without_launches", "both"],
)  # fmt: skip
def test_hand_made_launch_traces_have_a_timeline(tmp_path, kernels, launches):
    """Item 11 without the shared data: launches whose kernels are absent, kernels whose
    launches are absent, and both (the one case with flows)."""
    logdir = tmp_path / "logs"
    trace = _launch_only_trace(kernels, launches)
    trace_variants.write_run(logdir / "cupti", [trace], age_s=FINISHED_AGE_S)
    client = PluginClient(logdir)
    answers = Answers(client)
    status, meta = answers.get("timeline/meta", run="cupti")
    assert status == 200, meta
    assert meta["events"] == 2 + 3 * launches + 3 * kernels
    status, found = answers.get("timeline/search", run="cupti", q="launch", limit=5)
    assert status == 200 and found["total"] == 3 * launches
    status, tiles = answers.get("timeline/tiles", run="cupti", start=0, end=meta["end"] + 1,
                                width_px=100)  # fmt: skip
    assert status == 200 and len(tiles["flows"]) == (3 if kernels and launches else 0)
    for event_id in range(meta["events"]):
        status, event = answers.get("timeline/event", run="cupti", rank=0, id=event_id)
        assert status == 200
        linked = kernels and launches and event["kind"] in ("runtime", "kernel")
        assert (event["flow"] is not None) == linked, event
    out = tmp_path / "merged.json.gz"
    code, _, err = _cli(["export-trace", "cupti", "--logdir", str(logdir), "-o", str(out)])
    assert code == 0, err
    exported = json.load(gzip.open(out))["traceEvents"]
    assert len([e for e in exported if e["ph"] == "X"]) == meta["events"]


# --- the generator does what the names say ------------------------------------------------------


def test_variants_take_out_what_their_names_say():
    doc = _launch_only_trace(True)
    doc["deviceProperties"] = [{"id": 0}]
    doc["distributedInfo"] = {"rank": 0}
    full = trace_variants.counts(doc)
    assert full["device"] == full["runtime"] == 3 and full["flow"] == 6
    made = {name: make(doc) for name, make in VARIANTS.items()}
    assert "device" not in trace_variants.counts(made["no_device_events"])
    assert "cpu_op" not in trace_variants.counts(made["no_cpu_ops"])
    assert "runtime" not in trace_variants.counts(made["no_runtime"])
    assert "flow" not in trace_variants.counts(made["no_flows"])
    assert "profiler_step" not in trace_variants.counts(made["no_profiler_step"])
    assert set(trace_variants.counts(made["gpu_only"])) == {"device", "metadata"}
    assert "deviceProperties" not in made["no_device_properties"]
    assert "distributedInfo" not in made["no_distributed_info"]
    assert len(made["duplicated"]["traceEvents"]) == 2 * len(doc["traceEvents"])
    shuffled = made["out_of_order"]["traceEvents"]
    assert shuffled != doc["traceEvents"] and sorted(map(json.dumps, shuffled)) == sorted(
        map(json.dumps, doc["traceEvents"])
    )
    assert made["empty_events"]["traceEvents"] == [] and made["empty_events"]["schemaVersion"]
    assert doc["traceEvents"] and made["full"] is doc  # the source is never changed


def test_one_thread_keeps_the_busiest_host_thread_and_the_device():
    doc = _launch_only_trace(True)
    doc["traceEvents"].append(
        {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 100, "tid": 101, "ts": 1500,
         "dur": 5}
    )  # fmt: skip
    kept = trace_variants.one_thread(doc)["traceEvents"]
    assert not any(e.get("tid") == 101 for e in kept)
    assert trace_variants.counts(trace_variants.one_thread(doc))["device"] == 3


# --- the CLI ----------------------------------------------------------------------------------


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """`tb-perf ARGV` in-process: (exit code, stdout, stderr); an exception escaping `main`
    is a traceback the user would see, so it fails the test with its text."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("base", "variant"), CASES)
def test_every_cli_command_on_every_variant(logdir, tmp_path, base, variant):
    run = f"{base}/{variant}"
    at = ["--logdir", str(logdir)]
    first = json.loads((logdir / base / variant / trace_variants.trace_name(0)).read_text())
    rank = str(first.get("distributedInfo", {}).get("rank", 0))  # the timeline's rank
    commands = [
        ["analyze", str(logdir / base / variant), "--format", "text"],  # a run directory
        ["analyze", run, *at, "--format", "json"],
        ["analyze", run, *at, "--rank", rank, "--format", "md"],
        ["export-trace", run, *at, "-o", str(tmp_path / "merged.json.gz")],
        ["report", run, *at, "-o", str(tmp_path / "report.html")],
        ["diff", f"{base}/full", run, *at, "--format", "text"],
    ]
    for argv in commands:
        code, out, err = _cli(argv)
        what = f"tb-perf {' '.join(argv)} -> {code}\n{err[-3000:]}"
        assert code in (0, 2, 3), what
        assert "Traceback" not in err and "Traceback" not in out, what
        if code != 0:
            assert err.startswith("tb-perf: ") and len(err.strip()) > 12, what
        if variant == "empty_events" and argv[0] in ("analyze", "export-trace", "report"):
            assert code == 3 and "no events" in err, what
        elif argv[0] in ("analyze", "export-trace", "report"):
            assert code == 0, what
        if code == 0 and "json" in argv:
            assert json.loads(out)["run"] == run, what


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_unknown_values_never_print_as_python_none(logdir, tmp_path, fmt):
    """A trace-only run has no rank metadata, so no host: it should print as "-" as the
    other unknown cells do, not as Python's None."""
    at = ["resnet/full", "--logdir", str(logdir)]
    if fmt == "html":
        out_file = tmp_path / "report.html"
        code, _, err = _cli(["report", *at, "-o", str(out_file)])
        out = out_file.read_text() if code == 0 else ""
    else:
        code, out, err = _cli(["analyze", *at, "--format", fmt])
    assert code == 0, err
    assert not re.search(
        r"(?<![\w.])(None|nan|NaN)(?![\w.])", re.sub(r"<script.*?</script>", "", out, flags=re.S)
    ), out


@pytest.mark.parametrize("base", sorted(BASES))
def test_a_trace_only_run_has_the_steps_and_world_size_of_its_traces(client, base):
    """Issue 19: a run of torch.profiler traces alone counts its ProfilerStep#N windows as its
    steps, per rank, and takes the world size from distributedInfo (there were 0 steps)."""
    docs = trace_variants.load_base(SHARED_DATA, BASES[base])
    steps = {
        int(e["name"].split("#", 1)[1])
        for doc in docs
        for e in (doc["traceEvents"] if isinstance(doc, dict) else doc)
        if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")
    }
    sizes = {
        doc.get("distributedInfo", {}).get("world_size") for doc in docs if isinstance(doc, dict)
    }
    status, summary = Answers(client).get("summary", run=f"{BASES[base].name}/full")
    assert status == 200
    assert summary["steps"]["count"] == len(steps)
    if steps:
        assert (summary["steps"]["first"], summary["steps"]["last"]) == (min(steps), max(steps))
        assert all(r["step_source"] == "ProfilerStep" for r in summary["ranks"] if r["steps"])
        assert sum(s["steps"] != [] for s in summary["step_series"]) >= 1
    known = sizes - {None}
    if known:
        assert {r["world_size"] for r in summary["ranks"]} == known
    assert not any("collector data only" in w for w in summary["warnings"])
