"""Operator view: per operator (aten ops and `record_function` annotations), calls, host
self/total time and device self/total time. Formulas: docs/ANALYSIS.md.

Host ops nest per thread; an op's self time is its duration minus its direct children's.
Device work (kernels, memcpy, memset) is attributed through `correlation` to the runtime call
that launched it, and from there to the innermost op around that call on the same thread: that
op's device self time. Device total sums device self over the op and everything nested in it.
Pure functions over trace tables, vectorized per nesting depth.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..ingest.tables import DEVICE_KINDS, Kind, TraceTables
from .breakdown import HOST_WORK_KINDS
from .nesting import group_start_longest_first, nesting_parents
from .tensor_cores import tensor_core_eligible, uses_tensor_cores
from .wording import OPERATOR_TIMES

# the operator table's times with the words tables head them with, self before total
_PROFILER_STEP = re.compile(r"ProfilerStep#\d+")
# Frames of the libraries below the user's code (and the interpreter's own), not the user's
_LIBRARY_FRAME = re.compile(
    r"site-packages/|dist-packages/|/lib/python\d|^torch/|^<built-in|^<frozen|^nn\.Module: "
)
# An object's address in a built-in's frame name differs per object: not part of the place
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
FRAME_SEPARATOR = ";"  # between the frames of a call stack, innermost first (as torch writes it)
_EVENT_COLUMNS = [  # operator_events'
    "name", "input_dims", "annotation", "start", "dur", "host_self_ns", "device_self_ns",
    "device_total_ns", "tensor_core_self_ns", "tensor_core_total_ns",
]  # fmt: skip
OPERATOR_COLUMNS = [
    "name", "input_dims", "call_stack", "annotation", "calls", *OPERATOR_TIMES,
    "tensor_core_eligible", "tensor_core_self_share", "tensor_core_total_share",
]  # fmt: skip


def _window_marker(trace: TraceTables) -> np.ndarray:
    """Per name: the profiler's own window annotation ("PyTorch Profiler (0)"), not an op."""
    return np.array([n.startswith("PyTorch Profiler") for n in trace.names], dtype=bool)


def is_profiler_step(trace: TraceTables) -> np.ndarray:
    """Per name: a `ProfilerStep#N` step marker, an annotation in every schema (the 2021 one
    files it under category Operator)."""
    return np.array([_PROFILER_STEP.match(n) is not None for n in trace.names], dtype=bool)


@dataclass(frozen=True)
class HostNesting:
    """The host ops and runtime calls of a trace nested per thread: their slice rows in
    nesting order (thread, start, longest first), each one's depth and parent (a position in
    `order`, -1 at the top)."""

    order: np.ndarray
    depth: np.ndarray
    parent: np.ndarray


# id(trace) -> its HostNesting, for the NESTINGS_KEPT traces last asked about (and no longer
# than the trace lives: weakref.finalize drops it). Bounded, not per run: a nesting is as long
# as its trace's host events, and a pass over a run's ranks asks for each trace's in turn.
NESTINGS_KEPT = 16
_NESTINGS: OrderedDict[int, HostNesting] = OrderedDict()
_NESTINGS_LOCK = threading.Lock()


def host_nesting(trace: TraceTables) -> HostNesting:
    """The trace's host ops and runtime calls nested per thread (what operator times, operator
    memory, the critical path and the what-if are attributed through). Kept for the last few
    traces: a trace's tables do not change once read, and the analysis of a rank asks for
    its nesting several times."""
    key = id(trace)
    with _NESTINGS_LOCK:
        found = _NESTINGS.get(key)
        if found is not None:
            _NESTINGS.move_to_end(key)
            return found
    found = _nesting(trace)
    with _NESTINGS_LOCK:
        if key not in _NESTINGS:
            weakref.finalize(trace, _forget_nesting, key)
        _NESTINGS[key] = found
        while len(_NESTINGS) > NESTINGS_KEPT:
            _NESTINGS.popitem(last=False)
    return found


def _forget_nesting(key: int) -> None:
    with _NESTINGS_LOCK:
        _NESTINGS.pop(key, None)


def _nesting(trace: TraceTables) -> HostNesting:
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    start = np.asarray(slices["start"])
    dur = np.asarray(slices["dur"])
    thread = np.asarray(slices["pid"]).astype(np.int64) * (1 << 32) + np.asarray(slices["tid"])
    # host ops and the runtime calls inside them nest together (a launch's op is around it)
    host = np.flatnonzero(np.isin(kinds, (*HOST_WORK_KINDS, Kind.RUNTIME)))
    _, thread_codes = np.unique(thread[host], return_inverse=True)
    order = host[group_start_longest_first(thread_codes.reshape(-1), start[host], dur[host])]
    depth, parent = nesting_parents(thread[order], start[order], start[order] + dur[order])
    return HostNesting(order, depth, parent)


def _device_owners(trace: TraceTables, nesting: HostNesting) -> tuple[np.ndarray, np.ndarray]:
    """The device events (kernels, memcpy, memset) attributed to an op: their slice rows,
    and each one's op as a position in `nesting.order` (device event -> its launch, by
    correlation -> the innermost op around the launch)."""
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    correlation = np.asarray(slices["correlation"])
    order, parent = nesting.order, nesting.parent
    device = np.flatnonzero(np.isin(kinds, DEVICE_KINDS) & (kinds != Kind.GPU_ANNOTATION))
    launch_rows = np.flatnonzero((kinds[order] == Kind.RUNTIME) & (correlation[order] >= 0))
    if not len(device) or not len(launch_rows):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    launch_corr = correlation[order][launch_rows]
    by_corr = np.argsort(launch_corr, kind="stable")
    pos = np.minimum(np.searchsorted(launch_corr[by_corr], correlation[device]), len(by_corr) - 1)
    matched = launch_corr[by_corr][pos] == correlation[device]
    owner = parent[launch_rows[by_corr[pos[matched]]]]
    known = owner >= 0
    return device[matched][known], owner[known]


def unattributed_device_ns(trace: TraceTables) -> tuple[int, int]:
    """The device time (kernels, memcpy, memset) no operator launched, as far as the trace
    shows (its launch is not in it, or no op is around the launch), and all device time."""
    kinds = np.asarray(trace.slices["kind"])
    dur = np.asarray(trace.slices["dur"])
    device = np.isin(kinds, DEVICE_KINDS) & (kinds != Kind.GPU_ANNOTATION)
    total = int(dur[device].sum())
    attributed, _ = _device_owners(trace, host_nesting(trace))
    return total - int(dur[attributed].sum()), total


def kernel_launchers(trace: TraceTables) -> np.ndarray:
    """Per slice row of the trace: the name id of the op that launched it (the innermost op
    around its launch), -1 where none (host events, kernels with no launch in the trace)."""
    nesting = host_nesting(trace)
    device, owner = _device_owners(trace, nesting)
    launcher = np.full(len(trace.slices["kind"]), -1, dtype=np.int64)
    launcher[device] = np.asarray(trace.slices["name"])[nesting.order[owner]]
    return launcher


def operator_events(trace: TraceTables, with_stacks: bool = False) -> pd.DataFrame:
    """One row per host op of the trace: name, input_dims (string ids), whether it is an
    annotation (`record_function`, MyTimer's spans, `ProfilerStep#N`), start, duration, and its
    host self, device self and device total time; `with_stacks`: its `call_stack` too (text,
    `call_stacks`), left out otherwise since deriving it costs a second nesting pass."""
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    start = np.asarray(slices["start"])
    dur = np.asarray(slices["dur"])
    nesting = host_nesting(trace)
    order, depth, parent = nesting.order, nesting.depth, nesting.parent
    is_op = np.isin(kinds[order], HOST_WORK_KINDS)

    # direct children's time comes off the parent's self time
    self_host = dur[order].astype(np.int64).copy()
    has_parent = parent >= 0
    np.subtract.at(self_host, parent[has_parent], dur[order][has_parent])

    device, owner = _device_owners(trace, nesting)
    name_ids = np.asarray(slices["name"])
    distinct, codes = np.unique(name_ids[device], return_inverse=True)
    on_tensor_cores = np.array([uses_tensor_cores(trace.names[i]) for i in distinct], bool)
    tensor_dur = np.where(on_tensor_cores[codes.reshape(-1)], dur[device], 0)
    device_self, tensor_self = np.zeros((2, len(order)), dtype=np.int64)
    np.add.at(device_self, owner, dur[device])
    np.add.at(tensor_self, owner, tensor_dur)
    device_total, tensor_total = device_self.copy(), tensor_self.copy()
    for level in range(int(depth.max(initial=0)), 0, -1):
        rows = np.flatnonzero((depth == level) & has_parent)
        np.add.at(device_total, parent[rows], device_total[rows])
        np.add.at(tensor_total, parent[rows], tensor_total[rows])

    ops = np.flatnonzero(is_op & ~_window_marker(trace)[name_ids[order]])
    rows = order[ops]
    annotation = (kinds[rows] == Kind.USER_ANNOTATION) | is_profiler_step(trace)[name_ids[rows]]
    return pd.DataFrame({
        "name": name_ids[rows],
        "input_dims": np.asarray(slices["input_dims"])[rows],
        "annotation": annotation,
        "start": start[rows],
        "dur": dur[rows],
        "host_self_ns": self_host[ops],
        "device_self_ns": device_self[ops],
        "device_total_ns": device_total[ops],
        "tensor_core_self_ns": tensor_self[ops],
        "tensor_core_total_ns": tensor_total[ops],
        **({"call_stack": call_stacks(trace, rows)} if with_stacks else {}),
    })  # fmt: skip


def call_stacks(trace: TraceTables, rows: np.ndarray) -> np.ndarray:
    """The Python call stack of each slice row (host ops), innermost frame first, frames joined
    by FRAME_SEPARATOR; "" where the trace has none. From the ops' `Call stack` argument
    (`with_stack=True`, 2021 schema) where it has them, else from the python_function events
    around each op on its thread (newer schemas record the stack so). Objects' addresses are
    left out of built-ins' frames so that one place in the code is one stack."""
    slices = trace.slices
    names = np.array([_ADDRESS.sub("", n) for n in trace.names], dtype=object)
    recorded = np.asarray(slices["call_stack"])
    if (recorded[rows] >= 0).any():
        return np.where(recorded[rows] >= 0, names[np.maximum(recorded[rows], 0)], "")
    kinds = np.asarray(slices["kind"])
    python = np.flatnonzero(kinds == Kind.PYTHON_FUNCTION)
    out = np.full(len(rows), "", dtype=object)
    if not len(python) or not len(rows):
        return out
    members = np.concatenate([python, rows])
    start = np.asarray(slices["start"])[members]
    dur = np.asarray(slices["dur"])[members]
    thread = np.asarray(slices["pid"])[members] * (1 << 32) + np.asarray(slices["tid"])[members]
    _, codes = np.unique(thread, return_inverse=True)
    order = group_start_longest_first(codes.reshape(-1), start, dur)
    depth, parent = nesting_parents(thread[order], start[order], start[order] + dur[order])
    is_python = order < len(python)
    frame = names[np.asarray(slices["name"])[members[order]]]
    # each member's stack: its own frame (python functions) over its nearest python ancestor's
    stack = np.full(len(order), "", dtype=object)
    for level in range(int(depth.max(initial=0)) + 1):
        at = np.flatnonzero(depth == level)
        above = np.where(parent[at] >= 0, stack[np.maximum(parent[at], 0)], "")
        own = is_python[at]
        stack[at] = above
        stack[at[own]] = [
            f + FRAME_SEPARATOR + a if a else f
            for f, a in zip(frame[at[own]].tolist(), above[own].tolist(), strict=True)
        ]
    ops = ~is_python
    out[order[ops] - len(python)] = stack[ops]
    return out


def user_frame(call_stack: str) -> str:
    """The innermost frame of the user's own code in a call stack ("" without one): where the
    user would go to change what the op does."""
    for frame in call_stack.split(FRAME_SEPARATOR):
        if frame.strip() and _LIBRARY_FRAME.search(frame.strip()) is None:
            return frame.strip()
    return ""


def named_operator_events(traces: list[TraceTables], with_stacks: bool = False) -> pd.DataFrame:
    """operator_events of the traces with names and input shapes as text."""
    parts = []
    for trace in traces:
        events = operator_events(trace, with_stacks)
        names = np.array(trace.names, dtype=object)
        events["name"] = names[events["name"].to_numpy()]
        dims = events["input_dims"].to_numpy()
        events["input_dims"] = np.where(dims >= 0, names[np.maximum(dims, 0)], "")
        parts.append(events)
    if not parts:
        return pd.DataFrame(columns=_EVENT_COLUMNS + (["call_stack"] if with_stacks else []))
    return pd.concat(parts, ignore_index=True)


# What an operator row may be per, besides its name: the events' column that splits it
GROUPINGS = ("name", "input_dims", "call_stack")


_OPERATOR_SUMS = [
    "calls", "host_total_ns", "host_self_ns", "device_total_ns", "device_self_ns",
    "tensor_core_self_ns", "tensor_core_total_ns",
]  # fmt: skip


def operator_rows(events: pd.DataFrame, split_by: str = "input_dims") -> pd.DataFrame:
    """The events summed per (name, `split_by`: input shapes or call stack), in order of first
    call: calls, the time columns, whether the first call was an annotation and whether any
    was. Rows of several ranks, one after the other, merge into the same table as their
    events would (`merge_operator_rows`), so a run keeps these instead of every event."""
    keys = ["name", split_by]
    if events.empty:  # typed, so that a rank without operators keeps the run's columns numeric
        return pd.DataFrame({
            **{key: pd.Series(dtype=object) for key in keys},
            "annotation": pd.Series(dtype=bool), "any_annotation": pd.Series(dtype=bool),
            **{c: pd.Series(dtype=np.int64) for c in _OPERATOR_SUMS},
        })  # fmt: skip
    table = events.groupby(keys, sort=False).agg(
        annotation=("annotation", "first"),
        any_annotation=("annotation", "any"),
        calls=("dur", "size"),
        host_total_ns=("dur", "sum"),
        **{c: (c, "sum") for c in _OPERATOR_SUMS[2:]},
    )
    return table.reset_index()


def merge_operator_rows(rows: pd.DataFrame, group_by: str = "name") -> pd.DataFrame:
    """OPERATOR_COLUMNS per operator name (and, by `group_by`, input shapes or call stack: the
    column `rows` were split by), from `operator_rows` of one or more ranks, sorted by device
    self time, then host self time. The Tensor-Core shares are of the device self / total
    time spent in Tensor-Core kernels (NaN without device time); eligible: tensor_cores.py's
    guess."""
    if rows.empty:
        return pd.DataFrame(columns=OPERATOR_COLUMNS)
    keys = ["name"] if group_by == "name" else ["name", group_by]
    table = rows.groupby(keys, sort=False).agg(
        annotation=("annotation", "first"), **{c: (c, "sum") for c in _OPERATOR_SUMS}
    )
    table = table.reset_index()
    table["tensor_core_eligible"] = [tensor_core_eligible(n) for n in table["name"].tolist()]
    for part in ("self", "total"):
        spent = table[f"device_{part}_ns"].to_numpy(np.float64)
        share = table[f"tensor_core_{part}_ns"].to_numpy(np.float64) / np.where(spent, spent, 1)
        table[f"tensor_core_{part}_share"] = np.where(spent > 0, share, np.nan)
    for grouping in GROUPINGS[1:]:
        if grouping != group_by:
            table[grouping] = ""
    table = table.sort_values(["device_self_ns", "host_self_ns"], ascending=False, kind="stable")
    return table[OPERATOR_COLUMNS].reset_index(drop=True)


def aggregate_operators(events: pd.DataFrame, group_by: str = "name") -> pd.DataFrame:
    """`merge_operator_rows` of the events' own rows (split by call stack for that grouping,
    by input shapes otherwise)."""
    split_by = "call_stack" if group_by == "call_stack" else "input_dims"
    return merge_operator_rows(operator_rows(events, split_by), group_by)


def operator_table(traces: list[TraceTables], group_by: str = "name") -> pd.DataFrame:
    """aggregate_operators over the traces' events."""
    return aggregate_operators(
        named_operator_events(traces, with_stacks=group_by == "call_stack"), group_by
    )
