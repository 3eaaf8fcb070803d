"""analysis/compute.py: the peak table, MFU per step, the MFU and recompilation rules, compiled
regions in a real torch.compile trace; and the compile / flops readers' lenient parsing."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tb_perf_plugin.analysis.compute import (
    compile_events,
    compiled_frames,
    flops_inputs,
    mfu_efficiency,
    mfu_per_step,
    peak_flops,
    recompilation,
)
from tb_perf_plugin.analysis.findings import DEFAULT_THRESHOLDS, AnalysisInputs
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.compile import COMPILE_COLUMNS, read_compile_file
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.meta import read_meta

MS = 1_000_000


@pytest.mark.parametrize(
    ("device", "dtype", "row", "tflops"),
    [
        ("NVIDIA H100 80GB HBM3", "torch.bfloat16", "NVIDIA H100/H200 SXM", 989.4),
        ("NVIDIA H100 PCIe", "bf16", "NVIDIA H100 PCIe", 756),
        ("NVIDIA H200", "fp8", "NVIDIA H100/H200 SXM", 1978.9),
        ("NVIDIA H100 NVL", "tf32", "NVIDIA H100/H200 NVL", 417.5),
        ("NVIDIA A100-SXM4-80GB", "tf32", "NVIDIA A100", 156),
        ("NVIDIA A100 80GB PCIe", "float16", "NVIDIA A100", 312),
        ("NVIDIA A10", "bf16", "NVIDIA A10", 125),
        ("NVIDIA L4", "fp16", "NVIDIA L4", 121),
        ("Tesla T4", "fp16", "NVIDIA T4", 65),
        ("Tesla V100-SXM2-16GB", "fp16", "NVIDIA V100 SXM2", 125),
        ("Tesla V100-PCIE-32GB", "fp32", "NVIDIA V100 PCIe", 14),
        ("Tesla V100S-PCIE-32GB", "fp16", "NVIDIA V100S PCIe", 130),
        ("AMD Instinct MI250X / MI250", "bf16", "AMD Instinct MI250X", 383),
        ("AMD Instinct MI300X", "float8_e4m3fnuz", "AMD Instinct MI300X", 2614.9),
    ],
)
def test_peak_table_lookup(device, dtype, row, tflops):
    peak = peak_flops(device, dtype)
    assert (peak.device, peak.flops) == (row, pytest.approx(tflops * 1e12))


def test_peak_unknown_devices_and_dtypes_and_the_override():
    assert peak_flops("NVIDIA A10G", "bf16") is None  # not A10, not A100: not in the table
    assert peak_flops("NVIDIA L40S", "bf16") is None
    assert peak_flops("Intel(R) Xeon(R) Processor", "fp32") is None
    assert peak_flops("Tesla V100-SXM2-16GB", "bf16") is None  # Volta has no bf16
    assert peak_flops(None, None) is None
    override = peak_flops("Intel(R) Xeon(R) Processor", "bf16", override=2e12)
    assert (override.flops, override.device, override.dtype) == (2e12, "override", "bf16")
    assert peak_flops("NVIDIA A100", "fp32", override=0) is None


def steps_table(durations_ns: list[int], rank: int = 0) -> pd.DataFrame:
    t0 = np.cumsum([0, *durations_ns[:-1]]) + 10**18
    return pd.DataFrame({
        "rank": rank, "step": np.arange(len(durations_ns)), "t0": t0,
        "t1": t0 + np.array(durations_ns),
    })  # fmt: skip


def test_mfu_per_step_by_hand():
    table = mfu_per_step(steps_table([100 * MS, 50 * MS, 0]), 1e12, 1e14)
    assert table["achieved_tflops"].tolist()[:2] == pytest.approx([10.0, 20.0])
    assert table["mfu"].tolist()[:2] == pytest.approx([0.10, 0.20])
    assert np.isnan(table["mfu"].iloc[2])  # a zero-length step has no rate
    assert mfu_per_step(steps_table([MS]), 1e9, None)["mfu"].isna().all()


def inputs_for(durations_ns, flops=1e12, peak=1e14, **extra) -> AnalysisInputs:
    steps = steps_table(durations_ns).drop(columns="rank")
    return AnalysisInputs(
        step_times={0: steps},
        flops_per_step={0: flops}, peak_flops={0: peak}, **extra,
    )  # fmt: skip


def test_mfu_rule_thresholds():
    # 1e12 FLOPs in 200 ms against 1e14 FLOP/s: 5 % MFU, a warning
    (finding,) = mfu_efficiency(inputs_for([200 * MS] * 8), DEFAULT_THRESHOLDS)
    assert (finding.kind, finding.severity, finding.key) == (
        "compute_efficiency", "warning", "compute_efficiency:mfu:rank0",
    )  # fmt: skip
    assert finding.evidence["median_mfu"]["value"] == pytest.approx(0.05)
    assert finding.evidence["steps"]["value"] == 6  # warm-up left out
    (info,) = mfu_efficiency(inputs_for([50 * MS] * 8), DEFAULT_THRESHOLDS)  # 20 %
    assert info.severity == "info"
    assert mfu_efficiency(inputs_for([20 * MS] * 8), DEFAULT_THRESHOLDS) == []  # 50 %
    assert mfu_efficiency(inputs_for([200 * MS] * 4), DEFAULT_THRESHOLDS) == []  # 2 steady
    tiny = inputs_for([MS // 2] * 8, flops=1e9)  # 2 % MFU but half-millisecond steps
    assert mfu_efficiency(tiny, DEFAULT_THRESHOLDS) == []
    assert mfu_efficiency(inputs_for([200 * MS] * 8, peak=None), DEFAULT_THRESHOLDS) == []


def test_mfu_rule_leaves_out_the_counted_and_profiled_steps():
    durations = [200 * MS] * 8  # 5 % MFU
    inputs = inputs_for(durations, profiler_steps={0: {2}}, flops_sampled_steps={0: 3})
    (finding,) = mfu_efficiency(inputs, DEFAULT_THRESHOLDS)
    assert finding.steps == [4, 5, 6, 7]  # warm-up 0-1, profiled 2, counted 3
    inputs.flops_sampled_steps = {}
    assert mfu_efficiency(inputs, DEFAULT_THRESHOLDS)[0].steps == [3, 4, 5, 6, 7]
    strict = dataclasses.replace(DEFAULT_THRESHOLDS, mfu_info=0.01, mfu_warning=0.005)
    assert mfu_efficiency(inputs, strict) == []


def compile_rows(rows: list[dict]) -> pd.DataFrame:
    base = {c: 0 for c in COMPILE_COLUMNS} | {"break_reasons": [], "recompile_reasons": []}
    return pd.DataFrame([base | row for row in rows])[COMPILE_COLUMNS].assign(rank=0)


def test_recompilation_rule_on_records():
    def recompiled(step, n=1, fn="f (a.py:1)"):
        return {"step": step, "compile_ns": 30 * MS * n, "graphs": n, "recompiles": n,
                "recompile_reasons": [(fn, f"size mismatch {step}")] * n}  # fmt: skip

    steps = {0: steps_table([100 * MS] * 10).drop(columns="rank")}
    first = {"step": 0, "compile_ns": 40 * MS, "graphs": 1}

    def findings(rows):
        inputs = AnalysisInputs(step_times=steps, compile_records=compile_rows(rows))
        return recompilation(inputs, DEFAULT_THRESHOLDS)

    assert findings([first]) == []
    assert findings([first, recompiled(9)]) == []  # one recompile: a last partial batch
    # 3 functions recompiled twice each: no single function keeps recompiling
    assert findings([first, *(recompiled(s, 2, f"f{s}") for s in (1, 2, 3))]) == []
    (finding,) = findings([first, *(recompiled(s) for s in range(1, 6))])
    assert finding.title == "torch.compile recompiled f (a.py:1) 5 times on rank 0"
    assert finding.severity == "warning"  # 150 ms of 1 s
    assert finding.evidence["last_reasons"]["value"].endswith("size mismatch 5")
    cheap = [first, *({**recompiled(s), "compile_ns": MS} for s in range(1, 6))]
    assert findings(cheap) == []  # 5 recompiles of 1 ms: below the minimum cost
    (limit,) = findings([first, {"step": 4, "limit_hits": 1}])
    assert "recompile limit" in limit.title
    costly = [first, *({**recompiled(s), "compile_ns": 100 * MS} for s in range(1, 6))]
    assert findings(costly)[0].severity == "critical"  # 500 ms of 1 s
    assert recompilation(AnalysisInputs(), DEFAULT_THRESHOLDS) == []


def test_compiled_regions_in_a_real_torch_compile_trace(tmp_path):
    torch = pytest.importorskip("torch")
    from torch.profiler import ProfilerActivity, profile

    torch._dynamo.reset()
    compiled = torch.compile(lambda x: (x @ x).relu().sum(), backend="eager", dynamic=False)
    compiled(torch.randn(4, 4))  # compiled before the trace: graph 0/0
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for n in (4, 5, 5, 6):  # two recompilations inside the trace
            compiled(torch.randn(n, n))
    path = tmp_path / "compiled.pt.trace.json"
    prof.export_chrome_trace(str(path))
    torch._dynamo.reset()

    events = compile_events(read_trace(str(path)))
    regions = events[events["kind"] == "region"]
    assert regions["compile"].tolist() == [0, 1, 1, 2] and (regions["frame"] == 0).all()
    compiles = events[events["kind"] == "compile"]
    assert compiles[["frame", "compile"]].values.tolist() == [[0, 1], [0, 2]]
    assert (events["kind"] == "cache_lookup").sum() == 4
    (frame,) = compiled_frames(events).to_dict("records")
    assert frame | {"region_ns": 0, "compile_ns": 0} == {
        "frame": 0, "graphs": 3, "recompiles": 2, "region_calls": 4, "region_ns": 0,
        "compiles": 2, "compile_ns": 0,
    }  # fmt: skip
    assert frame["compile_ns"] > frame["region_ns"] > 0


def test_read_compile_file_incrementally_and_with_a_cut_line(tmp_path):
    path = tmp_path / "rank0.h.1.compile.jsonl"
    record = {
        "k": "compile", "step": 3, "t": 5, "compile_ns": 7, "frames": 1, "graphs": 1,
        "graph_breaks": 1, "recompiles": 1, "limit_hits": 0, "break_reasons": [["print", 1]],
        "recompile_reasons": [["f (a.py:1)", "why"]],
    }  # fmt: skip
    header = json.dumps({"schema": "tb_perf.compile", "version": 1})
    path.write_text(f"{header}\n{json.dumps(record)}\n" + '{"k":"compile","st')
    first = read_compile_file(str(path), 1 << 20)
    assert first.truncated_tail and len(first.table) == 1
    assert first.table["recompile_reasons"][0] == [("f (a.py:1)", "why")]
    with open(path, "a") as handle:
        handle.write('ep":4,"t":6}\n{"k":"newer_kind"}\nnot json\n')
    second = read_compile_file(str(path), 1 << 20, previous=first)
    assert second.table["step"].tolist() == [3, 4]
    assert second.problems == ["1 malformed line(s) skipped"]
    path.write_text('{"schema": "tb_perf.timer", "version": 1}\n')
    with pytest.raises(Unreadable, match="not a tb_perf.compile file"):
        read_compile_file(str(path), 1 << 20)


def write_meta(path: Path, **sections) -> Path:
    doc = {"schema": "tb_perf.meta", "version": 1, "rank": 0, "world_size": 1, "host": "h",
           "pid": 1, "started_unix_ns": 1, **sections}  # fmt: skip
    path.write_text(json.dumps(doc))
    return path


def test_flops_metadata_feeds_the_mfu_rule_and_malformed_sections_are_left_out(tmp_path):
    flops = {"per_step": 3e12, "sampled_step": 1, "dtype": "bf16",
             "device_name": "NVIDIA A100-SXM4-80GB", "peak_flops": None}  # fmt: skip
    meta = read_meta(str(write_meta(tmp_path / "a.meta.json", flops=flops)))
    found = flops_inputs({0: meta})
    assert found.flops_per_step == {0: 3e12} and found.sampled_steps == {0: 1}
    assert found.peak_flops == {0: 312e12} and found.peaks[0].device == "NVIDIA A100"
    assert flops_inputs({0: meta}, override=1e15).peak_flops == {0: 1e15}
    user_peak = read_meta(str(write_meta(tmp_path / "u.meta.json",
                                         flops={**flops, "peak_flops": 2e14})))  # fmt: skip
    assert flops_inputs({0: user_peak}).peak_flops == {0: 2e14}
    bad = read_meta(str(write_meta(tmp_path / "b.meta.json", flops={"per_step": "many"},
                                   compile={"recompile_limit": 8})))  # fmt: skip
    assert bad.flops is None and bad.compile.recompile_limit == 8
    assert len(bad.problems) == 1 and "`flops` left out" in bad.problems[0]
    assert flops_inputs({0: bad}).flops_per_step == {}
