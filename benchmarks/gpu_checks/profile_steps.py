"""A profile_steps window with CUDA activity, read back through the plugin's store,
views and `tb-perf analyze` (`profile_steps`).
"""

from __future__ import annotations

import contextlib
import io
import json
import statistics
from pathlib import Path
from typing import Any

import torch

from collectors import MyTimer, profile_steps

from .common import Context, Verdict, mlp, read_metadata, run_name, train_step, verdict

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
