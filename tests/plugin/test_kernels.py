"""Kernel view and GPU metrics: the old plugin's golden GPU-metrics pair, kernel statistics on a
real trace, Tensor-Core name heuristics, and the kernels route."""

import json
import os

import numpy as np
import pytest

from tb_perf_plugin.analysis.kernels import (
    Piecewise,
    device_metrics,
    kernel_table,
    sm_efficiency_ranges,
    trace_kernels,
)
from tb_perf_plugin.analysis.tensor_cores import uses_tensor_cores
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.tables import Kind

GOLDEN = "traces/pytorch__kineto/tb_plugin/test"
V100 = "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0"
V100_TRACE = "worker0.1623143089861.pt.trace.json.gz"


def test_gpu_metrics_match_the_golden_pair(shared_data):
    """The expected file was scaled by hand (utilization x100, SM efficiency x10) and starts
    each series with a (1, 0) baseline pair: both undone here."""
    trace = read_trace(str(shared_data / GOLDEN / "gpu_metrics_input.json"))
    (metrics,) = device_metrics(trace)
    expected = json.loads((shared_data / GOLDEN / "gpu_metrics_expected.json").read_text())
    counters = [e for e in expected["traceEvents"] if e.get("ph") == "C"]

    def series(name: str, key: str, scale: float) -> list[tuple[int, float]]:
        points = [(e["ts"], e["args"][key] / scale) for e in counters if e["name"] == name]
        assert [v * scale for _, v in points[:2]] == [1, 0]  # the baseline pair
        return points[2:]

    utilization = series("GPU 0 Utilization", "GPU Utilization", 100)
    assert len(utilization) == len(metrics.utilization) == 14
    for (t, value), (ours_t, ours) in zip(utilization, metrics.utilization, strict=True):
        assert ours_t == t * 1000 and ours == pytest.approx(value, abs=1e-6)
    efficiency = series("GPU 0 Est. SM Efficiency", "Est. SM Efficiency", 10)
    kernels = trace_kernels(trace)
    known = (kernels["blocks_per_sm"] > 0).to_numpy()
    start = kernels["start"].to_numpy(np.int64)[known]
    end = start + kernels["dur"].to_numpy(np.int64)[known]
    ranges = sm_efficiency_ranges(start, end, kernels["blocks_per_sm"].to_numpy()[known])
    ours = [
        p
        for s, e, v in zip(
            ranges.start.tolist(), ranges.end.tolist(), ranges.value.tolist(), strict=True
        )
        for p in ((s, v), (e, 0.0))
    ]
    assert len(ours) == len(efficiency) == 60
    for (t, value), (ours_t, ours_value) in zip(efficiency, ours, strict=True):
        assert ours_t == t * 1000 and ours_value == pytest.approx(value, abs=1e-6)
    # what the analysis keeps of them: their mean per utilization bucket
    edges = np.array([t for t, _ in metrics.utilization], np.int64)
    assert metrics.sm_efficiency == ranges.bucket_means(edges).tolist()
    assert 0 < max(metrics.sm_efficiency) <= 1


def test_kernel_table_on_a_real_trace(shared_data):
    trace = read_trace(str(shared_data / V100 / V100_TRACE))
    kernels = trace.slices["kind"] == Kind.KERNEL
    table = kernel_table([trace])
    assert table["calls"].sum() == kernels.sum()
    assert table["total_ns"].sum() == trace.slices["dur"][kernels].sum()
    assert table["pct_of_kernel_time"].sum() == pytest.approx(100.0)
    assert table["total_ns"].is_monotonic_decreasing
    assert (table["min_ns"] <= table["mean_ns"]).all() and (
        table["mean_ns"] <= table["max_ns"]
    ).all()
    occupancy = table["mean_est_occupancy_pct"].dropna()
    assert len(occupancy) and ((occupancy >= 0) & (occupancy <= 100)).all()
    efficiency = table["est_sm_efficiency"].dropna()
    assert len(efficiency) and ((efficiency > 0) & (efficiency <= 1)).all()


@pytest.mark.parametrize(
    ("name", "tensor_cores"),
    [
        ("volta_h884gemm_64x64_ldg8_nn", True),
        ("sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32", True),
        ("cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4", True),
        ("Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0", True),
        ("Cijk_Ailk_Bljk_BBS_BH_MT64x64x64_MI16x16x16x1_SN_1LDSB0_APM1_ABV0", True),  # MI300
        ("igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt128x128x32_wt32x32x8_ws1x1_wr2x2", True),
        ("igemm_wrw_gtcx3_nhwc_bf16_bx0_ex1_bt64x64x64_wt32x32x8_ws1x1_wr1x1", True),
        ("_ZN2ck16tensor_operation6device37kernel_batched_gemm_xdlops_bwd_weightINS_47", True),
        ("_ZN2ck16tensor_operation6device12_GLOBAL__N_139kernel_grouped_conv_fwd_xdl_", True),
        ("SubTensorOpWithCastTensor1d", False),  # MIOpen elementwise, not "tensorop"
        ("SubTensorOpWithScalar1d", False),
        ("batched_transpose_32x32_half", False),
        ("volta_sgemm_128x32_nt", False),
        ("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>", False),
    ],
)
def test_tensor_core_name_heuristics(name, tensor_cores):
    assert uses_tensor_cores(name) is tensor_cores


def test_kernels_route(tmp_path, shared_data, make_client):
    (tmp_path / "v100").mkdir()
    os.symlink(shared_data / V100 / V100_TRACE, tmp_path / "v100" / V100_TRACE)
    client = make_client(tmp_path)
    answer = client.json("kernels", run="v100", limit=5)
    assert answer["total_rows"] > 5 == len(answer["rows"])
    (device,) = answer["devices"]
    assert device["rank"] == 0 and device["device"] == 0
    assert len(device["start_ns"]) == len(device["utilization"]) == len(device["est_sm_efficiency"])
    assert len(device["utilization"]) <= 101
    assert all(0 <= u <= 1 for u in device["utilization"])
    assert all(0 <= e <= 1 for e in device["est_sm_efficiency"])
    assert max(device["utilization"]) > 0.3
    assert client.json("kernels", run="v100", rank=0)["rows"][0] == answer["rows"][0]
    starts = np.array(device["start_ns"], dtype=np.int64)
    assert (np.diff(starts) > 0).all()


def test_kernels_route_searches_and_groups_by_launching_operator(
    tmp_path, shared_data, make_client
):
    (tmp_path / "v100").mkdir()
    os.symlink(shared_data / V100 / V100_TRACE, tmp_path / "v100" / V100_TRACE)
    client = make_client(tmp_path)
    every = client.json("kernels", run="v100")
    assert every["group_by"] == "name" and every["q"] is None
    assert every["kernels"] == every["total_rows"] == len(every["rows"])
    assert all(r["short_name"] and len(r["short_name"]) <= len(r["name"]) for r in every["rows"])

    sgemm = client.json("kernels", run="v100", q="SGEMM")  # case-insensitive, full or short
    assert 0 < sgemm["total_rows"] < sgemm["kernels"] == every["kernels"]
    assert all("sgemm" in r["name"].lower() for r in sgemm["rows"])
    by_short = client.json("kernels", run="v100", q="elementwise_kernel<")
    assert by_short["total_rows"] and all("<" in r["short_name"] for r in by_short["rows"])
    none = client.json("kernels", run="v100", q="no such kernel")
    assert none["rows"] == [] and "no such kernel" in none["empty_reason"]

    grouped = client.json("kernels", run="v100", group_by="operator")
    assert grouped["group_by"] == "operator"
    assert sum(r["calls"] for r in grouped["rows"]) == sum(r["calls"] for r in every["rows"])
    assert len({(r["name"], r["operator"]) for r in grouped["rows"]}) == grouped["total_rows"]
    assert grouped["total_rows"] > every["total_rows"]  # one kernel, several operators
    launchers = {r["operator"] for r in grouped["rows"]}
    assert "aten::cudnn_convolution" in launchers and "" not in launchers
    error = client.json("kernels", expect=400, run="v100", group_by="device")
    assert "group_by" in error["error"]["message"]


def test_piecewise_bucket_means_are_the_time_weighted_means_of_each_bucket():
    """Against the integral computed bucket by bucket, range by range, on random disjoint
    ranges and edges that start before and end after them."""
    rng = np.random.default_rng(7)
    for _ in range(50):
        n = int(rng.integers(1, 60))
        bounds = np.sort(rng.choice(10**6, 2 * n, replace=False))
        ranges = [
            (int(a), int(b), float(v))
            for a, b, v in zip(bounds[::2], bounds[1::2], rng.random(n), strict=True)
        ]
        edges = np.sort(rng.choice(np.arange(-100, 10**6 + 100), 12, replace=False))
        expected = [
            sum(max(0, min(hi, e) - max(lo, s)) * v for s, e, v in ranges) / (hi - lo)
            for lo, hi in zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True)
        ]
        piecewise = Piecewise(*(np.array(column) for column in zip(*ranges, strict=True)))
        assert np.allclose(piecewise.bucket_means(edges), expected, rtol=1e-12, atol=1e-12)
