"""Module view: per nn.Module and phase, calls and time, from ModuleProfiler records (attribute
paths, forward and backward, device time) or, without them, from torch.profiler traces (forward
calls only). Formulas: docs/ANALYSIS.md ("Modules").

Both sources are brought into one shape, ModuleData, so one aggregation serves the module
table, the icicle and the per-step chart.

In traces, Lightning's PyTorchProfiler labels each submodule's forward with a
`[pl][module]<module>.<Class>: <path>` annotation: real attribute paths. Without those labels,
eager traces recorded `with_stack=True` name module calls `nn.Module: <Class>_<n>` (a per-class
counter, not a path), and the tree is built from how the calls nest.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt
import pandas as pd

from ..ingest.meta import ModuleSettings
from ..ingest.modules import ModuleRecords, frame
from ..ingest.tables import Kind, TraceTables
from .nesting import group_start_longest_first, nesting_parents
from .spans import percent

PHASES = ("forward", "backward")  # phase codes 0 and 1; "total" is both
TOTAL = "total"
TORCH_MODULE = "nn.Module: "
LIGHTNING_MODULE = "[pl][module]"
NO_STEP = -1  # a trace's module call outside every known step

# ModuleProfiler options a reader of its numbers needs (docs/HTTP_API.md, `settings`)
READER_SETTINGS = (
    "backward", "every_n_steps", "aggregate_steps", "gpu", "compiled", "max_depth", "include",
    "exclude",
)  # fmt: skip
EVENT_COLUMNS = ["path", "name", "type", "start", "dur", "self_ns", "class_names"]
DATA_COLUMNS = {
    "tree": ["path", "name", "type", "parent", "depth", "params"],
    "calls": ["rank", "step", "last_step", "phase", "node", "calls", "total_ns", "self_ns"],
    "samples": ["rank", "phase", "node", "ns"],
    "gpu": ["rank", "step", "last_step", "phase", "node", "gpu_ns"],
    "blocks": ["rank", "step", "last_step", "bwd_steps"],
    "backward_steps": ["rank", "step", "last_step", "bwd_step"],
    "step_ns": ["rank", "step", "ns"],
}  # fmt: skip


@dataclass
class ModuleData:
    """One run's module calls, whichever source they came from. `tree` is in tree order and
    its index (0..n-1) is the `node` of the other tables."""

    source: str | None  # "collector", "trace", or None when the run has no module calls
    class_names: bool  # names are trace class names with per-class counters, not paths
    tree: pd.DataFrame
    calls: pd.DataFrame  # step NO_STEP where a trace call falls in no step
    samples: pd.DataFrame
    gpu: pd.DataFrame
    blocks: pd.DataFrame  # the steps the data covers (profiled blocks, or traced steps), and
    # how many of them timed backward (`bwd_steps`)
    backward_steps: pd.DataFrame  # which ones, for blocks that timed backward on only some
    step_ns: pd.DataFrame  # step durations (MyTimer step records, else trace step windows)
    shapes: dict[int, dict[str, Any]] = field(default_factory=dict)  # node -> inputs, output
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict, repr=False)

    @classmethod
    def empty(cls) -> ModuleData:
        return cls(None, False, **{n: frame([], c) for n, c in DATA_COLUMNS.items()})

    def view(self, rank: int | None) -> dict[str, Any]:
        """module_view, kept per rank selection: the data is one run version's, and the
        percentiles sort every sample of the run."""
        if rank not in self._views:
            self._views[rank] = module_view(self, rank)
        return self._views[rank]

    def node(self, path: str) -> int | None:
        found = np.flatnonzero(self.tree["path"].to_numpy() == path)
        return int(found[0]) if len(found) else None


# --- the tree ------------------------------------------------------------------------------------


def _tree(nodes: pd.DataFrame) -> pd.DataFrame:
    """`nodes` (path, name, type, parent path or None, params, key) in tree order, with depth:
    a parent before its children, siblings by `key`. A parent that is not a node (or a cycle)
    makes a root."""
    nodes = nodes.sort_values("key", kind="stable").reset_index(drop=True)
    index = {p: i for i, p in enumerate(nodes["path"].tolist())}
    parents = [index.get(p) if p is not None else None for p in nodes["parent"].tolist()]
    children: dict[int, list[int]] = {}
    for i, j in enumerate(parents):
        if j is not None and j != i:
            children.setdefault(j, []).append(i)
    roots = [i for i, j in enumerate(parents) if j is None or j == i]
    order, depth, top, seen = [], [], set(), set()
    for start in roots + list(range(len(parents))):  # unreached nodes (a cycle) start anew
        if start in seen:
            continue
        top.add(start)
        stack = [(start, 0)]
        while stack:
            i, d = stack.pop()
            seen.add(i)
            order.append(i)
            depth.append(d)
            stack.extend((c, d + 1) for c in reversed(children.get(i, [])) if c not in top)
    tree = nodes.iloc[order].reset_index(drop=True)
    tree["depth"] = np.array(depth, dtype=np.int64)
    tree["parent"] = pd.Series(
        [None if i in top else nodes["path"].iat[parents[i]] for i in order], dtype=object
    )
    tree["params"] = pd.array(tree["params"], dtype="Int64")
    return tree[DATA_COLUMNS["tree"]]


# --- ModuleProfiler records --------------------------------------------------------------------


def _numbers_in_order(nodes: pd.DataFrame) -> pd.DataFrame:
    """Siblings named by numbers (Sequential and ModuleList items) take their sibling slots in
    numeric order: declarations may come sorted by path text (`layers.10` before `layers.2`)."""
    numeric = nodes[[name.isdigit() for name in nodes["name"]]]
    keys = nodes["key"].to_numpy().copy()
    at = {label: i for i, label in enumerate(nodes.index)}
    for _, group in numeric.groupby("parent", dropna=False, sort=False):
        slots = np.sort(group["key"].to_numpy())
        by_number = group.index[np.argsort([int(n) for n in group["name"]], kind="stable")]
        keys[[at[label] for label in by_number]] = slots
    return nodes.assign(key=keys)


def collector_module_data(records: ModuleRecords, steps: pd.DataFrame) -> ModuleData:
    """ModuleData from ModuleProfiler records; `steps` (rank, step, t0, t1) are the MyTimer
    step records of the run. A module's node is its path over all writers; its type, parent and
    params are those of its first declaration."""
    m = records.modules
    declared = pd.MultiIndex.from_arrays([m["writer"], m["id"]])
    parent_at = declared.get_indexer(pd.MultiIndex.from_arrays([m["writer"], m["parent"]]))
    paths = m["path"].to_numpy(dtype=object)
    parents = np.where(parent_at >= 0, paths[np.maximum(parent_at, 0)], None)
    nodes = pd.DataFrame({
        "path": paths, "name": [p.rsplit(".", 1)[-1] for p in paths], "type": m["type"],
        "parent": parents, "params": m["params"], "key": np.arange(len(m)),
    }).drop_duplicates("path")  # fmt: skip
    tree = _tree(_numbers_in_order(nodes))
    node_of_path = pd.Index(tree["path"])
    node_of_decl = node_of_path.get_indexer(m["path"])

    def with_node(table: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
        at = declared.get_indexer(pd.MultiIndex.from_arrays([table["writer"], table["id"]]))
        return table.assign(node=node_of_decl[at])[columns].reset_index(drop=True)

    shapes: dict[int, dict[str, Any]] = {}
    s = records.shapes
    at = declared.get_indexer(pd.MultiIndex.from_arrays([s["writer"], s["id"]]))
    for node, inputs, output in zip(node_of_decl[at], s["inputs"], s["output"], strict=True):
        shapes.setdefault(int(node), {"inputs": inputs, "output": output})
    return ModuleData(
        "collector",
        False,
        tree,
        with_node(records.calls, DATA_COLUMNS["calls"]),
        with_node(records.samples, DATA_COLUMNS["samples"]),
        with_node(records.gpu, DATA_COLUMNS["gpu"]),
        records.blocks[DATA_COLUMNS["blocks"]].reset_index(drop=True),
        records.backward_steps[DATA_COLUMNS["backward_steps"]].reset_index(drop=True),
        _step_ns(steps),
        shapes,
    )


def _step_ns(steps: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "rank": steps["rank"].to_numpy(np.int64),
        "step": steps["step"].to_numpy(np.int64),
        "ns": (steps["t1"] - steps["t0"]).to_numpy(np.int64),
    })  # fmt: skip


def profiler_settings(settings: list[tuple[int, ModuleSettings]]) -> list[dict[str, Any]]:
    """How ModuleProfiler ran, given (rank, its settings) per writer: one entry per distinct
    setting with the ranks that ran so, by first rank. The numbers alone do not say that
    backward was left out, steps were sampled or aggregated, why device times are missing, or
    what a compiled model hides."""
    groups: dict[bytes, dict[str, Any]] = {}
    for rank, setting in sorted(settings, key=lambda pair: pair[0]):
        shown = {name: getattr(setting, name) for name in READER_SETTINGS}
        group = groups.setdefault(msgspec.json.encode(shown), {"ranks": [], **shown})
        if rank not in group["ranks"]:
            group["ranks"].append(rank)
    return list(groups.values())


# --- traces --------------------------------------------------------------------------------------


def _lightning_label(name: str) -> tuple[str, str] | None:
    """(path, class name) of `[pl][module]pkg.mod.Class: path`."""
    if not name.startswith(LIGHTNING_MODULE):
        return None
    qualified, sep, path = name[len(LIGHTNING_MODULE) :].partition(": ")
    return (path, qualified.rsplit(".", 1)[-1]) if sep else None


def _torch_label(name: str) -> str | None:
    return name[len(TORCH_MODULE) :] if name.startswith(TORCH_MODULE) else None


def module_events(trace: TraceTables) -> pd.DataFrame:
    """One row per module call of a trace (EVENT_COLUMNS): from Lightning's `[pl][module]`
    labels where the trace has them (path = the attribute path), else from `nn.Module:`
    python_function events (path = the labels of the enclosing module calls joined by "/").
    Self time is the duration minus the module calls directly nested in it."""
    slices = trace.slices
    kinds = np.asarray(slices["kind"])
    names = np.asarray(slices["name"])
    lightning = [_lightning_label(n) for n in trace.names]
    is_labelled = np.array([label is not None for label in lightning], dtype=bool)
    rows = np.flatnonzero(is_labelled[names] & (kinds == Kind.USER_ANNOTATION))
    class_names = not len(rows)
    if class_names:
        torch_labels = [_torch_label(n) for n in trace.names]
        is_module = np.array([label is not None for label in torch_labels], dtype=bool)
        rows = np.flatnonzero(is_module[names] & (kinds == Kind.PYTHON_FUNCTION))
    if not len(rows):
        return frame([], EVENT_COLUMNS)
    thread = np.asarray(slices["pid"])[rows] * (1 << 32) + np.asarray(slices["tid"])[rows]
    _, thread_codes = np.unique(thread, return_inverse=True)
    start = np.asarray(slices["start"])[rows]
    dur = np.asarray(slices["dur"])[rows]
    order = group_start_longest_first(thread_codes.reshape(-1), start, dur)
    rows, start, dur, thread = rows[order], start[order], dur[order], thread[order]
    depth, parent = nesting_parents(thread, start, start + dur)
    self_ns = dur.astype(np.int64).copy()
    nested = parent >= 0
    np.subtract.at(self_ns, parent[nested], dur[nested])
    if class_names:
        label = np.array(torch_labels, dtype=object)[names[rows]]
        paths = label.copy()
        for level in range(1, int(depth.max(initial=0)) + 1):  # parents' paths are done first
            at = np.flatnonzero((depth == level) & (parent >= 0))
            paths[at] = paths[parent[at]] + "/" + label[at]
        types = [name.rsplit("_", 1)[0] for name in label]
    else:
        pairs = [lightning[i] for i in names[rows]]
        paths = np.array([path for path, _ in pairs], dtype=object)
        label = np.array([path.rsplit(".", 1)[-1] for path in paths], dtype=object)
        types = [kind for _, kind in pairs]
    return pd.DataFrame({
        "path": paths, "name": label, "type": types, "start": start.astype(np.int64),
        "dur": dur.astype(np.int64), "self_ns": self_ns, "class_names": class_names,
    })  # fmt: skip


def _trace_parent(path: str, class_names: bool, paths: set[str]) -> str | None:
    """The enclosing call's path (class names), else the longest attribute-path prefix that
    is a module of the trace (Lightning does not label the model itself)."""
    if class_names:
        return path.rsplit("/", 1)[0] if "/" in path else None
    parts = path.split(".")
    for k in range(len(parts) - 1, 0, -1):
        if ".".join(parts[:k]) in paths:
            return ".".join(parts[:k])
    return None


def trace_module_data(events: pd.DataFrame, steps: pd.DataFrame) -> ModuleData:
    """ModuleData from trace module calls: `events` are module_events of each trace plus
    `rank`, with `start` on the rank's collectors' clock; `steps` (rank, step, t0, t1) are the
    rank's steps on that clock. A call belongs to the step in which it starts; the covered
    steps are those holding module calls. Siblings are ordered by their first call."""
    if events.empty:
        return ModuleData.empty()
    events = events.reset_index(drop=True)
    step = np.full(len(events), NO_STEP, dtype=np.int64)
    for rank, own in steps.groupby("rank"):
        own = own.sort_values("t0")
        t0, t1 = own["t0"].to_numpy(np.int64), own["t1"].to_numpy(np.int64)
        mine = np.flatnonzero(events["rank"].to_numpy() == rank)
        start = events["start"].to_numpy(np.int64)[mine]
        at = np.searchsorted(t0, start, side="right") - 1
        inside = (at >= 0) & (start < t1[np.maximum(at, 0)])
        step[mine[inside]] = own["step"].to_numpy(np.int64)[at[inside]]
    first = events.groupby("path", sort=False).agg(
        name=("name", "first"), type=("type", "first"), class_names=("class_names", "first"),
        key=("start", "min"),
    ).reset_index()  # fmt: skip
    all_paths = set(first["path"])
    first["parent"] = [
        _trace_parent(p, c, all_paths)
        for p, c in zip(first["path"], first["class_names"], strict=True)
    ]
    first["params"] = None
    tree = _tree(first)
    node = pd.Index(tree["path"]).get_indexer(events["path"])
    rank = events["rank"].to_numpy(np.int64)
    dur = events["dur"].to_numpy(np.int64)
    zeros = np.zeros(len(events), dtype=np.int64)
    calls = pd.DataFrame({
        "rank": rank, "step": step, "last_step": step, "phase": zeros, "node": node,
        "calls": zeros + 1, "total_ns": dur, "self_ns": events["self_ns"].to_numpy(np.int64),
    })  # fmt: skip
    blocks = calls.loc[calls["step"] != NO_STEP, ["rank", "step", "last_step"]].assign(bwd_steps=1)
    return ModuleData(
        "trace",
        bool(events["class_names"].any()),
        tree,
        calls,
        pd.DataFrame({"rank": rank, "phase": zeros, "node": node, "ns": dur}),
        frame([], DATA_COLUMNS["gpu"]),
        blocks.drop_duplicates().sort_values(["rank", "step"]).reset_index(drop=True),
        frame([], DATA_COLUMNS["backward_steps"]),
        _step_ns(steps),
    )


# --- the views ---------------------------------------------------------------------------------


def _sorted_by_group(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`values` sorted by (key, value). One sort of a single int64 key where key and value fit
    in 63 bits (np.lexsort over millions of samples is several times slower)."""
    if not len(values):
        return values
    low = int(values.min())
    bits = max(int(values.max()) - low, 1).bit_length()
    if int(keys.max()).bit_length() + bits > 62:
        return values[np.lexsort((values, keys))]
    mask = (1 << bits) - 1
    return (np.sort((keys.astype(np.int64) << bits) | (values - low)) & mask) + low


def _nearest_rank_by_group(counts: np.ndarray, ordered: np.ndarray, fraction: float) -> np.ndarray:
    """Per key, the ceil(fraction × count)-th smallest of `ordered` (sorted by key, then
    value; `counts` per key), 0 where a key has no values."""
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    picked = np.zeros(len(counts), dtype=np.int64)
    present = counts > 0
    at = starts + np.maximum(np.ceil(fraction * counts).astype(np.int64) - 1, 0)
    picked[present] = ordered[at[present]]
    return picked


def _sums(keys: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact int64 sums per key (bincount would round through float64)."""
    out = np.zeros(n, dtype=np.int64)
    np.add.at(out, keys, values)
    return out


def _select(table: pd.DataFrame, rank: int | None) -> pd.DataFrame:
    return table if rank is None else table[table["rank"] == rank]


def step_time(data: ModuleData, rank: int | None = None) -> list[dict[str, Any]]:
    """Per rank, the steps the module data covers and their mean step time (`null` where no
    step record covers them)."""
    out = []
    blocks = _select(data.blocks, rank).drop_duplicates()
    for r, own in blocks.groupby("rank"):
        first = own["step"].to_numpy(np.int64)
        count = own["last_step"].to_numpy(np.int64) - first + 1
        covered = np.repeat(first, count) + (
            np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
        )
        durations = data.step_ns[data.step_ns["rank"] == r]
        durations = durations.loc[durations["step"].isin(covered), "ns"].to_numpy(np.int64)
        mean = int(durations.sum() // len(durations)) if len(durations) else None
        out.append({"rank": int(r), "steps": int(count.sum()), "step_time_ns": mean})
    return out


def backward_steps(data: ModuleData, rank: int | None = None) -> list[dict[str, int]]:
    """Per rank whose backward was timed on only some of its covered steps
    (`backward_every_n_steps` > 1): how many (`timed`) of how many (`steps`)."""
    out = []
    blocks = _select(data.blocks, rank).drop_duplicates()
    for r, own in blocks.groupby("rank"):
        steps = int((own["last_step"] - own["step"] + 1).sum())
        timed = int(own["bwd_steps"].sum())
        if timed != steps:
            out.append({"rank": int(r), "timed": timed, "steps": steps})
    return out


def _phase_keys(table: pd.DataFrame) -> np.ndarray:
    return table["node"].to_numpy(np.int64) * 2 + table["phase"].to_numpy(np.int64)


def _with_total(per_phase: np.ndarray, total: npt.ArrayLike) -> np.ndarray:
    """(n, 2) forward/backward columns plus the `total` column."""
    return np.column_stack([per_phase, total])


def module_view(data: ModuleData, rank: int | None = None) -> dict[str, Any]:
    """Per module (tree order) its type, depth, params and, per phase (`forward`,
    `backward`, `total`), calls, total, self, mean, median, std, p95, % of step time and
    device time; `null` for a phase in which it was not called. Over all ranks when `rank` is
    None (sums; distributions over the pooled samples). A rank whose backward was timed on
    only k of its n covered steps (`backward_steps`) has its backward sums scaled by n / k, so
    that they cover the same steps as forward's: means and shares are those of the steps
    measured."""
    n = len(data.tree)
    timed_steps = backward_steps(data, rank)
    sampled = [s for s in timed_steps if s["timed"]]  # (with none, there is nothing to scale)

    def sums(keys: np.ndarray, values: pd.Series | np.ndarray) -> np.ndarray:
        return _sums(keys, np.asarray(values, dtype=np.int64), 2 * n).reshape(n, 2)

    def scaled_sums(table: pd.DataFrame, keys: np.ndarray, column: str) -> np.ndarray:
        """sums(keys, table[column]) with each sampled rank's backward sums scaled (rounded
        down, without the int64 overflow of multiplying first)."""
        values = table[column].to_numpy(np.int64)
        out = _sums(keys, values, 2 * n)
        ranks, phases = table["rank"].to_numpy(np.int64), table["phase"].to_numpy(np.int64)
        for s in sampled:
            at = (ranks == s["rank"]) & (phases == 1)
            part, covered, timed = _sums(keys[at], values[at], 2 * n), s["steps"], s["timed"]
            out += part // timed * covered + part % timed * covered // timed - part
        return out.reshape(n, 2)

    calls = _select(data.calls, rank)
    key = _phase_keys(calls)
    count = scaled_sums(calls, key, "calls")
    total = scaled_sums(calls, key, "total_ns")
    self_ns = scaled_sums(calls, key, "self_ns")
    seen = sums(key, np.ones(len(key))) > 0
    samples = _select(data.samples, rank)
    skey = _phase_keys(samples)
    values = samples["ns"].to_numpy(np.int64)
    scount = np.bincount(skey, minlength=2 * n)
    ordered = _sorted_by_group(skey, values)
    median = _nearest_rank_by_group(scount, ordered, 0.50).reshape(n, 2)
    p95 = _nearest_rank_by_group(scount, ordered, 0.95).reshape(n, 2)
    # float sums are exact enough for a spread (they are rounded to ns)
    smean = np.bincount(skey, weights=values, minlength=2 * n) / np.maximum(scount, 1)
    squares = np.bincount(skey, weights=(values - smean[skey]) ** 2, minlength=2 * n)
    std = np.sqrt(squares / np.maximum(scount, 1)).reshape(n, 2)
    scount = scount.reshape(n, 2)
    gpu = _select(data.gpu, rank)
    gkey = _phase_keys(gpu)
    gpu_total = scaled_sums(gpu, gkey, "gpu_ns")
    gpu_seen = sums(gkey, np.ones(len(gkey))) > 0
    # device means over the calls of the blocks whose device times arrived
    block = ["rank", "step", "last_step"]
    arrived = pd.MultiIndex.from_frame(calls[block]).isin(pd.MultiIndex.from_frame(gpu[block]))
    gpu_count = scaled_sums(calls[arrived], key[arrived], "calls")

    # total: both phases; a call is a forward call (its backward included), else a backward one
    def calls_of_both(c: np.ndarray) -> np.ndarray:
        return _with_total(c, np.where(c[:, 0] > 0, c[:, 0], c[:, 1]))

    count, gpu_count = calls_of_both(count), calls_of_both(gpu_count)
    total, self_ns, gpu_total = (_with_total(x, x.sum(axis=1)) for x in (total, self_ns, gpu_total))
    seen, gpu_seen = (_with_total(x, x.any(axis=1)) for x in (seen, gpu_seen))
    steps = step_time(data, rank)
    step_total = sum(s["steps"] * s["step_time_ns"] for s in steps if s["step_time_ns"])

    def stats(i: int, p: int) -> dict[str, Any] | None:
        if not seen[i, p] and not gpu_seen[i, p]:
            return None
        if p == 2 and seen[i, 0] != seen[i, 1]:
            return stats(i, 0 if seen[i, 0] else 1)  # called in one phase: total is that one
        sampled = p < 2 and scount[i, p] > 0  # calls of `total` are not paired across phases
        gpu_ns = int(gpu_total[i, p]) if gpu_seen[i, p] else None
        return {
            "calls": int(count[i, p]),
            "total_ns": int(total[i, p]),
            "self_ns": int(self_ns[i, p]),
            "mean_ns": int(total[i, p] // count[i, p]) if count[i, p] else None,
            "median_ns": int(median[i, p]) if sampled else None,
            "std_ns": round(float(std[i, p])) if sampled else None,
            "p95_ns": int(p95[i, p]) if sampled else None,
            "pct_of_step": percent(int(total[i, p]), step_total),
            "gpu_total_ns": gpu_ns,
            "gpu_mean_ns": (
                gpu_ns // int(gpu_count[i, p]) if gpu_ns is not None and gpu_count[i, p] else None
            ),
        }

    rows = []
    for i, (path, name, kind, parent, depth, params) in enumerate(
        data.tree.itertuples(index=False)
    ):
        rows.append({
            "path": path, "name": name, "type": kind, "parent": parent, "depth": int(depth),
            "params": None if pd.isna(params) else int(params),
            **{phase: stats(i, p) for p, phase in enumerate((*PHASES, TOTAL))},
        })  # fmt: skip
    return {
        "rows": rows, "steps": steps, "backward_steps": timed_steps,
        "device": bool(gpu_seen.any()),
    }  # fmt: skip


def _bucket_means(values: np.ndarray, bucket: int) -> list[int | None]:
    """Means of consecutive `bucket` values, NaN ignored (None where all are NaN)."""
    starts = np.arange(0, len(values), bucket)
    present = ~np.isnan(values)
    sums = np.add.reduceat(np.where(present, values, 0.0), starts)
    counts = np.add.reduceat(present.astype(np.int64), starts)
    return [int(s // c) if c else None for s, c in zip(sums.tolist(), counts.tolist(), strict=True)]


def _block_sums(
    table: pd.DataFrame, column: str, where: pd.MultiIndex, dtype: type
) -> tuple[np.ndarray, np.ndarray]:
    """Forward and backward sums of `column` per block of `where` (0 for none)."""

    def phase_sums(phase: int) -> np.ndarray:
        own = table[table["phase"] == phase].groupby(["step", "last_step"])[column].sum()
        return own.reindex(where, fill_value=0).to_numpy(dtype)

    return phase_sums(0), phase_sums(1)


def _spread(
    sums: tuple[np.ndarray, np.ndarray],
    phases: list[int],
    blocks: pd.DataFrame,
    timed_steps: np.ndarray,
    divide: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """Per covered step, from per-block forward and backward sums, the phases' time: a block
    spread evenly over its steps, its backward over the steps that timed backward (`divide`
    rounds down); NaN where backward counts on a step that did not time it."""
    fwd, bwd = sums
    first = blocks["step"].to_numpy(np.int64)
    count = blocks["last_step"].to_numpy(np.int64) - first + 1
    block_of_step = np.repeat(np.arange(len(blocks)), count)
    if phases == [0]:
        return divide(fwd, count)[block_of_step]
    timed = blocks["bwd_steps"].to_numpy(np.int64)
    per_step = divide(bwd, np.maximum(timed, 1))
    if phases == [0, 1]:  # a block timed whole keeps one division, as before sampling
        per_step = np.where(timed == count, divide(fwd + bwd, count), divide(fwd, count) + per_step)
    values = per_step[block_of_step]
    values[~timed_steps] = np.nan
    return values


def module_step_series(
    data: ModuleData, node: int, phase: str, rank: int | None, max_points: int
) -> list[dict[str, Any]]:
    """Per rank, the module's host (and device) time in `phase` per covered step. A block of
    several steps (`aggregate_steps`) is spread evenly over them (integer division); a covered
    step in which the module was not called is 0; device time is None for blocks whose `mgpu`
    record has not arrived. Where backward was timed on some steps only, backward (and the
    total of a module called in backward) is None on the others. Over `max_points`,
    consecutive steps are averaged in buckets."""
    out = []
    for r, blocks in _select(data.blocks, rank).groupby("rank"):
        blocks = blocks.drop_duplicates().sort_values("step")
        where = pd.MultiIndex.from_frame(blocks[["step", "last_step"]])
        calls = data.calls[(data.calls["rank"] == r) & (data.calls["node"] == node)]
        phases = [0, 1] if phase == TOTAL else [PHASES.index(phase)]
        if phase == TOTAL and not (calls["phase"] == 1).any():
            phases = [0]  # never called in backward: its total is its forward
        first = blocks["step"].to_numpy(np.int64)
        count = blocks["last_step"].to_numpy(np.int64) - first + 1
        steps = np.repeat(first, count) + (
            np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
        )
        listed = data.backward_steps[data.backward_steps["rank"] == r]
        timed_steps = np.repeat(blocks["bwd_steps"].to_numpy(np.int64) == count, count)
        timed_steps |= pd.MultiIndex.from_arrays([np.repeat(first, count), steps]).isin(
            pd.MultiIndex.from_frame(listed[["step", "bwd_step"]])
        )
        host = _spread(
            _block_sums(calls, "total_ns", where, np.int64), phases, blocks, timed_steps,
            lambda a, b: (a // b).astype(float),
        )  # fmt: skip
        bucket = max(1, math.ceil(len(steps) / max_points))
        series = {
            "rank": int(r),
            "steps": steps[::bucket].tolist(),
            "host_ns": _bucket_means(host, bucket),
            "device_ns": None,
            "bucket": bucket,
        }
        gpu = data.gpu[data.gpu["rank"] == r]
        if len(gpu):
            arrived = where.isin(pd.MultiIndex.from_frame(gpu[["step", "last_step"]]))
            fwd, bwd = _block_sums(gpu[gpu["node"] == node], "gpu_ns", where, float)
            fwd[~arrived] = bwd[~arrived] = np.nan
            device = _spread((fwd, bwd), phases, blocks, timed_steps, lambda a, b: np.floor(a / b))
            series["device_ns"] = _bucket_means(device, bucket)
        out.append(series)
    return out
