"""What the host's runtime calls were for: each CUDA / HIP runtime call of a trace in one closed
class, so `host_bound` and `sync_point` can name the cause of the time, not only its size
(docs/FINDINGS.md, causes).

Classes: `launch` (kernel launches, graph launches), `allocator` (cudaMalloc/cudaFree and
their host and async forms: the caching allocator bypassed or emptied), `initialization`
(context, stream and module set-up: one-off work), and three ways the host waits on the
device: `scalar_read` (a synchronizing call inside `aten::item` / `aten::_local_scalar_dense`:
`.item()`, `.tolist()`, printing a tensor), `blocking_copy` (a synchronous `cudaMemcpy`, or an
async one to or from pageable memory, which blocks the host all the same), `synchronize_call`
(`cudaStreamSynchronize`, `cudaDeviceSynchronize`, `cudaEventSynchronize`, their HIP names and
the driver's "Stream Sync" / "Context Sync"). Pure functions over trace tables.
"""

from __future__ import annotations

import re

import numpy as np

from ..ingest.tables import Kind, TraceTables

SYNC_CLASSES = ("synchronize_call", "blocking_copy", "scalar_read")
HOST_CLASSES = ("launch", "allocator", "initialization")
_SYNCHRONIZE = re.compile(r"Synchronize|^(Stream|Context|Event) Sync$")
_SYNC_COPY = re.compile(r"^(cuda|hip)Memcpy(2D|3D)?$|^cuMemcpy(DtoH|HtoD)(_v2)?$")
_ASYNC_COPY = re.compile(r"^(cuda|hip)Memcpy(2D|3D)?Async$|^hipMemcpyWithStream$|^cuMemcpy.*Async")
_PAGEABLE = re.compile(r"Pageable")  # the device memcpy's name: "Memcpy DtoH (Device -> Pageable)"
_LAUNCH = re.compile(r"LaunchKernel|LaunchCooperativeKernel|GraphLaunch|^cuLaunch|ModuleLaunch")
_ALLOCATOR = re.compile(r"^(cuda|hip)(Malloc|Free|HostAlloc|HostFree)|^cuMem(Alloc|Free)")
_INITIALIZATION = re.compile(
    r"GetDeviceProperties|DeviceGetStreamPriorityRange|StreamCreate|EventCreate|^cuInit$|"
    r"DevicePrimaryCtx|ModuleLoad|ModuleGetFunction|^(cuda|hip)GetDeviceCount$|Init$"
)
# the classes a runtime call is in by its name alone
NAME_CLASSES = {"launch": _LAUNCH, "allocator": _ALLOCATOR, "initialization": _INITIALIZATION}
_SCALAR_OPS = re.compile(r"^aten::(item|_local_scalar_dense)$")


def host_call_classes(trace: TraceTables) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per class, the (start, end) of the trace's runtime calls in it (on the trace's clock)."""
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    names = np.asarray(slices["name"])
    start = np.asarray(slices["start"])
    end = start + np.asarray(slices["dur"])
    runtime = np.flatnonzero(kinds == Kind.RUNTIME)

    def matching(pattern: re.Pattern[str]) -> np.ndarray:
        by_name = np.array([pattern.search(n) is not None for n in trace.names], dtype=bool)
        return runtime[by_name[names[runtime]]]

    async_copies = _pageable_async_copies(trace, matching(_ASYNC_COPY))
    copies = np.concatenate([matching(_SYNC_COPY), async_copies])
    waits = {"synchronize_call": matching(_SYNCHRONIZE), "blocking_copy": np.sort(copies)}
    reads = _inside_scalar_reads(trace, np.concatenate(list(waits.values())))
    classes = {
        "scalar_read": reads,
        **{name: np.setdiff1d(rows, reads) for name, rows in waits.items()},
        **{name: matching(pattern) for name, pattern in NAME_CLASSES.items()},
    }
    return {name: (start[rows], end[rows]) for name, rows in classes.items()}


def _pageable_async_copies(trace: TraceTables, rows: np.ndarray) -> np.ndarray:
    """The async copy calls whose device copy (same correlation) is to or from pageable memory:
    the runtime stages them through a pinned buffer and returns only when done."""
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    correlation = np.asarray(slices["correlation"])
    pageable = np.array([_PAGEABLE.search(n) is not None for n in trace.names], dtype=bool)
    device = np.flatnonzero(kinds == Kind.MEMCPY)
    if not len(rows) or not len(device):
        return rows[:0]
    blocking = correlation[device][pageable[np.asarray(slices["name"])[device]]]
    return rows[np.isin(correlation[rows], blocking[blocking >= 0])]


def _inside_scalar_reads(trace: TraceTables, rows: np.ndarray) -> np.ndarray:
    """The calls among `rows` that start inside an `aten::item` / `_local_scalar_dense` op of
    their thread."""
    slices = trace.slices
    names = np.asarray(slices["name"])
    scalar = np.array([_SCALAR_OPS.match(n) is not None for n in trace.names], dtype=bool)
    ops = np.flatnonzero(scalar[names] & (np.asarray(slices["kind"]) == Kind.CPU_OP))
    if not len(ops) or not len(rows):
        return rows[:0]
    start = np.asarray(slices["start"])
    end = start + np.asarray(slices["dur"])
    thread = np.asarray(slices["pid"]) * (1 << 32) + np.asarray(slices["tid"])
    inside = np.zeros(len(rows), dtype=bool)
    for lane in np.unique(thread[ops]):
        mine = ops[thread[ops] == lane]
        order = np.argsort(start[mine], kind="stable")
        op_start, op_end = start[mine][order], np.maximum.accumulate(end[mine][order])
        at = np.searchsorted(op_start, start[rows], side="right") - 1
        hit = (at >= 0) & (thread[rows] == lane)
        inside[hit] |= op_end[at[hit]] > start[rows][hit]
    return rows[inside]
