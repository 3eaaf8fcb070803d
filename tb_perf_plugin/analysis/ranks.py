"""Many-rank views: a rank × step matrix per metric, and the ranks and steps that stand out.

With hundreds of ranks one row per rank no longer fits; the Overview draws these matrices as
a heatmap and lists the outliers (docs/DASHBOARDS.md, "Many ranks"). Pure functions over the
run's tables: MyTimer steps and spans, traced step breakdowns and MemorySampler records.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import numpy as np
import pandas as pd

from .breakdown import StepBreakdown
from .findings import DEFAULT_THRESHOLDS, Thresholds

MAX_COLUMNS = 200  # step columns of a heatmap; longer runs are bucketed
MAX_CELLS = 1_000_000  # ...and fewer columns when there are very many ranks
MAX_LISTED_STEPS = 50  # steps named per outlier
# MyTimer spans that stand for waiting in a collective when the run has no traces
COLLECTIVE_SPAN = re.compile(
    r"all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|broadcast|barrier|collective|"
    r"nccl|gloo|c10d",
    re.IGNORECASE,
)


class RankMetric(Enum):
    STEP_TIME = "step_time"
    COLLECTIVE_WAIT = "collective_wait"
    MEMORY = "memory"


@dataclass
class RankMatrix:
    """One metric per rank (rows) and step (columns); NaN where a rank has no value."""

    metric: RankMetric
    unit: str  # "ns" or "bytes"
    source: str  # where the values come from, as the UI says it
    ranks: np.ndarray  # int64, ascending
    steps: np.ndarray  # int64, ascending
    values: np.ndarray  # float64, len(ranks) × len(steps)
    reason: str | None = None  # why the matrix is empty

    @property
    def empty(self) -> bool:
        return not np.isfinite(self.values).any()


@dataclass
class RankOutlier:
    """A rank whose median over the steps lies far from the other ranks' medians."""

    rank: int
    median: float
    typical: float  # the median of all ranks' medians
    z: float  # robust z-score of `median` among the ranks' medians
    steps: list[int] = field(default_factory=list)  # steps where it stands out the same way


def _pivot(
    metric: RankMetric,
    unit: str,
    source: str,
    rows: tuple[pd.Series, pd.Series, pd.Series],
    how: str = "sum",
) -> RankMatrix:
    """A matrix from (rank, step, value) columns; `how` ("sum" or "max") combines repeated
    (rank, step)s. Scattered with numpy: pandas' pivot_table is 10x slower on large runs."""
    ranks, rank_index = np.unique(rows[0].to_numpy(np.int64), return_inverse=True)
    steps, step_index = np.unique(rows[1].to_numpy(np.int64), return_inverse=True)
    values = rows[2].to_numpy(np.float64)
    cell = rank_index * len(steps) + step_index
    size = len(ranks) * len(steps)
    counts = np.bincount(cell, minlength=size)
    if how == "max":
        combined = np.full(size, -np.inf)
        np.maximum.at(combined, cell, values)
    else:
        combined = np.bincount(cell, weights=values, minlength=size)
    combined[counts == 0] = np.nan
    return RankMatrix(metric, unit, source, ranks, steps, combined.reshape(len(ranks), len(steps)))


def _empty(metric: RankMetric, unit: str, reason: str) -> RankMatrix:
    none = np.zeros(0, dtype=np.int64)
    return RankMatrix(metric, unit, "", none, none, np.zeros((0, 0)), reason)


def _traced(
    breakdowns: list[StepBreakdown], value: Callable[[StepBreakdown], float]
) -> tuple[pd.Series, pd.Series, pd.Series]:
    """(rank, step, value(b)) of the traced steps that have a step number."""
    stepped = [b for b in breakdowns if b.step is not None]
    return (pd.Series([b.rank for b in stepped], dtype=np.int64),
            pd.Series([b.step for b in stepped], dtype=np.int64),
            pd.Series([value(b) for b in stepped], dtype=np.float64))  # fmt: skip


def step_time_matrix(steps: pd.DataFrame, breakdowns: list[StepBreakdown]) -> RankMatrix:
    """`t1 - t0` of MyTimer's steps (rank, step, t0, t1), else of the traced steps."""
    metric = RankMetric.STEP_TIME
    if len(steps):
        rows = (steps["rank"], steps["step"], steps["t1"] - steps["t0"])
        return _pivot(metric, "ns", "MyTimer steps", rows)
    traced = _traced(breakdowns, lambda b: b.duration_ns)
    if len(traced[0]):
        return _pivot(metric, "ns", "traced steps", traced)
    return _empty(RankMetric.STEP_TIME, "ns", "no MyTimer steps and no traced steps")


def collective_span_waits(spans: pd.DataFrame) -> pd.DataFrame:
    """Per rank and step, the time in MyTimer spans named like a collective (COLLECTIVE_SPAN),
    counting only the outermost of nested ones: columns rank, step, ns."""
    names = spans["name"].astype(str)
    matching = names.str.contains(COLLECTIVE_SPAN).to_numpy(bool)
    if not matching.any():
        return pd.DataFrame({"rank": [], "step": [], "ns": []}, dtype=np.int64)
    inside = set(zip(spans["writer"][matching], spans["id"][matching], strict=True))
    parents = zip(spans["writer"], spans["parent"], strict=True)
    outermost = matching & ~np.fromiter((p in inside for p in parents), bool, len(spans))
    chosen = spans[outermost]
    waits = (chosen["t1"] - chosen["t0"]).groupby([chosen["rank"], chosen["step"]]).sum()
    return waits.rename("ns").reset_index()


def collective_waits_by_rank(spans: pd.DataFrame) -> dict[int, pd.Series]:
    """`collective_span_waits` as the straggler rule reads it (AnalysisInputs.collective_waits):
    per rank, step -> ns."""
    waits = collective_span_waits(spans)
    return {
        int(rank): rows.set_index("step")["ns"] for rank, rows in waits.groupby("rank", sort=True)
    }


def collective_wait_matrix(spans: pd.DataFrame, breakdowns: list[StepBreakdown]) -> RankMatrix:
    """Exposed communication of the traced steps (the breakdown's `communication`), else the
    time in collective-named MyTimer spans."""
    metric = RankMetric.COLLECTIVE_WAIT
    traced = _traced(breakdowns, lambda b: b.ns["communication"])
    if len(traced[0]):
        return _pivot(metric, "ns", "exposed communication of traced steps", traced)
    waits = collective_span_waits(spans)
    if len(waits):
        rows = (waits["rank"], waits["step"], waits["ns"])
        return _pivot(metric, "ns", "collective-named MyTimer spans", rows)
    return _empty(
        RankMetric.COLLECTIVE_WAIT, "ns",
        "no traced steps and no MyTimer span named like a collective (all_reduce, barrier, ...)",
    )  # fmt: skip


def memory_matrix(memory: pd.DataFrame) -> RankMatrix:
    """Per rank and step, the largest of MemorySampler's samples: its peak allocated, else
    allocated, reserved or RSS (the first series the run has)."""
    for column, source in (("peak", "peak allocated"), ("allocated", "allocated"),
                           ("reserved", "reserved"), ("rss", "process RSS")):  # fmt: skip
        rows = memory[memory[column].notna()] if column in memory else memory.iloc[:0]
        if len(rows):
            values = (rows["rank"], rows["step"], rows[column])
            return _pivot(RankMetric.MEMORY, "bytes", f"MemorySampler {source}", values, "max")
    return _empty(RankMetric.MEMORY, "bytes", "no MemorySampler records in this run")


def rank_matrix(
    metric: RankMetric,
    steps: pd.DataFrame,
    spans: pd.DataFrame,
    breakdowns: list[StepBreakdown],
    memory: pd.DataFrame,
) -> RankMatrix:
    if metric is RankMetric.STEP_TIME:
        return step_time_matrix(steps, breakdowns)
    if metric is RankMetric.COLLECTIVE_WAIT:
        return collective_wait_matrix(spans, breakdowns)
    return memory_matrix(memory)


def _robust_z(values: np.ndarray, center: float, spread: float) -> np.ndarray:
    return (values - center) / spread


def _center_spread(values: np.ndarray) -> tuple[float, float]:
    """Median and robust standard deviation (1.4826 MAD, at least 1 % of the median) of the
    finite values: the findings' `_robust`, NaN-tolerant."""
    finite = values[np.isfinite(values)]
    center = float(np.median(finite))
    spread = 1.4826 * float(np.median(np.abs(finite - center)))
    return center, max(spread, 0.01 * abs(center), 1.0)


def _min_effect(matrix: RankMatrix, t: Thresholds, center: float) -> float:
    floor = t.rank_outlier_min_bytes if matrix.unit == "bytes" else t.rank_outlier_min_ns
    return max(floor, t.rank_outlier_share * abs(center))


def _standing_out(
    values: np.ndarray, center: float, spread: float, effect: float, t: Thresholds
) -> np.ndarray:
    """-1 / +1 where a value is an outlier below / above `center`, else 0 (NaN: 0)."""
    z = _robust_z(values, center, spread)
    far = np.isfinite(z) & (np.abs(z) >= t.rank_outlier_z) & (np.abs(values - center) >= effect)
    return np.where(far, np.sign(z), 0.0)


def outlier_ranks(matrix: RankMatrix, t: Thresholds = DEFAULT_THRESHOLDS) -> list[RankOutlier]:
    """Ranks whose median over the steps is a robust outlier among the ranks' medians (and
    differs by the minimum effect), most extreme first; each with the steps where its value
    stands out, in the same direction, among that step's values of all ranks."""
    if matrix.empty or len(matrix.ranks) < t.rank_outlier_min_ranks:
        return []
    with warnings.catch_warnings():  # a rank without any value: NaN, not an outlier
        warnings.simplefilter("ignore", RuntimeWarning)
        medians = np.nanmedian(matrix.values, axis=1)
    center, spread = _center_spread(medians)
    sides = _standing_out(medians, center, spread, _min_effect(matrix, t, center), t)
    per_step = np.zeros_like(matrix.values)
    for column in range(matrix.values.shape[1]):
        values = matrix.values[:, column]
        if np.isfinite(values).sum() >= t.rank_outlier_min_ranks:
            mid, wide = _center_spread(values)
            per_step[:, column] = _standing_out(values, mid, wide, _min_effect(matrix, t, mid), t)
    z = _robust_z(medians, center, spread)
    out = []
    for row in np.flatnonzero(sides):
        same_way = np.flatnonzero(per_step[row] == sides[row])
        out.append(RankOutlier(
            int(matrix.ranks[row]), float(medians[row]), center, float(z[row]),
            [int(s) for s in matrix.steps[same_way][:MAX_LISTED_STEPS]],
        ))  # fmt: skip
    return sorted(out, key=lambda o: -abs(o.z))


def outlier_steps(matrix: RankMatrix, t: Thresholds = DEFAULT_THRESHOLDS) -> list[int]:
    """Steps whose median over the ranks is a robust outlier among the steps' medians (after
    the warm-up steps, which are not judged): slow or fast for everybody."""
    if matrix.empty or len(matrix.steps) < t.outlier_min_steps + t.warmup_steps:
        return []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        medians = np.nanmedian(matrix.values, axis=0)
    steady = np.arange(len(medians)) >= t.warmup_steps
    center, spread = _center_spread(medians[steady])
    sides = _standing_out(medians, center, spread, _min_effect(matrix, t, center), t)
    return [int(s) for s in matrix.steps[(sides != 0) & steady][:MAX_LISTED_STEPS]]


@dataclass
class Bucketed:
    """A matrix with its steps in buckets of `bucket` consecutive steps (means; maxima for
    memory), so a heatmap has at most MAX_COLUMNS columns."""

    bucket: int
    first_steps: list[int]
    last_steps: list[int]
    values: np.ndarray


def bucket_columns(matrix: RankMatrix, max_columns: int = MAX_COLUMNS) -> Bucketed:
    columns = max(1, min(max_columns, MAX_CELLS // max(len(matrix.ranks), 1)))
    n = len(matrix.steps)
    bucket = max(1, math.ceil(n / columns))
    starts = np.arange(0, n, bucket)
    if bucket == 1:
        values = matrix.values
    else:
        reduce = np.nanmax if matrix.metric is RankMetric.MEMORY else np.nanmean
        with warnings.catch_warnings():  # a rank without a bucket's steps: NaN there
            warnings.simplefilter("ignore", RuntimeWarning)
            values = np.stack(
                [reduce(matrix.values[:, s : s + bucket], axis=1) for s in starts], axis=1
            )
    ends = np.minimum(starts + bucket, n) - 1
    return Bucketed(bucket, matrix.steps[starts].tolist(), matrix.steps[ends].tolist(), values)
