"""The memory route over hand-written MemorySampler, GpuTracker and timer files of two ranks
(docs/FORMAT.md): series per rank and step, the trend of a planted leak and its finding,
fragmentation, rank selection, a partial last line, and the run's snapshot files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

T0 = 1_800_000_000_000_000_000
STEP_NS = 100_000_000
GIB, MIB = 1024**3, 1024**2
DEVICE_TOTAL = 16 * GIB
STEPS = 40
LEAK_PER_STEP = 2 * MIB  # rank 0, after its first 4 steps
SNAPSHOT_FILE = "plugins/tb_perf/rank0.node0.100.snapshot.step.0.pickle"


def _meta(rank: int, prefix_pid: int, memory: dict | None, system: dict | None) -> dict:
    meta = {
        "schema": "tb_perf.meta",
        "version": 1,
        "rank": rank,
        "world_size": 2,
        "host": "node0",
        "pid": prefix_pid,
        "started_unix_ns": T0,
        "closed_unix_ns": T0 + 10**10,
        "clock": {"unix_ns": T0, "monotonic_ns": 0, "monotonic_clock": "perf_counter"},
    }
    if memory is not None:
        meta["memory"] = memory
    if system is not None:
        meta["system"] = system
    return meta


def _write(path: Path, schema: str, records: list[dict], tail: str = "") -> None:
    lines = [json.dumps({"schema": schema, "version": 1})] + [json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n" + tail)


def rank0_memory(step: int) -> dict:
    """A CUDA rank whose live memory grows by LEAK_PER_STEP a step after step 3."""
    allocated = 4 * GIB + max(step - 3, 0) * LEAK_PER_STEP + (step % 3) * 4096  # a little noise
    return {"k": "mem", "step": step, "t": T0 + (step + 1) * STEP_NS, "device": "cuda:0",
            "allocated": allocated, "reserved": allocated + 512 * MIB,
            "peak": allocated + 100 * MIB, "retries": 0, "ooms": 0, "rss": 3 * GIB}  # fmt: skip


def rank1_memory(step: int) -> dict:
    """A CUDA rank whose allocator holds 10 GiB for a peak of 3 GiB: fragmentation."""
    return {"k": "mem", "step": step, "t": T0 + (step + 1) * STEP_NS + 5, "device": "cuda:0",
            "allocated": 2 * GIB, "reserved": 10 * GIB, "peak": 3 * GIB, "retries": 2,
            "ooms": 0, "rss": 3 * GIB + step * 1000}  # fmt: skip


def gpu_sample(i: int) -> dict:
    return {"index": 0, "util": 50 + i % 10, "mem_util": 20, "mem_used": 5 * GIB + i * MIB,
            "mem_total": DEVICE_TOTAL, "power_w": 250.5, "sm_clock_mhz": 1410, "temp_c": 60,
            "pcie_tx": None, "pcie_rx": None}  # fmt: skip


def write_memory_run(run_dir: Path) -> None:
    """Two ranks: rank 0 leaks on its GPU (GpuTracker sampled it, the last memory line is cut
    short), rank 1 is fragmented and has no GPU samples (GpuTracker says why)."""
    data = run_dir / "plugins" / "tb_perf"
    data.mkdir(parents=True)
    (run_dir / "events.out.tfevents.1.node0.100.tb_perf").write_bytes(b"")
    for rank, pid in ((0, 100), (1, 101)):
        prefix = data / f"rank{rank}.node0.{pid}"
        steps = [{"k": "step", "step": s, "t0": T0 + s * STEP_NS, "t1": T0 + (s + 1) * STEP_NS}
                 for s in range(STEPS)]  # fmt: skip
        _write(Path(f"{prefix}.timer.jsonl"), "tb_perf.timer", steps)
        make = rank0_memory if rank == 0 else rank1_memory
        tail = '{"k": "mem", "step": 40, "t": 1' if rank == 0 else ""
        _write(Path(f"{prefix}.memory.jsonl"), "tb_perf.memory",
               [make(s) for s in range(STEPS)], tail)  # fmt: skip
        if rank == 0:
            system = {"interval_s": 1.0, "gpu_backend": "nvml", "gpu_reason": None,
                      "gpus": [{"index": 0, "name": "NVIDIA H100", "uuid": "GPU-1",
                                "mem_total": DEVICE_TOTAL}]}  # fmt: skip
            samples = [{"k": "sys", "t": T0 + i * 10**9 // 4, "cpu_pct": 99.5, "rss": 3 * GIB,
                        "gpus": [gpu_sample(i)]} for i in range(17)]  # fmt: skip
        else:
            system = {"interval_s": 1.0, "gpu_backend": None,
                      "gpu_reason": "pynvml is not installed", "gpus": []}  # fmt: skip
            samples = [{"k": "sys", "t": T0 + i * 10**9 // 4, "cpu_pct": 12.0, "rss": 2 * GIB,
                        "gpus": []} for i in range(17)]  # fmt: skip
        _write(Path(f"{prefix}.system.jsonl"), "tb_perf.system", samples)
        memory_meta = {"device": "cuda:0", "reset_peak": False}
        Path(f"{prefix}.meta.json").write_text(json.dumps(_meta(rank, pid, memory_meta, system)))
    (run_dir / SNAPSHOT_FILE).write_bytes(b"not loaded by discovery")
    (run_dir / "elsewhere").mkdir()
    (run_dir / "elsewhere" / "manual_dump.pkl").write_bytes(b"neither")


@pytest.fixture
def memory_logdir(tmp_path) -> Path:
    write_memory_run(tmp_path / "logs" / "mem")
    return tmp_path / "logs"


def test_memory_route_series_per_rank_and_step(memory_logdir, make_client):
    body = make_client(memory_logdir).json("memory", run="mem")
    assert body["rank"] is None and int(body["origin_ns"]) == T0 + STEP_NS
    zero, one = body["ranks"]
    assert (zero["rank"], zero["device"], zero["device_total"]) == (0, "cuda:0", DEVICE_TOTAL)
    assert zero["steps"] == list(range(STEPS)) and zero["bucket"] == 1  # partial line ignored
    assert zero["allocated"] == [rank0_memory(s)["allocated"] for s in range(STEPS)]
    assert zero["reserved"] == [rank0_memory(s)["reserved"] for s in range(STEPS)]
    assert zero["peak"] == [rank0_memory(s)["peak"] for s in range(STEPS)]
    assert zero["rss"] == [3 * GIB] * STEPS
    assert zero["t_ns"] == [s * STEP_NS for s in range(STEPS)]
    assert one["t_ns"][0] == 5  # each rank on the same time axis
    assert one["fragmentation"] == {
        "unused_fraction": 0.7, "unused": 7 * GIB, "reserved": 10 * GIB, "peak": 3 * GIB,
        "retries": 0,  # the cumulative counter did not grow
    }  # fmt: skip
    assert zero["max_peak"] == {"bytes": rank0_memory(STEPS - 1)["peak"], "step": STEPS - 1,
                                "share": rank0_memory(STEPS - 1)["peak"] / DEVICE_TOTAL,
                                "ooms": 0}  # fmt: skip
    # the writer closed, so its cut-short last line is not one being written: reported
    assert body["warnings"][0] == (
        "rank 0 (rank0.node0.100): the last line of rank0.node0.100.memory.jsonl is truncated "
        "(ignored)"
    )
    # the findings skip snapshots that cannot be read, and say so
    assert body["warnings"][1:] == [
        f"snapshot {name}: not a pickle file (snapshots are pickles of protocol 2 or newer, "
        "which start with byte 0x80)"
        for name in ("elsewhere/manual_dump.pkl", SNAPSHOT_FILE)
    ]


def test_leak_trend_and_finding(memory_logdir, make_client):
    client = make_client(memory_logdir)
    body = client.json("memory", run="mem")
    trend = body["ranks"][0]["trend"]
    assert trend["series"] == "allocated" and trend["leak"] is True
    assert trend["slope"] == pytest.approx(LEAK_PER_STEP, rel=0.01)
    assert trend["low"] <= LEAK_PER_STEP <= trend["high"] + 4096
    assert trend["first_step"] == 4 and trend["last_step"] == STEPS - 1  # warm-up: 10 %, >= 3
    # the line drawn on the curve: the fit at the window's ends
    assert trend["start_level"] == pytest.approx(rank0_memory(4)["allocated"], abs=8192)
    assert trend["end_level"] == pytest.approx(rank0_memory(STEPS - 1)["allocated"], abs=8192)
    assert body["ranks"][1]["trend"]["leak"] is False
    kinds = {(f["kind"], tuple(f["ranks"])): f for f in body["findings"]}
    assert set(kinds) == {("memory_leak", (0,)), ("fragmentation", (1,))}
    leak = kinds[("memory_leak", (0,))]
    assert leak["key"] == "memory_leak:rank0" and leak["view"] == {
        "tab": "memory", "params": {"rank": 0}}  # fmt: skip
    evidence = leak["evidence"]
    assert evidence["slope"]["unit"] == "bytes/step"
    assert evidence["device_total"] == {"value": DEVICE_TOTAL, "unit": "bytes"}
    reserved_end = rank0_memory(STEPS - 1)["reserved"]
    expected = STEPS - 1 + (DEVICE_TOTAL - reserved_end) / LEAK_PER_STEP
    assert evidence["out_of_memory_at_step"]["value"] == pytest.approx(expected, abs=20)
    assert leak["severity"] == "warning"  # 5800 steps to go: more than 10x the 35 seen
    # the same findings in the run's findings list (Overview, tb-perf analyze)
    overview = client.json("findings", run="mem")["findings"]
    assert {f["key"] for f in overview} >= {"memory_leak:rank0", "fragmentation:rank1"}


def test_rank_selection_and_snapshot_listing(memory_logdir, make_client):
    client = make_client(memory_logdir)
    body = client.json("memory", run="mem", rank="1")
    assert body["rank"] == 1 and [r["rank"] for r in body["ranks"]] == [1]
    assert [f["kind"] for f in body["findings"]] == ["fragmentation"]
    assert [s["file"] for s in body["snapshots"]] == ["elsewhere/manual_dump.pkl"]  # no rank
    everything = client.json("memory", run="mem")["snapshots"]
    assert [(s["file"], s["rank"]) for s in everything] == [
        ("elsewhere/manual_dump.pkl", None),
        ("plugins/tb_perf/rank0.node0.100.snapshot.step.0.pickle", 0),
    ]
    assert everything[1]["bytes"] == len(b"not loaded by discovery")
    runs = client.json("runs")
    assert runs[0]["sources"] == ["tfevents", "memory", "system", "timer", "snapshot"]
    for bad in ("2", "x", "-1"):
        error = client.json("memory", expect=400, run="mem", rank=bad)["error"]
        assert error["code"] == "invalid_argument"
    assert client.json("memory", expect=404, run="nope")["error"]["code"] == "not_found"
    assert client.json("memory", expect=400)["error"]["code"] == "invalid_argument"


def test_run_without_memory_records(training_logdir, make_client):
    body = make_client(training_logdir).json("memory", run="exp/a")
    assert body["ranks"] == [] and body["findings"] == [] and body["snapshots"] == []


def test_unreadable_memory_file_is_a_warning(memory_logdir, make_client):
    path = next((memory_logdir / "mem").rglob("rank1.*.memory.jsonl"))
    path.write_text('{"schema": "tb_perf.memory", "version": 2}\n{"k": "mem"}\n')
    body = make_client(memory_logdir).json("memory", run="mem")
    assert [r["rank"] for r in body["ranks"]] == [0]
    (warning,) = [w for w in body["warnings"] if w.startswith("rank 1")]
    assert "version 2 is not supported" in warning
