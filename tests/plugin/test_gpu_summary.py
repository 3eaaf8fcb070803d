"""The GPU summary (analysis/gpu_summary.py) and the execution summary (analysis/execution.py):
exact numbers on hand-made kernels and breakdowns, torch-tb-profiler 0.4.3's own numbers on the
V100 ResNet-50 samples, and what the A100, B200 and MI300X traces say of their devices."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tb_perf_plugin.analysis.breakdown import CATEGORIES, StepBreakdown
from tb_perf_plugin.analysis.device_steps import device_windows
from tb_perf_plugin.analysis.execution import execution_summary
from tb_perf_plugin.analysis.gpu_summary import rank_gpu_summary
from tb_perf_plugin.ingest.tables import Kind, TraceMeta, build_trace_tables

RESNET = "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0"
A100 = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz"
)
B200 = "traces/AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz"
# torch-tb-profiler 0.4.3 on each file, measured on this machine (RunProfileData.parse, then
# process(); GPU 0's gpu_utilization, avg_approximated_sm_efficiency_per_device and
# avg_occupancy_per_device in %), and how close ours is: its windows are the host steps
# extended to each step's last kernel, ours the host steps (docs/ANALYSIS.md); the B200 trace
# has no ProfilerStep, and its one window is the host ops' span there, the trace's span here.
TORCH_TB_PROFILER = {
    f"{RESNET}/worker0.1623143089861.pt.trace.json.gz": (0.55514085, 0.54679041, 49.128005, 0.01),
    f"{RESNET}/worker0.1623143566756.pt.trace.json.gz": (0.63607246, 0.62650975, 49.135551, 0.01),
    A100: (0.2326278028, 0.1686884299, 35.3143287, 0.001),
    B200: (0.1248848835, 0.0915937313, 12.6946211, 0.005),
}  # fmt: skip
DEVICES = {  # trace -> (name, memory_bytes, compute capability, SMs, reports blocks per SM)
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/nccl_parser_config/"
    "nccl_data.json.gz": ("NVIDIA A100-PG509-200", 42297524224, "8.0", 108, True),
    "traces/AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz": (
        "NVIDIA B200", 191503138816, "10.0", 148, True),
    "traces/AMD-AGI__TraceLens/tests/traces/mi300/resnet_act_checkpoint.json.gz": (
        "AMD Instinct MI300X", 206141652992, "9.4", 304, False),
}  # fmt: skip


def _kernels(rows: list[tuple[str, int, int, float, float]], device: int = 0, shift: int = 0):
    """A trace of kernels (name, start, dur, blocks per SM, occupancy %) on `device`, with a
    deviceProperties entry for it."""
    names = sorted({r[0] for r in rows})
    meta = TraceMeta(
        path="hand.json",
        device_properties=[{"id": device, "name": "Hand GPU", "totalGlobalMem": 1 << 34,
                            "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
        tb_perf={"trace_to_collectors_ns": shift},
    )  # fmt: skip
    return build_trace_tables(meta, names, {
        "start": np.array([r[1] for r in rows], np.int64),
        "dur": np.array([r[2] for r in rows], np.int64),
        "kind": np.full(len(rows), Kind.KERNEL, np.int8),
        "name": np.array([names.index(r[0]) for r in rows], np.int32),
        "pid": np.full(len(rows), device, np.int64),
        "blocks_per_sm": np.array([r[3] for r in rows], np.float32),
        "occupancy": np.array([r[4] for r in rows], np.float32),
    })  # fmt: skip


def test_hand_made_kernels_give_exact_shares():
    trace = _kernels([
        ("volta_h884gemm_64x64", 0, 400, 0.5, 50.0),  # Tensor Cores by name
        ("elementwise", 200, 400, 0.75, 25.0),  # overlaps it: 1.25 blocks per SM, capped at 1
        ("outside", 2_000, 100, 1.0, 100.0),  # outside every window
        ("no_args", 700, 100, -1.0, -1.0),  # a kernel without blocks per SM or occupancy
    ])  # fmt: skip
    (gpu,) = rank_gpu_summary(3, [trace], [(0, 500), (500, 1_000)])
    assert (gpu.rank, gpu.device, gpu.name, gpu.compute_capability, gpu.sm_count) == (
        3, 0, "Hand GPU", "9.0", 132)  # fmt: skip
    assert gpu.memory_bytes == 1 << 34 and gpu.window_ns == 1_000
    assert gpu.utilization == pytest.approx((600 + 100) / 1_000)
    # 0-200: 0.5, 200-400: min(1.25, 1), 400-600: 0.75; "no_args" reports none
    assert gpu.sm_efficiency == pytest.approx((200 * 0.5 + 200 * 1.0 + 200 * 0.75) / 1_000)
    assert gpu.occupancy == pytest.approx((400 * 0.50 + 400 * 0.25) / 800)
    assert gpu.tensor_core_share == pytest.approx(400 / (400 + 400 + 100))


def test_windows_clip_kernels_and_the_collectors_clock_applies():
    # the trace's clock is 1,000 ns behind the collectors': the kernel runs at 1,000-1,300 there
    trace = _kernels([("k", 0, 300, 2.0, 40.0)], device=1, shift=1_000)
    (gpu,) = rank_gpu_summary(0, [trace], [(1_100, 1_200), (1_250, 2_000)])
    assert gpu.device == 1 and gpu.window_ns == 850
    assert gpu.utilization == pytest.approx(150 / 850)
    assert gpu.sm_efficiency == pytest.approx(150 / 850)  # 2 blocks per SM count as 1
    assert gpu.occupancy == pytest.approx(0.40)
    assert rank_gpu_summary(0, [trace], []) == []  # no windows: nothing to be a share of


def test_execution_summary_means_and_shares():
    def step(number: int, duration: int, compute: int) -> StepBreakdown:
        ns = dict.fromkeys(CATEGORIES, 0) | {"compute": compute, "idle": duration - compute}
        return StepBreakdown(0, number, 0, duration, ns, 0, 0)

    (rank,) = execution_summary([step(1, 100, 80), step(2, 300, 120)])
    assert (rank["rank"], rank["steps"], rank["step_ns"]) == (0, 2, 200)
    assert list(rank["categories"]) == list(CATEGORIES)
    assert rank["categories"]["compute"] == {"ns_per_step": 100, "share": 0.5}
    assert rank["categories"]["idle"] == {"ns_per_step": 100, "share": 0.5}
    assert sum(c["share"] for c in rank["categories"].values()) == pytest.approx(1.0)
    assert execution_summary([]) == []


# torch-tb-profiler 0.4.3's mean step time (avg_costs Total, µs) of each ResNet-50 file, its
# steps extended to their device work
TORCH_TB_PROFILER_STEP_US = {
    f"{RESNET}/worker0.1623143089861.pt.trace.json.gz": 177592.1667,
    f"{RESNET}/worker0.1623143566756.pt.trace.json.gz": 154911.3333,
}


def test_device_extent_of_hand_made_steps():
    names = ["cudaLaunchKernel", "k"]
    rows = [  # (kind, name, start, dur, correlation)
        (Kind.RUNTIME, 0, 2, 3, 1), (Kind.KERNEL, 1, 5, 45, 1),  # step 1's kernel ends at 50
        (Kind.RUNTIME, 0, 25, 3, 2), (Kind.KERNEL, 1, 60, 20, 2),  # step 2's at 80
        (Kind.RUNTIME, 0, 45, 3, 7),  # launches nothing the trace holds
    ]  # fmt: skip
    trace = build_trace_tables(TraceMeta(path="hand.json"), names, {
        "kind": np.array([r[0] for r in rows], np.int8),
        "name": np.array([r[1] for r in rows], np.int32),
        "start": np.array([r[2] for r in rows], np.int64),
        "dur": np.array([r[3] for r in rows], np.int64),
        "correlation": np.array([r[4] for r in rows], np.int64),
    })  # fmt: skip
    starts, ends = device_windows([trace], np.array([0, 20, 40]), np.array([20, 40, 60]))
    # each step waits for the one before; step 3 launched nothing and is all waiting
    assert starts.tolist() == [0, 50, 80] and ends.tolist() == [50, 80, 80]
    assert [a.tolist() for a in device_windows([trace], np.zeros(0), np.zeros(0))] == [[], []]


@pytest.mark.parametrize("trace", sorted(TORCH_TB_PROFILER_STEP_US))
def test_device_step_time_matches_torch_tb_profiler(trace, tmp_path, shared_data, make_client):
    (tmp_path / "run").mkdir()
    os.symlink(shared_data / trace, tmp_path / "run" / "rank0.pt.trace.json.gz")
    (rank,) = make_client(tmp_path).json("summary", run="run")["ranks"]
    assert rank["device_step_time_ns"]["mean"] == pytest.approx(
        TORCH_TB_PROFILER_STEP_US[trace] * 1000, abs=1000
    )
    assert rank["device_step_time_ns"]["mean"] > rank["step_time_ns"]["mean"]


@pytest.mark.parametrize("trace", sorted(TORCH_TB_PROFILER))
def test_matches_torch_tb_profiler(trace, tmp_path, shared_data, make_client):
    (tmp_path / "run").mkdir()
    os.symlink(shared_data / trace, tmp_path / "run" / "rank0.pt.trace.json.gz")
    summary = make_client(tmp_path).json("summary", run="run")
    gpu = next(g for g in summary["gpus"] if g["device"] == 0)
    utilization, sm_efficiency, occupancy_pct, within = TORCH_TB_PROFILER[trace]
    assert gpu["utilization"] == pytest.approx(utilization, abs=within)
    assert gpu["sm_efficiency"] == pytest.approx(sm_efficiency, abs=within)
    assert gpu["occupancy"] == pytest.approx(occupancy_pct / 100, abs=within / 4)
    # the execution summary is the breakdown's, over the same windows: its two kernel
    # categories (compute first) partition the time some kernel runs
    execution = next(e for e in summary["execution_summary"] if e["rank"] == gpu["rank"])
    kernels = sum(execution["categories"][c]["share"] for c in ("compute", "communication"))
    assert kernels == pytest.approx(gpu["utilization"], abs=1e-9)


def test_v100_resnet_device_and_steps(tmp_path, shared_data, make_client):
    (tmp_path / "run").mkdir()
    for trace in (shared_data / RESNET).iterdir():
        os.symlink(trace, tmp_path / "run" / trace.name)
    summary = make_client(tmp_path).json("summary", run="run")
    (gpu,) = summary["gpus"]
    assert (gpu["name"], gpu["memory_bytes"], gpu["compute_capability"], gpu["sm_count"]) == (
        "Tesla V100-DGXS-32GB", 34084028416, "7.0", 80)  # fmt: skip
    assert gpu["tensor_core_share"] == 0.0  # fp32 ResNet-50 on a V100: no Tensor-Core kernel
    (execution,) = summary["execution_summary"]
    assert execution["steps"] == 12  # ProfilerStep#5-10 and #16-21, both files
    assert execution["step_ns"] == summary["ranks"][0]["step_time_ns"]["mean"]


@pytest.mark.parametrize("trace", sorted(DEVICES))
def test_device_properties_of_newer_traces(trace, tmp_path, shared_data, make_client):
    (tmp_path / "run").mkdir()
    os.symlink(shared_data / trace, tmp_path / "run" / "rank0.pt.trace.json.gz")
    gpus = make_client(tmp_path).json("summary", run="run")["gpus"]
    assert gpus, trace
    name, memory, capability, sms, reports_blocks = DEVICES[trace]
    for gpu in gpus:
        assert (gpu["name"], gpu["memory_bytes"]) == (name, memory)
        assert (gpu["compute_capability"], gpu["sm_count"]) == (capability, sms)
        assert 0 < gpu["utilization"] <= 1
        assert 0 <= gpu["tensor_core_share"] <= 1
        # ROCm kernels carry no blocks per SM nor occupancy: no estimate rather than 0
        assert (gpu["sm_efficiency"] is not None) == reports_blocks
        assert (gpu["occupancy"] is not None) == reports_blocks
        if reports_blocks:
            assert 0 < gpu["sm_efficiency"] <= gpu["utilization"] + 1e-9
