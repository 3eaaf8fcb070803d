"""What a perfect fix would save, read off the critical path: a step's longest path with the
cause's events taking no time (docs/FINDINGS.md, impact). The graph is `critical_path`'s; a
cause picks its edges by category (data loading, communication, the operators' CPU time), by
the class of runtime call (launches, allocator, set-up: `host_calls`), by operator name (a
hotspot and the device work it launched), or removes the host's waits on the device (a sync
point: the wait's edge is gone, not only shortened, so the host runs on while the device works).

The saving is of the rank's own path: what the rank would gain on its own. A rank whose
collectives wait for others gains less; the straggler's estimate is the others' wait (impact.py).
Pure functions over `TraceTables` and the graph.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..ingest.tables import Kind, TraceTables
from .critical_path import QUEUE, SYNC, StepGraph, longest_length, longest_path, step_graph
from .host_calls import NAME_CLASSES
from .operators import HostNesting

REMOVED = -(1 << 50)  # the weight of an edge that is gone: no longest path takes it
MAX_RANKS = 4  # the ranks of one finding whose paths are asked: its first four (lowest)
# When device waits that nothing in the graph explains (a stream waiting on another stream's
# event: cross-stream dependencies are not in the graph) are more than this share of a path,
# the path cannot say what a fix saves: the rule's measured bound stands.
MAX_UNEXPLAINED = 0.25

# finding kind (and host_bound's cause) -> what of the step a perfect fix takes away
_WHAT = {
    "data_loading": "the data loader's events taking no time",
    "communication": "the communication kernels taking no time",
    "sync_point": "the host's waits on the device removed",
    "launch_overhead": "the kernel launch calls taking no time",
    "allocator": "the allocator calls taking no time",
    "initialization": "the set-up calls taking no time",
    "cpu_ops": "the operators' own CPU time taking no time",
}
_DEVICE_KINDS = (Kind.KERNEL, Kind.MEMCPY, Kind.MEMSET)
_HOST_CAUSE_CLASS = {"launch_overhead": "launch", "allocator": "allocator",
                     "initialization": "initialization"}  # fmt: skip


@dataclass(frozen=True)
class Chains:
    """A graph with each run of series nodes (one edge in, one edge out) contracted into one
    edge: most of a step's nodes are such points along a thread or a stream, and what-ifs then
    relax a fraction of the edges. Chain `j` runs over the graph's edges
    `order[starts[j]:starts[j+1]]`; its weight under any edge weights is their sum. With
    non-negative weights a longest path can always run whole chains, so the lengths are the
    graph's; the sync edges (which a what-if removes) are never inside a chain."""

    graph: StepGraph  # the contracted graph: one edge per chain
    order: np.ndarray
    starts: np.ndarray

    def weights(self, edge_weight: np.ndarray) -> np.ndarray:
        if not len(self.starts):
            return edge_weight[:0]
        return np.add.reduceat(edge_weight[self.order], self.starts)


def contract(graph: StepGraph) -> Chains:
    """The graph's series chains as single edges (`Chains`); the graph itself, one chain per
    edge, when it has no edges or a negative weight (a chain's sum would then not bound its
    parts)."""
    n, e = len(graph.time), len(graph.src)
    edges = np.arange(e)
    if not e or (graph.weight < 0).any():
        return Chains(graph, edges, edges)
    in_edge = np.full(n, -1, dtype=np.int64)
    in_edge[graph.dst] = edges
    sync = graph.kind == SYNC
    ends_chain = np.zeros(n, dtype=bool)
    ends_chain[graph.src[sync]] = ends_chain[graph.dst[sync]] = True
    series = (
        (np.bincount(graph.dst, minlength=n) == 1)
        & (np.bincount(graph.src, minlength=n) == 1)
        & ~ends_chain
    )
    # each edge's chain: the edge into its source while that source is a series point, by
    # pointer jumping (log2 of the longest chain rounds)
    head = np.where(series[graph.src], in_edge[graph.src], edges)
    while True:
        jumped = head[head]
        if np.array_equal(jumped, head):
            break
        head = jumped
    order = np.lexsort((graph.src, head))  # by chain, then along it (sources increase)
    grouped = head[order]
    starts = np.flatnonzero(np.concatenate(([True], grouped[1:] != grouped[:-1])))
    last = np.concatenate((starts[1:], [e])) - 1
    chained = replace(
        graph,
        src=graph.src[order[starts]],
        dst=graph.dst[order[last]],
        weight=np.add.reduceat(graph.weight[order], starts),
        kind=graph.kind[order[starts]],
        row=graph.row[order[starts]],
        category=graph.category[order[starts]],
    )
    return Chains(chained, order, starts)


@dataclass(frozen=True)
class WhatIfStep:
    """One step's dependency graph on one rank, with each edge's event (its name id, kind and
    external id, -1 for none) for a cause to pick its edges by."""

    rank: int
    step: int | None
    duration_ns: int
    graph: StepGraph
    chains: Chains
    length_ns: int
    # the path's device waits for nothing the graph holds (QUEUE edges: a stream waiting on
    # another stream's event); what they wait for is not in the graph, so zeroing a cause
    # cannot shorten them
    unexplained_ns: int
    names: list[str]
    edge_name: np.ndarray
    edge_event_kind: np.ndarray
    edge_external_id: np.ndarray

    def category_edges(self, category: str) -> np.ndarray:
        if category not in self.graph.categories:
            return np.zeros(len(self.graph.src), dtype=bool)
        return self.graph.category == self.graph.categories.index(category)

    def named_edges(self, matches: np.ndarray, kind: Kind | None = None) -> np.ndarray:
        """Edges whose event's name matches (a bool per string-table entry), of this kind."""
        hit = (self.edge_name >= 0) & matches[np.maximum(self.edge_name, 0)]
        return hit if kind is None else hit & (self.edge_event_kind == kind)

    def length_without(self, zeroed: np.ndarray, removed: np.ndarray | None = None) -> int:
        """The path's length with the `zeroed` edges taking no time and the `removed` gone."""
        weight = np.where(zeroed, 0, self.graph.weight)
        if removed is not None:
            weight = np.where(removed, REMOVED, weight)
        return longest_length(self.chains.graph, self.chains.weights(weight))


def what_if_step(
    trace: TraceTables,
    rank: int,
    step: int | None,
    window: tuple[int, int],
    nesting: HostNesting | None = None,
) -> WhatIfStep:
    """The graph of one step window [a, b) of the trace (its clock), ready for what-ifs."""
    graph = step_graph(trace, window, nesting)
    chains = contract(graph)
    path = longest_path(chains.graph)
    queued = chains.weights(np.where(graph.kind == QUEUE, graph.weight, 0))
    rows = graph.row
    known = rows >= 0
    safe = np.maximum(rows, 0)

    def per_edge(column: str) -> np.ndarray:
        return np.where(known, np.asarray(trace.slices[column])[safe], -1)

    return WhatIfStep(
        rank=rank, step=step, duration_ns=window[1] - window[0], graph=graph, chains=chains,
        length_ns=path.length_ns, names=trace.names,
        unexplained_ns=int(queued[path.edges].sum()),
        edge_name=per_edge("name"), edge_event_kind=per_edge("kind"),
        edge_external_id=per_edge("external_id"),
    )  # fmt: skip


def _cause_edges(step: WhatIfStep, kind: str, cause: str, subject: str) -> tuple[Any, Any] | None:
    """(zeroed, removed) edge masks of the finding's cause on this step; None: not a cause the
    graph can take away."""
    none = np.zeros(len(step.graph.src), dtype=bool)
    if kind == "data_loading":
        return step.category_edges("dataloader"), None
    if kind == "communication":
        return step.category_edges("communication"), None
    if kind == "sync_point":
        return none, step.graph.kind == SYNC
    if kind == "host_bound" and cause == "cpu_ops":
        return step.category_edges("cpu"), None
    if kind == "host_bound" and cause in _HOST_CAUSE_CLASS:
        pattern = NAME_CLASSES[_HOST_CAUSE_CLASS[cause]]
        matches = np.array([pattern.search(n) is not None for n in step.names], dtype=bool)
        return step.named_edges(matches, Kind.RUNTIME), None
    if kind == "hotspot" and subject:
        matches = np.array([n == subject for n in step.names], dtype=bool)
        host = step.named_edges(matches) & ~np.isin(step.edge_event_kind, _DEVICE_KINDS)
        launched = step.edge_external_id[host]
        device = np.isin(step.edge_event_kind, _DEVICE_KINDS) & np.isin(
            step.edge_external_id, launched[launched >= 0]
        )
        return host | device, None
    return None


def path_impact(
    kind: str, cause: str, subject: str, steps: list[WhatIfStep]
) -> dict[str, Any] | None:
    """The impact of a finding of this kind (its cause, its subject: an operator's name) from
    the paths of its ranks' median steps: the median of what each path loses when the cause's
    events take no time. None when no step holds any of the cause's events, or each one that
    does waits mostly on what its graph does not hold (the measured estimate stands then)."""
    saved, shares, where = [], [], []
    for step in steps[:MAX_RANKS]:
        if step.unexplained_ns > MAX_UNEXPLAINED * step.length_ns:
            continue
        edges = _cause_edges(step, kind, cause, subject)
        if edges is None or not (edges[0].any() or (edges[1] is not None and edges[1].any())):
            continue
        ns = max(step.length_ns - step.length_without(*edges), 0)
        saved.append(ns)
        shares.append(ns / step.duration_ns if step.duration_ns else None)
        where.append(f"step {step.step} of rank {step.rank}" if step.step is not None
                     else f"rank {step.rank}'s trace")  # fmt: skip
    if not saved:
        return None
    known = [s for s in shares if s is not None]
    what = (
        f"{subject} and the device work it launched taking no time"
        if kind == "hotspot"
        else _WHAT[cause if kind == "host_bound" else kind]
    )
    return {
        "ns_per_step": int(np.median(saved)),
        "share_of_step": float(np.median(known)) if known else None,
        "basis": f"critical path of the median traced step ({', '.join(where)}): its longest "
        f"path with {what}",
    }
