"""What ModuleProfiler writes of the calls it measured: per module and phase, the calls, total
and self time of each block of steps (`calls` records), and their device times once the CUDA
events resolved (`mgpu` records; docs/FORMAT.md, `modules` records). Also how one step's
backward calls are found from the stamps the autograd hooks left."""

from __future__ import annotations

import bisect
import json
from operator import itemgetter
from typing import Any

from ._gpu_events import EventBackend

SAMPLES_PER_BLOCK = 32  # per-call durations kept per module, phase and block of steps
PHASES = ("fwd", "bwd")


def _spaced(values: list[int], count: int) -> list[int]:
    """`count` evenly spaced values of the (longer) list `values`."""
    last = len(values) - 1
    return [values[round(i * last / (count - 1))] for i in range(count)]


def _completion_order(call: tuple) -> tuple[int, int]:
    return call[2], -call[1]  # by end; of calls ending together, the inner (later start) first


def summarize_calls(calls: list[tuple], stats: dict[int, list]) -> list[tuple]:
    """Add one step's calls of one phase, `(module_id, t0, t1, ...)`, into `stats`: per module
    id, the record entry `[module_id, calls, total_ns, self_ns, samples]`.

    Calls nest by time (forward calls always do; backward ones nearly always): a call's self
    time is its duration minus the calls directly inside it, and a call inside a call of the
    same module counts in the outer one's total only, so recursion is not counted twice.
    Returns the calls counted in totals (for their device times).
    """
    calls.sort(key=_completion_order)  # forward calls come in this order already: cheap
    done: list[tuple[int, int]] = []  # (t0, duration) of calls whose caller has not ended
    counted: dict[int, list[tuple]] = {}  # per module, the calls in its total, in order
    for call in calls:
        module_id, t0, t1 = call[0], call[1], call[2]
        duration = t1 - t0
        inner = 0
        while done and done[-1][0] >= t0:  # ended before this one, began after: inside it
            inner += done.pop()[1]
        done.append((t0, duration))
        entry = stats.get(module_id)
        if entry is None:
            entry = stats[module_id] = [module_id, 0, 0, 0, []]
        entry[1] += 1
        entry[3] += duration - inner if duration > inner else 0
        entry[4].append(duration)
        same = counted.get(module_id)
        if same is None:
            same = counted[module_id] = []
        while same and same[-1][1] >= t0:  # a recursive call inside this one: not counted
            nested = same.pop()
            entry[2] -= nested[2] - nested[1]
        same.append(call)
        entry[2] += duration
    return [call for same in counted.values() for call in same]


def resolve_backward(marked: list[tuple], pass_ends: list[tuple]) -> list[tuple]:
    """One step's backward calls `(module_id, t0, t1, start event, end event)`.

    A call's backward starts at the first stamp of its output's node. It ends when the
    engine, having finished it, moves on to nodes made before the call's forward began:
    at the first later stamp of a call whose forward had returned before this one started
    (the node that produced this call's input is usually one), else at the end of the
    backward pass. The engine runs ready nodes latest-made first, so nothing made before
    a call runs while the call's own nodes are ready. Calls whose backward did not run are
    dropped.
    """
    starts = []  # (forward t0, forward t1, module id, first stamp, its event)
    for module_id, t0, t1, stamps in marked:
        first = None
        for times, events in stamps:
            if times and (first is None or times[0] < first[0]):
                first = (times[0], events[0] if events else None)
        if first is not None:
            starts.append((t0, t1, module_id, first))
    by_return = sorted(starts, key=itemgetter(1))
    # the stamps of calls that returned before the current call began, sorted by time
    done_times: list[int] = []
    done_events: list[Any] = []
    pass_end_times = [t for t, _ in pass_ends]
    calls = []
    returned = 0
    for t0, _, module_id, (start, start_event) in sorted(starts, key=itemgetter(0)):
        while returned < len(by_return) and by_return[returned][1] <= t0:
            stamp, event = by_return[returned][3]
            at = bisect.bisect_right(done_times, stamp)
            done_times.insert(at, stamp)
            done_events.insert(at, event)
            returned += 1
        end = end_event = None
        at = bisect.bisect_left(done_times, start)
        if at < len(done_times):
            end, end_event = done_times[at], done_events[at]
        at = bisect.bisect_left(pass_end_times, start)
        if at < len(pass_end_times) and (end is None or pass_end_times[at] < end):
            end, end_event = pass_ends[at]
        if end is None:
            continue  # its pass never ended (it raised): nothing to trust
        calls.append((module_id, start, end, start_event, end_event))
    return calls


class BlockWriter:
    """Sums the profiled steps' calls into blocks of `aggregate_steps` steps and writes each
    full block to `file`; with `events`, writes each block's device times once its events
    resolved (never waiting, except at `write_gpu_times(wait=True)`). With `backward_sampled`,
    each block lists the steps whose backward was timed (`bwd_steps`), so that readers can
    scale backward times to all steps."""

    def __init__(
        self, file: Any, aggregate_steps: int, events: EventBackend | None, backward_sampled: bool
    ) -> None:
        self._file = file
        self._aggregate_steps = aggregate_steps
        self._events = events
        self._backward_steps: list[int] | None = [] if backward_sampled else None
        self._block: dict[str, dict[int, list]] = {phase: {} for phase in PHASES}
        self._block_gpu: dict[str, list[tuple]] = {phase: [] for phase in PHASES}
        self._block_first: int | None = None
        self._block_last: int | None = None
        self._block_steps = 0
        self._pending_gpu: list[tuple] = []

    def add(self, step: int, fwd: list[tuple], bwd: list[tuple], timed_backward: bool) -> None:
        """One step's forward and backward calls (`timed_backward`: whether its backward was
        timed); writes the block once it is full."""
        if self._block_first is None:
            self._block_first = step
        self._block_last = step
        self._block_steps += 1
        if timed_backward and self._backward_steps is not None:
            self._backward_steps.append(step)
        for phase, calls in (("fwd", fwd), ("bwd", bwd)):
            counted = summarize_calls(calls, self._block[phase])
            if self._events is not None:
                self._block_gpu[phase].extend((c[0], c[3], c[4]) for c in counted)
        if self._block_steps >= self._aggregate_steps:
            self._write_block()

    def close(self) -> None:
        """Write the block under way, full or not."""
        if self._block_steps:
            self._write_block()

    def _write_block(self) -> None:
        lists = {phase: list(self._block[phase].values()) for phase in PHASES}
        for entries in lists.values():
            for entry in entries:
                if len(entry[4]) > SAMPLES_PER_BLOCK:
                    entry[4] = _spaced(entry[4], SAMPLES_PER_BLOCK)
        first, last = self._block_first, self._block_last
        record: dict[str, Any] = {"k": "calls", "step": first, "last_step": last, **lists}
        if self._backward_steps is not None:
            record["bwd_steps"] = self._backward_steps
            self._backward_steps = []
        self._file.append(json.dumps(record, separators=(",", ":")) + "\n")
        if self._events is not None:
            self._pending_gpu.append((first, last, self._block_gpu))
        self._block = {phase: {} for phase in PHASES}
        self._block_gpu = {phase: [] for phase in PHASES}
        self._block_first = self._block_last = None
        self._block_steps = 0

    def write_gpu_times(self, wait: bool) -> None:
        """Write the device times of the blocks whose events resolved (all of them, waiting,
        when `wait`)."""
        events = self._events
        if events is None:  # GPU times wait only where there are events
            return
        still_pending = []
        for first, last, per_phase in self._pending_gpu:
            pairs = [pair for calls in per_phase.values() for _, *pair in calls]
            if wait:
                for _, end_event in pairs:
                    events.synchronize(end_event)
            elif not all(events.query(e0) and events.query(e1) for e0, e1 in pairs):
                still_pending.append((first, last, per_phase))
                continue
            sums = {}
            for phase, calls in per_phase.items():
                totals: dict[int, int] = {}
                for module_id, e0, e1 in calls:
                    totals[module_id] = totals.get(module_id, 0) + events.elapsed_ns(e0, e1)
                sums[phase] = sorted(totals.items())
            record = {"k": "mgpu", "step": first, "last_step": last}
            record.update((phase, [list(item) for item in items]) for phase, items in sums.items())
            self._file.append(json.dumps(record, separators=(",", ":")) + "\n")
        self._pending_gpu = still_pending
