"""Timeline routes over real traces: bounded tiles that account for every event, details,
flows, search, alignment method, and bad parameters."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.tables import Kind
from tb_perf_plugin.pipeline.levels import json_digits

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"
SAMPLES = "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0"
HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
PAIR = f"{HTA}/trace_filter"
GPU_TRACE = "worker0.1623143089861.pt.trace.json.gz"


@pytest.fixture
def trace_logdir(tmp_path, shared_data):
    """Links to real traces: a torch-tb-profiler sample run and a two-rank pair."""
    (tmp_path / "v100").mkdir()
    os.symlink(shared_data / SAMPLES / GPU_TRACE, tmp_path / "v100" / GPU_TRACE)
    (tmp_path / "pair").mkdir()
    for rank in (0, 1):
        os.symlink(
            shared_data / PAIR / f"sampled_rank-{rank}.json.gz",
            tmp_path / "pair" / f"sampled_rank-{rank}.pt.trace.json.gz",
        )
    return tmp_path


def test_meta_lanes_steps_and_alignment(trace_logdir, make_client):
    meta = make_client(trace_logdir).json("timeline/meta", run="v100")
    assert int(meta["origin_ns"]) > 1.6e18 and meta["start"] == 0 and meta["end"] > 0
    (rank,) = meta["ranks"]
    assert rank["alignment"]["method"] == "reference"
    kinds = {lane["id"]: lane["kind"] for lane in rank["lanes"]}
    assert kinds["0/gpu/0/7"] == "gpu"
    assert kinds["0/cpu/25738/25738"] == "cpu"
    raw = read_trace(str(trace_logdir / "v100" / GPU_TRACE))
    profiler_steps = sorted(
        int(n.split("#")[1]) for n in raw.names if n.startswith("ProfilerStep#")
    )
    assert [s["step"] for s in meta["steps"]] == profiler_steps == list(range(5, 11))
    assert meta["events"] == len(raw.slices["start"])


def test_two_trace_spans_of_one_worker_are_two_windows(resnet_logdir, make_client):
    """The torch-tb-profiler sample: two traces of one worker ~8 minutes apart. Each is a
    window spanning exactly its file's events; the gap between them is not one."""
    run = "resnet50_num_workers_0"
    meta = make_client(resnet_logdir).json("timeline/meta", run=run)
    origin = int(meta["origin_ns"])
    expected = []
    for path in sorted((resnet_logdir / run).iterdir()):
        raw = read_trace(str(path))
        start = np.asarray(raw.slices["start"])
        end = start + np.asarray(raw.slices["dur"])
        expected.append((int(start.min()) - origin, int(end.max()) - origin, path.name))
    expected.sort()
    found = [(w["start_ns"], w["end_ns"], w["files"][0]) for w in meta["windows"]]
    assert found == expected
    assert [w["source"] for w in meta["windows"]] == ["trace", "trace"]
    assert [w["label"] for w in meta["windows"]] == [name.split(".pt.")[0] for *_, name in found]
    first, second = meta["windows"]
    assert first["end_ns"] - first["start_ns"] < 2 * 10**9
    assert second["start_ns"] - first["end_ns"] > 400 * 10**9  # minutes apart
    steps = [s["step"] for s in meta["steps"]]
    assert steps == [*range(5, 11), *range(16, 22)]
    for step in meta["steps"]:  # each step in the window of its file
        window = first if step["step"] < 16 else second
        assert window["start_ns"] <= step["start"] < step["end"] <= window["end_ns"]


def test_a_collector_run_with_traced_steps_is_one_window(make_client):
    """The demo's traced run: MyTimer spans over the whole job hold its two traced windows of
    two ranks, so the Timeline keeps one window over the whole run."""
    meta = make_client(SAMPLE_RUNS).json("timeline/meta", run="ddp_traced")
    (window,) = meta["windows"]
    assert window["source"] == "spans+trace" and len(window["files"]) == 4
    assert window["start_ns"] == 0 and window["end_ns"] <= meta["end"]


def test_whole_run_tile_is_bounded_and_accounts_for_every_event(trace_logdir, make_client):
    client = make_client(trace_logdir)
    meta = client.json("timeline/meta", run="v100")
    response = client.get("timeline/tiles", run="v100", start=0, end=meta["end"] + 1, width_px=1500)
    assert response.status_code == 200
    assert len(response.get_data()) <= 1_000_000
    tiles = response.get_json()
    counts = sum(sum(lane["boxes"]["count"]) for lane in tiles["lanes"])
    assert counts == meta["events"]
    for lane in tiles["lanes"]:
        boxes = lane["boxes"]
        assert len({len(v) for v in boxes.values()}) == 1  # columnar, equal lengths
        merged = [c > 1 for c in boxes["count"]]
        assert all(i == -1 for i, m in zip(boxes["id"], merged, strict=True) if m)


def test_a_window_past_the_end_of_the_run_is_an_empty_tile(trace_logdir, make_client):
    """A user panning past the last event: no boxes, no error (it used to be a 500)."""
    client = make_client(trace_logdir)
    meta = client.json("timeline/meta", run="v100")
    tiles = client.json(
        "timeline/tiles", run="v100", start=meta["end"] + 10**9, end=meta["end"] + 2 * 10**9,
        width_px=800,
    )  # fmt: skip
    assert all(sum(lane["boxes"]["count"]) == 0 for lane in tiles["lanes"])


def test_zoomed_window_returns_the_raw_events(trace_logdir, make_client):
    client = make_client(trace_logdir)
    meta = client.json("timeline/meta", run="v100")
    step = meta["steps"][3]
    start, end = step["start"], step["start"] + 200_000  # 200 µs at 2000 px: 100 ns a pixel
    tiles = client.json("timeline/tiles", run="v100", start=start, end=end, width_px=2000)
    raw = read_trace(str(trace_logdir / "v100" / GPU_TRACE))
    origin = int(meta["origin_ns"])
    kernels = (raw.slices["kind"] == Kind.KERNEL) & (raw.slices["tid"] == 7)
    s = raw.slices["start"][kernels] - origin
    d = raw.slices["dur"][kernels]
    inside = (s < end) & (s + d >= start)
    gpu = next(lane for lane in tiles["lanes"] if lane["id"] == "0/gpu/0/7")["boxes"]
    assert sum(gpu["count"]) == inside.sum() > 0
    singles = sorted(
        (a, b) for a, b, c in zip(gpu["start"], gpu["dur"], gpu["count"], strict=True) if c == 1
    )
    expected = sorted(zip(s[inside].tolist(), d[inside].tolist(), strict=True))
    assert set(singles) <= set(expected)
    names = {tiles["names"][n] for n in gpu["name"]}
    assert names <= set(raw.names)


def test_event_details_and_launch_flow(trace_logdir, make_client):
    client = make_client(trace_logdir)
    found = client.json("timeline/search", run="v100", q="cudaLaunchKernel", limit=5)
    assert found["total"] > 1000 and len(found["matches"]) == 5
    launch = client.json("timeline/event", run="v100", rank=0, id=found["matches"][0]["id"])
    assert launch["kind"] == "runtime" and launch["name"] == "cudaLaunchKernel"
    kernel = client.json("timeline/event", run="v100", rank=0, id=launch["flow"]["id"])
    assert kernel["kind"] == "kernel" and kernel["lane"] == "0/gpu/0/7"
    assert kernel["args"]["correlation"] == launch["args"]["correlation"]
    assert kernel["flow"]["id"] == launch["id"]
    assert kernel["start"] >= launch["start"]
    assert "grid" in kernel["args"] and "registers per thread" in kernel["args"]
    assert launch["step"] in range(5, 11)


def test_search_is_case_insensitive_and_counts_everything(trace_logdir, make_client):
    client = make_client(trace_logdir)
    raw = read_trace(str(trace_logdir / "v100" / GPU_TRACE))
    names = np.array(raw.names, dtype=object)[raw.slices["name"]]
    expected = sum("conv2d" in n.lower() for n in names)
    result = client.json("timeline/search", run="v100", q="CONV2D")
    assert result["total"] == expected > 0
    starts = [m["start"] for m in result["matches"]]
    assert starts == sorted(starts)


def test_point_to_point_pair_is_aligned_by_steps_not_collectives(trace_logdir, make_client):
    meta = make_client(trace_logdir).json("timeline/meta", run="pair")
    methods = {r["rank"]: r["alignment"]["method"] for r in meta["ranks"]}
    assert methods == {0: "reference", 1: "steps"}


@pytest.mark.parametrize(
    ("route", "params", "status"),
    [
        ("timeline/tiles", {"start": 10, "end": 10, "width_px": 100}, 400),
        ("timeline/tiles", {"start": 0, "end": 10, "width_px": 0}, 400),
        ("timeline/tiles", {"start": 0, "end": 10, "width_px": 99999}, 400),
        ("timeline/tiles", {"start": "a", "end": 10, "width_px": 100}, 400),
        ("timeline/tiles", {"start": 0, "end": 10, "width_px": 100, "ranks": "0,9"}, 400),
        ("timeline/event", {"rank": 0, "id": 10**9}, 404),
        ("timeline/event", {"rank": 5, "id": 1}, 400),
        ("timeline/event", {"rank": 0, "id": -1}, 400),
        ("timeline/search", {}, 400),
        ("timeline/search", {"q": "x", "limit": 0}, 400),
    ],
)
def test_bad_timeline_parameters(trace_logdir, make_client, route, params, status):
    response = make_client(trace_logdir).get(route, run="v100", **params)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.get_json()["error"]["code"] in {"invalid_argument", "not_found"}


def test_broken_and_unfinished_traces_keep_the_server_up(trace_logdir, make_client, shared_data):
    whole = (shared_data / SAMPLES / GPU_TRACE).read_bytes()
    broken = trace_logdir / "v100" / "worker1.1.pt.trace.json.gz"
    broken.write_bytes(whole[: len(whole) // 3])
    os.utime(broken, ns=(10**18, 10**18))  # long untouched: a broken file, not one being written
    fresh = trace_logdir / "v100" / "worker2.2.pt.trace.json.gz"
    fresh.write_bytes(whole[: len(whole) // 3])  # just written: still in progress
    client = make_client(trace_logdir)
    summary = client.json("summary", run="v100")
    warnings = " | ".join(summary["warnings"])
    assert "worker1.1.pt.trace.json.gz is a truncated gzip file" in warnings
    assert "worker2.2.pt.trace.json.gz: still being written" in warnings
    assert client.json("timeline/meta", run="v100")["events"] > 0  # the good file still shows
    (trace_logdir / "v100" / "empty.pt.trace.json").write_text(json.dumps({"traceEvents": []}))
    assert client.get("timeline/meta", run="v100").status_code == 200


def test_json_size_estimate_never_undercounts():
    rng = np.random.default_rng(0)
    for values in (
        np.array([0, -1, 9, 10, 99, 100, -1000, 10**15, 10**15 - 1], dtype=np.int64),
        rng.integers(-(10**13), 10**13, 5000),
    ):
        exact = len(json.dumps(values.tolist()))  # "[a, b]": digits, signs, 2 per value
        assert exact <= json_digits(values) + 2 * len(values) <= exact + 2


def test_counter_points_keep_the_last_value_of_each_pixel(tmp_path, shared_data, make_client):
    trace = shared_data / HTA / "df_index_resolver" / "df_index_resolver.json.gz"
    (tmp_path / "df").mkdir()
    os.symlink(trace, tmp_path / "df" / "rank0.pt.trace.json.gz")
    client = make_client(tmp_path)
    meta = client.json("timeline/meta", run="df")
    tiles = client.json("timeline/tiles", run="df", start=0, end=meta["end"] + 1, width_px=200)
    counter = tiles["counters"][0]
    device_type, device_id = map(int, counter["id"].split("/")[-2:])  # rank/counter/memory/t/d
    raw = read_trace(str(trace))
    on_lane = (raw.memory["total_allocated"] >= 0) & (raw.memory["device_type"] == device_type)
    on_lane &= raw.memory["device_id"] == device_id
    ts = np.sort(raw.memory["ts"][on_lane]) - int(meta["origin_ns"])
    assert 1 < len(counter["t"]) <= 201 < len(ts)
    assert counter["t"] == sorted(counter["t"]) and set(counter["t"]) <= set(ts.tolist())
    assert counter["t"][-1] == ts[-1]  # the last point of the last pixel


def test_memory_sampler_and_gpu_tracker_series_are_counter_lanes(make_client):
    """The demo leak run: MemorySampler's RSS per step and GpuTracker's CPU samples are counter
    lanes of each rank, their points the records' own values at the records' times."""
    sample_runs = Path(__file__).resolve().parents[2] / "sample_runs"
    client = make_client(sample_runs)
    meta = client.json("timeline/meta", run="ddp_leak")
    lanes = {lane["id"]: lane for rank in meta["ranks"] for lane in rank["lanes"]}
    assert lanes["1/counter/memory/rss"]["label"] == "Process RSS (bytes)"
    assert "1/counter/system/cpu" in lanes and "1/counter/memory/allocated" not in lanes
    tiles = client.json("timeline/tiles", run="ddp_leak", start=0, end=meta["end"] + 1,
                        width_px=4000)  # fmt: skip
    rss = next(c for c in tiles["counters"] if c["id"] == "1/counter/memory/rss")
    (path,) = (sample_runs / "ddp_leak" / "plugins" / "tb_perf").glob("rank1.*.memory.jsonl")
    records = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert rss["value"] == [r["rss"] for r in records]  # one point per step at 4000 px
    assert rss["value"][-1] - rss["value"][10] > 40 * 2**20  # the leak, seen on the timeline
