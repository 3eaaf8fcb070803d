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
no-GPU path costs torch's import only. The checks live in benchmarks/gpu_checks/, one module
per collector family; this script lists them in run order and writes the report.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "benchmarks")]

from gpu_checks.common import Check, CheckResult, Context  # noqa: E402
from gpu_checks.flops import check_flops  # noqa: E402
from gpu_checks.memory import check_memory_sampler, check_snapshot_oom  # noqa: E402
from gpu_checks.nvml import check_gpu_tracker  # noqa: E402
from gpu_checks.nvtx_nsys import check_nvtx_nsys  # noqa: E402
from gpu_checks.profile_steps import check_profile_steps  # noqa: E402
from gpu_checks.report import (  # noqa: E402
    NO_GPU_MESSAGE,
    environment,
    new_report,
    run_check,
    summary_lines,
    write_report,
)
from gpu_checks.timers import check_module_times, check_timer_sync  # noqa: E402

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
