"""Compute efficiency and torch.compile behaviour (docs/COMPUTE.md): the device peak-FLOP/s
table, achieved FLOP/s and MFU per step, compiled regions in traces, and the `compute_efficiency`
(MFU) and `recompilation` rules. Pure functions over tables.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..ingest.meta import RankMeta
from ..ingest.tables import TraceTables
from .findings import AnalysisInputs, Finding, Thresholds, evidence

# Dense peak FLOP/s (no 2:4 sparsity) from the vendors' datasheets, docs/COMPUTE.md cites each.
# Rows are tried in order: the first pattern found in the device name wins, so a specific name
# ("H100 PCIe") comes before the general one ("H100").
_T = 1e12
PEAK_TABLE: tuple[tuple[str, str, dict[str, float]], ...] = (
    ("NVIDIA V100S PCIe", r"V100S", {"fp32": 16.4 * _T, "fp16": 130 * _T}),
    ("NVIDIA V100 PCIe", r"V100-PCIE", {"fp32": 14 * _T, "fp16": 112 * _T}),
    ("NVIDIA V100 SXM2", r"V100", {"fp32": 15.7 * _T, "fp16": 125 * _T}),
    ("NVIDIA A100", r"A100",
     {"fp32": 19.5 * _T, "tf32": 156 * _T, "bf16": 312 * _T, "fp16": 312 * _T}),
    ("NVIDIA H100 PCIe", r"H100 PCIe",
     {"fp32": 51 * _T, "tf32": 378 * _T, "bf16": 756 * _T, "fp16": 756 * _T, "fp8": 1513 * _T}),
    ("NVIDIA H100/H200 NVL", r"H[12]00 NVL",
     {"fp32": 60 * _T, "tf32": 417.5 * _T, "bf16": 835.5 * _T, "fp16": 835.5 * _T,
      "fp8": 1670.5 * _T}),
    ("NVIDIA H100/H200 SXM", r"H[12]00",
     {"fp32": 67 * _T, "tf32": 494.7 * _T, "bf16": 989.4 * _T, "fp16": 989.4 * _T,
      "fp8": 1978.9 * _T}),
    ("NVIDIA L4", r"\bL4\b",
     {"fp32": 30.3 * _T, "tf32": 60 * _T, "bf16": 121 * _T, "fp16": 121 * _T, "fp8": 242.5 * _T}),
    ("NVIDIA A10", r"\bA10\b",
     {"fp32": 31.2 * _T, "tf32": 62.5 * _T, "bf16": 125 * _T, "fp16": 125 * _T}),
    ("NVIDIA T4", r"\bT4\b", {"fp32": 8.1 * _T, "fp16": 65 * _T}),
    ("AMD Instinct MI250X", r"MI250X", {"fp32": 95.7 * _T, "bf16": 383 * _T, "fp16": 383 * _T}),
    ("AMD Instinct MI300X", r"MI300X",
     {"fp32": 163.4 * _T, "tf32": 653.7 * _T, "bf16": 1307.4 * _T, "fp16": 1307.4 * _T,
      "fp8": 2614.9 * _T}),
)  # fmt: skip
_DTYPE_ALIASES = {
    "float32": "fp32", "float": "fp32", "tf32": "tf32", "bfloat16": "bf16", "float16": "fp16",
    "half": "fp16", "float8": "fp8",
}  # fmt: skip
MFU_COLUMNS = ["rank", "step", "t0", "t1", "duration_ns", "flops", "achieved_tflops", "mfu"]
_REGION = re.compile(r"^Torch-Compiled Region: (\d+)/(\d+)$")
_COMPILE_ID = re.compile(r"_data: .*compile_id=(\d+)/(\d+)")
_COMPILE = "entire_frame_compile"
_CACHE_LOOKUP = "TorchDynamo Cache Lookup"
COMPILE_EVENT_COLUMNS = ["kind", "frame", "compile", "start", "dur"]


@dataclass(frozen=True)
class Peak:
    """A device's peak FLOP/s for one dtype and where the number comes from."""

    flops: float
    device: str  # the table's row, "override", or "set by the job (argument / environment)"
    dtype: str


def dtype_key(dtype: str) -> str:
    """A dtype as the peak table names it: `torch.bfloat16`, `bfloat16`, `bf16` -> `bf16`."""
    text = dtype.strip().lower().removeprefix("torch.")
    if text.startswith("float8"):
        return "fp8"
    return _DTYPE_ALIASES.get(text, text)


def peak_flops(
    device_name: str | None, dtype: str | None, override: float | None = None
) -> Peak | None:
    """The device's dense peak FLOP/s for `dtype`: `override` when given, else the first row of
    PEAK_TABLE whose pattern is in `device_name`. None for unknown devices (CPUs among them) and
    dtypes a device has no number for (bf16 on a V100)."""
    key = dtype_key(dtype) if dtype else "fp32"
    if override is not None:
        return Peak(float(override), "override", key) if override > 0 else None
    if not device_name:
        return None
    for row, pattern, by_dtype in PEAK_TABLE:
        if re.search(pattern, device_name, re.IGNORECASE):
            flops = by_dtype.get(key)
            return Peak(flops, row, key) if flops else None
    return None


def mfu_per_step(
    step_times: pd.DataFrame, flops_per_step: float, peak: float | None
) -> pd.DataFrame:
    """Achieved TFLOP/s and model FLOPs utilization of each step (MFU_COLUMNS).

    `step_times` has columns rank, step, t0, t1 (ns); every step is taken to do
    `flops_per_step` FLOPs. `achieved_tflops = flops / duration / 1e12`;
    `mfu = flops / duration / peak` (NaN without a peak).
    """
    duration = (step_times["t1"] - step_times["t0"]).to_numpy(np.int64)
    seconds = np.where(duration > 0, duration, np.nan) / 1e9
    achieved = float(flops_per_step) / seconds
    return pd.DataFrame({
        "rank": step_times["rank"].to_numpy(np.int64),
        "step": step_times["step"].to_numpy(np.int64),
        "t0": step_times["t0"].to_numpy(np.int64),
        "t1": step_times["t1"].to_numpy(np.int64),
        "duration_ns": duration,
        "flops": np.full(len(duration), float(flops_per_step)),
        "achieved_tflops": achieved / 1e12,
        "mfu": achieved / peak if peak else np.full(len(duration), np.nan),
    })[MFU_COLUMNS]  # fmt: skip


@dataclass
class FlopsInputs:
    """Per rank, what the MFU rule needs from FlopsCounter's metadata."""

    flops_per_step: dict[int, float]
    peak_flops: dict[int, float]  # ranks without a known peak are absent
    peaks: dict[int, Peak]  # where each peak comes from
    sampled_steps: dict[int, int]


def flops_inputs(rank_meta: dict[int, RankMeta], override: float | None = None) -> FlopsInputs:
    """FLOPs per step and peak FLOP/s of each rank from its metadata `flops`: the peak is
    `override`, else the collector's (the user's argument or TB_PERF_PEAK_FLOPS), else
    PEAK_TABLE's for the device name and dtype."""
    out = FlopsInputs({}, {}, {}, {})
    for rank, meta in sorted(rank_meta.items()):
        info = meta.flops
        if info is None or not info.per_step:
            continue
        out.flops_per_step[rank] = float(info.per_step)
        if info.sampled_step is not None:
            out.sampled_steps[rank] = info.sampled_step
        peak = peak_flops(info.device_name, info.dtype, override or info.peak_flops)
        if peak is not None and override is None and info.peak_flops:
            how = info.peak_source or "argument"
            peak = dataclasses.replace(peak, device=f"set by the job ({how})")
        if peak is not None:
            out.peak_flops[rank] = peak.flops
            out.peaks[rank] = peak
    return out


def _steady_steps(
    inputs: AnalysisInputs, rank: int, t: Thresholds, also_skip: set[int]
) -> pd.DataFrame:
    ordered = inputs.step_times[rank].sort_values("step", kind="stable").iloc[t.warmup_steps :]
    skip = inputs.profiler_steps.get(rank, set()) | also_skip
    return ordered[~ordered["step"].isin(skip)]


def mfu_efficiency(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """`compute_efficiency` from MFU: a rank whose median MFU over its steady steps is low.

    The step FlopsCounter counted (slowed down by counting) is left out with the warm-up and
    profiled steps."""
    out = []
    for rank, flops in sorted(inputs.flops_per_step.items()):
        peak = inputs.peak_flops.get(rank)
        if not flops or not peak or rank not in inputs.step_times:
            continue
        sampled = inputs.flops_sampled_steps.get(rank)
        skip = set() if sampled is None else {sampled}
        steps = _steady_steps(inputs, rank, t, skip)
        table = mfu_per_step(steps.assign(rank=rank), flops, peak).dropna(subset=["mfu"])
        if len(table) < t.mfu_min_steps:
            continue
        mfu = float(table["mfu"].median())
        step_ns = float(table["duration_ns"].median())
        if mfu >= t.mfu_info or step_ns < t.mfu_min_step_ns:
            continue
        severity = "warning" if mfu < t.mfu_warning else "info"
        out.append(Finding(
            "compute_efficiency", severity,
            f"Rank {rank} uses {mfu:.1%} of its device's peak FLOP/s (model FLOPs utilization)",
            evidence(median_mfu=(mfu, "fraction"),
                      median_achieved=(float(table["achieved_tflops"].median()), "TFLOP/s"),
                      flops_per_step=(float(flops), "FLOP"), peak=(float(peak) / 1e12, "TFLOP/s"),
                      median_step_time=(int(step_ns), "ns"), steps=(len(table), "")),
            "Find what keeps the matrix units idle: the step's other time (data loading, host "
            "overhead, communication: see the other findings and the Overview), small or "
            "oddly shaped matmuls (batch or hidden sizes not multiples of 8/64), fp32 where "
            "bf16/fp16 autocast or TF32 would do, unfused elementwise work (torch.compile).",
            {"tab": "overview", "params": {"rank": rank}}, ranks=[rank],
            steps=table["step"].astype(int).tolist()[:50], scope=f"mfu:rank{rank}",
        ))  # fmt: skip
    return out


def _reason_counts(lists: pd.Series) -> pd.DataFrame:
    """(function, reason) pairs of recompile_reasons lists as rows."""
    pairs = [tuple(pair) for reasons in lists for pair in reasons]
    return pd.DataFrame(pairs, columns=["function", "reason"])


def recompilation(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """torch.compile recompiling one function again and again, or hitting dynamo's recompile
    limit (after which that function runs uncompiled), from CompileMonitor records."""
    records = inputs.compile_records
    if records is None or records.empty:
        return []
    out = []
    for rank, rows in records.groupby("rank", sort=True):
        rows = rows.sort_values("step", kind="stable")
        reasons = _reason_counts(rows["recompile_reasons"])
        per_function = reasons["function"].value_counts()
        worst = str(per_function.index[0]) if len(per_function) else ""
        worst_count = int(per_function.iloc[0]) if len(per_function) else 0
        limit_hits = int(rows["limit_hits"].sum())
        recompile_ns = int(rows.loc[rows["recompiles"] > 0, "compile_ns"].sum())
        repeated = worst_count >= t.recompile_per_function and recompile_ns >= t.recompile_min_ns
        if not repeated and limit_hits < 1:
            continue
        steps = inputs.step_times.get(int(rank))
        run_ns = int((steps["t1"] - steps["t0"]).sum()) if steps is not None else 0
        share = recompile_ns / run_ns if run_ns else 0.0
        severity = "critical" if share >= t.recompile_critical_share else "warning"
        title = (
            f"torch.compile recompiled {worst} {worst_count} times on rank {rank}"
            if repeated
            else f"torch.compile hit its recompile limit {limit_hits} time(s) on rank {rank}: "
            "those functions now run uncompiled"
        )
        last = reasons[reasons["function"] == worst]["reason"].tail(3).tolist() if worst else []
        extra = {"run_time_share": (share, "fraction")} if run_ns else {}
        if steps is not None and len(steps):
            extra["recompile_time_per_step"] = (int(recompile_ns / len(steps)), "ns")
        out.append(Finding(
            "recompilation", severity, title,
            evidence(recompiles=(int(rows["recompiles"].sum()), ""),
                      worst_function=(worst, ""), worst_function_recompiles=(worst_count, ""),
                      recompile_limit_hits=(limit_hits, ""),
                      recompile_time=(recompile_ns, "ns"),
                      compile_time=(int(rows["compile_ns"].sum()), "ns"),
                      graphs=(int(rows["graphs"].sum()), ""),
                      graph_breaks=(int(rows["graph_breaks"].sum()), ""),
                      last_reasons=(" | ".join(r[:200] for r in last), ""), **extra),
            "Keep what dynamo guards on stable: shapes that vary (sequence lengths, last "
            "batches) can be padded to a few sizes or marked dynamic "
            "(torch._dynamo.mark_dynamic(x, dim), or torch.compile(dynamic=True)); Python "
            "scalars that change every step can be passed as tensors; switching model.train()/"
            "eval() or requires_grad recompiles once per state. TORCH_LOGS=recompiles prints "
            "every guard that failed; raise torch._dynamo.config.recompile_limit only when the "
            "variants are intended.",
            {"tab": "overview", "params": {"rank": int(rank)}}, ranks=[int(rank)],
            steps=[int(s) for s in rows.loc[rows["recompiles"] > 0, "step"]][:50],
            scope=f"rank{rank}",
        ))  # fmt: skip
    return out


def compile_events(tables: TraceTables) -> pd.DataFrame:
    """torch.compile's events in one trace (COMPILE_EVENT_COLUMNS, sorted by start):
    `region` for each run of a compiled graph (`Torch-Compiled Region: F/C`, frame F's C-th
    compilation: C > 0 is a recompiled graph), `compile` for each dynamo compilation
    (`entire_frame_compile`, its frame and compilation from the `*_data: compile_id=F/C`
    annotations inside it; -1 where the trace has none), `cache_lookup` for each guard check."""
    names = tables.names
    region = {i: m for i, m in enumerate(map(_REGION.match, names)) if m}
    ids = {i: m for i, m in enumerate(map(_COMPILE_ID.search, names)) if m}
    special = {i for i, n in enumerate(names) if n in (_COMPILE, _CACHE_LOOKUP)}
    slices = tables.slices
    name = slices["name"]
    wanted = np.isin(name, np.fromiter([*region, *special], np.int64))
    start, dur, name = slices["start"][wanted], slices["dur"][wanted], name[wanted]
    frame = np.full(len(name), -1, np.int64)
    compile_no = np.full(len(name), -1, np.int64)
    kind = np.full(len(name), "cache_lookup", dtype=object)
    for i, n in enumerate(name.tolist()):
        if n in region:
            kind[i] = "region"
            frame[i], compile_no[i] = int(region[n].group(1)), int(region[n].group(2))
        elif names[n] == _COMPILE:
            kind[i] = "compile"
    compiles = np.flatnonzero(kind == "compile")
    if len(compiles) and ids:
        tagged = np.isin(slices["name"], np.fromiter(ids, np.int64))
        tag_start, tag_name = slices["start"][tagged], slices["name"][tagged]
        order = np.argsort(tag_start, kind="stable")
        tag_start, tag_name = tag_start[order], tag_name[order]
        first = np.searchsorted(tag_start, start[compiles], side="left")
        for row, j in zip(compiles.tolist(), first.tolist(), strict=True):
            if j < len(tag_start) and tag_start[j] <= start[row] + dur[row]:
                match = ids[int(tag_name[j])]
                frame[row], compile_no[row] = int(match.group(1)), int(match.group(2))
    events = pd.DataFrame({
        "kind": kind, "frame": frame, "compile": compile_no,
        "start": start.astype(np.int64), "dur": dur.astype(np.int64),
    })  # fmt: skip
    return events.sort_values("start", kind="stable", ignore_index=True)[COMPILE_EVENT_COLUMNS]


def compiled_frames(events: pd.DataFrame) -> pd.DataFrame:
    """Per compiled frame seen in a trace: `graphs` (distinct compilations whose graphs ran),
    `recompiles` (graphs - 1), `region_calls`, `region_ns`, `compiles` and `compile_ns` (the
    compilations that happened inside the trace)."""
    regions = events[events["kind"] == "region"]
    compiles = events[(events["kind"] == "compile") & (events["frame"] >= 0)]
    ran = regions.groupby("frame").agg(
        graphs=("compile", "nunique"), region_calls=("dur", "size"), region_ns=("dur", "sum")
    )
    built = compiles.groupby("frame").agg(compiles=("dur", "size"), compile_ns=("dur", "sum"))
    table = ran.join(built, how="outer").fillna(0).astype(np.int64)
    table["recompiles"] = np.maximum(table["graphs"] - 1, 0)
    columns = ["graphs", "recompiles", "region_calls", "region_ns", "compiles", "compile_ns"]
    return table.reset_index()[["frame", *columns]]


TOP_REASONS = 5  # graph-break and recompile reasons listed per rank


def rank_compute_summary(
    steps: pd.DataFrame, flops: FlopsInputs, rank: int, warmup_steps: int
) -> dict[str, object] | None:
    """A rank's FLOPs, peak and median achieved TFLOP/s and MFU over its steps (columns step,
    t0, t1), the first `warmup_steps` and the counted step left out as the MFU rule does; None
    without FlopsCounter data."""
    per_step = flops.flops_per_step.get(rank)
    if not per_step:
        return None
    peak = flops.peaks.get(rank)
    ordered = steps.sort_values("step", kind="stable").iloc[warmup_steps:]
    counted = ordered[ordered["step"] != flops.sampled_steps.get(rank)]
    table = mfu_per_step(counted.assign(rank=rank), per_step, peak.flops if peak else None)
    achieved = table["achieved_tflops"].dropna()
    mfu = table["mfu"].dropna()
    return {
        "flops_per_step": float(per_step),
        "peak_tflops": peak.flops / 1e12 if peak else None,
        "peak_source": peak.device if peak else None,
        "dtype": peak.dtype if peak else None,
        "steps": len(achieved),
        "achieved_tflops": float(achieved.median()) if len(achieved) else None,
        "mfu": float(mfu.median()) if len(mfu) else None,
    }


def rank_compile_summary(records: pd.DataFrame, frames: pd.DataFrame) -> dict[str, object] | None:
    """A rank's torch.compile activity: from CompileMonitor records when it has any (compile
    time, graphs, graph breaks, recompiles, limit hits, the commonest reasons), else from the
    compiled regions of its traces (graphs and recompiles per compiled frame); None when
    neither shows torch.compile."""
    if len(records):
        breaks = pd.DataFrame(
            [pair for pairs in records["break_reasons"] for pair in pairs],
            columns=["reason", "count"],
        )
        break_reasons = breaks.groupby("reason")["count"].sum().sort_values(ascending=False)
        recompiles = _reason_counts(records["recompile_reasons"])
        recompile_reasons = recompiles.value_counts().head(TOP_REASONS)
        return {
            "source": "CompileMonitor",
            "compile_ns": int(records["compile_ns"].sum()),
            "graphs": int(records["graphs"].sum()),
            "graph_breaks": int(records["graph_breaks"].sum()),
            "recompiles": int(records["recompiles"].sum()),
            "limit_hits": int(records["limit_hits"].sum()),
            "break_reasons": [
                {"reason": str(reason), "count": int(count)}
                for reason, count in break_reasons.head(TOP_REASONS).items()
            ],
            "recompile_reasons": [
                {"function": str(function), "reason": str(reason), "count": int(count)}
                for (function, reason), count in recompile_reasons.items()
            ],
        }
    if len(frames):
        return {
            "source": "trace",
            "compile_ns": int(frames["compile_ns"].sum()),
            "graphs": int(frames["graphs"].sum()),
            "graph_breaks": None,
            "recompiles": int(frames["recompiles"].sum()),
            "limit_hits": None,
            "break_reasons": [],
            "recompile_reasons": [],
        }
    return None
