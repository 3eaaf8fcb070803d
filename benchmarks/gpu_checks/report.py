"""Running one check whatever it raises, and the report: the environment,
report.json (rewritten after every check) and the summary printed at the end.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import json
import os
import platform
import shutil
import socket
import textwrap
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import torch

from .common import LIMIT_S, MIN_START_S, Check, CheckResult, Context

NO_GPU_MESSAGE = "no GPU: nothing checked"
REPORT_SCHEMA = "tb_perf.gpu_check"


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
