"""The critical path of a step: the longest chain of dependent work through a rank's trace.

Per step window, a dependency graph over the points in time where events start and end
(docs/ANALYSIS.md, "Critical path"):

- host ops and runtime calls, per thread, in nesting order: consecutive points joined by an
  edge as long as the time between them, attributed to the innermost op open then (a gap
  between top-level ops is a zero-weight dependency, as in HTA);
- device work (kernels, copies, fills) per stream in stream order: an edge for the event's own
  duration, and into its start one edge from the end of the previous event on its stream and one
  from the start of its launch (by `correlation`); the later of the two is the binding one and
  weighs the time between, the other weighs 0;
- host waits on the device (cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize,
  blocking copies, `aten::item` / `aten::_local_scalar_dense`, their HIP names): an edge from the
  end of the last device event that ended inside the call to the call's end. When that end is
  later than the host point before it, the device is what the host waited for: the host edge into
  the call's end weighs 0 and the device edge the call's tail after the device event.
- a thread waiting on another thread of its process (`_thread_handoffs`: the autograd engine's
  backward thread while the main thread waits in `backward()`): fork and join edges through the
  other thread's ops.

The longest path is one pass over the nodes in time order (each edge points forward in it),
linear in events. `StepGraph` keeps the edges with their weights, event rows and categories, so
`longest_path(graph, weights)` can be rerun with other weights: "the path with a cause's events
taking zero time" is `longest_path(graph, np.where(mask, 0, graph.weight))`. Across ranks,
`joined_critical_path` joins the ranks' graphs of a step at their collectives.
Pure functions over `TraceTables`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..ingest.tables import Kind, TraceTables
from .breakdown import category_of_slices
from .operators import host_nesting

# Host calls that wait for the device (CUDA and HIP runtime names, and the aten ops that copy a
# device scalar to the host)
BLOCKING_CALL = re.compile(
    r"^(cuda|hip)(Stream|Device|Event|Ctx|Thread)Synchronize$|^(cuda|hip)Memcpy(Async)?$|"
    r"^(cuda|hip)Memcpy(DtoH|HtoD|2D)?(Async)?$|^aten::(item|_local_scalar_dense)$|"
    r"^(cuda|hip)StreamQuery$|^(cuda|hip)EventQuery$"
)
# CUPTI's device-side records of syncs (category cuda_sync): not host work
_DEVICE_SYNC_RECORD = re.compile(r"^(Stream Sync|Context Sync|Event Sync|Stream Wait Event)$")
# the profiler's own window annotation: not work (on a thread of its own, it spans the window)
_WINDOW_MARKER = re.compile(r"^PyTorch Profiler( \(\d+\))?$")
_DEVICE_WORK = (Kind.KERNEL, Kind.MEMCPY, Kind.MEMSET)

# edge kinds
WORK, DEPENDENCY, LAUNCH, QUEUE, SYNC, COLLECTIVE = 0, 1, 2, 3, 4, 5
EDGE_KINDS = ("work", "dependency", "launch", "queue", "sync", "collective")
# the categories of path time: the breakdown's (an event's own time) and the waits between
LAUNCH_DELAY = "launch_delay"  # a kernel waiting for its launch (launch start -> kernel start)
DEVICE_QUEUE = "device_queue"  # waiting for the previous event of its stream to end
TOP_OPERATORS = 10
HANDOFF_MIN_NS = 20_000  # a thread's own time this long may be a wait on another thread
HANDOFF_BUSY = 0.5  # ... when the other thread is busy this much of it


@dataclass(frozen=True)
class StepGraph:
    """One step's dependency graph. Nodes are in topological (time) order: node `i` has time
    `time[i]`; edge `j` goes from `src[j]` to `dst[j]` (`src < dst`), weighs `weight[j]` ns, is of
    kind `kind[j]` (EDGE_KINDS) and is attributed to slice row `row[j]` (-1: none) and category
    `category[j]` (an index into `categories`)."""

    time: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    kind: np.ndarray
    row: np.ndarray
    category: np.ndarray
    categories: tuple[str, ...]
    dropped_edges: int  # edges against time order (clock skew between host and device)
    # per node: the slice row whose start (node_end False) or end it is
    node_row: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    node_end: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))


@dataclass(frozen=True)
class Path:
    """A longest path: its length and its edges (indices into the graph's edges, in order)."""

    length_ns: int
    edges: np.ndarray


def _sums(keys: list[str], ns: np.ndarray) -> dict[str, int]:
    """`ns` summed per key, keys in order of first appearance (a path has ~1e5 edges: one
    Python pass per summary was most of the route's time)."""
    codes, uniques = pd.factorize(np.asarray(keys, dtype=object))
    totals = np.zeros(len(uniques), dtype=np.int64)
    np.add.at(totals, codes, np.asarray(ns, dtype=np.int64))
    return dict(zip(uniques.tolist(), totals.tolist(), strict=True))


@dataclass
class StepCriticalPath:
    """One step's critical path on one rank."""

    rank: int
    step: int | None
    start_ns: int  # the window, on the trace's clock
    duration_ns: int
    length_ns: int
    # the path's weighted edges in order: slice row (-1 none), ns, category, edge kind, start
    rows: np.ndarray
    ns: np.ndarray
    category: list[str]
    kind: list[str]
    at_ns: np.ndarray
    names: list[str]  # the name of each edge's event ("" for none)
    dropped_edges: int = 0

    def by_category(self) -> dict[str, int]:
        out = _sums(self.category, self.ns)
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def top(self, categories: tuple[str, ...], limit: int = TOP_OPERATORS) -> list[dict]:
        """The events of these categories with the most path time, summed per name."""
        wanted = np.isin(np.asarray(self.category, dtype=object), categories)
        names = np.asarray(self.names, dtype=object)
        wanted &= names != ""
        sums = _sums(names[wanted].tolist(), self.ns[wanted])
        ranked = sorted(sums.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
        return [
            {"name": n, "ns": ns, "share": ns / self.length_ns if self.length_ns else 0.0}
            for n, ns in ranked
        ]

    def to_json(self) -> dict[str, Any]:
        length = self.length_ns
        return {
            "step": self.step,
            "rank": self.rank,
            "start_ns": str(self.start_ns),
            "duration_ns": self.duration_ns,
            "length_ns": length,
            "share_of_step": length / self.duration_ns if self.duration_ns else None,
            "by_category": [
                {"category": c, "ns": ns, "share": ns / length if length else 0.0}
                for c, ns in self.by_category().items()
            ],
            "top_operators": self.top(("cpu", "dataloader", "runtime")),
            "top_kernels": self.top(("compute", "communication", "memcpy", "memset")),
            "dropped_edges": self.dropped_edges,
        }


def _host_chain_order(
    thread: np.ndarray, depth: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For host events in nesting order (thread, start, longest first) with their depths, the
    sequence of their start and end points as a depth-first walk gives them: (event position,
    is_end, sort key) of each point, sorted. An event's end comes just before the start of the
    next event of its thread at its depth or above (deeper ends first)."""
    n = len(depth)
    index = np.arange(n)
    thread_end = np.zeros(n, dtype=np.int64)
    if n:
        bounds = np.flatnonzero(np.concatenate(([True], thread[1:] != thread[:-1], [True])))
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            thread_end[lo:hi] = hi
    following = thread_end.copy()
    for level in range(int(depth.max(initial=0)) + 1):
        here = np.flatnonzero(depth == level)
        above = np.flatnonzero(depth <= level)
        at = np.searchsorted(above, here, side="right")
        found = at < len(above)
        nxt = np.where(found, above[np.minimum(at, max(len(above) - 1, 0))], n)
        following[here] = np.minimum(nxt, thread_end[here])
    big = int(depth.max(initial=0)) + 2
    # key: position * (big + 1) + secondary; starts last at their position, deeper ends first
    start_key = index * (big + 1) + big
    end_key = following * (big + 1) + (big - 1 - depth)
    key = np.concatenate([start_key, end_key])
    event = np.concatenate([index, index])
    is_end = np.concatenate([np.zeros(n, bool), np.ones(n, bool)])
    order = np.argsort(key, kind="stable")
    return event[order], is_end[order], key[order]


def _thread_handoffs(
    thread: np.ndarray,
    depth: np.ndarray,
    time: np.ndarray,
    src: np.ndarray,
    dst: np.ndarray,
    src_end: np.ndarray,
    dst_end: np.ndarray,
    kind: np.ndarray,
    weight: np.ndarray,
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Waits of a thread on another thread of its process (the autograd engine's backward
    thread while the main thread waits in `backward()`): an op's own time between its children
    (a host edge not from a leaf's start to its end) of at least HANDOFF_MIN_NS, during which
    another thread of the same process started and finished top-level ops busy for at least
    HANDOFF_BUSY of it. For each, the edge is made a zero-weight dependency and the other
    thread's chain joined in: a fork edge from the edge's start to the first of those ops, the
    other thread's gaps between them weighted, a join edge from the last one's end to the edge's
    end. Changes `kind` and `weight` in place; returns the (src, dst, weight, host edge) of the
    fork and join edges."""
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    t_u, t_v = time[src], time[dst]
    self_time = (kind == WORK) & (t_v - t_u >= HANDOFF_MIN_NS)
    candidates = np.flatnonzero(self_time)
    threads = np.unique(thread)
    if not len(candidates) or len(threads) < 2:
        return out
    top = np.flatnonzero(depth == 0)
    edge_of_src = np.full(len(time), -1, dtype=np.int64)
    edge_of_src[src] = np.arange(len(src))
    edge_thread = thread[src[candidates] // 2]
    best_busy = np.zeros(len(candidates), dtype=np.int64)
    best: list[tuple[int, int, int]] = [(-1, -1, -1)] * len(candidates)
    for other in threads.tolist():
        mine = top[thread[top] == other]
        if not len(mine):
            continue
        starts, ends = time[2 * mine], np.maximum.accumulate(time[2 * mine + 1])
        done = np.concatenate(([0], np.cumsum(time[2 * mine + 1] - time[2 * mine])))
        first = np.searchsorted(starts, t_u[candidates], side="left")
        last = np.searchsorted(ends, t_v[candidates], side="right") - 1
        ok = (
            (edge_thread != other)
            & ((edge_thread >> 32) == (other >> 32))
            & (last >= first)
            & (first < len(mine))
        )
        busy = np.where(ok, done[np.minimum(last + 1, len(mine))] - done[first], 0)
        better = ok & (busy > best_busy) & (busy >= HANDOFF_BUSY * (t_v - t_u)[candidates])
        for c in np.flatnonzero(better).tolist():
            best[c] = (other, int(mine[first[c]]), int(mine[last[c]]))
        best_busy = np.where(better, busy, best_busy)
    fork_src, fork_dst, fork_w, join_src, join_dst, join_w, edges = [], [], [], [], [], [], []
    for c, (other, a, b) in enumerate(best):
        if other < 0:
            continue
        edge = int(candidates[c])
        kind[edge], weight[edge] = DEPENDENCY, 0
        fork_src.append(src[edge])
        fork_dst.append(2 * a)
        fork_w.append(time[2 * a] - t_u[edge])
        join_src.append(2 * b + 1)
        join_dst.append(dst[edge])
        join_w.append(t_v[edge] - time[2 * b + 1])
        edges.append(edge)
        # the other thread's gaps between its top-level ops, from a to b, are its work now
        inside = top[(thread[top] == other) & (time[2 * top] >= time[2 * a]) & (top < b)]
        gaps = edge_of_src[2 * inside + 1]
        gaps = gaps[(gaps >= 0) & (kind[np.maximum(gaps, 0)] == DEPENDENCY)]
        gaps = gaps[time[dst[gaps]] <= time[2 * b + 1]]
        kind[gaps] = WORK
        weight[gaps] = time[dst[gaps]] - time[src[gaps]]
    if edges:
        e = np.array(edges, dtype=np.int64)
        out.append((np.array(fork_src), np.array(fork_dst), np.array(fork_w), e))
        out.append((np.array(join_src), np.array(join_dst), np.array(join_w), e))
    return out


def step_graph(trace: TraceTables, window: tuple[int, int], nesting: Any = None) -> StepGraph:
    """The dependency graph of the trace's events that start in `window` [a, b) (trace clock),
    their times clipped to it. `nesting`: the trace's `host_nesting`, when already computed."""
    a, b = window
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    start = np.asarray(slices["start"])
    dur = np.asarray(slices["dur"])
    end = start + dur
    name_ids = np.asarray(slices["name"])
    correlation = np.asarray(slices["correlation"])
    category_codes, categories = category_of_slices(trace)
    categories = (*categories, LAUNCH_DELAY, DEVICE_QUEUE)
    launch_cat, queue_cat = len(categories) - 2, len(categories) - 1
    blocking = np.array([bool(BLOCKING_CALL.match(n)) for n in trace.names], bool)
    not_host_work = np.array(
        [bool(_DEVICE_SYNC_RECORD.match(n) or _WINDOW_MARKER.match(n)) for n in trace.names], bool
    )

    nesting = nesting if nesting is not None else host_nesting(trace)
    in_window = (start >= a) & (start < b)
    # host events of the window in nesting order (a subset keeps the order)
    h_rows = nesting.order
    keep = in_window[h_rows] & ~not_host_work[name_ids[h_rows]]
    h_pos = np.flatnonzero(keep)
    h_rows = h_rows[h_pos]
    remap = np.full(len(nesting.order), -1, dtype=np.int64)
    remap[h_pos] = np.arange(len(h_pos))
    h_parent = nesting.parent[h_pos]
    h_parent = np.where(h_parent >= 0, remap[np.maximum(h_parent, 0)], -1)
    h_depth = nesting.depth[h_pos]
    h_thread = (
        np.asarray(slices["pid"])[h_rows].astype(np.int64) * (1 << 32)
        + np.asarray(slices["tid"])[h_rows]
    )
    # device events of the window, per stream in start order
    d_rows = np.flatnonzero(in_window & np.isin(kinds, _DEVICE_WORK))
    d_stream = (
        np.asarray(slices["pid"])[d_rows].astype(np.int64) * (1 << 32)
        + np.asarray(slices["tid"])[d_rows]
    )
    d_order = np.lexsort((start[d_rows], d_stream))
    d_rows, d_stream = d_rows[d_order], d_stream[d_order]

    nh, nd = len(h_rows), len(d_rows)
    # nodes: host points 0..2nh-1 (start of host event i at 2i, end at 2i+1), then device points
    h_start = np.clip(start[h_rows], a, b)
    h_end = np.clip(end[h_rows], a, b)
    d_start = np.clip(start[d_rows], a, b)
    d_end = np.clip(end[d_rows], a, b)

    src_parts, dst_parts, w_parts, k_parts, r_parts, c_parts = [], [], [], [], [], []

    def add(src, dst, weight, kind, row, category) -> None:
        src_parts.append(np.asarray(src, np.int64))
        dst_parts.append(np.asarray(dst, np.int64))
        w_parts.append(np.asarray(weight, np.int64))
        k_parts.append(np.full(len(src), kind, np.int8))
        r_parts.append(np.asarray(row, np.int64))
        c_parts.append(np.asarray(category, np.int64))

    # host chains: a running max keeps each thread's times monotone along its walk
    event, is_end, _ = _host_chain_order(h_thread, h_depth)
    node = 2 * event + is_end
    raw = np.where(is_end, h_end[event], h_start[event])
    point_thread = h_thread[event]
    chain_time = raw.copy()
    if len(node):
        bounds = np.flatnonzero(
            np.concatenate(([True], point_thread[1:] != point_thread[:-1], [True]))
        )
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            chain_time[lo:hi] = np.maximum.accumulate(raw[lo:hi])
    host_time = np.zeros(2 * nh, dtype=np.int64)
    host_time[node] = chain_time
    same = point_thread[1:] == point_thread[:-1]
    u_ev, u_end = event[:-1][same], is_end[:-1][same]
    v_ev, v_end = event[1:][same], is_end[1:][same]
    gap = chain_time[1:][same] - chain_time[:-1][same]
    # HTA's attribution: (S,S) src, (S,E) src, (E,E) dst, (E,S) src's parent (none: top level)
    owner = np.where(~u_end, u_ev, np.where(v_end, v_ev, h_parent[u_ev]))
    top_gap = u_end & ~v_end & (h_parent[u_ev] < 0)
    edge_kind = np.where(top_gap, DEPENDENCY, WORK)
    owner_row = np.where(owner >= 0, h_rows[np.maximum(owner, 0)], -1)
    owner_cat = np.where(owner >= 0, category_codes[owner_row], -1)
    host_src, host_dst = 2 * u_ev + u_end, 2 * v_ev + v_end
    host_w = np.where(top_gap, 0, gap)
    host_kind = edge_kind.astype(np.int8)
    fork_join = _thread_handoffs(
        h_thread, h_depth, host_time, host_src, host_dst, u_end, v_end, host_kind, host_w
    )
    for src, dst, weight, edge in fork_join:
        add(src, dst, weight, WORK, owner_row[edge], owner_cat[edge])

    # device: each event's own time, and stream order
    dev_s = 2 * nh + 2 * np.arange(nd)
    dev_e = dev_s + 1
    d_end_mono = d_end.copy()
    if nd:
        bounds = np.flatnonzero(np.concatenate(([True], d_stream[1:] != d_stream[:-1], [True])))
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            d_end_mono[lo:hi] = np.maximum(np.maximum.accumulate(d_end[lo:hi]), d_start[lo:hi])
    d_start_mono = np.maximum(
        d_start, np.concatenate(([a], d_end_mono[:-1]))
    )  # not before the previous end on its stream
    first_on_stream = np.concatenate(([True], d_stream[1:] != d_stream[:-1]))[:nd]
    d_start_mono = np.where(first_on_stream, d_start, d_start_mono)
    d_end_mono = np.maximum(d_end_mono, d_start_mono)
    add(dev_s, dev_e, d_end_mono - d_start_mono, WORK, d_rows, category_codes[d_rows])

    # into a device event's start: its launch and the previous event on its stream
    prev_end_t = np.where(first_on_stream, np.iinfo(np.int64).min, np.roll(d_end_mono, 1))
    launch_host = np.full(nd, -1, dtype=np.int64)
    if nd and nh:
        launches = np.flatnonzero((kinds[h_rows] == Kind.RUNTIME) & (correlation[h_rows] >= 0))
        corr = correlation[h_rows[launches]]
        by = np.argsort(corr, kind="stable")
        at = np.minimum(np.searchsorted(corr[by], correlation[d_rows]), max(len(by) - 1, 0))
        if len(by):
            hit = (corr[by][at] == correlation[d_rows]) & (correlation[d_rows] >= 0)
            launch_host[hit] = launches[by[at[hit]]]
    has_launch = launch_host >= 0
    launch_t = np.full(nd, -1, dtype=np.int64)
    launch_t[has_launch] = host_time[2 * launch_host[has_launch]]
    launch_binding = has_launch & (launch_t >= prev_end_t) & (launch_t <= d_start_mono)
    lh = np.flatnonzero(has_launch & (launch_t <= d_start_mono))
    add(
        2 * launch_host[lh],
        dev_s[lh],
        np.where(launch_binding[lh], d_start_mono[lh] - launch_t[lh], 0),
        LAUNCH,
        h_rows[launch_host[lh]],
        np.full(len(lh), launch_cat),
    )
    follows = np.flatnonzero(~first_on_stream)
    add(
        dev_e[follows - 1],
        dev_s[follows],
        np.where(launch_binding[follows], 0, d_start_mono[follows] - d_end_mono[follows - 1]),
        QUEUE,
        d_rows[follows],
        np.full(len(follows), queue_cat),
    )

    # host waits: the last device event to end inside a blocking call
    blocking_h = np.flatnonzero(blocking[name_ids[h_rows]])
    prev_point_t = np.full(2 * nh, np.iinfo(np.int64).min, dtype=np.int64)
    prev_point_t[host_dst] = host_time[host_src]
    zero_host_into = np.zeros(2 * nh, dtype=bool)
    if len(blocking_h) and nd:
        by_end = np.argsort(d_end_mono, kind="stable")
        ends = d_end_mono[by_end]
        call_end = host_time[2 * blocking_h + 1]
        at = np.searchsorted(ends, call_end, side="right") - 1
        ok = at >= 0
        k = np.where(ok, by_end[np.maximum(at, 0)], -1)
        k_end = np.where(ok, ends[np.maximum(at, 0)], np.iinfo(np.int64).min)
        waited = ok & (k_end > host_time[2 * blocking_h])
        calls, k, k_end = blocking_h[waited], k[waited], k_end[waited]
        binding = k_end > prev_point_t[2 * calls + 1]
        zero_host_into[2 * calls[binding] + 1] = True
        add(
            dev_e[k],
            2 * calls + 1,
            np.where(binding, host_time[2 * calls + 1] - k_end, 0),
            SYNC,
            h_rows[calls],
            category_codes[h_rows[calls]],
        )
    host_w = np.where(zero_host_into[host_dst], 0, host_w)
    add(host_src, host_dst, host_w, 0, owner_row, owner_cat)
    k_parts[-1] = np.where(zero_host_into[host_dst], DEPENDENCY, host_kind).astype(np.int8)

    time = np.concatenate([host_time, np.ravel(np.column_stack([d_start_mono, d_end_mono]))])
    # a topological order: by time, host points before device points at equal times, each
    # chain's own order kept
    family = np.concatenate([np.zeros(2 * nh, np.int64), np.ones(2 * nd, np.int64)])
    seq = np.zeros(len(time), dtype=np.int64)
    seq[node] = np.arange(len(node))
    seq[2 * nh :] = np.arange(2 * nd)
    topo = np.lexsort((seq, family, time))
    graph, _ = _in_order(
        time, topo,
        np.concatenate(src_parts) if src_parts else np.zeros(0, np.int64),
        np.concatenate(dst_parts) if dst_parts else np.zeros(0, np.int64),
        np.concatenate(w_parts), np.concatenate(k_parts), np.concatenate(r_parts),
        np.concatenate(c_parts), categories,
        node_row=np.concatenate([np.repeat(h_rows, 2), np.repeat(d_rows, 2)]),
        node_end=np.arange(len(time)) % 2 == 1,
    )  # fmt: skip
    return graph


def _in_order(
    time: np.ndarray,
    topo: np.ndarray,
    src: np.ndarray,
    dst: np.ndarray,
    weight: np.ndarray,
    kind: np.ndarray,
    row: np.ndarray,
    category: np.ndarray,
    categories: tuple[str, ...],
    **per_node: np.ndarray,
) -> tuple[StepGraph, np.ndarray]:
    """The graph with its nodes in the topological order `topo`, keeping only the edges that go
    forward in it (the others run against time order by clock skew: counted, dropped), and
    which of the given edges it kept."""
    position = np.empty(len(time), dtype=np.int64)
    position[topo] = np.arange(len(time))
    forward = position[src] < position[dst]
    pick = np.flatnonzero(forward)
    graph = StepGraph(
        time=time[topo],
        src=position[src[pick]],
        dst=position[dst[pick]],
        weight=np.maximum(weight[pick], 0),
        kind=kind[pick],
        row=row[pick],
        category=category[pick],
        categories=categories,
        dropped_edges=int((~forward).sum()),
        **{name: values[topo] for name, values in per_node.items()},
    )
    return graph, pick


def longest_path(graph: StepGraph, weight: np.ndarray | None = None) -> Path:
    """The longest path of the graph (with these edge weights, else its own): one pass over
    the nodes in their topological order, each edge relaxed once."""
    w = graph.weight if weight is None else np.asarray(weight, dtype=np.int64)
    n = len(graph.time)
    if not n or not len(graph.src):
        return Path(0, np.zeros(0, dtype=np.int64))
    by_dst = _by_destination(graph)
    dst = graph.dst[by_dst].tolist()
    src = graph.src[by_dst].tolist()
    ws = w[by_dst].tolist()
    best = [0] * n
    via = [-1] * n  # the edge that gave each node its length (zero-weight ties are not kept:
    # the path's weighted edges are the same, and what shows a path drops zero weights)
    for j, (v, u, w_j) in enumerate(zip(dst, src, ws, strict=True)):  # sources final by then
        candidate = best[u] + w_j
        if candidate > best[v]:
            best[v] = candidate
            via[v] = j
    last = int(np.argmax(best))
    edges = []
    node = last
    while via[node] >= 0 and best[node] > 0:
        j = via[node]
        edges.append(int(by_dst[j]))
        node = src[j]
    return Path(int(best[last]), np.array(edges[::-1], dtype=np.int64))


def longest_length(graph: StepGraph, weight: np.ndarray) -> int:
    """The longest path's length with these edge weights (what-ifs need no path): the same
    pass as `longest_path`, keeping no predecessors."""
    if not len(graph.time) or not len(graph.src):
        return 0
    by_dst = _by_destination(graph)
    dst, src = graph.dst[by_dst].tolist(), graph.src[by_dst].tolist()
    ws = np.asarray(weight, dtype=np.int64)[by_dst].tolist()
    best = [0] * len(graph.time)
    for v, u, w in zip(dst, src, ws, strict=True):
        candidate = best[u] + w
        if candidate > best[v]:
            best[v] = candidate
    return max(best)


def _by_destination(graph: StepGraph) -> np.ndarray:
    """The graph's edges ordered by destination node (every source is final by then)."""
    return np.argsort(graph.dst, kind="stable")


def step_critical_path(
    trace: TraceTables,
    rank: int,
    step: int | None,
    window: tuple[int, int],
    nesting: Any = None,
    graph: StepGraph | None = None,
) -> StepCriticalPath:
    """The critical path of one step window [a, b) of the trace (its clock); `graph`: its
    `step_graph`, when already built."""
    graph = graph if graph is not None else step_graph(trace, window, nesting)
    path = longest_path(graph)
    e = path.edges[graph.weight[path.edges] > 0]
    rows = graph.row[e]
    name_ids = np.asarray(trace.slices["name"])
    names = [trace.names[name_ids[r]] if r >= 0 else "" for r in rows.tolist()]
    category = [graph.categories[c] if c >= 0 else "cpu" for c in graph.category[e].tolist()]
    return StepCriticalPath(
        rank=rank,
        step=step,
        start_ns=window[0],
        duration_ns=window[1] - window[0],
        length_ns=path.length_ns,
        rows=rows,
        ns=graph.weight[e],
        category=category,
        kind=[EDGE_KINDS[k] for k in graph.kind[e].tolist()],
        at_ns=graph.time[graph.src[e]],
        names=names,
        dropped_edges=graph.dropped_edges,
    )


def trace_critical_paths(
    trace: TraceTables, rank: int, windows: list[tuple[int | None, int, int]]
) -> list[StepCriticalPath]:
    """The critical path of each window (step, a, b) of the trace (its clock); the trace's host
    nesting is computed once for all."""
    if not windows:
        return []
    nesting = host_nesting(trace)
    return [step_critical_path(trace, rank, s, (a, b), nesting) for s, a, b in windows]


def job_critical_path(paths: list[StepCriticalPath]) -> list[dict[str, Any]]:
    """Per step, the job's critical path: through the slowest rank (the longest path of the
    step's ranks; the lowest rank on a tie)."""
    by_step: dict[int | None, list[StepCriticalPath]] = {}
    for p in paths:
        by_step.setdefault(p.step, []).append(p)
    out = []
    for step, ps in sorted(by_step.items(), key=lambda kv: -1 if kv[0] is None else kv[0]):
        slowest = max(ps, key=lambda p: (p.length_ns, -p.rank))
        out.append({
            "step": step,
            "rank": slowest.rank,
            "length_ns": slowest.length_ns,
            "ranks": len(ps),
        })  # fmt: skip
    return out


@dataclass(frozen=True)
class RankStepGraph:
    """One rank's graph of a step, with its trace and the map of its times to the job's clock
    (rank 0's, as the alignment fits it)."""

    rank: int
    trace: TraceTables
    graph: StepGraph
    to_job_clock: Callable[[np.ndarray], np.ndarray]


@dataclass
class JoinedPath:
    """A step's critical path over all its ranks' graphs, collectives joined across ranks."""

    step: int | None
    length_ns: int
    ns: np.ndarray  # per weighted edge of the path, in order
    rank: np.ndarray
    category: list[str]
    names: list[str]
    collectives: int  # collective calls joined across ranks
    dropped_edges: int

    def to_json(self) -> dict[str, Any]:
        length = self.length_ns
        by_category: dict[str, int] = {}
        for category, ns in zip(self.category, self.ns.tolist(), strict=True):
            by_category[category] = by_category.get(category, 0) + ns
        through: list[dict[str, int]] = []
        for rank, ns in zip(self.rank.tolist(), self.ns.tolist(), strict=True):
            if through and through[-1]["rank"] == rank:
                through[-1]["ns"] += ns
            else:
                through.append({"rank": rank, "ns": ns})
        return {
            "length_ns": length,
            "by_category": [
                {"category": c, "ns": ns, "share": ns / length if length else 0.0}
                for c, ns in sorted(by_category.items(), key=lambda kv: -kv[1])
            ],
            "through_ranks": through,
            "collectives_joined": self.collectives,
            "dropped_edges": self.dropped_edges,
        }


def _collective_calls(part: RankStepGraph) -> dict[tuple[str, str], list[int]]:
    """The step's collective calls on one rank (the events of its graph's `communication`
    work, device kernels or gloo ops): signature (collective or event name, process group) ->
    slice rows in start order."""
    graph, trace = part.graph, part.trace
    communication = graph.categories.index("communication")
    rows = np.unique(graph.row[(graph.kind == WORK) & (graph.category == communication)])
    rows = rows[rows >= 0]
    slices = trace.slices
    rows = rows[np.argsort(np.asarray(slices["start"])[rows], kind="stable")]
    label = np.asarray(slices["collective"])[rows]
    label = np.where(label >= 0, label, np.asarray(slices["name"])[rows])
    group = np.asarray(slices["process_group"])[rows]
    calls: dict[tuple[str, str], list[int]] = {}
    for row, lab, grp in zip(rows.tolist(), label.tolist(), group.tolist(), strict=True):
        key = (trace.names[lab], trace.names[grp] if grp >= 0 else "")
        calls.setdefault(key, []).append(row)
    return calls


def joined_critical_path(step: int | None, parts: list[RankStepGraph]) -> JoinedPath:
    """The step's path over every rank's graph, its collectives joined: the k-th call of a
    signature (name, process group) on each rank is one collective, which cannot end on a rank
    before the last rank to arrive started it. An edge from the last arrival's start to each
    other rank's end weighs the time between, and an earlier rank's own edge of the call is cut
    to that too (its wait for the others is not work). Node times on the job's clock; an edge
    the alignment turns against time is dropped (counted)."""
    offsets = np.cumsum([0] + [len(p.graph.time) for p in parts])
    time = np.concatenate([p.to_job_clock(p.graph.time) for p in parts] or [np.zeros(0, np.int64)])
    src = [p.graph.src + offsets[i] for i, p in enumerate(parts)]
    dst = [p.graph.dst + offsets[i] for i, p in enumerate(parts)]
    weight = [p.graph.weight.copy() for p in parts]
    kind = [p.graph.kind for p in parts]
    row = [p.graph.row for p in parts]
    category = [p.graph.category for p in parts]
    part_of = [np.full(len(p.graph.src), i, np.int64) for i, p in enumerate(parts)]
    communication = parts[0].graph.categories.index("communication") if parts else -1

    def node_of(i: int, rows: list[int], end: bool) -> np.ndarray:
        g = parts[i].graph
        key = g.node_row * 2 + g.node_end
        order = np.argsort(key, kind="stable")
        want = np.asarray(rows, np.int64) * 2 + int(end)
        at = np.minimum(np.searchsorted(key[order], want), len(order) - 1)
        return order[at] + offsets[i]

    calls = [_collective_calls(p) for p in parts]
    joined = 0
    extra_src, extra_dst, extra_w, extra_row, extra_part = [], [], [], [], []
    for signature in sorted(set().union(*[c.keys() for c in calls])):
        having = [i for i, c in enumerate(calls) if signature in c]
        if len(having) < 2:
            continue
        n = min(len(calls[i][signature]) for i in having)
        starts = np.array([node_of(i, calls[i][signature][:n], False) for i in having])
        ends = np.array([node_of(i, calls[i][signature][:n], True) for i in having])
        last = np.argmax(time[starts], axis=0)  # per call: the rank to arrive last
        joined += n
        for j, i in enumerate(having):
            for k in np.flatnonzero(last != j).tolist():
                s_q, e_r = int(starts[last[k], k]), int(ends[j, k])
                if time[s_q] <= time[starts[j, k]] or time[e_r] < time[s_q]:
                    continue
                tail = int(time[e_r] - time[s_q])
                extra_src.append(s_q)
                extra_dst.append(e_r)
                extra_w.append(tail)
                extra_row.append(calls[i][signature][k])
                extra_part.append(i)
                own = np.flatnonzero((src[i] == starts[j, k]) & (dst[i] == e_r) & (kind[i] == WORK))
                weight[i][own] = np.minimum(weight[i][own], tail)
    src.append(np.asarray(extra_src, np.int64))
    dst.append(np.asarray(extra_dst, np.int64))
    weight.append(np.asarray(extra_w, np.int64))
    kind.append(np.full(len(extra_src), COLLECTIVE, np.int8))
    row.append(np.asarray(extra_row, np.int64))
    category.append(np.full(len(extra_src), communication, np.int64))
    part_of.append(np.asarray(extra_part, np.int64))
    # topological order: job time, then each rank's own order
    part_node = np.repeat(np.arange(len(parts)), np.diff(offsets))
    local = np.arange(len(time)) - offsets[part_node]
    topo = np.lexsort((local, part_node, time))
    merged, pick = _in_order(
        time, topo, np.concatenate(src), np.concatenate(dst), np.concatenate(weight),
        np.concatenate(kind), np.concatenate(row), np.concatenate(category),
        parts[0].graph.categories if parts else (),
    )  # fmt: skip
    path = longest_path(merged)
    e = path.edges[merged.weight[path.edges] > 0]
    edge_part = np.concatenate(part_of)[pick][e]
    names = []
    for p, r in zip(edge_part.tolist(), merged.row[e].tolist(), strict=True):
        trace = parts[p].trace
        names.append(trace.names[int(trace.slices["name"][r])] if r >= 0 else "")
    return JoinedPath(
        step=step,
        length_ns=path.length_ns,
        ns=merged.weight[e],
        rank=np.array([parts[p].rank for p in edge_part.tolist()], dtype=np.int64),
        category=[merged.categories[c] if c >= 0 else "cpu" for c in merged.category[e].tolist()],
        names=names,
        collectives=joined,
        dropped_edges=merged.dropped_edges,
    )
