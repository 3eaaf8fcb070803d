"""The NVML tracker: GpuTracker's samples of the right GPU and what one sample costs
(`gpu_tracker`).
"""

from __future__ import annotations

import importlib.util
import statistics
from time import perf_counter_ns
from typing import Any

import torch

from collectors import GpuTracker, NvmlBackend, RunWriter

from .common import Context, Verdict, keep_gpu_busy, percentile, read_records, verdict

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
