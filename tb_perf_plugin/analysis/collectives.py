"""Distributed runs: each collective's calls, bytes and bandwidth, and each rank's time split
into computation, overlapped and exposed communication and the rest (docs/ANALYSIS.md,
Distributed).

A call is one communication kernel (the breakdown's: a collective library's kernel, or one
carrying a `Collective name` arg), timed by its device duration: that is what the network
and the GPU spent on it, host launch and queueing excluded. Bandwidths are nccl-tests'
(its docs/PERFORMANCE.md), in bytes per second. Pure functions over trace tables and
breakdowns.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from ..ingest.tables import Kind, TraceTables
from .breakdown import StepBreakdown, communicates

# Bytes per element of c10's ScalarType names, as Kineto writes them in `dtype`.
DTYPE_BYTES = {
    "Byte": 1, "Char": 1, "Bool": 1, "QInt8": 1, "QUInt8": 1, "QUInt4x2": 1, "QUInt2x4": 1,
    "Bits1x8": 1, "Bits2x4": 1, "Bits4x2": 1, "Bits8": 1, "Float8_e5m2": 1,
    "Float8_e4m3fn": 1, "Float8_e5m2fnuz": 1, "Float8_e4m3fnuz": 1, "Float8_e8m0fnu": 1,
    "Float4_e2m1fn_x2": 1, "Short": 2, "Half": 2, "BFloat16": 2, "Bits16": 2, "UInt16": 2,
    "ComplexHalf": 4, "Int": 4, "Float": 4, "QInt32": 4, "UInt32": 4, "Long": 8, "Double": 8,
    "ComplexFloat": 8, "UInt64": 8, "ComplexDouble": 16,
}  # fmt: skip
POINT_TO_POINT = "send_recv"
# Kinds, in the order they are matched against a squeezed name (letters only, lower case):
# the longer names first, so "allgather" is not read as "gather".
_KINDS = (
    ("allreduce", "all_reduce"),
    ("reducescatter", "reduce_scatter"),
    ("allgather", "all_gather"),
    ("alltoall", "all_to_all"),
    ("broadcast", "broadcast"),
    ("sendrecv", POINT_TO_POINT),
    ("send", POINT_TO_POINT),
    ("recv", POINT_TO_POINT),
    ("reduce", "reduce"),
    ("gather", "gather"),
    ("scatter", "scatter"),
    ("barrier", "barrier"),
)
UNKNOWN = "unknown"  # a kernel whose name and args do not say (RCCL's ncclDevKernel_Generic)
# Size of a call as nccl-tests counts it: the gathered output for all-gather (and gather),
# the input otherwise (reduce-scatter's and all-to-all's input is the whole buffer), the
# larger of the two for point-to-point (a send has only an input, a recv only an output).
_OUTPUT_SIZED = ("all_gather", "gather")


def bus_factor(kind: str, ranks: int) -> float | None:
    """nccl-tests' bus bandwidth / algorithm bandwidth for `kind` over `ranks` ranks; None
    where it defines none (gather, scatter, barrier, unknown) or the group size is unknown."""
    if kind in ("broadcast", "reduce", POINT_TO_POINT):
        return 1.0
    if ranks < 1:
        return None
    if kind == "all_reduce":
        return 2 * (ranks - 1) / ranks
    if kind in ("all_gather", "reduce_scatter", "all_to_all"):
        return (ranks - 1) / ranks
    return None


def collective_kind(name: str) -> str:
    """The kind of a `Collective name` arg (`allreduce`, `_allgather_base`,
    `reduce_scatter_tensor_coalesced`, `send`, ...) or of a kernel name
    (`ncclKernel_AllReduce_RING_LL_Sum_float(...)`, `ncclDevKernel_SendRecv(...)`)."""
    text = name.split("(", 1)[0]
    if "kernel_" in text.lower():  # the kernel's own words follow `...Kernel_`
        text = text[text.lower().index("kernel_") + len("kernel_") :]
    squeezed = re.sub(r"[^a-z]", "", text.lower())
    return next((kind for word, kind in _KINDS if word in squeezed), UNKNOWN)


def collective_calls(trace: TraceTables) -> pd.DataFrame:
    """One row per communication kernel of a trace: its `kind`, the trace's `collective`
    name ("" without one), process `group` ("" without), `group_size` (-1 unknown), `bytes`
    (nelems × dtype size, -1 where the args do not say) and `dur` (ns)."""
    slices = trace.slices
    rows = np.flatnonzero(communicates(trace) & (slices["kind"] == Kind.KERNEL))
    names = np.array([*trace.names, ""], dtype=object)  # -1 reads as ""
    collective = names[slices["collective"][rows]]
    kernel = names[slices["name"][rows]]
    kind_of = {n: collective_kind(n) for n in set(collective.tolist()) | set(kernel.tolist())}
    kinds = np.array(
        [kind_of[c] if c else kind_of[k] for c, k in zip(collective, kernel, strict=True)],
        dtype=object,
    )
    dtype = names[slices["dtype"][rows]]
    element = np.array([DTYPE_BYTES.get(d, -1) for d in dtype.tolist()], dtype=np.int64)
    n_in, n_out = slices["in_nelems"][rows], slices["out_nelems"][rows]
    nelems = np.where(
        np.isin(kinds, _OUTPUT_SIZED),
        n_out,
        np.where(kinds == POINT_TO_POINT, np.maximum(n_in, n_out), n_in),
    )
    known = (element > 0) & (nelems >= 0)
    return pd.DataFrame({
        "kind": kinds,
        "collective": collective,
        "group": names[slices["process_group"][rows]],
        "group_size": slices["group_size"][rows].astype(np.int64),
        "bytes": np.where(known, nelems * element, -1),
        "dur": slices["dur"][rows],
    })  # fmt: skip


_SUMS = ("calls", "total_ns", "sized_calls", "sized_bytes", "sized_ns")
# collective_rows' columns: the sums of the calls of one kind, group and collective name, and
# their largest group_size
ROW_COLUMNS = ("kind", "group", "collective", *_SUMS, "group_size")


def collective_rows(calls: pd.DataFrame) -> pd.DataFrame:
    """Calls (collective_calls) summed by kind, process group and collective name: what
    `collective_table` reads, kept instead of every call (a run's analysis then grows with its
    ranks, not with its calls)."""
    sized = (calls["bytes"] >= 0).to_numpy()
    frame = pd.DataFrame({
        "kind": calls["kind"], "group": calls["group"], "collective": calls["collective"],
        "calls": np.ones(len(calls), np.int64), "total_ns": calls["dur"].astype(np.int64),
        "sized_calls": sized.astype(np.int64),
        "sized_bytes": np.where(sized, calls["bytes"], 0).astype(np.int64),
        "sized_ns": np.where(sized, calls["dur"], 0).astype(np.int64),
        "group_size": calls["group_size"].astype(np.int64),
    })  # fmt: skip
    summed = frame.groupby(["kind", "group", "collective"], sort=True, as_index=False)
    return summed.agg({**dict.fromkeys(_SUMS, "sum"), "group_size": "max"})


def _row(kind: str, group: str, sums: dict[str, int], collectives: set[str]) -> dict[str, Any]:
    """The table row of some calls of one kind and group from their sums (_SUMS and the largest
    `group_size`): bytes and bandwidths over the calls whose size is known (null when none
    is)."""
    calls, total_ns, sized = sums["calls"], sums["total_ns"], sums["sized_calls"]
    total_bytes = sums["sized_bytes"] if sized else None
    sized_ns = sums["sized_ns"]
    algo = round(total_bytes / sized_ns * 1e9) if total_bytes is not None and sized_ns else None
    size = sums["group_size"]
    factor = bus_factor(kind, size)
    return {
        "name": kind,
        "group": group or None,
        "group_size": size if size > 0 else None,
        "collectives": sorted(collectives - {""}),
        "calls": calls,
        "bytes": total_bytes,
        "bytes_per_call": None if total_bytes is None else total_bytes // sized,
        "total_ns": total_ns,
        "mean_ns": total_ns // calls,
        "algo_bandwidth": algo,
        "bus_bandwidth": None if algo is None or factor is None else round(algo * factor),
    }


def collective_table(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Per (kind, process group), across the ranks of `rows` (collective_rows + `rank`): the
    pooled calls' row and the `slowest_rank` (most time in it), most time first; then
    `per_rank`, the same row per rank. One grouped sum per rank (a run can have thousands)."""
    keys = ["kind", "group", "rank"]
    per_rank = rows.groupby(keys, sort=True).agg(
        {**dict.fromkeys(_SUMS, "sum"), "group_size": "max"}
    )
    names = rows.groupby(keys, sort=True)["collective"].agg(set)
    out = []
    for (kind, group), mine in per_rank.groupby(level=[0, 1], sort=False):
        rows, collectives = [], set()
        for (_, _, rank), sums in zip(mine.index, mine.to_dict(orient="records"), strict=True):
            own = names[(kind, group, rank)]
            collectives |= own
            rows.append({"rank": int(rank), **_row(str(kind), str(group), sums, own)})
        pooled = {key: int(mine[key].sum()) for key in _SUMS}
        pooled["group_size"] = int(mine["group_size"].max())
        slowest = max(rows, key=lambda r: (r["total_ns"], -r["rank"]))["rank"]
        row = _row(str(kind), str(group), pooled, collectives)
        out.append({**row, "slowest_rank": slowest, "ranks": len(rows), "per_rank": rows})
    return sorted(out, key=lambda r: (-r["total_ns"], r["name"], r["group"] or ""))


SPLIT = ("computation_ns", "overlap_ns", "exposed_ns", "other_ns")


def time_split(b: StepBreakdown) -> dict[str, int]:
    """A step's wall time as computation (compute kernels, no communication running), overlap
    (both), exposed communication (communication alone) and other (neither): they add up to
    its duration."""
    computation = b.ns["compute"] - b.overlap_ns
    exposed = b.ns["communication"]
    return {
        "computation_ns": computation,
        "overlap_ns": b.overlap_ns,
        "exposed_ns": exposed,
        "other_ns": b.duration_ns - computation - b.overlap_ns - exposed,
    }


def rank_splits(breakdowns: list[StepBreakdown]) -> list[dict[str, Any]]:
    """Per rank: time_split summed over its broken-down steps (or whole traces), with `steps`
    each one's own."""
    out = []
    for rank in sorted({b.rank for b in breakdowns}):
        mine = [b for b in breakdowns if b.rank == rank]
        splits = [time_split(b) for b in mine]
        out.append({
            "rank": rank,
            **{key: sum(split[key] for split in splits) for key in SPLIT},
            "steps": [{"step": b.step, **split} for b, split in zip(mine, splits, strict=True)],
        })  # fmt: skip
    return out
