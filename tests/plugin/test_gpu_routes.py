"""The gpu route over hand-written GpuTracker and timer files (test_memory_routes' run): GPU
series per rank on one time axis, step boundaries, and why a rank has no GPU samples; the GPU
summary of a run of torch.profiler traces alone (two NCCL ranks)."""

from __future__ import annotations

import os

from tests.plugin.test_memory_routes import (
    DEVICE_TOTAL,
    MIB,
    STEP_NS,
    STEPS,
    T0,
    gpu_sample,
    memory_logdir,  # noqa: F401 (fixture)
)


def test_gpu_series_and_step_boundaries(memory_logdir, make_client):  # noqa: F811
    body = make_client(memory_logdir).json("gpu", run="mem")
    assert body["gpu_reason"] is None and int(body["origin_ns"]) == T0
    zero, one = body["ranks"]
    assert (zero["rank"], zero["interval_s"], zero["gpu_backend"]) == (0, 1.0, "nvml")
    assert zero["gpu_reason"] is None
    (device,) = zero["devices"]
    assert (device["index"], device["name"], device["bucket"]) == (0, "NVIDIA H100", 1)
    assert device["t_ns"] == [i * 10**9 // 4 for i in range(17)]
    assert device["util"] == [float(gpu_sample(i)["util"]) for i in range(17)]
    assert device["mem_used"] == [5 * 1024**3 + i * MIB for i in range(17)]
    assert device["mem_total"] == [DEVICE_TOTAL] * 17
    assert device["power_w"][0] == 250.5 and device["sm_clock_mhz"][0] == 1410
    assert device["temp_c"][0] == 60 and device["pcie_tx"] is None  # not sampled: null
    assert zero["cpu_pct"] == [99.5] * 17 and zero["rss"] == [3 * 1024**3] * 17
    starts = [s * STEP_NS for s in range(STEPS)]
    assert zero["steps"] == {"step": list(range(STEPS)), "start_ns": starts, "every": 1}
    # rank 1 has CPU samples only, and its metadata says why
    assert one["devices"] == [] and one["gpu_reason"] == "pynvml is not installed"
    assert one["cpu_pct"] == [12.0] * 17


def test_gpu_rank_selection_and_reason_when_absent(memory_logdir, make_client):  # noqa: F811
    client = make_client(memory_logdir)
    body = client.json("gpu", run="mem", rank="1")
    assert [r["rank"] for r in body["ranks"]] == [1]
    assert body["gpu_reason"] == "rank 1: pynvml is not installed"
    assert client.json("gpu", expect=400, run="mem", rank="7")["error"]["code"] == (
        "invalid_argument"
    )


def test_gpu_route_without_tracker(training_logdir, make_client):
    body = make_client(training_logdir).json("gpu", run="exp/a")
    assert body["ranks"] == []
    assert body["gpu_reason"] == (
        "no GpuTracker records in this run (collectors.GpuTracker did not run)"
    )
    assert body["gpus"] == []  # no traces, no GPU summary


def test_gpu_summary_of_a_trace_only_run_per_rank(tmp_path, shared_data, make_client):
    source = shared_data / "traces/facebookresearch__HolisticTraceAnalysis/tests/data/trace_filter"
    (tmp_path / "pair").mkdir()
    for rank in (0, 1):
        os.symlink(source / f"sampled_rank-{rank}.json.gz",
                   tmp_path / "pair" / f"rank{rank}.1.pt.trace.json.gz")  # fmt: skip
    client = make_client(tmp_path)
    body = client.json("gpu", run="pair")
    assert body["ranks"] == [] and "GpuTracker" in body["gpu_reason"]
    assert sorted(g["rank"] for g in body["gpus"]) == [0, 1]
    assert body["gpus"] == client.json("summary", run="pair")["gpus"]  # one computation
    (one,) = client.json("gpu", run="pair", rank="1")["gpus"]
    assert one == next(g for g in body["gpus"] if g["rank"] == 1)
    assert 0 < one["utilization"] <= 1


def test_long_series_are_bucketed(tmp_path, make_client):
    """More samples than MAX_SERIES_POINTS: bucket means, every point its bucket's first time."""
    from tests.plugin.test_memory_routes import _write

    run = tmp_path / "long"
    data = run / "plugins" / "tb_perf"
    data.mkdir(parents=True)
    (run / "events.out.tfevents.1.h.1").write_bytes(b"")
    samples = [{"k": "sys", "t": T0 + i * 10**9, "cpu_pct": float(i % 2), "rss": 1000 + i,
                "gpus": [{"index": 0, "util": float(i % 4)}]} for i in range(5000)]  # fmt: skip
    _write(data / "rank0.h.1.system.jsonl", "tb_perf.system", samples)
    body = make_client(tmp_path).json("gpu", run="long")
    (rank,) = body["ranks"]
    assert rank["bucket"] == 3 and len(rank["t_ns"]) == 1667
    assert rank["t_ns"][:2] == [0, 3 * 10**9]
    assert rank["cpu_pct"][:2] == [round(1 / 3, 2), round(2 / 3, 2)]
    assert rank["rss"][0] == 1001 and rank["rss"][-1] == round(5998.5)  # the last: 2 values
    assert rank["devices"][0]["util"][:2] == [1.0, round(4 / 3, 3)]
    assert rank["gpu_reason"] is None and rank["interval_s"] is None  # no metadata file
