"""GPU summary: per device of a rank, what the trace says the device is (`deviceProperties`)
and how its kernels used it over the rank's step windows: GPU utilization, est. SM efficiency,
est. achieved occupancy and the Tensor-Core share of kernel time.

torch-tb-profiler's definitions (its `gpu_metrics_parser.py`, `tensor_cores_parser.py`), over
the breakdown's windows instead of one span from the first step to the last; where ours differ
and why: docs/ANALYSIS.md. Pure functions over trace tables.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..ingest.tables import TraceTables
from .breakdown import Intervals
from .kernels import sm_efficiency_ranges, trace_kernels


@dataclass(frozen=True)
class GpuSummary:
    """One device of one rank; the shares are fractions 0..1, None where the trace lacks what
    they are computed from (occupancy: kernels without `est. achieved occupancy %`)."""

    rank: int
    device: int
    name: str | None
    memory_bytes: int | None
    compute_capability: str | None  # "8.0"
    sm_count: int | None
    utilization: float
    sm_efficiency: float | None
    occupancy: float | None
    tensor_core_share: float | None
    window_ns: int  # the step windows' total length the shares are of

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def device_properties(traces: list[TraceTables]) -> dict[int, dict[str, Any]]:
    """Device id -> its `deviceProperties` entry, the first trace's that lists it."""
    found: dict[int, dict[str, Any]] = {}
    for trace in traces:
        for entry in trace.meta.device_properties:
            device = entry.get("id") if isinstance(entry, dict) else None
            if isinstance(device, int) and not isinstance(device, bool):
                found.setdefault(device, entry)
    return found


def _number(entry: dict[str, Any], key: str) -> int | None:
    value = entry.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _capability(entry: dict[str, Any]) -> str | None:
    major, minor = _number(entry, "computeMajor"), _number(entry, "computeMinor")
    return None if major is None or minor is None else f"{major}.{minor}"


def rank_gpu_summary(
    rank: int, traces: list[TraceTables], windows: list[tuple[int, int]]
) -> list[GpuSummary]:
    """Per device with kernels in the rank's `traces`, its summary over `windows` ((start,
    end) on the rank's collectors' clock: the breakdown's step windows, which the shares are
    fractions of). Kernels count for the part of them inside the windows."""
    if not windows:
        return []
    window = Intervals.union(
        np.array([a for a, _ in windows], np.int64), np.array([b for _, b in windows], np.int64)
    )
    total = int(window.covered_before[-1])
    parts = [trace_kernels(t).assign(start=lambda k, t=t: k["start"] + t.meta.to_collectors_ns)
             for t in traces]  # fmt: skip
    kernels = pd.concat(parts, ignore_index=True) if parts else trace_kernels(None)
    if kernels.empty or not total:
        return []
    properties = device_properties(traces)
    out = []
    for device, group in kernels.groupby("device", sort=True):
        start = group["start"].to_numpy(np.int64)
        end = start + group["dur"].to_numpy(np.int64)
        inside = window.measure_within(start, end).astype(np.float64)  # each kernel's share
        busy = Intervals.union(start, end)
        utilization = int(busy.measure_within(window.start, window.end).sum()) / total
        blocks = group["blocks_per_sm"].to_numpy(np.float64)
        positive = blocks > 0
        ranges = sm_efficiency_ranges(start[positive], end[positive], blocks[positive])
        within = ranges.integral_to(window.end) - ranges.integral_to(window.start)
        sm_efficiency = float(within.sum()) / total if positive.any() else None
        occupancy = group["occupancy"].to_numpy(np.float64)
        known = (occupancy >= 0) & (inside > 0)
        weight = inside[known].sum()
        tensor = group["tensor_cores"].to_numpy(bool)
        kernel_time = inside.sum()
        entry = properties.get(int(device), {})
        out.append(GpuSummary(
            rank=rank,
            device=int(device),
            name=entry.get("name") if isinstance(entry.get("name"), str) else None,
            memory_bytes=_number(entry, "totalGlobalMem"),
            compute_capability=_capability(entry),
            sm_count=_number(entry, "numSms"),
            utilization=utilization,
            sm_efficiency=sm_efficiency,
            occupancy=float((occupancy[known] * inside[known]).sum() / weight / 100)
            if weight else None,
            tensor_core_share=float(inside[tensor].sum() / kernel_time) if kernel_time else None,
            window_ns=total,
        ))  # fmt: skip
    return out
