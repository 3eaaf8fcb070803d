"""Step-time breakdown: each step's wall time partitioned by what the rank was doing.

Every instant of a step goes to the first category active then, in CATEGORIES order; what no
category covers is idle. Communication is also measured whole (`communication_total_ns`, the
union of communication intervals) and as its overlap with compute. Formulas: docs/ANALYSIS.md.
Pure functions over trace tables; interval unions are vectorized (sort, then a running max).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..ingest.tables import Kind, TraceTables

# Priority order of the partition; "idle" is what is left.
CATEGORIES = (
    "compute",
    "communication",
    "memcpy",
    "memset",
    "runtime",
    "dataloader",
    "cpu",
    "idle",
)
HOST_WORK_KINDS = (Kind.CPU_OP, Kind.USER_ANNOTATION)
# Host annotations that mark a whole step or profiling window, not work done in it.
_MARKER = re.compile(r"^(ProfilerStep#\d+|PyTorch Profiler( \(\d+\))?)$")
_DATALOADER = re.compile(r"DataLoader")
# Communication kernels are the collective libraries' (RCCL keeps NCCL's kernel names); generic
# words such as "broadcast" also name elementwise compute kernels.
_COMMUNICATION_KERNEL = re.compile(r"nccl|rccl|hccl", re.IGNORECASE)


@dataclass(frozen=True)
class Intervals:
    """Disjoint, sorted half-open intervals with prefix sums of their lengths."""

    start: np.ndarray
    end: np.ndarray
    covered_before: np.ndarray  # covered_before[i] = total length of intervals 0..i-1

    @classmethod
    def union(cls, start: np.ndarray, end: np.ndarray) -> Intervals:
        keep = end > start
        start, end = start[keep], end[keep]
        order = np.argsort(start, kind="stable")
        start, end = start[order], end[order]
        if len(start):
            reach = np.maximum.accumulate(end)
            # a new interval begins where a start lies beyond everything before it
            begins = np.concatenate(([True], start[1:] > reach[:-1]))
            first = np.flatnonzero(begins)
            start = start[first]
            end = np.maximum.reduceat(end, first)
        lengths = end - start
        return cls(start, end, np.concatenate(([0], np.cumsum(lengths))).astype(np.int64))

    def __or__(self, other: Intervals) -> Intervals:
        return Intervals.union(
            np.concatenate([self.start, other.start]), np.concatenate([self.end, other.end])
        )

    def measure_within(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Length of the union inside each window [a[k], b[k])."""
        a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
        if not len(self.start):
            return np.zeros(len(a), dtype=np.int64)
        first = np.searchsorted(self.end, a, "right")  # first interval ending after a
        stop = np.searchsorted(self.start, b, "left")  # intervals starting before b
        some = stop > first
        total = np.zeros(len(a), dtype=np.int64)
        f, s = first[some], stop[some]
        inside = self.covered_before[s] - self.covered_before[f]
        inside -= np.maximum(a[some] - self.start[f], 0)  # the first one may start before a
        inside -= np.maximum(self.end[s - 1] - b[some], 0)  # the last one may end after b
        total[some] = inside
        return total


@dataclass
class StepBreakdown:
    """One step (or the whole trace when it has no steps) of one rank."""

    rank: int
    step: int | None
    start_ns: int
    duration_ns: int
    ns: dict[str, int]  # CATEGORIES -> time; sums to duration_ns
    communication_total_ns: int
    overlap_ns: int  # communication running while compute kernels run

    def to_json(self) -> dict:
        return {
            "step": self.step,
            "start_ns": str(self.start_ns),
            "duration_ns": self.duration_ns,
            "ns": self.ns,
            "communication_exposed_ns": self.ns["communication"],
            "communication_total_ns": self.communication_total_ns,
            "overlap_ns": self.overlap_ns,
        }


def activity(traces: list[TraceTables]) -> dict[str, Intervals]:
    """Per category (and "communication"), the union of its intervals over a rank's traces, on
    the rank's collectors' clock."""
    parts: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {c: [] for c in CATEGORIES[:-1]}
    has_device_kernels = any((np.asarray(t.slices["kind"]) == Kind.KERNEL).any() for t in traces)
    for trace in traces:
        masks = _category_masks(trace, has_device_kernels)
        start = np.asarray(trace.slices["start"]) + trace.meta.to_collectors_ns
        end = start + np.asarray(trace.slices["dur"])
        for category, mask in masks.items():
            parts[category].append((start[mask], end[mask]))
    return {
        category: Intervals.union(
            np.concatenate([s for s, _ in pieces] or [np.zeros(0, np.int64)]),
            np.concatenate([e for _, e in pieces] or [np.zeros(0, np.int64)]),
        )
        for category, pieces in parts.items()
    }


def communicates(trace: TraceTables) -> np.ndarray:
    """Per slice: is it communication, by its name (a collective library's) or its
    `Collective name` arg? (Only kernels among them count as communication kernels.)"""
    library = np.array([bool(_COMMUNICATION_KERNEL.search(n)) for n in trace.names], dtype=bool)
    return library[np.asarray(trace.slices["name"])] | (np.asarray(trace.slices["collective"]) >= 0)


def _category_masks(trace: TraceTables, has_device_kernels: bool) -> dict[str, np.ndarray]:
    """Which slices count as what (before priorities). Communication is collective and
    point-to-point kernels; on a rank without device kernels (gloo on CPU), `gloo:` ops."""
    names = trace.names
    kinds = np.asarray(trace.slices["kind"])
    name_ids = np.asarray(trace.slices["name"])
    communication = communicates(trace)
    marker = np.array([bool(_MARKER.match(n)) for n in names], dtype=bool)[name_ids]
    dataloader = np.array([bool(_DATALOADER.search(n)) for n in names], dtype=bool)[name_ids]
    gloo = np.array([n.startswith("gloo:") for n in names], dtype=bool)[name_ids]
    kernel = kinds == Kind.KERNEL
    host_work = np.isin(kinds, HOST_WORK_KINDS) & ~marker
    host_communication = host_work & gloo & (not has_device_kernels)
    return {
        "compute": kernel & ~communication,
        "communication": (kernel & communication) | host_communication,
        "memcpy": kinds == Kind.MEMCPY,
        "memset": kinds == Kind.MEMSET,
        "runtime": kinds == Kind.RUNTIME,
        "dataloader": host_work & dataloader,
        "cpu": host_work & ~dataloader & ~host_communication,
    }


def category_of_slices(trace: TraceTables) -> tuple[np.ndarray, tuple[str, ...]]:
    """Per slice, the index in the returned categories (CATEGORIES but idle) of the first
    category it counts in, -1 for none (step markers, Python stack events, GPU annotations)."""
    has_device_kernels = bool((np.asarray(trace.slices["kind"]) == Kind.KERNEL).any())
    masks = _category_masks(trace, has_device_kernels)
    codes = np.full(len(trace.slices["kind"]), -1, dtype=np.int64)
    for i, category in reversed(list(enumerate(CATEGORIES[:-1]))):
        codes[masks[category]] = i
    return codes, CATEGORIES[:-1]


def breakdown(
    rank: int, active: dict[str, Intervals], windows: list[tuple[int | None, int, int]]
) -> list[StepBreakdown]:
    """The partition of each window (step, start, end) by `active`'s categories."""
    if not windows:
        return []
    a = np.array([w[1] for w in windows], dtype=np.int64)
    b = np.array([w[2] for w in windows], dtype=np.int64)
    covered = Intervals.union(np.zeros(0, np.int64), np.zeros(0, np.int64))
    covered_before = np.zeros(len(windows), dtype=np.int64)
    shares = {}
    for category in CATEGORIES[:-1]:
        covered = covered | active[category]
        covered_now = covered.measure_within(a, b)
        shares[category] = covered_now - covered_before
        covered_before = covered_now
    shares["idle"] = (b - a) - covered_before
    compute, communication = active["compute"], active["communication"]
    communication_total = communication.measure_within(a, b)
    overlap = (
        compute.measure_within(a, b)
        + communication_total
        - (compute | communication).measure_within(a, b)
    )
    return [
        StepBreakdown(
            rank,
            step,
            int(a[k]),
            int(b[k] - a[k]),
            {category: int(shares[category][k]) for category in CATEGORIES},
            int(communication_total[k]),
            int(overlap[k]),
        )
        for k, (step, _, _) in enumerate(windows)
    ]


def trace_spans(traces: list[TraceTables]) -> list[tuple[int, int]]:
    """(first start, last end) of each of a rank's traces, on its collectors' clock."""
    spans = []
    for trace in traces:
        start = np.asarray(trace.slices["start"])
        if len(start):
            shift = trace.meta.to_collectors_ns
            end = start + np.asarray(trace.slices["dur"])
            spans.append((int(start.min()) + shift, int(end.max()) + shift))
    return spans
