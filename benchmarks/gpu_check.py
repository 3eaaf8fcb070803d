"""One short run that exercises every CUDA and NVML path of the collectors on a real GPU.

    python benchmarks/gpu_check.py OUT_DIR

Writes OUT_DIR/report.json (one section per check: status pass / fail / skipped, the reason,
the numbers measured and, when a check raised, the traceback) and the runs the checks made, a
tb-perf logdir with one run per check: OUT_DIR/runs/<check>/. The checks (docs/GPU_CHECK.md):

  timer_sync      MyTimer's CUDA events add no host-device synchronisation per step
  module_times    ModuleProfiler's forward/backward device times vs CUDA events placed by hand
  memory_sampler  MemorySampler's records vs torch.cuda.memory_stats() read at the same points
  snapshot_oom    MemorySnapshotter's dump at a real OOM, read back by the plugin's ingest
  gpu_tracker     GpuTracker's NVML samples and what one sample costs
  flops           FlopsCounter's device name and the plugin's peak-FLOP/s lookup for it
  nvtx_nsys       NVTX ranges (MyTimer's mirror, a labeler) in an Nsight Systems export
  profile_steps   a profile_steps window with CUDA activity, read back through the plugin

Every check runs on its own, so one failing never hides the others. Exit 0 when the checks ran
(fail verdicts are in the report), nonzero only if the script itself crashes. It takes one to
three minutes; checks that would start after LIMIT_S - MIN_START_S are skipped, so it stays
within 8 minutes. Without CUDA it prints `no GPU: nothing checked` and exits 0.

The plugin's modules (pandas, numpy) are imported by the checks that read runs back, so the
no-GPU path costs torch's import only.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import gc
import importlib.util
import io
import json
import os
import platform
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import textwrap
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from time import perf_counter_ns
from typing import Any

import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from collectors import (  # noqa: E402
    FlopsCounter,
    GpuTracker,
    MemorySampler,
    MemorySnapshotter,
    ModuleProfiler,
    MyTimer,
    NvmlBackend,
    RunWriter,
    profile_steps,
)

NO_GPU_MESSAGE = "no GPU: nothing checked"
REPORT_SCHEMA = "tb_perf.gpu_check"
LIMIT_S = 450.0  # the whole run; the brief allows 8 minutes
MIN_START_S = 40.0  # a check needs at least this much of LIMIT_S left to start
MiB = 1 << 20
GiB = 1 << 30
MAX_READ_BYTES = 4 * GiB  # what the plugin's readers may read of a file here


# --- results ----------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What one check found: pass / fail / skipped, why, and the numbers behind it."""

    status: str
    reason: str
    measured: dict[str, Any] = field(default_factory=dict)


@dataclass
class CheckResult:
    """One section of the report."""

    title: str
    status: str
    reason: str
    measured: dict[str, Any]
    seconds: float
    error: str | None = None  # the traceback when the check raised


@dataclass
class Context:
    """Where the checks write, which device they use, and how much time is left."""

    out: Path
    device: torch.device
    started: float = field(default_factory=time.monotonic)

    def seconds_left(self) -> float:
        return LIMIT_S - (time.monotonic() - self.started)

    def run_dir(self, check: str) -> Path:
        """The check's run in the logdir OUT_DIR/runs (created by its RunWriter)."""
        return self.out / "runs" / check

    def scratch(self, check: str) -> Path:
        """The check's other files (traces, the nsys report): beside the logdir, not in it."""
        path = self.out / "artifacts" / check
        path.mkdir(parents=True, exist_ok=True)
        return path


@dataclass(frozen=True)
class Check:
    name: str
    title: str
    run: Callable[[Context], Verdict]


def verdict(problems: list[str], passed: str, measured: dict[str, Any]) -> Verdict:
    """Fail with every problem found, else pass."""
    if problems:
        return Verdict("fail", "; ".join(problems), measured)
    return Verdict("pass", passed, measured)


# --- shared workload and readers --------------------------------------------------------------


def mlp(width: int, depth: int, device: torch.device) -> torch.nn.Sequential:
    """`depth` square Linear layers with ReLUs between: kernels of known shape and FLOPs."""
    layers: list[torch.nn.Module] = []
    for i in range(depth):
        if i:
            layers.append(torch.nn.ReLU())
        layers.append(torch.nn.Linear(width, width))
    return torch.nn.Sequential(*layers).to(device)


def span(timer: MyTimer | None, name: str) -> contextlib.AbstractContextManager:
    return timer.range(name) if timer is not None else contextlib.nullcontext()


def train_step(
    model: torch.nn.Module, optimizer: torch.optim.Optimizer, x: torch.Tensor, timer: MyTimer | None
) -> None:
    """One training step that synchronises with the device nowhere itself (no `.item()`), so
    any synchronisation a trace shows comes from what runs around it."""
    with span(timer, "forward"):
        loss = model(x).square().mean()
    with span(timer, "backward"):
        loss.backward()
    with span(timer, "optimizer"):
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


def read_records(run_dir: Path, kind: str) -> list[dict[str, Any]]:
    """Every record of the run's `<prefix>.<kind>.jsonl` files (docs/FORMAT.md), headers out."""
    records = []
    for path in sorted((run_dir / "plugins" / "tb_perf").glob(f"*.{kind}.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "k" in record:
                records.append(record)
    return records


def read_metadata(run_dir: Path) -> dict[str, Any]:
    (path,) = (run_dir / "plugins" / "tb_perf").glob("*.meta.json")
    return json.loads(path.read_text())


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered)) - 1))]


def run_name(service: Any) -> str:
    """The name RunStore gives the run it was pointed at ('.' when the logdir is the run)."""
    names = sorted(service.discover())
    return "." if "." in names else names[0]


def keep_gpu_busy(device: torch.device, seconds: float) -> int:
    """Large matmuls for `seconds` (waited for each time, so it ends on time); how many ran."""
    a = torch.randn(8192, 8192, device=device)
    end, done = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        torch.mm(a, a)
        torch.cuda.synchronize(device)
        done += 1
    return done


# --- 1. MyTimer adds no synchronisation ---------------------------------------------------------

SYNC_CALLS = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize")
RUNTIME_CATEGORIES = ("cuda_runtime", "cuda_driver")
STEP_RANGE = "gpu_check_step#"
TRACED_STEPS = 20
_VERSION_SUFFIX = re.compile(r"_v\d+$")  # CUPTI names some calls cudaLaunchKernel_v7000


def runtime_calls_per_step(events: Iterable[dict[str, Any]], prefix: str) -> list[Counter[str]]:
    """Per step range (a `user_annotation` whose name starts with `prefix`, in time order),
    how many of each CUDA runtime / driver call began inside it."""
    events = list(events)
    windows = sorted(
        (e["ts"], e["ts"] + e.get("dur", 0))
        for e in events
        if e.get("ph") == "X"
        and e.get("cat") == "user_annotation"
        and str(e.get("name", "")).startswith(prefix)
    )
    starts = [start for start, _ in windows]
    counts: list[Counter[str]] = [Counter() for _ in windows]
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in RUNTIME_CATEGORIES:
            continue
        at = bisect.bisect_right(starts, e["ts"]) - 1
        if at >= 0 and e["ts"] <= windows[at][1]:
            counts[at][_VERSION_SUFFIX.sub("", str(e.get("name", "")))] += 1
    return counts


def sync_calls(counts: Counter[str]) -> int:
    return sum(counts[name] for name in SYNC_CALLS)


def calls_per_step(steps: list[Counter[str]]) -> dict[str, float]:
    total: Counter[str] = sum(steps, Counter())
    return {name: n / max(len(steps), 1) for name, n in sorted(total.items())}


def traced_runtime_calls(step: Callable[[], None], path: Path) -> list[Counter[str]]:
    """Run TRACED_STEPS steps under torch.profiler (CPU and CUDA activity), each in its own
    range, and count the runtime calls of each step in the exported trace."""
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=activities) as prof:
        for i in range(TRACED_STEPS):
            with torch.profiler.record_function(f"{STEP_RANGE}{i}"):
                step()
        torch.cuda.synchronize()  # outside every step range: not counted
    prof.export_chrome_trace(str(path))
    return runtime_calls_per_step(json.loads(path.read_text())["traceEvents"], STEP_RANGE)


def check_timer_sync(ctx: Context) -> Verdict:
    model = mlp(1024, 3, ctx.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(256, 1024, device=ctx.device)
    for _ in range(3):  # cuBLAS handles and the allocator's pool exist before either trace
        train_step(model, optimizer, x, None)
    scratch = ctx.scratch("timer_sync")
    plain = traced_runtime_calls(
        lambda: train_step(model, optimizer, x, None), scratch / "without_timer.json"
    )
    run_dir = ctx.run_dir("timer_sync")
    timer = MyTimer(run_dir, gpu=True)
    timer.set_step(0)

    def timed_step() -> None:
        train_step(model, optimizer, x, timer)
        timer.step()  # inside the step's range: the timer's polling of its events is counted

    try:
        timed = traced_runtime_calls(timed_step, scratch / "with_timer.json")
    finally:
        timer.close()  # waits for the last events: outside the trace
    found = timer_sync_verdict(plain, timed, read_records(run_dir, "timer"))
    gpu_status = read_metadata(run_dir)["timer"]["gpu"]
    found.measured["timer_gpu"] = gpu_status
    found.measured["traces"] = [
        str(scratch / "without_timer.json"),
        str(scratch / "with_timer.json"),
    ]
    if gpu_status != "cuda":
        return Verdict("fail", f"MyTimer's gpu status is {gpu_status!r}", found.measured)
    return found


def timer_sync_verdict(
    plain: list[Counter[str]], timed: list[Counter[str]], records: list[dict[str, Any]]
) -> Verdict:
    """Pass when the steps with MyTimer hold no more sync calls than those without, the timer
    did record CUDA events, and every span got its GPU time (`records`: its timer file)."""
    spans = sum(r["k"] == "span" for r in records)
    gpu_times = sum(r["k"] == "gpu" for r in records)
    plain_syncs, timed_syncs = [sync_calls(c) for c in plain], [sync_calls(c) for c in timed]
    per_step_plain, per_step_timed = calls_per_step(plain), calls_per_step(timed)
    added = {
        name: round(per_step_timed.get(name, 0.0) - per_step_plain.get(name, 0.0), 3)
        for name in sorted(set(per_step_plain) | set(per_step_timed))
    }
    event_records = sum(
        n for name, n in per_step_timed.items() if name.startswith("cudaEventRecord")
    )
    measured = {
        "steps_traced": {"without_timer": len(plain), "with_timer": len(timed)},
        "sync_calls_per_step_without_timer": plain_syncs,
        "sync_calls_per_step_with_timer": timed_syncs,
        "runtime_calls_added_per_step": {k: v for k, v in added.items() if v},
        "spans": spans,
        "gpu_records": gpu_times,
    }
    problems = []
    if len(plain) != TRACED_STEPS or len(timed) != TRACED_STEPS:
        problems.append(f"the traces hold {len(plain)} and {len(timed)} of {TRACED_STEPS} steps")
    if sum(timed_syncs) > sum(plain_syncs):
        problems.append(
            f"MyTimer added {sum(timed_syncs) - sum(plain_syncs)} sync calls over "
            f"{len(timed)} steps ({sum(plain_syncs)} without it, {sum(timed_syncs)} with it)"
        )
    if event_records == 0:
        problems.append("the trace shows no cudaEventRecord from MyTimer")
    if gpu_times != spans:
        problems.append(f"{spans} spans but {gpu_times} gpu records after close()")
    passed = (
        f"no sync call added: {sum(plain_syncs)} without MyTimer, {sum(timed_syncs)} with it "
        f"over {len(timed)} steps; {event_records:.1f} cudaEventRecord per step; every span "
        "got its GPU time"
    )
    return verdict(problems, passed, measured)


# --- 2. ModuleProfiler's device times -------------------------------------------------------------

MODULE_WIDTH, MODULE_DEPTH, MODULE_BATCH = 4096, 3, 4096  # ~2 ms matmuls: the GPU stays busy
MODULE_WARMUP, MODULE_STEPS = 3, 10
MODULE_TOLERANCE = (0.10, 0.05)  # relative, and absolute in ms: either is enough
Key = tuple[str, str]  # (module path, phase "fwd" / "bwd"); "" is the model


def recorded_event() -> torch.cuda.Event:
    event = torch.cuda.Event(enable_timing=True)
    event.record()
    return event


def hand_timed_step(
    model: torch.nn.Sequential, x: torch.Tensor, grad: torch.Tensor
) -> dict[Key, tuple[torch.cuda.Event, torch.cuda.Event]]:
    """One forward and backward of `model` with CUDA events placed by hand around each child:
    the children run one by one on detached inputs, so each backward is a pass of its own and
    the kernels are those of `model(x).backward(grad)`."""
    pairs = {}
    children = list(model.named_children())
    inputs, outputs = [], []
    h = x
    model_start = recorded_event()
    for name, child in children:
        h = h.detach().requires_grad_(bool(inputs))  # the model's input needs no gradient
        start = recorded_event()
        out = child(h)
        pairs[(name, "fwd")] = (start, recorded_event())
        inputs.append(h)
        outputs.append(out)
        h = out
    pairs[("", "fwd")] = (model_start, recorded_event())
    backward_start = recorded_event()
    for (name, _), inp, out in reversed(list(zip(children, inputs, outputs, strict=True))):
        start = recorded_event()
        out.backward(grad)
        pairs[(name, "bwd")] = (start, recorded_event())
        grad = inp.grad
    pairs[("", "bwd")] = (backward_start, recorded_event())
    model.zero_grad(set_to_none=True)
    return pairs


def hand_module_ms(
    model: torch.nn.Sequential, x: torch.Tensor, grad: torch.Tensor
) -> dict[Key, float]:
    """Median device ms per module and phase over MODULE_STEPS steps after MODULE_WARMUP. The
    events are read after one synchronisation at the end: like the profiled loop, the steps
    follow each other without the device going idle at each step's first event."""
    steps = [hand_timed_step(model, x, grad) for _ in range(MODULE_WARMUP + MODULE_STEPS)]
    torch.cuda.synchronize()
    samples: dict[Key, list[float]] = defaultdict(list)
    for pairs in steps[MODULE_WARMUP:]:
        for key, (start, end) in pairs.items():
            samples[key].append(start.elapsed_time(end))
    return {key: statistics.median(values) for key, values in samples.items()}


def profiled_module_ms(records: list[dict[str, Any]], first_step: int) -> dict[Key, float]:
    """Median device ms per call of each module and phase from ModuleProfiler's `mgpu` records
    (sums over a block's calls, divided by the calls its `calls` record counts), for the blocks
    from `first_step` on."""
    paths = {r["id"]: r["path"] for r in records if r["k"] == "module"}
    calls = {}
    for r in records:
        if r["k"] == "calls":
            for phase in ("fwd", "bwd"):
                for module_id, n, *_ in r.get(phase, []):
                    calls[(r["step"], phase, module_id)] = n
    samples: dict[Key, list[float]] = defaultdict(list)
    for r in records:
        if r["k"] != "mgpu" or r["step"] < first_step:
            continue
        for phase in ("fwd", "bwd"):
            for module_id, gpu_ns in r.get(phase, []):
                n = calls.get((r["step"], phase, module_id)) or 1
                samples[(paths[module_id], phase)].append(gpu_ns / n / 1e6)
    return {key: statistics.median(values) for key, values in samples.items()}


def run_module_profiler(
    model: torch.nn.Sequential, x: torch.Tensor, grad: torch.Tensor, run_dir: Path
) -> None:
    """The same steps as `hand_timed_step`, as a training loop would run them, profiled."""
    timer = MyTimer(run_dir, gpu=False)  # the module times are what is checked
    timer.set_step(0)
    with ModuleProfiler(model, timer, gpu=True):
        for _ in range(MODULE_WARMUP + MODULE_STEPS):
            model(x).backward(grad)
            model.zero_grad(set_to_none=True)
            timer.step()
    timer.close()


def compare_module_ms(hand: dict[Key, float], profiled: dict[Key, float]) -> list[dict[str, Any]]:
    relative, absolute = MODULE_TOLERANCE
    rows = []
    for (path, phase), hand_ms in sorted(hand.items()):
        got = profiled.get((path, phase))
        within = got is not None and abs(got - hand_ms) <= max(relative * hand_ms, absolute)
        rows.append({
            "module": path or "(model)",
            "phase": phase,
            "hand_ms": round(hand_ms, 4),
            "profiler_ms": None if got is None else round(got, 4),
            "diff_pct": None if got is None else round(100 * (got - hand_ms) / hand_ms, 2),
            "within_tolerance": within,
        })  # fmt: skip
    return rows


def check_module_times(ctx: Context) -> Verdict:
    torch.manual_seed(0)
    model = mlp(MODULE_WIDTH, MODULE_DEPTH, ctx.device)
    x = torch.randn(MODULE_BATCH, MODULE_WIDTH, device=ctx.device)
    grad = torch.ones(MODULE_BATCH, MODULE_WIDTH, device=ctx.device)  # what .sum() would feed
    hand = hand_module_ms(model, x, grad)
    run_dir = ctx.run_dir("module_times")
    run_module_profiler(model, x, grad, run_dir)
    profiled = profiled_module_ms(read_records(run_dir, "modules"), MODULE_WARMUP)
    rows = compare_module_ms(hand, profiled)
    gpu_status = read_metadata(run_dir)["modules"]["gpu"]
    relative, absolute = MODULE_TOLERANCE
    measured = {
        "model": f"{MODULE_DEPTH} x Linear({MODULE_WIDTH}, {MODULE_WIDTH}) + ReLU, batch "
        f"{MODULE_BATCH}, fp32",
        "steps": MODULE_STEPS,
        "tolerance": f"{relative:.0%} or {absolute} ms",
        "profiler_gpu": gpu_status,
        "modules": rows,
    }
    off = [f"{r['module']} {r['phase']}: {r['profiler_ms']} vs {r['hand_ms']} ms" for r in rows
           if not r["within_tolerance"]]  # fmt: skip
    problems = [f"outside tolerance: {', '.join(off)}"] if off else []
    if gpu_status != "cuda":
        problems.append(f"ModuleProfiler's gpu status is {gpu_status!r}")
    worst = max((abs(r["diff_pct"]) for r in rows if r["diff_pct"] is not None), default=0.0)
    passed = f"{len(rows)} module/phase device times within tolerance (worst {worst:.1f} %)"
    return verdict(problems, passed, measured)


# --- 3. MemorySampler vs memory_stats ---------------------------------------------------------

SAMPLER_STEPS = 8
MEM_FIELDS = {
    "allocated": "allocated_bytes.all.current",
    "reserved": "reserved_bytes.all.current",
    "peak": "allocated_bytes.all.peak",
    "retries": "num_alloc_retries",
    "ooms": "num_ooms",
}


def memory_stats_fields(device: torch.device) -> dict[str, int | None]:
    """torch.cuda.memory_stats() as the `mem` record's fields."""
    stats = torch.cuda.memory_stats(device)
    return {name: stats.get(key) for name, key in MEM_FIELDS.items()}


def mem_mismatches(
    records: list[dict[str, Any]], expected: dict[int, dict[str, int | None]], device: str
) -> list[dict[str, Any]]:
    """Each field of each step where the sampler's record and memory_stats() differ."""
    by_step = {r["step"]: r for r in records if r["k"] == "mem"}
    out = []
    for step in sorted(set(by_step) | set(expected)):
        record, stats = by_step.get(step), expected.get(step)
        if record is None or stats is None:
            out.append({"step": step, "missing": "sampler record" if record is None else "stats"})
            continue
        if record["device"] != device:
            out.append({"step": step, "field": "device", "sampler": record["device"]})
        for name, value in stats.items():
            if record[name] != value:
                out.append(
                    {"step": step, "field": name, "sampler": record[name], "memory_stats": value}
                )
    return out


def check_memory_sampler(ctx: Context) -> Verdict:
    run_dir = ctx.run_dir("memory_sampler")
    timer = MyTimer(run_dir, gpu=False)
    sampler = MemorySampler(timer, device=ctx.device).attach()
    expected: dict[int, dict[str, int | None]] = {}

    def read_after_sampler(_step: int) -> None:
        if timer.ended_step is not None:
            expected[timer.ended_step] = memory_stats_fields(ctx.device)

    timer.add_step_callback(read_after_sampler)  # runs right after the sampler's: same point
    kept = []
    timer.set_step(0)
    for step in range(SAMPLER_STEPS):
        kept.append(torch.empty((step + 1) * 4 * MiB, dtype=torch.uint8, device=ctx.device))
        transient = torch.empty(64 * MiB, dtype=torch.uint8, device=ctx.device)
        del transient  # the peak stays above what is live
        if step % 3 == 2:
            kept.pop(0)
        timer.step()
    sampler.detach()
    timer.close()
    records = read_records(run_dir, "memory")
    device = f"cuda:{ctx.device.index}"
    mismatches = mem_mismatches(records, expected, device)
    measured = {
        "steps": len(expected),
        "records": len(records),
        "last_record": records[-1] if records else None,
        "last_memory_stats": expected.get(max(expected)) if expected else None,
        "mismatches": mismatches[:20],
    }
    problems = []
    if len(expected) != SAMPLER_STEPS:
        problems.append(f"{len(expected)} step boundaries sampled, not {SAMPLER_STEPS}")
    if mismatches:
        problems.append(f"{len(mismatches)} field(s) differ from memory_stats()")
    passed = f"{len(records)} records equal memory_stats() read at the same step boundaries"
    return verdict(problems, passed, measured)


# --- 4. MemorySnapshotter at a real OOM ---------------------------------------------------------

PEAK_TOLERANCE = (0.02, 4 * MiB)  # the trace's sizes are requested sizes, the stats' blocks


def provoke_oom(device: torch.device) -> tuple[dict[str, Any], str]:
    """Hold some tensors, free a larger one (a peak above what stays live), then ask for more
    than the whole device holds: the allocator's real OOM path runs, observers included. The
    allocator statistics read right after (nothing allocates in between) and the message."""
    kept = [torch.empty(size * MiB, dtype=torch.uint8, device=device) for size in (64, 128, 256)]
    transient = torch.empty(512 * MiB, dtype=torch.uint8, device=device)
    del transient
    _, total = torch.cuda.mem_get_info(device)
    try:
        torch.empty(total + GiB, dtype=torch.uint8, device=device)
    except torch.cuda.OutOfMemoryError as exc:
        message = str(exc).splitlines()[0][:300]
    else:
        raise AssertionError("allocating more than the device holds raised no OutOfMemoryError")
    stats = torch.cuda.memory_stats(device)
    del kept
    return stats, message


def snapshot_comparison(
    summary: dict[str, Any], stats: dict[str, Any], device_index: int
) -> tuple[dict[str, Any], list[str]]:
    """The plugin's summary of the OOM snapshot beside memory_stats() at the OOM, and what
    differs: segments, reserved and allocated bytes exactly, the peak within PEAK_TOLERANCE."""
    devices = [d for d in summary["devices"] if d["device"] == device_index] or summary["devices"]
    peak = devices[0]["peak"]["live_bytes"] if devices else None
    pairs = {
        "segments": (summary["segments"], stats.get("segment.all.current")),
        "reserved_bytes": (summary["reserved_bytes"], stats.get("reserved_bytes.all.current")),
        "allocated_bytes": (summary["allocated_bytes"], stats.get("allocated_bytes.all.current")),
        "peak_bytes": (peak, stats.get("allocated_bytes.all.peak")),
    }
    problems = [
        f"{name}: snapshot {got} vs memory_stats {want}"
        for name, (got, want) in pairs.items()
        if name != "peak_bytes" and got != want
    ]
    relative, absolute = PEAK_TOLERANCE
    got, want = pairs["peak_bytes"]
    if got is None or want is None or abs(got - want) > max(relative * want, absolute):
        problems.append(f"peak: snapshot {got} vs memory_stats {want}")
    if not summary["trace_entries"].get("oom"):
        problems.append("the snapshot's trace has no oom entry")
    compared = {name: {"snapshot": a, "memory_stats": b} for name, (a, b) in pairs.items()}
    return compared, problems


def check_snapshot_oom(ctx: Context) -> Verdict:
    from tb_perf_plugin.analysis.memory_snapshot import snapshot_summary
    from tb_perf_plugin.ingest.snapshot import read_snapshot

    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(ctx.device)
    writer = RunWriter(ctx.run_dir("snapshot_oom"))
    snapshotter = MemorySnapshotter(writer, enabled=True, dump_on_oom=True)
    try:
        with snapshotter.region("oom_check"):
            stats, message = provoke_oom(ctx.device)
    finally:
        snapshotter.close()
        writer.close()
    dumps = [Path(f) for f in snapshotter.files if ".snapshot.oom." in Path(f).name]
    measured: dict[str, Any] = {
        "oom_message": message,
        "num_ooms": stats.get("num_ooms"),
        "files": [Path(f).name for f in snapshotter.files],
    }
    if not dumps or not dumps[0].is_file():
        return Verdict("fail", "no oom snapshot was dumped at the OOM", measured)
    snap = read_snapshot(str(dumps[0]), MAX_READ_BYTES)
    summary = snapshot_summary(snap)
    compared, problems = snapshot_comparison(summary, stats, ctx.device.index)
    measured.update(
        format=summary["format"],
        time_unit=summary["time_unit"],
        file_bytes=summary["file_bytes"],
        trace_entries=summary["trace_entries"],
        compared=compared,
    )
    passed = (
        f"{dumps[0].name} read back ({summary['format']}): segments, reserved and allocated "
        "bytes equal memory_stats() at the OOM, peak within tolerance"
    )
    return verdict(problems, passed, measured)


# --- 5. GpuTracker and NVML -------------------------------------------------------------------

TRACKER_INTERVAL_S, TRACKER_SECONDS, COST_SAMPLES = 0.1, 2.0, 200
MAX_SAMPLE_US = 1000.0  # one sample per second must stay far below 0.1 % of a core
REQUIRED_FIELDS = ("util", "mem_used", "mem_total")


def nvml_index(devices: list[dict[str, Any]], device: torch.device) -> tuple[int, bool]:
    """The NVML index of the CUDA device (NVML ignores CUDA_VISIBLE_DEVICES), found by UUID;
    the first GPU and False when no UUID matches."""
    uuid = str(getattr(torch.cuda.get_device_properties(device), "uuid", "")).lower()
    for d in devices:
        if d["uuid"] and d["uuid"].lower().removeprefix("gpu-") == uuid.removeprefix("gpu-"):
            return d["index"], True
    return devices[0]["index"], False


def sample_cost_us(backend: NvmlBackend, index: int) -> dict[str, float]:
    times = []
    for _ in range(COST_SAMPLES):
        began = perf_counter_ns()
        backend.sample(index)
        times.append((perf_counter_ns() - began) / 1e3)
    return {"median": round(statistics.median(times), 1), "p95": round(percentile(times, 95), 1)}


def check_gpu_tracker(ctx: Context) -> Verdict:
    if importlib.util.find_spec("pynvml") is None:
        return Verdict("skipped", "pynvml is not installed (pip install nvidia-ml-py)")
    backend = NvmlBackend()
    devices = backend.devices()
    if not devices:
        return Verdict("fail", "NVML sees no GPU", {})
    index, matched = nvml_index(devices, ctx.device)
    cost = sample_cost_us(backend, index)
    run_dir = ctx.run_dir("gpu_tracker")
    writer = RunWriter(run_dir)
    with GpuTracker(writer, interval_s=TRACKER_INTERVAL_S, gpus=[index]):
        matmuls = keep_gpu_busy(ctx.device, TRACKER_SECONDS)
    writer.close()
    samples = [g for r in read_records(run_dir, "system") if r["k"] == "sys" for g in r["gpus"]]
    util = [s["util"] for s in samples if s["util"] is not None]
    nulls = {key: sum(s[key] is None for s in samples) for key in samples[0]} if samples else {}
    free, total = torch.cuda.mem_get_info(ctx.device)
    measured = {
        "nvml_index": index,
        "matched_by_uuid": matched,
        "device": next(d for d in devices if d["index"] == index),
        "samples": len(samples),
        "matmuls_meanwhile": matmuls,
        "util_max": max(util, default=None),
        "util_mean": round(statistics.mean(util), 1) if util else None,
        "last_sample": samples[-1] if samples else None,
        "null_fields": {k: n for k, n in nulls.items() if n},
        "torch_total_memory": torch.cuda.get_device_properties(ctx.device).total_memory,
        "torch_used_memory": total - free,
        "sample_cost_us": cost,
    }
    problems = []
    if len(samples) < TRACKER_SECONDS / TRACKER_INTERVAL_S / 2:
        problems.append(f"{len(samples)} samples in {TRACKER_SECONDS} s at {TRACKER_INTERVAL_S} s")
    missing = [k for k in REQUIRED_FIELDS if nulls.get(k)]
    if missing:
        problems.append(f"null {', '.join(missing)} in some samples")
    if not util or max(util) <= 0:
        problems.append("utilization never above 0 while the GPU ran matmuls (wrong GPU?)")
    if cost["median"] > MAX_SAMPLE_US:
        problems.append(f"a sample costs {cost['median']} µs (median)")
    passed = (
        f"{len(samples)} samples, utilization up to {max(util, default=0)} % under load, "
        f"{cost['median']} µs per sample (median)"
    )
    return verdict(problems, passed, measured)


# --- 6. FlopsCounter's device and peak ----------------------------------------------------------

FLOPS_WIDTH, FLOPS_DEPTH, FLOPS_BATCH, FLOPS_STEPS = 1024, 3, 512, 4
# GPUs the plugin's peak table (tb_perf_plugin/analysis/compute.py) must know
KNOWN_GPUS = re.compile(r"\b(H100|H200|A100|V100S?|L4|A10|T4|MI250X|MI300X)\b", re.IGNORECASE)


def expected_mlp_flops(width: int, depth: int, batch: int) -> int:
    """FlopCounterMode's count for one step of `mlp` (2·m·n·k per matmul): forward and the
    weight gradient for every layer, the input gradient for all but the first."""
    return (4 * depth + 2 * (depth - 1)) * batch * width * width


def count_flops(run_dir: Path, device: torch.device) -> None:
    """A few training steps with FlopsCounter counting step 1, into the run."""
    model = mlp(FLOPS_WIDTH, FLOPS_DEPTH, device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(FLOPS_BATCH, FLOPS_WIDTH, device=device)
    timer = MyTimer(run_dir, gpu=False)
    counter = FlopsCounter(timer, sample_step=1)
    timer.set_step(0)
    for _ in range(FLOPS_STEPS):
        with counter.count():
            train_step(model, optimizer, x, timer)
        timer.step()
    counter.close()
    timer.close()


@contextlib.contextmanager
def tf32_matmuls() -> Iterator[None]:
    """TF32 matmuls set through torch's newer precision API (the one its docs recommend),
    restored after."""
    before = torch.backends.cuda.matmul.fp32_precision
    torch.backends.cuda.matmul.fp32_precision = "tf32"
    try:
        yield
    finally:
        torch.backends.cuda.matmul.fp32_precision = before


def tf32_count(run_dir: Path, device: torch.device) -> tuple[dict[str, Any], list[str]]:
    """FlopsCounter with TF32 matmuls: its dtype must read tf32 and the table must have a
    tf32 peak for the device. What was found and the problems."""
    from tb_perf_plugin.analysis.compute import peak_flops

    try:
        with tf32_matmuls():
            count_flops(run_dir, device)
    except RuntimeError as exc:  # what torch raises when the two precision APIs are mixed
        error = f"{type(exc).__name__}: {str(exc)[:300]}"
        return {"error": error}, [f"counting with TF32 matmuls raised {error[:120]}"]
    flops = read_metadata(run_dir).get("flops") or {}
    peak = peak_flops(flops.get("device_name"), flops.get("dtype"))
    found = {"dtype": flops.get("dtype"), "peak_tflops": peak.flops / 1e12 if peak else None}
    problems = [] if found["dtype"] == "tf32" else [f"TF32 matmuls counted as {found['dtype']}"]
    return found, problems


def check_flops(ctx: Context) -> Verdict:
    from tb_perf_plugin import views
    from tb_perf_plugin.analysis.compute import peak_flops
    from tb_perf_plugin.store import RunStore

    run_dir = ctx.run_dir("flops")
    count_flops(run_dir, ctx.device)
    flops = read_metadata(run_dir).get("flops") or {}
    service = RunStore(str(run_dir), executor="thread")
    try:
        summary = views.overview.summary(service, run_name(service), wait_s=None)
    finally:
        service.close()
    compute = summary["ranks"][0]["compute"] if summary["ranks"] else None
    name, dtype = flops.get("device_name"), flops.get("dtype")
    peak = peak_flops(name, dtype)
    bf16 = peak_flops(name, "bf16")
    expected = expected_mlp_flops(FLOPS_WIDTH, FLOPS_DEPTH, FLOPS_BATCH)
    measured = {
        "device_name": name,
        "torch_device_name": torch.cuda.get_device_name(ctx.device),
        "device_type": flops.get("device_type"),
        "dtype": dtype,
        "flops_per_step": flops.get("per_step"),
        "flops_expected": expected,
        "peak_table_row": peak.device if peak else None,
        "peak_tflops": peak.flops / 1e12 if peak else None,
        "peak_tflops_bf16": bf16.flops / 1e12 if bf16 else None,
        "plugin_compute": compute,
    }
    problems = []
    if name != torch.cuda.get_device_name(ctx.device):
        problems.append(f"device name {name!r}, torch says {measured['torch_device_name']!r}")
    if flops.get("per_step") != expected:
        problems.append(f"{flops.get('per_step')} FLOPs per step counted, {expected} expected")
    if compute is None or compute.get("peak_tflops") != measured["peak_tflops"]:
        problems.append(f"the plugin's summary shows compute {compute}")
    measured["tf32"], tf32_problems = tf32_count(ctx.run_dir("flops_tf32"), ctx.device)
    problems += tf32_problems
    known = bool(name and KNOWN_GPUS.search(name))
    if peak is None and known:
        problems.append(f"no {dtype} peak found for {name!r}, a GPU the table should know")
    if peak is None and not known and not problems:
        return Verdict("skipped", f"{name!r} is not a GPU of the peak table", measured)
    passed = (
        f"{name}: {dtype} peak {measured['peak_tflops']} TFLOP/s ({measured['peak_table_row']})"
    )
    return verdict(problems, passed, measured)


# --- 7. NVTX ranges under Nsight Systems -------------------------------------------------------

NVTX_NAMES = ("gpu_check_span", "gpu_check_range")  # MyTimer's mirror, a labeler range
NSYS_MAX_S = 240.0
NSYS_CHILD = """\
import sys

sys.path.insert(0, {repo!r})
import torch

from collectors import MyTimer, create_labeler

labeler = create_labeler()
timer = MyTimer(sys.argv[1], mirrors=("nvtx",))
x = torch.randn(1024, 1024, device="cuda")
timer.set_step(0)
for _ in range(3):
    with timer.range({span!r}):
        with labeler.range({labeled!r}):
            torch.mm(x, x)
    timer.step()
torch.cuda.synchronize()
timer.close()
print(labeler.backend)
"""


def sqlite_nvtx_names(path: Path) -> set[str]:
    """NVTX range names in an Nsight Systems SQLite export, read with sqlite3 alone (names are
    `text`, or a `textId` into StringIds for registered strings)."""
    with contextlib.closing(sqlite3.connect(str(path))) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if "NVTX_EVENTS" not in tables:
            return set()
        columns = {row[1] for row in db.execute("PRAGMA table_info(NVTX_EVENTS)")}
        if "textId" in columns and "StringIds" in tables:
            query = (
                "SELECT COALESCE(e.text, s.value) FROM NVTX_EVENTS e "
                "LEFT JOIN StringIds s ON s.id = e.textId"
            )
        else:
            query = "SELECT text FROM NVTX_EVENTS"
        return {row[0] for row in db.execute(query) if row[0]}


def plugin_nvtx_names(path: Path) -> set[str]:
    """The USER_ANNOTATION slice names the plugin's nsys ingest makes of the export."""
    from tb_perf_plugin.ingest.nsys import read_nsys_sqlite
    from tb_perf_plugin.ingest.tables import Kind

    tables = read_nsys_sqlite(str(path), MAX_READ_BYTES)
    kinds, names = tables.slices["kind"].tolist(), tables.slices["name"].tolist()
    return {tables.names[n] for k, n in zip(kinds, names, strict=True) if k == Kind.USER_ANNOTATION}


def nsys_export(nsys: str, scratch: Path, run_dir: Path, timeout: float) -> tuple[Path, str]:
    """Run the child under `nsys profile` with an SQLite export; the export and the child's
    output (its labeler backend)."""
    child = scratch / "nvtx_child.py"
    child.write_text(NSYS_CHILD.format(repo=str(REPO), span=NVTX_NAMES[0], labeled=NVTX_NAMES[1]))
    base = scratch / "nvtx"
    command = [
        nsys, "profile", "--trace=cuda,nvtx", "--sample=none", "--cpuctxsw=none",
        "--force-overwrite=true", "--export=sqlite", "--output", str(base),
        sys.executable, str(child), str(run_dir),
    ]  # fmt: skip
    began = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    if done.returncode != 0:
        raise RuntimeError(f"nsys profile exited {done.returncode}: {done.stderr[-1000:]}")
    export = base.with_suffix(".sqlite")
    report = base.with_suffix(".nsys-rep")
    if not export.exists() and report.exists():  # an nsys that did not export as asked
        left = max(timeout - (time.monotonic() - began), 10.0)
        subprocess.run(
            [nsys, "export", "--type=sqlite", f"--output={export}", str(report)],
            capture_output=True, text=True, timeout=left, check=True,
        )  # fmt: skip
    return export, done.stdout


def check_nvtx_nsys(ctx: Context) -> Verdict:
    nsys = shutil.which("nsys")
    if nsys is None:
        return Verdict("skipped", "nsys (Nsight Systems) is not on PATH")
    timeout = min(NSYS_MAX_S, ctx.seconds_left() - 20)
    export, output = nsys_export(nsys, ctx.scratch("nvtx_nsys"), ctx.run_dir("nvtx_nsys"), timeout)
    version = subprocess.run([nsys, "--version"], capture_output=True, text=True, timeout=30)
    in_sqlite, in_plugin = sqlite_nvtx_names(export), plugin_nvtx_names(export)
    measured = {
        "nsys": version.stdout.strip(),
        "labeler_backend": output.strip().splitlines()[-1] if output.strip() else None,
        "export": str(export),
        "expected": list(NVTX_NAMES),
        "in_sqlite": sorted(in_sqlite)[:20],
        "in_plugin": sorted(in_plugin)[:20],
    }
    problems = []
    if missing := [n for n in NVTX_NAMES if n not in in_sqlite]:
        problems.append(f"not in the export's NVTX_EVENTS: {missing}")
    if missing := [n for n in NVTX_NAMES if n not in in_plugin]:
        problems.append(f"not among the plugin's annotations of the export: {missing}")
    passed = f"{', '.join(NVTX_NAMES)} in the export and in the plugin's reading of it"
    return verdict(problems, passed, measured)


# --- 8. profile_steps and the plugin -----------------------------------------------------------

PROFILE_ACTIVE, PROFILE_STEPS = 3, 7  # wait 1, warmup 1, active 3: the window is steps 2-4


def run_profile_steps(run_dir: Path, device: torch.device) -> list[dict[str, Any]]:
    """A timed training loop with one profile_steps window; the windows written."""
    model = mlp(2048, 3, device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(1024, 2048, device=device)
    timer = MyTimer(run_dir)
    timer.set_step(0)
    with profile_steps(timer, wait=1, warmup=1, active=PROFILE_ACTIVE) as profiler:
        for _ in range(PROFILE_STEPS):
            train_step(model, optimizer, x, timer)
            timer.step()
    timer.close()
    return profiler.windows


def plugin_views(run_dir: Path) -> dict[str, Any]:
    """What the plugin's service computes of the run: the routes `tb-perf analyze` and the
    Kernel / Overview views use."""
    from tb_perf_plugin import views
    from tb_perf_plugin.store import RunStore

    service = RunStore(str(run_dir), executor="thread")
    try:
        name = run_name(service)
        return {
            "summary": views.overview.summary(service, name, wait_s=None),
            "kernels": views.kernels.kernels(service, name, wait_s=None),
            "breakdown": views.breakdown.breakdown(service, name, wait_s=None),
        }
    finally:
        service.close()


def cli_analyze(run_dir: Path) -> tuple[int, dict[str, Any] | None]:
    """`tb-perf analyze RUN --format json`, in process: its exit code and its answer."""
    from tb_perf_plugin.cli import main as tb_perf

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = tb_perf(["analyze", str(run_dir), "--format", "json", "--executor", "thread"])
    return code, json.loads(out.getvalue()) if code == 0 else None


def kernel_facts(kernels: dict[str, Any]) -> dict[str, Any]:
    rows = kernels["rows"]
    busy = [u for d in kernels["devices"] for u in d["utilization"]]
    return {
        "kernel_names": kernels["total_rows"],
        "kernel_calls": sum(r["calls"] for r in rows),
        "kernel_total_ms": round(sum(r["total_ns"] for r in rows) / 1e6, 3),
        "top_kernels": [
            {
                "name": r["name"][:100],
                "calls": r["calls"],
                "total_ms": round(r["total_ns"] / 1e6, 3),
            }
            for r in rows[:5]
        ],
        "gpu_busy_pct": round(100 * statistics.mean(busy), 2) if busy else None,
    }


def check_profile_steps(ctx: Context) -> Verdict:
    run_dir = ctx.run_dir("profile_steps")
    windows = run_profile_steps(run_dir, ctx.device)
    profiler_meta = read_metadata(run_dir).get("profiler", {})
    views = plugin_views(run_dir)
    traced = [s for r in views["breakdown"]["ranks"] for s in r["steps"] if s["step"] is not None]
    facts = kernel_facts(views["kernels"])
    code, analyzed = cli_analyze(run_dir)
    measured = {
        "activities": profiler_meta.get("activities"),
        "cuda": profiler_meta.get("cuda"),
        "windows": windows,
        "timer_steps": views["summary"]["steps"]["count"],
        "traced_steps": [s["step"] for s in traced],
        **facts,
        "analyze_exit": code,
        "analyze_steps": analyzed["steps"]["count"] if analyzed else None,
        "findings": [f["kind"] for f in analyzed["findings"]] if analyzed else None,
    }
    problems = []
    if profiler_meta.get("cuda") != "on":
        problems.append(f"profile_steps' cuda status is {profiler_meta.get('cuda')!r}")
    if len(windows) != 1 or "file" not in windows[0]:
        problems.append(f"windows written: {windows}")
    if len(traced) != PROFILE_ACTIVE:
        problems.append(f"{len(traced)} traced steps, {PROFILE_ACTIVE} expected")
    if not facts["kernel_calls"]:
        problems.append("the plugin found no kernels in the trace")
    if not facts["gpu_busy_pct"]:
        problems.append(f"GPU busy {facts['gpu_busy_pct']} %")
    if code != 0:
        problems.append(f"tb-perf analyze exited {code}")
    passed = (
        f"{len(traced)} traced steps, {facts['kernel_calls']} kernels "
        f"({facts['kernel_total_ms']} ms), GPU busy {facts['gpu_busy_pct']} %"
    )
    return verdict(problems, passed, measured)


# --- the run ------------------------------------------------------------------------------------

CHECKS = (
    Check("timer_sync", "MyTimer's CUDA events add no synchronisation per step", check_timer_sync),
    Check("module_times", "ModuleProfiler device times vs hand-placed events", check_module_times),
    Check("memory_sampler", "MemorySampler records vs memory_stats()", check_memory_sampler),
    Check("snapshot_oom", "MemorySnapshotter's dump at a real OOM, read back", check_snapshot_oom),
    Check("gpu_tracker", "GpuTracker's NVML samples and their cost", check_gpu_tracker),
    Check("flops", "FlopsCounter's device name and peak FLOP/s", check_flops),
    Check("nvtx_nsys", "NVTX ranges in an Nsight Systems export", check_nvtx_nsys),
    Check("profile_steps", "profile_steps with CUDA, read by the plugin", check_profile_steps),
)  # fmt: skip


def settle() -> None:
    """Free what a check left on the device, so the next one starts from the same state."""
    gc.collect()
    with contextlib.suppress(RuntimeError):  # a device error the check already reported
        torch.cuda.synchronize()
        torch.cuda.empty_cache()


def run_check(check: Check, ctx: Context) -> CheckResult:
    """One check, whatever it raises."""
    if ctx.seconds_left() < MIN_START_S:
        reason = f"time budget spent ({LIMIT_S - ctx.seconds_left():.0f} of {LIMIT_S:.0f} s)"
        return CheckResult(check.title, "skipped", reason, {}, 0.0)
    began = time.perf_counter()
    try:
        found = check.run(ctx)
    except Exception as exc:
        seconds = round(time.perf_counter() - began, 2)
        reason = f"raised {type(exc).__name__}: {str(exc)[:500]}"
        return CheckResult(check.title, "fail", reason, {}, seconds, traceback.format_exc())
    finally:
        settle()
    seconds = round(time.perf_counter() - began, 2)
    return CheckResult(check.title, found.status, found.reason, found.measured, seconds)


def environment(device: torch.device) -> dict[str, Any]:
    props = torch.cuda.get_device_properties(device)
    return {
        "host": socket.gethostname(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "device": {
            "index": device.index,
            "name": props.name,
            "capability": f"{props.major}.{props.minor}",
            "total_memory": props.total_memory,
            "multiprocessors": props.multi_processor_count,
        },
        "device_count": torch.cuda.device_count(),
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
        "nsys": shutil.which("nsys"),
        "pynvml": importlib.util.find_spec("pynvml") is not None,
        "nvtx": importlib.util.find_spec("nvtx") is not None,
    }


def new_report(gpu: bool) -> dict[str, Any]:
    return {
        "schema": REPORT_SCHEMA,
        "version": 1,
        "started_unix_s": round(time.time(), 3),
        "gpu": gpu,
        "seconds": 0.0,
        "environment": None,
        "counts": {},
        "checks": {},
    }


def write_report(out: Path, report: dict[str, Any]) -> Path:
    """report.json, replaced whole (written after every check: a crash keeps what ran)."""
    report["counts"] = dict(Counter(c["status"] for c in report["checks"].values()))
    path = out / "report.json"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(report, indent=2, default=str) + "\n")
    os.replace(tmp, path)
    return path


def summary_lines(report: dict[str, Any], path: Path) -> list[str]:
    device = report["environment"]["device"]["name"]
    lines = [f"gpu_check on {device}, torch {torch.__version__}: {report['seconds']:.0f} s"]
    for name, result in report["checks"].items():
        lines.append(
            f"  {result['status']:<8} {name:<15} {textwrap.shorten(result['reason'], 110)}"
        )
    counts = ", ".join(f"{n} {status}" for status, n in sorted(report["counts"].items()))
    lines.append(f"{counts}; report: {path}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, metavar="OUT_DIR", help="where report.json and runs/ go")
    args = parser.parse_args(argv)
    out: Path = args.out
    if (out / "runs").exists() and any((out / "runs").iterdir()):
        parser.error(f"{out / 'runs'} is not empty: a second run there would mix with the first")
    out.mkdir(parents=True, exist_ok=True)
    if not torch.cuda.is_available():
        report = new_report(gpu=False)
        report["checks"] = {
            c.name: asdict(CheckResult(c.title, "skipped", NO_GPU_MESSAGE, {}, 0.0)) for c in CHECKS
        }
        write_report(out, report)
        print(NO_GPU_MESSAGE)
        return 0
    os.environ.setdefault("TB_PERF_CACHE_DIR", str(out / "artifacts" / "plugin_cache"))
    ctx = Context(out, torch.device("cuda", torch.cuda.current_device()))
    report = new_report(gpu=True)
    report["environment"] = environment(ctx.device)
    for check in CHECKS:
        print(f"{check.name}: {check.title} ...", flush=True)
        report["checks"][check.name] = asdict(run_check(check, ctx))
        report["seconds"] = round(time.monotonic() - ctx.started, 1)
        path = write_report(out, report)
    print("\n".join(summary_lines(report, path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
