"""The CUDA-event timers: MyTimer adds no host-device synchronisation per step
(`timer_sync`), ModuleProfiler's forward / backward device times equal CUDA events placed by
hand (`module_times`).
"""

from __future__ import annotations

import bisect
import json
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import torch

from collectors import ModuleProfiler, MyTimer

from .common import Context, Verdict, mlp, read_metadata, read_records, train_step, verdict

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
