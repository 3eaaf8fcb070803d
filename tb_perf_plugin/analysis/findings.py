"""Findings: what slows the run down, with evidence and a fix. The contract is
docs/FINDINGS.md; thresholds live in `Thresholds` (documented defaults, one place).

Every rule has a threshold on the share of step time *and* a minimum effect size, so a clean
run on a noisy machine stays quiet. Pure functions of the inputs below.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .breakdown import StepBreakdown
from .host_calls import SYNC_CLASSES
from .memory import (
    RankMemory,
    SnapshotFacts,
)

if TYPE_CHECKING:
    from .what_if import WhatIfStep

SCHEMA_VERSION = 1
SEVERITIES = ("info", "warning", "critical")
# MyTimer spans that stand for input loading when the run has no trace: top-level spans named
# like this, and collectors.timed_loader's span wherever it is
DATA_SPAN = re.compile(r"data|load|batch|input|fetch", re.IGNORECASE)
LOADER_SPAN = "dataloader"
_NOT_A_HOTSPOT = re.compile(r"DataLoader|gloo:|nccl|c10d::|record_param_comms", re.IGNORECASE)
_MATMUL_KERNEL = re.compile(r"gemm|conv|matmul|wgrad|dgrad|xmma|mfma|cutlass|Cijk_", re.IGNORECASE)


@dataclass(frozen=True)
class Thresholds:
    """Defaults of every rule (docs/FINDINGS.md explains each)."""

    warmup_steps: int = 2  # first steps of a rank left out of step statistics
    data_loading_warning: float = 0.15  # median share of step time
    data_loading_critical: float = 0.40
    data_loading_min_ns: int = 500_000  # median data time per step
    communication_warning: float = 0.30  # median exposed share
    communication_critical: float = 0.50
    communication_min_ns: int = 1_000_000
    sync_warning: float = 0.05  # median share of step time in synchronizing calls
    sync_min_ns: int = 200_000
    host_bound_device_busy: float = 0.50  # device busy share below this...
    host_bound_runtime: float = 0.10  # ...and runtime share above this
    host_bound_min_idle_ns: int = 1_000_000
    hotspot_info: float = 0.25  # one operator's self time over traced step time (what a fix saves)
    hotspot_warning: float = 0.50  # and at least hotspot_dominance x the next operator
    hotspot_dominance: float = 3.0
    outlier_ratio: float = 1.5  # step time over the median...
    outlier_z: float = 5.0  # ...and robust z-score...
    outlier_min_excess_ns: int = 20_000_000  # ...and this much longer (scheduler hiccups are not)
    outlier_min_steps: int = 5
    variability_info: float = 0.25  # robust coefficient of variation
    variability_warning: float = 0.50
    variability_min_steps: int = 10
    variability_min_spread_ns: int = 1_000_000  # robust standard deviation of step time
    straggler_min_ns: int = 2_000_000  # the others' extra wait per step...
    straggler_share: float = 0.10  # ...also this share of the median step...
    straggler_consistency: float = 0.8  # ...in this share of the steps...
    straggler_spread: float = 1.0  # ...and larger than the run's step-time spread (robust std)
    straggler_worst_steps: int = 3  # steps its title names, largest wait of the others first
    rank_outlier_z: float = 3.5  # many-rank views: robust z of a rank's median among ranks'...
    rank_outlier_share: float = 0.10  # ...and this far from the typical rank...
    rank_outlier_min_ns: int = 1_000_000  # ...and at least this (times)...
    rank_outlier_min_bytes: int = 64 * 1024**2  # ...or this (memory)
    rank_outlier_min_ranks: int = 4  # ranks needed to call one of them an outlier
    matmul_share: float = 0.30  # of kernel time, for compute_efficiency
    tensor_core_low_pct: float = 10.0
    memory_warmup_fraction: float = 0.10  # memory samples left out at the start...
    memory_warmup_steps: int = 3  # ...at least this many
    leak_min_points: int = 8  # steady samples a trend needs
    leak_p_value: float = 0.01  # Mann-Kendall, one-sided; and Sen's 95 % interval above 0
    leak_min_slope_bytes: int = 64 * 1024  # per step (allocator / RSS creep is 0.2-3 KB/step)
    leak_min_growth_bytes: int = 16 * 1024**2  # over the steady window...
    leak_min_growth_fraction: float = 0.01  # ...and this share of the starting level
    leak_steadiness: float = 0.5  # each half of the window grows at least this x the slope
    leak_critical_horizon: float = 10.0  # memory runs out within this many x the steps seen
    fragmentation_unused: float = 0.30  # median share of reserved memory above the peak...
    fragmentation_min_bytes: int = 1024**3  # ...and at least this much
    peak_warning: float = 0.90  # peak allocated over the device's memory
    mfu_info: float = 0.25  # median MFU of the steady steps below this: info...
    mfu_warning: float = 0.10  # ...below this: warning
    mfu_min_steps: int = 3  # steady steps needed
    mfu_min_step_ns: int = 1_000_000  # median step time: tiny steps say little about a model
    recompile_per_function: int = 4  # recompilations of one function...
    recompile_min_ns: int = 50_000_000  # ...that cost at least this much compile time
    recompile_critical_share: float = 0.25  # recompile time over the rank's step time
    python_hotspot_info: float = 0.10  # a function's self time over its rank's profiled time
    python_hotspot_warning: float = 0.30
    python_hotspot_min_ns: int = 50_000_000  # ...and at least this much (a short profile is noise)
    python_hotspots_per_rank: int = 3


DEFAULT_THRESHOLDS = Thresholds()


@dataclass
class Finding:
    kind: str
    severity: str
    title: str
    evidence: dict[str, dict[str, Any]]  # name -> {"value", "unit"}
    recommendation: str
    view: dict[str, Any]  # {"tab": ..., "params": {...}}
    ranks: list[int] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    time_range_ns: list[str] | None = None  # [start, end] as decimal strings
    scope: str = ""  # what `key` distinguishes within the kind (an op name, a rank)
    schema_version: int = SCHEMA_VERSION
    explained_by: str | None = None  # the key of the finding whose cause this is a symptom of
    # the step time a perfect fix would save: {ns_per_step, share_of_step, basis} (impact.py)
    impact: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        """Stable across runs: run comparison matches findings by it."""
        return f"{self.kind}:{self.scope}" if self.scope else self.kind

    def to_json(self) -> dict[str, Any]:
        body = asdict(self)
        body.pop("scope")
        return {"key": self.key, **body}


@dataclass(frozen=True)
class OneOffStep:
    """A traced step taken up by one-off work (one_off.py): left out of the step statistics."""

    rank: int
    step: int
    cause: str  # "initialization" | "compilation"
    ns: int  # the one-off work's time in the step
    duration_ns: int


@dataclass(kw_only=True)
class AnalysisInputs:
    """What the rules read, per rank (times in ns on the rank's clock). Built by keyword;
    what a run lacks stays empty."""

    step_times: dict[int, pd.DataFrame] = field(default_factory=dict)  # step, t0, t1
    # step -> time in top-level data-loading spans (MyTimer)
    data_spans: dict[int, pd.Series] = field(default_factory=dict)
    breakdowns: list[StepBreakdown] = field(default_factory=list)
    operators: dict[int, pd.DataFrame] = field(default_factory=dict)  # per rank's traces
    kernels: pd.DataFrame = field(default_factory=pd.DataFrame)  # kernel_table rows, all traces
    # (rank, step) -> time in each class of runtime call (host_calls.py), "sync": the waits'
    host_calls: dict[tuple[int, int | None], dict[str, int]] = field(default_factory=dict)
    # steps left out of step statistics: those our own profiler slowed down (window start/stop)
    # and, once rules.find_all has left them out, the one-off steps
    profiler_steps: dict[int, set[int]] = field(default_factory=dict)
    loader_settings: dict[int, dict[str, Any]] = field(default_factory=dict)  # timed_loader's
    memory: dict[int, RankMemory] = field(default_factory=dict)  # MemorySampler's, or traces'
    # the traces' memory of the ranks whose `memory` is MemorySampler's (both recorded)
    trace_memory: dict[int, RankMemory] = field(default_factory=dict)
    snapshots: list[SnapshotFacts] = field(default_factory=list)  # the newest of each rank
    # cProfile/pstats function rows of imported profiles (docs/IMPORT.md): rank, file, function,
    # filename, line, name, calls, primitive_calls, self_ns, cumulative_ns
    python_profiles: pd.DataFrame | None = None
    # torch.compile records of the collectors (docs/COMPUTE.md), all ranks, with a rank column
    compile_records: pd.DataFrame | None = None
    flops_per_step: dict[int, float] = field(default_factory=dict)  # rank -> model FLOPs a step
    peak_flops: dict[int, float] = field(default_factory=dict)  # rank -> device peak FLOP/s
    flops_sampled_steps: dict[int, int] = field(default_factory=dict)  # the step FLOPs were counted
    # step -> time in collective-named MyTimer spans (ranks.collective_span_waits): what the
    # straggler rule reads when the run has no traced steps
    collective_waits: dict[int, pd.Series] = field(default_factory=dict)
    # (rank, steps to skip) -> the critical-path graph of its median traced step, built on first
    # use (what_if.py): what the impact of a finding is read off
    median_step: Callable[[int, set[int]], WhatIfStep | None] | None = None
    # rank -> events of the CUPTI range profiler in its traces (recorded with kernel replay)
    profiler_ranges: dict[int, int] = field(default_factory=dict)
    # the traced steps left out as one-off work (one_off.py; set by rules.find_all)
    one_off: list[OneOffStep] = field(default_factory=list)


def evidence(**values: tuple[float | str, str]) -> dict[str, dict[str, Any]]:
    return {
        name: {"value": round(v, 4) if isinstance(v, float) else v, "unit": unit}
        for name, (v, unit) in values.items()
    }


def severity_of(value: float, warning: float, critical: float | None = None) -> str | None:
    if critical is not None and value >= critical:
        return "critical"
    if value >= warning:
        return "warning"
    return None


def _steady(inputs: AnalysisInputs, rank: int, thresholds: Thresholds) -> pd.DataFrame:
    """The rank's steps after warm-up, without those our profiler slowed down."""
    ordered = inputs.step_times[rank].sort_values("step", kind="stable")
    ordered = ordered.iloc[thresholds.warmup_steps :]
    return ordered[~ordered["step"].isin(inputs.profiler_steps.get(rank, set()))]


def _robust(values: np.ndarray) -> tuple[float, float]:
    """Median and robust standard deviation (1.4826 MAD, at least 1 % of the median)."""
    median = float(np.median(values))
    spread = 1.4826 * float(np.median(np.abs(values - median)))
    return median, max(spread, 0.01 * median, 1.0)


def _by_rank(breakdowns: list[StepBreakdown]) -> dict[int, list[StepBreakdown]]:
    out: dict[int, list[StepBreakdown]] = {}
    for b in breakdowns:
        out.setdefault(b.rank, []).append(b)
    return out


def _share(steps: list[StepBreakdown], category: str) -> tuple[float, float]:
    """Median share of step time and median time of a breakdown category."""
    ns = np.array([s.ns[category] for s in steps], dtype=np.float64)
    duration = np.array([max(s.duration_ns, 1) for s in steps], dtype=np.float64)
    return float(np.median(ns / duration)), float(np.median(ns))


def data_loading(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    out = []
    traced = _by_rank(inputs.breakdowns)
    for rank in sorted(set(traced) | set(inputs.data_spans)):
        if rank in traced and any(s.ns["dataloader"] for s in traced[rank]):
            share, median_ns = _share(traced[rank], "dataloader")
            source = "DataLoader ops in the trace"
        elif rank in inputs.data_spans and rank in inputs.step_times:
            steps = _steady(inputs, rank, t)
            data = inputs.data_spans[rank].reindex(steps["step"]).fillna(0).to_numpy(np.float64)
            duration = (steps["t1"] - steps["t0"]).to_numpy(np.float64)
            if not len(duration):
                continue
            share = float(np.median(data / np.maximum(duration, 1)))
            median_ns = float(np.median(data))
            source = "MyTimer data-loading spans"
        else:
            continue
        severity = severity_of(share, t.data_loading_warning, t.data_loading_critical)
        if severity is None or median_ns < t.data_loading_min_ns:
            continue
        settings = inputs.loader_settings.get(rank, {})
        workers = settings.get("num_workers")
        extra = {} if workers is None else {"num_workers": (workers, "")}
        advice = (
            f"The DataLoader has num_workers={workers}: loading runs on the training process. "
            if workers == 0
            else ""
        )
        out.append(Finding(
            "data_loading", severity,
            f"Rank {rank} spends {share:.0%} of each step waiting for input data",
            evidence(median_share=(share, "fraction"), median_time=(int(median_ns), "ns"),
                      source=(source, ""), **extra),
            advice + "Load data in parallel: DataLoader(num_workers=N) with N up to the CPU "
            "cores per GPU, pin_memory=True, persistent_workers=True and prefetch_factor; move "
            "decoding and augmentation off the training process (or to the GPU).",
            {"tab": "overview", "params": {"rank": rank}}, ranks=[rank], scope=f"rank{rank}",
        ))  # fmt: skip
    return out


def communication(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    out = []
    for rank, steps in sorted(_by_rank(inputs.breakdowns).items()):
        share, median_ns = _share(steps, "communication")
        severity = severity_of(share, t.communication_warning, t.communication_critical)
        if severity is None or median_ns < t.communication_min_ns:
            continue
        total = float(np.median([s.communication_total_ns for s in steps]))
        overlap = float(np.median([s.overlap_ns for s in steps]))
        worst = max(steps, key=lambda s: s.ns["communication"])
        out.append(Finding(
            "communication", severity,
            f"Rank {rank} waits on communication for {share:.0%} of each step",
            evidence(median_exposed_share=(share, "fraction"),
                      median_exposed=(int(median_ns), "ns"), median_total=(int(total), "ns"),
                      overlap_of_total=(overlap / total if total else 0.0, "fraction")),
            "Overlap communication with compute: DDP bucket_cap_mb and gradient_as_bucket_view, "
            "FSDP prefetching, fewer/larger collectives; check for a straggling rank or slow "
            "interconnect (NCCL_DEBUG=INFO).",
            {"tab": "timeline", "params": {"step": worst.step, "rank": rank}},
            ranks=[rank], steps=[s.step for s in steps if s.step is not None][:50],
            time_range_ns=[str(worst.start_ns), str(worst.start_ns + worst.duration_ns)],
            scope=f"rank{rank}",
        ))  # fmt: skip
    return out


# What to change, per cause (host_calls.py's classes; docs/FINDINGS.md, causes)
_SYNC_FIXES = {
    "synchronize_call": "Remove the synchronizations inside the step (torch.cuda.synchronize(), "
    "stream or event waits): the GPU's queue drains and the host then waits for it; time with "
    "CUDA events instead, synchronize once per N steps if at all.",
    "blocking_copy": "Device-to-host copies into pageable memory block the host until the GPU "
    "is done: keep the tensor on the device, or copy into pinned memory with "
    "non_blocking=True (DataLoader(pin_memory=True) and .to(device, non_blocking=True) for "
    "inputs).",
    "scalar_read": "Reading a value back to Python (.item(), .tolist(), float(t), printing a "
    "tensor, a data-dependent if) waits for the GPU every time: keep metrics on the device and "
    "read them every N steps, avoid Python control flow on tensor values.",
}
_HOST_FIXES = {
    "launch_overhead": "Launch fewer, larger kernels: torch.compile (kernel fusion) or CUDA "
    "graphs (torch.compile(mode='reduce-overhead')), larger batches, fused optimizers "
    "(foreach/fused=True).",
    "cpu_ops": "The CPU side of the operators takes the time, not the launches: find them in "
    "Operators by host self time; avoid Python work and many tiny ops between kernels, fuse "
    "them with torch.compile, give each op more work (larger batches).",
    "allocator": "cudaMalloc/cudaFree inside the step: the caching allocator is emptied or "
    "bypassed. Do not call torch.cuda.empty_cache() in the loop, keep tensor shapes stable, "
    "reuse buffers, try PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.",
    "initialization": "One-off start-up work (CUDA context, streams, modules, cuDNN set-up) "
    "fills the traced steps: it is not a per-step cost. Record later steps "
    "(torch.profiler.schedule with wait and warmup) to see the steady state.",
}


def _median_calls(
    inputs: AnalysisInputs, rank: int, steps: list[StepBreakdown]
) -> dict[str, float]:
    """Median time per step of each class of runtime call (and "sync") over the steps."""
    calls = [inputs.host_calls.get((rank, s.step), {}) for s in steps]
    names = {name for c in calls for name in c}
    return {name: float(np.median([c.get(name, 0) for c in calls])) for name in names}


def sync_point(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """The host blocks on the device within the step; its cause is the kind of wait that
    takes the most of it: a synchronize call, a blocking copy or a scalar read."""
    out = []
    for rank, steps in sorted(_by_rank(inputs.breakdowns).items()):
        sync = np.array(
            [inputs.host_calls.get((rank, s.step), {}).get("sync", 0) for s in steps], np.float64
        )
        duration = np.array([max(s.duration_ns, 1) for s in steps], np.float64)
        share = float(np.median(sync / duration))
        if share < t.sync_warning or float(np.median(sync)) < t.sync_min_ns:
            continue
        calls = _median_calls(inputs, rank, steps)
        cause = max(SYNC_CLASSES, key=lambda c: calls.get(c, 0.0))
        out.append(Finding(
            "sync_point", "warning",
            f"Rank {rank} blocks on the device for {share:.0%} of each step "
            f"({cause.replace('_', ' ')})",
            evidence(median_share=(share, "fraction"), median_time=(int(np.median(sync)), "ns"),
                      cause=(cause, ""),
                      **{f"{c}_time": (int(calls.get(c, 0)), "ns") for c in SYNC_CLASSES}),
            _SYNC_FIXES[cause],
            {"tab": "timeline", "params": {"rank": rank, "q": _SYNC_QUERY[cause]}},
            ranks=[rank], scope=f"rank{rank}",
        ))  # fmt: skip
    return out


_SYNC_QUERY = {"synchronize_call": "Synchronize", "blocking_copy": "Memcpy", "scalar_read": "item"}


def host_bound(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """The GPU idles most of the step while the host works: its cause is what of the host's
    time is largest, the launches, the operators' CPU work, the allocator or one-off set-up."""
    out = []
    for rank, steps in sorted(_by_rank(inputs.breakdowns).items()):
        device = [s for s in steps if s.ns["compute"] + s.ns["memcpy"] + s.ns["memset"] > 0]
        if not device:
            continue  # CPU-only training: not a GPU waiting on its host
        busy = np.median([
            (s.ns["compute"] + s.ns["communication"] + s.ns["memcpy"] + s.ns["memset"])
            / max(s.duration_ns, 1)
            for s in device
        ])  # fmt: skip
        runtime, runtime_ns = _share(device, "runtime")
        cpu, cpu_ns = _share(device, "cpu")
        idle = float(np.median([s.duration_ns * (1 - busy) for s in device]))
        if busy >= t.host_bound_device_busy or runtime + cpu < t.host_bound_runtime:
            continue
        if idle < t.host_bound_min_idle_ns:
            continue
        calls = _median_calls(inputs, rank, device)
        spent = {
            "launch_overhead": calls.get("launch", 0.0),
            "cpu_ops": cpu_ns,
            "allocator": calls.get("allocator", 0.0),
            "initialization": calls.get("initialization", 0.0),
        }
        cause = max(spent, key=lambda c: spent[c])
        one_off = cause == "initialization"
        title = (
            f"Rank {rank}'s traced steps are mostly one-off start-up work (GPU busy {busy:.0%})"
            if one_off
            else f"Rank {rank}'s GPU is busy only {busy:.0%} of each step: the host cannot feed "
            f"it ({cause.replace('_', ' ')})"
        )
        out.append(Finding(
            "host_bound", "info" if one_off else "warning", title,
            evidence(median_device_busy=(float(busy), "fraction"),
                      median_runtime_share=(runtime, "fraction"),
                      median_cpu_ops_share=(cpu, "fraction"), cause=(cause, ""),
                      **{f"{c}_time": (int(ns), "ns") for c, ns in spent.items()},
                      median_runtime_time=(int(runtime_ns), "ns"),
                      median_device_idle=(int(idle), "ns"),
                      median_step_time=(int(np.median([s.duration_ns for s in device])), "ns")),
            _HOST_FIXES[cause],
            {"tab": "timeline", "params": {"rank": rank}}, ranks=[rank], scope=f"rank{rank}",
        ))  # fmt: skip
    return out


def hotspot(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    out = []
    traced = _by_rank(inputs.breakdowns)
    for rank, table in sorted(inputs.operators.items()):
        steps = traced.get(rank, [])
        traced_ns = sum(s.duration_ns for s in steps)
        if table.empty or traced_ns <= 0:
            continue
        # operators, not annotations; collectives and data loading have rules of their own
        ops = table[~table["annotation"] & ~table["name"].str.contains(_NOT_A_HOTSPOT)]
        self_ns = np.maximum(ops["host_self_ns"], ops["device_self_ns"]).to_numpy(np.float64)
        if not len(self_ns):
            continue
        order = np.argsort(-self_ns)
        top, share = order[0], self_ns[order[0]] / traced_ns
        runner_up = self_ns[order[1]] / traced_ns if len(order) > 1 else 0.0
        if share < t.hotspot_info:
            continue
        dominant = share >= t.hotspot_warning and share >= t.hotspot_dominance * runner_up
        name = str(ops["name"].iloc[top])
        out.append(Finding(
            "hotspot", "warning" if dominant else "info",
            f"{name} takes {share:.0%} of rank {rank}'s traced step time",
            evidence(share=(float(share), "fraction"), next_share=(float(runner_up), "fraction"),
                      self_time=(int(self_ns[top]), "ns"), calls=(int(ops["calls"].iloc[top]), ""),
                      traced_steps=(len(steps), "")),
            f"Look at {name}: its input shapes (Operators, grouped by input shapes) and its "
            "kernels; for a custom op consider torch.compile, a fused implementation or AMP.",
            {"tab": "operators", "params": {"rank": rank, "q": name}},
            ranks=[rank], scope=f"{name}@rank{rank}",
        ))  # fmt: skip
    return out


def steps_text(steps: list[int], shown: int = 3) -> str:
    """Steps named in a title, the most telling first: "step 45", "steps 45, 12 and 3 more"."""
    if len(steps) == 1:
        return f"step {steps[0]}"
    named = ", ".join(str(s) for s in steps[:shown])
    rest = len(steps) - shown
    return f"steps {named}{f' and {rest} more' if rest > 0 else ''}"


def _steady_durations(
    inputs: AnalysisInputs, rank: int, t: Thresholds, min_steps: int
) -> tuple[pd.DataFrame, np.ndarray] | None:
    """The rank's steady steps and their durations, if there are at least `min_steps`."""
    steps = _steady(inputs, rank, t)
    if len(steps) < min_steps:
        return None
    return steps, (steps["t1"] - steps["t0"]).to_numpy(np.float64)


def step_outlier(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    out = []
    for rank in sorted(inputs.step_times):
        steady = _steady_durations(inputs, rank, t, t.outlier_min_steps)
        if steady is None:
            continue
        steps, duration = steady
        median, spread = _robust(duration)
        z = (duration - median) / spread
        slow = np.flatnonzero(
            (duration >= t.outlier_ratio * median)
            & (z >= t.outlier_z)
            & (duration - median >= t.outlier_min_excess_ns)
        )
        if not len(slow):
            continue
        worst = slow[np.argmax(duration[slow])]
        step_numbers = steps["step"].to_numpy()
        named = [int(step_numbers[worst])] + [
            int(step_numbers[i]) for i in slow[np.argsort(-duration[slow], kind="stable")]
            if i != worst
        ]  # fmt: skip
        out.append(Finding(
            "step_outlier", "warning",
            f"Rank {rank}: {steps_text(named)} took {'up to ' * (len(slow) > 1)}"
            f"{duration[worst] / median:.1f}x the median step time",
            evidence(worst_step_time=(int(duration[worst]), "ns"),
                      median_step_time=(int(median), "ns"),
                      excess_per_step=(int((duration[slow] - median).sum() / len(duration)), "ns"),
                      worst_ratio=(float(duration[worst] / median), "x"),
                      worst_robust_z=(float(z[worst]), "")),
            "Open the slow step in the Timeline and compare it with a normal one: garbage "
            "collection, checkpointing, logging, a recompilation or data stalls are the usual "
            "causes; move periodic work off the critical path.",
            {"tab": "timeline", "params": {"rank": rank, "step": int(step_numbers[worst])}},
            ranks=[rank], steps=[int(s) for s in step_numbers[slow]],
            time_range_ns=[str(int(steps["t0"].iloc[worst])), str(int(steps["t1"].iloc[worst]))],
            scope=f"rank{rank}",
        ))  # fmt: skip
    return out


def kernel_replay(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """A trace recorded under the CUPTI range profiler (torch.profiler's experimental_config
    with profiler_metrics): every kernel was replayed to read its counters, so the trace's
    times are not the job's."""
    return [
        Finding(
            "kernel_replay",
            "warning",
            f"Rank {rank}'s trace was recorded with the CUPTI range profiler ({n:,} ranges): "
            "timings inflated by kernel replay",
            evidence(profiler_ranges=(n, "")),
            "The range profiler replays every kernel to read its counters: the GPU runs "
            "serialized and the host waits, so step, operator and kernel times and the other "
            "findings' impact on this trace overstate the job's. Record timings in a run "
            "without profiler_metrics, and read this one's counters per kernel only.",
            {"tab": "kernels", "params": {"rank": rank}},
            ranks=[rank],
            scope=f"rank{rank}",
        )
        for rank, n in sorted(inputs.profiler_ranges.items())
        if n > 0
    ]


def variability(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    out = []
    for rank in sorted(inputs.step_times):
        steady = _steady_durations(inputs, rank, t, t.variability_min_steps)
        if steady is None:
            continue
        _, duration = steady
        median, spread = _robust(duration)
        variation = spread / median
        severity = "warning" if variation >= t.variability_warning else "info"
        if variation < t.variability_info or spread < t.variability_min_spread_ns:
            continue
        out.append(Finding(
            "variability", severity,
            f"Rank {rank}'s step time varies by {variation:.0%} (robust)",
            evidence(robust_cv=(float(variation), "fraction"),
                      median_step_time=(int(median), "ns"),
                      p95_step_time=(int(np.percentile(duration, 95)), "ns")),
            "Find what differs between fast and slow steps (Overview chart, Timeline): "
            "variable input sizes, data-loading stalls, other processes on the host, thermal "
            "throttling.",
            {"tab": "overview", "params": {"rank": rank}}, ranks=[rank], scope=f"rank{rank}",
        ))  # fmt: skip
    return out


@dataclass(frozen=True)
class _WaitSource:
    """Per step (rows) and rank (columns): time waiting in collectives and step time, in the
    steps every rank has, as one source measures them."""

    name: str
    waits: pd.DataFrame
    durations: pd.DataFrame


def _wait_sources(inputs: AnalysisInputs) -> list[_WaitSource]:
    """Every source of collective waits the run has: MyTimer's collective-named spans over its
    steps, and the exposed communication of its traced steps (two ranks or more each)."""
    out = []
    if inputs.collective_waits and len(inputs.step_times) >= 2:
        # a rank's step without a collective span waited 0
        waits = pd.DataFrame(inputs.collective_waits).reindex(columns=sorted(inputs.step_times))
        durations = pd.DataFrame({
            rank: pd.Series((s["t1"] - s["t0"]).to_numpy(), index=s["step"].to_numpy())
            for rank, s in inputs.step_times.items()
        })  # fmt: skip
        common = durations.dropna().index.intersection(waits.index)
        out.append(_WaitSource(
            "collective spans", waits.loc[common].fillna(0), durations.loc[common]
        ))  # fmt: skip
    by_rank = _by_rank([b for b in inputs.breakdowns if b.step is not None])
    if len(by_rank) >= 2:
        waits = pd.DataFrame({
            rank: {s.step: s.ns["communication"] for s in steps}
            for rank, steps in by_rank.items()
        }).dropna()  # fmt: skip
        durations = pd.DataFrame({
            rank: {s.step: s.duration_ns for s in steps} for rank, steps in by_rank.items()
        }).reindex(waits.index)  # fmt: skip
        out.append(_WaitSource("exposed communication", waits, durations))
    return out


@dataclass(frozen=True)
class _Gap:
    """How much longer the others waited than one rank, per step, as one source saw it."""

    source: _WaitSource
    gap: pd.Series
    consistency: float
    median_gap: float
    median_step: float
    spread: float


def _gaps(source: _WaitSource, t: Thresholds) -> dict[int, _Gap]:
    """The ranks that hold the others up in this source: the others' wait exceeds theirs,
    consistently and by more than the run's own spread."""
    waits, durations = source.waits, source.durations
    if waits.shape[1] < 2 or len(waits) < t.outlier_min_steps:
        return {}
    median_step, spread = _robust(durations.to_numpy(np.float64).ravel())
    totals = waits.sum(axis=1)
    out = {}
    for rank in waits.columns:
        gap = (totals - waits[rank]) / (waits.shape[1] - 1) - waits[rank]
        found = _Gap(source, gap, float((gap > 0).mean()), float(gap.median()), median_step,
                     spread)  # fmt: skip
        if (
            found.consistency >= t.straggler_consistency
            and found.median_gap >= max(t.straggler_min_ns, t.straggler_share * median_step)
            and found.median_gap >= t.straggler_spread * spread
        ):
            out[int(rank)] = found
    return out


def straggler(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """The rank the others wait for: in steps common to all ranks, the others' time waiting in
    collectives exceeds this rank's, consistently and by more than the run's own spread. Every
    source counts (MyTimer's collective spans over all its steps, the traces' exposed
    communication over the traced ones): the one with the most steps tells, the others are
    named as confirming it; a source with too few steps never vetoes another."""
    sources = _wait_sources(inputs)
    found = [_gaps(source, t) for source in sources]
    out = []
    for rank in sorted({r for gaps in found for r in gaps}):
        seen = sorted((g[rank] for g in found if rank in g), key=lambda g: -len(g.gap))
        best = seen[0]
        gap = best.gap
        worst = gap.sort_values(ascending=False, kind="stable").index[: t.straggler_worst_steps]
        worst_text = ", ".join(str(int(s)) for s in worst)
        also = [f"{g.source.name} ({len(g.gap)} steps)" for g in seen[1:]]
        out.append(Finding(
            "straggler", "warning",
            f"Rank {rank} holds the others up: they wait {best.median_gap / 1e6:.1f} ms longer "
            f"in collectives each step (most in step{'s' if len(worst) > 1 else ''} "
            f"{worst_text})",
            evidence(median_extra_wait_of_others=(int(best.median_gap), "ns"),
                      steps_with_others_waiting=(best.consistency, "fraction"),
                      worst_step=(int(worst[0]), "step"),
                      worst_step_extra_wait=(int(gap[worst[0]]), "ns"),
                      median_step_time=(int(best.median_step), "ns"),
                      step_time_spread=(int(best.spread), "ns"),
                      source=(best.source.name, ""), steps_measured=(len(gap), ""),
                      **({"confirmed_by": ("; ".join(also), "")} if also else {})),
            f"Find what rank {rank} does more of (compare its spans and Timeline with another "
            "rank's): uneven data sharding or sequence lengths, a slower host or GPU, extra "
            f"work such as logging or checkpointing on that rank only. Measured from "
            f"{best.source.name}.",
            {"tab": "timeline", "params": {"step": int(worst[0]), "ranks": str(rank)}},
            ranks=[rank],
            steps=[int(s) for s in gap.index[gap > 0]][:50], scope=f"rank{rank}",
        ))  # fmt: skip
    return out


def compute_efficiency(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    kernels = inputs.kernels
    if kernels.empty:
        return []
    matmul = kernels["name"].str.contains(_MATMUL_KERNEL)
    total = float(kernels["total_ns"].sum())
    matmul_share = float(kernels.loc[matmul, "total_ns"].sum()) / total if total else 0.0
    tensor = float(kernels.loc[kernels["tensor_cores"], "total_ns"].sum()) / total * 100
    if matmul_share < t.matmul_share or tensor >= t.tensor_core_low_pct:
        return []
    return [Finding(
        "compute_efficiency", "info",
        f"Matrix kernels take {matmul_share:.0%} of GPU time, but only {tensor:.0f} % of kernel "
        "time uses Tensor Cores (by kernel names)",
        evidence(matmul_share=(matmul_share, "fraction"), tensor_core_pct=(tensor, "%")),
        "Use mixed precision (torch.autocast with bfloat16/float16) or TF32 "
        "(torch.backends.cuda.matmul.allow_tf32 = True) so matmuls and convolutions run on "
        "Tensor Cores; keep dimensions multiples of 8.",
        {"tab": "kernels", "params": {}},
    )]  # fmt: skip
