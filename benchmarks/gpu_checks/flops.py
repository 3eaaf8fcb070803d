"""FlopsCounter: its device name, its FLOPs per step, and the plugin's peak-FLOP/s
lookup for the device (`flops`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch

from collectors import FlopsCounter, MyTimer

from .common import Context, Verdict, mlp, read_metadata, run_name, train_step, verdict

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
