"""A rank's memory per step from its torch.profiler traces' `[memory]` events (recorded with
`profile_memory=True`): the allocator's "Total Allocated" and "Total Reserved" after each
allocation and free, read at each step's end, and the most allocated within each step. The
memory rules then read it as they read MemorySampler records (docs/ANALYSIS.md, memory from
traces). Pure functions over trace tables.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..ingest.tables import Kind, TraceTables
from .breakdown import HOST_WORK_KINDS
from .gpu_summary import device_properties
from .memory import RankMemory
from .operators import host_nesting, is_profiler_step

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


# the per-operator memory table's columns, torch-tb-profiler's names in docs/ANALYSIS.md
OPERATOR_MEMORY_COLUMNS = [
    "name", "device", "annotation", "calls", "allocations", "allocation_bytes", "frees",
    "free_bytes", "increase_bytes", "self_allocations", "self_allocation_bytes",
    "self_increase_bytes", "peak_bytes",
]  # fmt: skip
OUTSIDE_OPERATORS = ""  # the name of the row of events no host op encloses
_CALL_COLUMNS = ["name", "start", "end", *OPERATOR_MEMORY_COLUMNS[1:]]


def operator_memory_events(trace: TraceTables) -> pd.DataFrame:
    """One row per host op call (and device) with memory events in it: its name id (-1: the
    events no op encloses), start and end on the trace's clock, whether it is an annotation,
    and its allocations and frees (count and bytes) and increase, self (events directly in it,
    not in an op inside) and total, and the most allocated while it ran. An event belongs to
    the innermost op of its thread around it."""
    memory = trace.memory
    if not len(memory["ts"]):
        return pd.DataFrame({c: [] for c in _CALL_COLUMNS})
    slices = trace.slices
    nesting = host_nesting(trace)
    kinds = np.asarray(slices["kind"])[nesting.order]
    is_op = np.isin(kinds, HOST_WORK_KINDS)
    ops = np.flatnonzero(is_op)  # positions in nesting order
    rows = nesting.order[ops]
    start = np.asarray(slices["start"])[rows]
    end = start + np.asarray(slices["dur"])[rows]
    thread = (
        np.asarray(slices["pid"])[rows].astype(np.int64) * (1 << 32)
        + np.asarray(slices["tid"])[rows]
    )
    # an op's parent op: runtime calls hold no ops, so the nesting parent of an op is an op
    op_index = np.full(len(nesting.order), -1, dtype=np.int64)
    op_index[ops] = np.arange(len(ops))
    parent = np.where(nesting.parent[ops] >= 0, op_index[np.maximum(nesting.parent[ops], 0)], -1)
    depth = nesting.depth[ops]
    owner = _innermost(memory, start, end, thread, parent)
    device = _device_names(memory)
    out = []
    for name in np.unique(device).tolist():
        mine = device == name
        out.append(_op_memory(trace, memory, mine, owner, start, end, rows, parent, depth, name))
    return pd.concat(out, ignore_index=True)


def _innermost(
    memory: dict[str, np.ndarray], start: np.ndarray, end: np.ndarray, thread: np.ndarray,
    parent: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """Per memory event, the op (an index of `start`) of its thread that encloses it most
    closely, -1 where none does. Ops are in nesting order: by thread, then start."""
    ts = memory["ts"]
    key = memory["pid"].astype(np.int64) * (1 << 32) + memory["tid"]
    owner = np.full(len(ts), -1, dtype=np.int64)
    bounds = np.flatnonzero(np.concatenate(([True], thread[1:] != thread[:-1], [True])))
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        events = np.flatnonzero(key == thread[lo])
        if not len(events):
            continue
        candidate = lo + np.searchsorted(start[lo:hi], ts[events], "right") - 1
        candidate[candidate < lo] = -1
        while True:  # up from the last op started before the event to one still open
            closed = (candidate >= 0) & (end[np.maximum(candidate, 0)] < ts[events])
            if not closed.any():
                break
            candidate[closed] = parent[candidate[closed]]
        owner[events] = candidate
    return owner


def _range_max(
    totals: np.ndarray, ts: np.ndarray, start: np.ndarray, end: np.ndarray, outside: np.ndarray
) -> np.ndarray:
    """Per op, the most "Total Allocated" from the level it began with (the event before its
    start) through its end, NaN where the events carry no totals or for the `outside` row."""
    level = np.where(totals >= 0, totals.astype(np.float64), -np.inf)
    lo = np.maximum(np.searchsorted(ts, start, "left") - 1, 0)
    hi = np.searchsorted(ts, end, "right")
    out = np.full(len(start), np.nan)
    ran = (hi > lo) & ~outside
    if ran.any():
        # max over [lo, hi) of each op at once: reduceat over the pairs (lo, hi), the odd
        # slots (hi to the next lo) thrown away; a sentinel lets hi be the array's end
        padded = np.append(level, -np.inf)
        pairs = np.stack([lo[ran], hi[ran]], axis=1).reshape(-1)
        out[ran] = np.maximum.reduceat(padded, pairs)[::2]
    out[np.isinf(out)] = np.nan
    return out


def _device_names(memory: dict[str, np.ndarray]) -> np.ndarray:
    kinds, ids = memory["device_type"], memory["device_id"]
    return np.where(
        kinds == CUDA, np.char.add("cuda:", ids.astype(str)),
        np.where(kinds == CPU, "cpu", np.char.add("device type ", kinds.astype(str))),
    ).astype(object)  # fmt: skip


def _op_memory(
    trace: TraceTables, memory: dict[str, np.ndarray], mine: np.ndarray, owner: np.ndarray,
    start: np.ndarray, end: np.ndarray, rows: np.ndarray, parent: np.ndarray, depth: np.ndarray,
    device: str,
) -> pd.DataFrame:  # fmt: skip
    """operator_memory_events for the events of one device (`mine`)."""
    n = len(start)
    size = memory["bytes"][mine].astype(np.int64)
    who = owner[mine]
    slot = np.where(who >= 0, who, n)  # slot n: the events no op encloses
    allocated = size > 0

    def per_op(weights: np.ndarray) -> np.ndarray:
        return np.bincount(slot, weights=weights, minlength=n + 1).astype(np.int64)

    own = {
        "allocations": per_op(allocated.astype(np.int64)),
        "allocation_bytes": per_op(np.where(allocated, size, 0)),
        "frees": per_op((size < 0).astype(np.int64)),
        "free_bytes": per_op(np.where(size < 0, -size, 0)),
        "increase_bytes": per_op(size),
    }
    total = {k: v.copy() for k, v in own.items()}
    for level in range(int(depth.max(initial=0)), 0, -1):
        children = np.flatnonzero((depth == level) & (parent >= 0))
        for column in total.values():
            np.add.at(column, parent[children], column[children])
    used = np.flatnonzero((total["allocations"] + total["frees"]) > 0)
    peak = _range_max(
        memory["total_allocated"][mine], memory["ts"][mine],
        np.append(start, 0)[used], np.append(end, 0)[used], used == n,
    )  # fmt: skip
    names = np.append(np.asarray(trace.slices["name"])[rows], -1)
    kinds = np.append(np.asarray(trace.slices["kind"])[rows], -1)
    return pd.DataFrame({
        "name": names[used],
        "start": np.append(start, 0)[used],
        "end": np.append(end, 0)[used],
        "device": device,
        "annotation": (kinds[used] == Kind.USER_ANNOTATION)
        | np.append(is_profiler_step(trace)[np.asarray(trace.slices["name"])[rows]], False)[used],
        "calls": 1,
        **{k: v[used] for k, v in total.items()},
        "self_allocations": own["allocations"][used],
        "self_allocation_bytes": own["allocation_bytes"][used],
        "self_increase_bytes": own["increase_bytes"][used],
        "peak_bytes": peak,
    })  # fmt: skip


def operator_memory_calls(traces: list[TraceTables]) -> pd.DataFrame:
    """`operator_memory_events` of the traces with names as text (OUTSIDE_OPERATORS for the
    events no op encloses) and start and end on the collectors' clock."""
    parts = []
    for trace in traces:
        events = operator_memory_events(trace)
        names = np.array([*trace.names, OUTSIDE_OPERATORS], dtype=object)
        shift = trace.meta.to_collectors_ns
        parts.append(events.assign(
            name=names[events["name"].to_numpy(np.int64)],
            start=events["start"].to_numpy(np.int64) + shift,
            end=events["end"].to_numpy(np.int64) + shift,
        ))  # fmt: skip
    if not parts:
        return pd.DataFrame({c: [] for c in _CALL_COLUMNS})
    return pd.concat(parts, ignore_index=True)


def aggregate_operator_memory(calls: pd.DataFrame) -> pd.DataFrame:
    """OPERATOR_MEMORY_COLUMNS per operator name and device over `operator_memory_calls`
    rows: counts and bytes summed, `calls` the calls with memory events, `peak_bytes` the
    most; by allocated bytes, largest first."""
    if calls.empty:
        return pd.DataFrame(columns=OPERATOR_MEMORY_COLUMNS)
    summed = [c for c in OPERATOR_MEMORY_COLUMNS[3:] if c != "peak_bytes"]
    table = calls.groupby(["name", "device"], sort=False).agg(
        annotation=("annotation", "first"),
        **{c: (c, "sum") for c in summed},
        peak_bytes=("peak_bytes", "max"),
    )
    table = table.reset_index().sort_values(
        ["allocation_bytes", "name"], ascending=[False, True], kind="stable"
    )
    return table[OPERATOR_MEMORY_COLUMNS].reset_index(drop=True)
