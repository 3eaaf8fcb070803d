"""A rank's memory per step from its torch.profiler traces' `[memory]` events (recorded with
`profile_memory=True`): the allocator's "Total Allocated" and "Total Reserved" after each
allocation and free, read at each step's end, and the most allocated within each step. The
memory rules then read it as they read MemorySampler records (docs/ANALYSIS.md, memory from
traces). Pure functions over trace tables.
"""

from __future__ import annotations

import numpy as np

from ..ingest.tables import TraceTables
from .gpu_summary import device_properties
from .memory import RankMemory

CPU, CUDA = 0, 1  # c10::DeviceType of the events' "Device Type" (ROCm's HIP devices say CUDA)


def trace_device(traces: list[TraceTables]) -> tuple[int, int] | None:
    """The (device type, device id) whose memory the rank's traces record most: a CUDA
    device's when they record one (the accelerator is what runs out), else the CPU's."""
    kinds, ids = _column(traces, "device_type"), _column(traces, "device_id")
    if not len(kinds):
        return None
    known = np.isin(kinds, (CPU, CUDA))
    if not known.any():
        return None
    prefer = CUDA if (kinds == CUDA).any() else CPU
    chosen = ids[kinds == prefer]
    values, counts = np.unique(chosen, return_counts=True)
    return prefer, int(values[np.argmax(counts)])


def trace_rank_memory(
    rank: int, traces: list[TraceTables], steps: dict[int, tuple[int, int]]
) -> RankMemory | None:
    """The rank's memory over the `steps` (step -> (start, end) on the rank's collectors'
    clock) that its traces' memory events reach, from the events of `trace_device`: per step,
    allocated and reserved as they stood at its end and the most allocated within it. A trace
    without totals gives allocated bytes since it started (`since_trace_start`; no reserved,
    and no device capacity to share it of). None when the traces have no memory events or none
    falls within or before a step."""
    device = trace_device(traces)
    if device is None or not steps:
        return None
    kind, index = device
    ts, allocated, reserved = [], [], []
    relative = False
    for trace in traces:
        memory = trace.memory
        mine = (memory["device_type"] == kind) & (memory["device_id"] == index)
        ts.append(memory["ts"][mine] + trace.meta.to_collectors_ns)
        totals = memory["total_allocated"][mine]
        if len(totals) and (totals < 0).all():  # 2021 schema: only each event's "Bytes"
            totals = since_trace_start(memory["bytes"][mine])
            relative = True
        allocated.append(totals)
        reserved.append(memory["total_reserved"][mine])
    order = np.argsort(np.concatenate(ts), kind="stable")
    t = np.concatenate(ts)[order]
    total_allocated = np.concatenate(allocated)[order].astype(np.float64)
    total_reserved = np.concatenate(reserved)[order].astype(np.float64)
    total_allocated[total_allocated < 0] = np.nan  # -1: the event did not say
    total_reserved[total_reserved < 0] = np.nan
    windows = sorted((s, a, b) for s, (a, b) in steps.items() if b >= t[0] and a <= t[-1])
    if not windows:
        return None
    numbers = np.array([s for s, _, _ in windows], np.int64)
    starts = np.array([a for _, a, _ in windows], np.int64)
    ends = np.array([b for _, _, b in windows], np.int64)
    last = np.searchsorted(t, ends, "right") - 1  # the last event at or before each step's end
    first = np.searchsorted(t, starts, "left")  # the first event within each step
    at_end = np.where(last >= 0, total_allocated[np.maximum(last, 0)], np.nan)
    peak = np.array([_step_peak(total_allocated, a, b) for a, b in zip(first, last, strict=True)])
    name = "cpu" if kind == CPU else f"cuda:{index}"
    capacity = None
    if kind == CUDA and not relative:  # a level since the trace started is no share of it
        entry = device_properties(traces).get(index, {})
        memory_bytes = entry.get("totalGlobalMem")
        capacity = memory_bytes if isinstance(memory_bytes, int) else None
    nothing = np.full(len(windows), np.nan)
    return RankMemory(
        rank, name, numbers, ends,
        allocated=at_end,
        reserved=np.where(last >= 0, total_reserved[np.maximum(last, 0)], np.nan)
        if kind == CUDA else nothing,  # a CPU allocator reserves nothing of its own
        peak=peak, retries=nothing, ooms=nothing, rss=nothing,
        device_total=capacity, reset_peak=True, source="trace",
    )  # fmt: skip


def since_trace_start(deltas: np.ndarray) -> np.ndarray:
    """Allocated bytes from each event's signed "Bytes" (older traces carry no totals): the
    running sum, raised so that it never goes below 0 (what was allocated before the trace
    started is unknown; torch-tb-profiler reads these traces the same way)."""
    running = np.cumsum(deltas.astype(np.int64))
    return running - min(int(running.min(initial=0)), 0)


def _step_peak(values: np.ndarray, first: int, last: int) -> float:
    """The most of `values` from the level a step began with (the event before `first`)
    through its events up to `last`."""
    part = values[max(first - 1, 0) : last + 1]
    part = part[np.isfinite(part)]
    return float(part.max()) if len(part) else float("nan")


def _column(traces: list[TraceTables], name: str) -> np.ndarray:
    parts = [t.memory[name] for t in traces]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)
