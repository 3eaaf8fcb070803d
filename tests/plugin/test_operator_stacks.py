"""Operators grouped by call stack: from python_function events (a with_stack=True profile
recorded here with torch 2.x) and from the 2021 schema's `Call stack` argument (a shared trace,
checked against its raw JSON)."""

import gzip
import json
import os
from collections import Counter

import pytest

from tb_perf_plugin.analysis.operators import FRAME_SEPARATOR, user_frame

V100 = (
    "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/"
    "worker0.1623143089861.pt.trace.json.gz"
)


def _scaled_matmul(torch, a, b):
    return torch.mm(a, b) * 2  # the frame the stack test looks for


@pytest.fixture(scope="module")
def stack_profile(tmp_path_factory):
    """Two call sites of aten::mm in this file, profiled with_stack=True."""
    torch = pytest.importorskip("torch")
    from torch.profiler import ProfilerActivity, profile

    a, b = torch.randn(32, 32), torch.randn(32, 32)
    with profile(activities=[ProfilerActivity.CPU], with_stack=True) as prof:
        for _ in range(3):
            _scaled_matmul(torch, a, b)
            torch.mm(b, a)  # the second call site, straight from the fixture
    logdir = tmp_path_factory.mktemp("stacks")
    (logdir / "cpu").mkdir()
    prof.export_chrome_trace(str(logdir / "cpu" / "worker0.1.pt.trace.json"))
    return logdir


def test_each_call_site_is_its_own_row_with_its_user_frame(stack_profile, make_client):
    client = make_client(stack_profile)
    answer = client.json("operators", run="cpu", group_by="call_stack")
    assert answer["group_by"] == "call_stack"
    mm = [r for r in answer["rows"] if r["name"] == "aten::mm"]
    frames = sorted(r["user_frame"] for r in mm)
    assert len(mm) == 2 and [r["calls"] for r in mm] == [3, 3]
    assert all(f"{os.path.basename(__file__)}(" in f for f in frames), frames
    assert any(f.endswith(": _scaled_matmul") for f in frames)
    assert any(f.endswith(": stack_profile") for f in frames)
    for row in mm:  # innermost first: the user's frame is below torch's own, above the test
        assert row["user_frame"] in row["call_stack"]
        assert row["call_stack"][-1] != row["user_frame"]
    by_name = {r["name"]: r for r in client.json("operators", run="cpu")["rows"]}
    assert by_name["aten::mm"]["calls"] == 6
    assert sum(r["host_self_ns"] for r in mm) == by_name["aten::mm"]["host_self_ns"]


def test_the_2021_call_stack_argument_counts_as_the_raw_events(shared_data, tmp_path, make_client):
    (tmp_path / "v100").mkdir()
    os.symlink(shared_data / V100, tmp_path / "v100" / "worker0.pt.trace.json.gz")
    client = make_client(tmp_path)
    rows = client.json("operators", run="v100", group_by="call_stack", limit=1000)["rows"]
    with gzip.open(shared_data / V100) as f:
        events = json.load(f)["traceEvents"]
    raw = Counter(
        (e["name"], e["args"]["Call stack"])
        for e in events
        if e.get("cat") == "Operator" and "Call stack" in e.get("args", {})
    )
    stacked = [r for r in rows if r["call_stack"]]
    assert stacked and len(stacked) <= len(raw)
    for row in stacked:
        key = (row["name"], FRAME_SEPARATOR.join(row["call_stack"]))
        assert row["calls"] == raw[key], key
    zero_grad = [r for r in stacked if r["name"] == "aten::zero_"]
    assert zero_grad
    assert all(r["user_frame"].startswith("resnet50_profiler_api.py(") for r in zero_grad)


def test_user_frame_skips_torch_libraries_and_builtins():
    stack = FRAME_SEPARATOR.join([
        "<built-in method conv2d of type object>",
        "torch/nn/modules/conv.py(548): _conv_forward",
        "/usr/lib/python3.11/site-packages/lightning/loop.py(12): run",
        "nn.Module: ResNet_0",
        "train.py(42): step",
        "train.py(90): <module>",
    ])  # fmt: skip
    assert user_frame(stack) == "train.py(42): step"
    assert user_frame("torch/_ops.py(1244): __call__") == ""
