"""Operator view: host self time and calls against torch.profiler's own key_averages() on a
profile made here, device time attributed through launches on real GPU traces, nesting."""

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tb_perf_plugin.analysis.kernels import (
    aggregate_kernels,
    kernel_rows,
    merge_kernel_rows,
    trace_kernels,
)
from tb_perf_plugin.analysis.nesting import nesting_depth
from tb_perf_plugin.analysis.operators import (
    aggregate_operators,
    merge_operator_rows,
    named_operator_events,
    operator_rows,
    operator_table,
)
from tb_perf_plugin.analysis.tensor_cores import tensor_core_eligible, uses_tensor_cores
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.tables import DEVICE_KINDS, Kind

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"
TRACES = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
GPU_TRACES = [
    "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/"
    "worker0.1623143089861.pt.trace.json.gz",
    f"{TRACES}/df_index_resolver/df_index_resolver.json.gz",
    f"{TRACES}/nccl_parser_config/nccl_data.json.gz",
]


def test_nesting_depth_with_back_to_back_and_zero_length_events():
    # outer [0,10) holds a [0,4), then c [4,6) right after a, with the zero-length b [4,4) at
    # its start (open c holds it), and d [6,6) right after c; e [10,12) follows outer
    start = np.array([0, 0, 4, 4, 6, 10])  # outer, a, c, b, d, e: by (start, -duration)
    end = np.array([10, 4, 6, 4, 6, 12])
    assert nesting_depth(start, end).tolist() == [0, 1, 1, 2, 1, 0]


@pytest.fixture(scope="module")
def cpu_profile(tmp_path_factory):
    """A few training steps of a small model under torch.profiler, exported as a trace."""
    torch = pytest.importorskip("torch")
    from torch.profiler import ProfilerActivity, profile, record_function

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(128, 64), torch.randint(0, 2, (128,))
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        for _ in range(5):
            with record_function("train_step"):
                loss = torch.nn.functional.cross_entropy(model(x), y)
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
    logdir = tmp_path_factory.mktemp("profile")
    (logdir / "cpu").mkdir()
    prof.export_chrome_trace(str(logdir / "cpu" / "worker0.1.pt.trace.json"))
    return logdir, prof.key_averages()


def test_host_self_time_and_calls_match_key_averages(cpu_profile, make_client):
    logdir, averages = cpu_profile
    answer = make_client(logdir).json("operators", run="cpu")
    rows = {row["name"]: row for row in answer["rows"]}
    assert answer["total_rows"] == len(rows) == len(averages)
    for average in averages:
        row = rows[average.key]
        assert row["calls"] == average.count, average.key
        for ours, theirs in (
            (row["host_self_ns"] / 1000, average.self_cpu_time_total),
            (row["host_total_ns"] / 1000, average.cpu_time_total),
        ):
            assert ours == pytest.approx(theirs, rel=0.01, abs=0.5), average.key
        assert row["device_self_ns"] == row["device_total_ns"] == 0


def test_grouping_by_input_shapes(cpu_profile, make_client):
    logdir, _ = cpu_profile
    client = make_client(logdir)
    by_name = {r["name"]: r for r in client.json("operators", run="cpu")["rows"]}
    by_shape = client.json("operators", run="cpu", group_by="input_dims")["rows"]
    addmm = [r for r in by_shape if r["name"] == "aten::addmm"]
    assert {r["input_dims"] for r in addmm} == {"[[256], [128, 64], [64, 256], [], []]",
                                                "[[2], [128, 256], [256, 2], [], []]"}  # fmt: skip
    assert sum(r["calls"] for r in addmm) == by_name["aten::addmm"]["calls"] == 10
    error = client.json("operators", expect=400, run="cpu", group_by="stack")
    assert "group_by" in error["error"]["message"]
    assert len(client.json("operators", run="cpu", limit=3)["rows"]) == 3


@pytest.mark.parametrize("relative", GPU_TRACES, ids=lambda p: p.rsplit("/", 1)[-1][:24])
def test_every_device_event_is_attributed_to_an_op(shared_data, relative):
    trace = read_trace(str(shared_data / relative))
    kinds = trace.slices["kind"]
    device = np.isin(kinds, DEVICE_KINDS) & (kinds != Kind.GPU_ANNOTATION)
    table = operator_table([trace])
    assert table["device_self_ns"].sum() == trace.slices["dur"][device].sum() > 0
    assert (table["device_total_ns"] >= table["device_self_ns"]).all()
    assert (table["host_self_ns"] <= table["host_total_ns"]).all()
    steps = table[table["name"].str.startswith("ProfilerStep#")]
    if len(steps):  # a step's device total is what its ops launched
        assert steps["device_total_ns"].sum() <= table["device_self_ns"].sum()
        assert steps["device_self_ns"].sum() < steps["device_total_ns"].sum()


def test_operators_of_a_gpu_run_per_rank(tmp_path, shared_data, make_client):
    (tmp_path / "nccl").mkdir()
    os.symlink(shared_data / GPU_TRACES[2], tmp_path / "nccl" / "rank0.pt.trace.json.gz")
    rows = make_client(tmp_path).json("operators", run="nccl", rank=0)["rows"]
    device = [r["device_self_ns"] for r in rows]
    assert device == sorted(device, reverse=True) and device[0] > 0
    by_name = {r["name"]: r for r in rows}
    # the NCCL kernel's launch sits in nccl:all_reduce, itself inside record_param_comms
    assert by_name["nccl:all_reduce"]["device_self_ns"] > 0
    comms = by_name["record_param_comms"]
    assert comms["device_self_ns"] == 0 < comms["device_total_ns"]


@pytest.mark.parametrize("relative", GPU_TRACES, ids=lambda p: p.rsplit("/", 1)[-1][:24])
def test_tensor_core_time_adds_up_to_the_tensor_core_kernels(shared_data, relative):
    """Each op's Tensor-Core self share times its device self time is the time of the
    Tensor-Core kernels it launched: over all ops, the Tensor-Core kernels' total."""
    trace = read_trace(str(shared_data / relative))
    kinds = trace.slices["kind"]
    names = np.array(trace.names, dtype=object)[trace.slices["name"]]
    kernels = kinds == Kind.KERNEL
    on_cores = np.array([uses_tensor_cores(n) for n in names[kernels]], bool)
    expected = int(trace.slices["dur"][kernels][on_cores].sum())
    table = operator_table([trace])
    spent = (table["tensor_core_self_share"].fillna(0) * table["device_self_ns"]).sum()
    assert spent == pytest.approx(expected, rel=1e-9, abs=1)
    assert (table["tensor_core_total_share"].fillna(0) <= 1 + 1e-12).all()
    assert table.loc[table["name"] == "aten::add_", "tensor_core_eligible"].eq(False).all()


@pytest.mark.parametrize(
    ("name", "eligible"),
    [("aten::mm", True), ("aten::addmm_", True), ("aten::cudnn_convolution", True),
     ("MmBackward0", True), ("autograd::engine::evaluate_function: AddmmBackward0", True),
     ("aten::_scaled_dot_product_flash_attention", True), ("aten::linear", True),
     ("aten::add", False), ("aten::relu", False), ("aten::mmx", False),
     ("ProfilerStep#3", False)],
)  # fmt: skip
def test_tensor_core_eligibility_by_operator_name(name, eligible):
    assert tensor_core_eligible(name) is eligible


def test_device_time_without_a_launch_is_its_own_share_with_a_warning(tmp_path, make_client):
    """One kernel launched inside aten::mm, one whose launch is not in the trace (30 % of the
    device time): the second is in no operator, and said so."""
    events = [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
         "ts": 10, "dur": 5, "args": {"correlation": 7}},
        {"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0, "tid": 7, "ts": 20, "dur": 70,
         "args": {"correlation": 7, "device": 0}},
        {"ph": "X", "cat": "kernel", "name": "orphan", "pid": 0, "tid": 7, "ts": 100, "dur": 30,
         "args": {"correlation": 99, "device": 0}},
    ]  # fmt: skip
    (tmp_path / "run").mkdir()
    trace = {"schemaVersion": 1, "traceEvents": events}
    (tmp_path / "run" / "w.pt.trace.json").write_text(json.dumps(trace))
    answer = make_client(tmp_path).json("operators", run="run")
    assert answer["unattributed_device"] == {"device_ns": 30_000, "share": 0.3}
    (warning,) = answer["warnings"]
    assert warning.startswith("30% of the device time of this run has no launch in the traces")
    (mm,) = answer["rows"]
    assert mm["device_self_ns"] == 70_000 and mm["tensor_core_eligible"] is True
    assert mm["tensor_core_self_share"] == 0.0  # sgemm: not a Tensor-Core kernel's name


def _demo_traces(_shared_data=None):
    paths = sorted((SAMPLE_RUNS / "ddp_traced").rglob("*.pt.trace.json*"))
    return [read_trace(str(path)) for path in paths]


def _gpu_traces(shared_data):
    return [read_trace(str(shared_data / path)) for path in GPU_TRACES]


@pytest.mark.parametrize("grouping", ["name", "input_dims", "call_stack"])
@pytest.mark.parametrize("source", [_demo_traces, _gpu_traces], ids=["demo_run", "gpu_traces"])
def test_rows_of_each_trace_merge_into_the_table_of_all_their_events(request, grouping, source):
    """What the run keeps per rank (operator_rows, kernel_rows) merges into exactly the table
    of all the events at once: the demo run's four CPU traces of two ranks, and three real
    GPU traces (ResNet-50 on a V100, NCCL on A100s, df_index_resolver) as if three ranks."""
    shared = request.getfixturevalue("shared_data") if source is _gpu_traces else None
    traces = source(shared)
    assert len(traces) >= 2
    stacks = grouping == "call_stack"
    events = [named_operator_events([t], with_stacks=stacks) for t in traces]
    split = "call_stack" if stacks else "input_dims"
    rows = pd.concat([operator_rows(e, split) for e in events], ignore_index=True)
    expected = aggregate_operators(pd.concat(events, ignore_index=True), grouping)
    assert len(expected) > 0
    pd.testing.assert_frame_equal(merge_operator_rows(rows, grouping), expected)
    kernels = [trace_kernels(t) for t in traces]
    kernel_parts = pd.concat([kernel_rows(k) for k in kernels], ignore_index=True)
    for by_operator in (False, True):
        pd.testing.assert_frame_equal(
            merge_kernel_rows(kernel_parts, by_operator),
            aggregate_kernels(pd.concat(kernels, ignore_index=True), by_operator),
            rtol=1e-12,
        )
