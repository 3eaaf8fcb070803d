"""Memory statistics behind the memory findings and the Memory tab (docs/FINDINGS.md,
"Memory findings"): per-rank series from MemorySampler records, a robust trend with its
significance, and the numbers of fragmentation and of the peak. Pure functions over tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

MAX_TREND_POINTS = 600  # longer series are averaged in buckets first: Theil-Sen is O(n²)
_Z_975 = 1.959963984540054  # two-sided 95 % normal quantile, for Sen's slope interval


@dataclass
class RankMemory:
    """One rank's memory per step, in step order: its MemorySampler records (one writer: a
    restarted process starts its memory afresh), or what its traces' memory events say
    (`source` "trace", analysis/trace_memory.py). Values are float64 bytes, NaN where the
    source could not read them."""

    rank: int
    device: str  # "cuda:<i>" or "cpu"
    steps: np.ndarray
    t: np.ndarray  # Unix ns, the rank's clock
    allocated: np.ndarray
    reserved: np.ndarray
    peak: np.ndarray
    retries: np.ndarray
    ooms: np.ndarray
    rss: np.ndarray
    device_total: int | None = None  # bytes of the CUDA device, when known
    reset_peak: bool = False  # `peak` is each step's own, not the highest since the start
    source: str = "MemorySampler"  # or "trace"

    @property
    def cuda(self) -> bool:
        return self.device.startswith("cuda") and bool(np.isfinite(self.allocated).any())

    @property
    def trend_series(self) -> str:
        """What a leak shows in: the allocator's live bytes on CUDA or where the traces count
        them (the CPU allocator too), else the process's RSS."""
        return "allocated" if self.cuda or self.source == "trace" else "rss"


def rank_memory(
    memory: pd.DataFrame, rank: int, device_total: int | None = None, reset_peak: bool = False
) -> RankMemory | None:
    """The rank's records (`memory` as RunTables.memory) from its writer with the most of
    them, sorted by step; None when the rank has none."""
    rows = memory[memory["rank"] == rank]
    if rows.empty:
        return None
    writer = rows["writer"].value_counts().idxmax()
    rows = rows[rows["writer"] == writer].sort_values(["step", "t"], kind="stable")
    rows = rows.drop_duplicates("step", keep="last")
    values = {c: rows[c].to_numpy(np.float64) for c in
              ("allocated", "reserved", "peak", "retries", "ooms", "rss")}  # fmt: skip
    return RankMemory(
        rank, str(rows["device"].iloc[-1]), rows["step"].to_numpy(np.int64),
        rows["t"].to_numpy(np.int64), device_total=device_total, reset_peak=reset_peak, **values,
    )  # fmt: skip


def warmup_count(n: int, fraction: float, minimum: int) -> int:
    """Samples left out at the start: `fraction` of them, at least `minimum`."""
    return max(minimum, math.ceil(fraction * n))


def _bucket_means(x: np.ndarray, y: np.ndarray, max_points: int) -> tuple[np.ndarray, np.ndarray]:
    bucket = math.ceil(len(x) / max_points)
    if bucket <= 1:
        return x, y
    starts = np.arange(0, len(x), bucket)
    counts = np.diff(np.append(starts, len(x)))
    return np.add.reduceat(x, starts) / counts, np.add.reduceat(y, starts) / counts


def mann_kendall(y: np.ndarray) -> tuple[float, float, float]:
    """Mann-Kendall trend test of `y` in order: (S, Kendall's tau, one-sided p-value of an
    increasing trend), with the tie correction of the variance and the normal approximation."""
    n = len(y)
    if n < 3:
        return 0.0, 0.0, 1.0
    upper = np.triu_indices(n, 1)
    s = float(np.sign(y[upper[1]] - y[upper[0]]).sum())
    _, ties = np.unique(y, return_counts=True)
    variance = (n * (n - 1) * (2 * n + 5) - float((ties * (ties - 1) * (2 * ties + 5)).sum())) / 18
    tau = s / (n * (n - 1) / 2)
    if variance <= 0:
        return s, tau, 1.0
    z = (s - math.copysign(1.0, s)) / math.sqrt(variance) if s else 0.0
    return s, tau, 0.5 * math.erfc(z / math.sqrt(2))


@dataclass
class Trend:
    """A robust linear trend of one series over steps (bytes per step)."""

    series: str  # "allocated" or "rss"
    slope: float  # Theil-Sen: the median of the pairwise slopes
    low: float  # Sen's 95 % confidence interval of the slope
    high: float
    intercept: float  # median of y - slope * x
    p_value: float  # Mann-Kendall, one-sided (increasing)
    tau: float
    first_step: int  # the steady window the trend is fitted on
    last_step: int
    start_level: float  # the fitted line at the window's ends
    end_level: float
    points: int
    # Theil-Sen slopes of the window's first and second half: a leak grows in both, memory
    # that jumped once (a cache filled) or stopped growing does not
    half_slopes: tuple[float, float] = (0.0, 0.0)

    def at(self, step: float) -> float:
        return self.intercept + self.slope * step


def theil_sen(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """(slope, intercept, low, high): Theil-Sen's median pairwise slope and Sen's 95 %
    interval from the Mann-Kendall variance (pairs with equal x are left out)."""
    i, j = np.triu_indices(len(x), 1)
    dx = x[j] - x[i]
    keep = dx != 0
    slopes = np.sort((y[j] - y[i])[keep] / dx[keep])
    if not len(slopes):
        return 0.0, float(np.median(y)), 0.0, 0.0
    slope = float(np.median(slopes))
    intercept = float(np.median(y - slope * x))
    n, pairs = len(x), len(slopes)
    c = _Z_975 * math.sqrt(n * (n - 1) * (2 * n + 5) / 18)
    lo = int(max(0, math.floor((pairs - c) / 2)))
    hi = int(min(pairs - 1, math.ceil((pairs + c) / 2)))
    return slope, intercept, float(slopes[lo]), float(slopes[hi])


def trend(
    memory: RankMemory, warmup_fraction: float, min_warmup: int, min_points: int
) -> Trend | None:
    """The trend of the rank's leak series after warm-up; None when too few samples remain."""
    series = memory.trend_series
    values = getattr(memory, series)
    ok = np.isfinite(values)
    steps, values = memory.steps[ok], values[ok]
    skip = warmup_count(len(steps), warmup_fraction, min_warmup)
    steps, values = steps[skip:], values[skip:]
    if len(steps) < min_points:
        return None
    x, y = _bucket_means(steps.astype(np.float64), values, MAX_TREND_POINTS)
    slope, intercept, low, high = theil_sen(x, y)
    _, tau, p_value = mann_kendall(y)
    first, last = int(steps[0]), int(steps[-1])
    half = len(x) // 2
    halves = (theil_sen(x[:half], y[:half])[0], theil_sen(x[half:], y[half:])[0])
    return Trend(
        series, slope, low, high, intercept, p_value, tau, first, last,
        intercept + slope * first, intercept + slope * last, len(steps), halves,
    )  # fmt: skip


def steps_until(level: float, slope: float, limit: float) -> float | None:
    """Steps until `level` growing by `slope` per step reaches `limit` (None if it never does)."""
    if slope <= 0:
        return None
    return max(limit - level, 0.0) / slope


@dataclass
class Fragmentation:
    """Reserved memory the allocator holds beyond what the rank ever had allocated at once."""

    unused_fraction: float  # median over steady steps of (reserved - peak) / reserved
    unused_bytes: float  # median of reserved - peak
    reserved: float  # median reserved
    peak: float  # median of the peak allocated
    retries: int  # cudaMalloc retries during the steady steps (cumulative counter's growth)
    steps: int


def fragmentation(memory: RankMemory, skip: int) -> Fragmentation | None:
    """Over the steps after the first `skip`: the allocator's cache beyond the peak. The peak
    is the sampler's (per step with reset_peak, else since the start: then an underestimate of
    the waste); without it, the allocated bytes."""
    if not memory.cuda:
        return None
    peak = np.where(np.isfinite(memory.peak), memory.peak, memory.allocated)[skip:]
    reserved = memory.reserved[skip:]
    ok = np.isfinite(peak) & np.isfinite(reserved) & (reserved > 0)
    if not ok.any():
        return None
    reserved, peak = reserved[ok], np.minimum(peak[ok], reserved[ok])
    retries = memory.retries[skip:][np.isfinite(memory.retries[skip:])]
    grew = int(retries[-1] - retries[0]) if len(retries) else 0
    unused = reserved - peak
    return Fragmentation(
        float(np.median(unused / reserved)), float(np.median(unused)), float(np.median(reserved)),
        float(np.median(peak)), grew, int(ok.sum()),
    )  # fmt: skip


@dataclass
class Peak:
    """The highest allocated bytes the rank's records show, and where."""

    bytes: float
    step: int
    device_total: int | None
    ooms: int  # out-of-memory errors counted by the allocator over the records

    @property
    def share(self) -> float | None:
        return self.bytes / self.device_total if self.device_total else None


def peak(memory: RankMemory) -> Peak | None:
    """The rank's peak allocated bytes (the sampler's `peak`, else `allocated`) on CUDA."""
    if not memory.cuda:
        return None
    values = np.where(np.isfinite(memory.peak), memory.peak, memory.allocated)
    if not np.isfinite(values).any():
        return None
    at = int(np.nanargmax(values))
    ooms = memory.ooms[np.isfinite(memory.ooms)]
    return Peak(
        float(values[at]), int(memory.steps[at]), memory.device_total,
        int(ooms.max()) if len(ooms) else 0,
    )  # fmt: skip


def device_total(
    device: str, gpus: pd.DataFrame, rank: int, listed: dict[int, int | None]
) -> int | None:
    """Bytes of memory of CUDA device `cuda:<i>`, from GpuTracker: its metadata's listing
    (`listed`: NVML index -> mem_total), else the `mem_total` its samples report. NVML numbers
    devices ignoring CUDA_VISIBLE_DEVICES, so when the rank's GPUs differ in size the one with
    NVML index i is taken; when they are all alike (the usual node), that size."""
    if not device.startswith("cuda"):
        return None
    index = int(device.partition(":")[2] or 0)
    rows = gpus[gpus["rank"] == rank]
    sampled = rows.groupby("index")["mem_total"].max().dropna()
    totals = {int(i): int(v) for i, v in sampled.items()}
    totals.update({i: int(v) for i, v in listed.items() if v})
    if len(set(totals.values())) == 1:
        return next(iter(totals.values()))
    return totals.get(index)


def bucket_size(n: int, max_points: int) -> int:
    """Consecutive samples per point so that `n` samples give at most `max_points` points."""
    return max(1, math.ceil(n / max_points))


def bucketed(values: np.ndarray, bucket: int, how: str = "mean") -> np.ndarray:
    """Each bucket of `bucket` consecutive values as one: their mean, or their max (`how`),
    over the finite values only (NaN where a bucket has none)."""
    values = np.asarray(values, dtype=np.float64)
    if bucket <= 1:
        return values
    padded = np.full(math.ceil(len(values) / bucket) * bucket, np.nan)
    padded[: len(values)] = values
    rows = padded.reshape(-1, bucket)
    if how == "max":
        return np.fmax.reduce(rows, axis=1)
    finite = np.isfinite(rows)
    counts = finite.sum(axis=1)
    sums = np.where(finite, rows, 0.0).sum(axis=1)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def firsts(values: np.ndarray, bucket: int) -> np.ndarray:
    """The first value of each bucket (steps and times of bucketed points)."""
    return np.asarray(values)[::bucket]


TOP_FRAMES = 3  # first user frames a finding names


@dataclass
class SnapshotDevice:
    """What the memory findings use of one device of a snapshot."""

    device: int
    reserved: int  # segments at the snapshot
    allocated: int
    peak_live: int  # the most bytes live at once in its trace (the allocations at the snapshot
    # when it has no trace)
    free_bytes: int  # reserved - allocated at the snapshot
    external: float  # 1 - largest free block / free bytes
    ooms: int  # `oom` entries of its trace
    at_peak: list[tuple[str, int]]  # (first user frame, bytes live at the peak), largest first
    at_snapshot: list[tuple[str, int]]  # (first user frame, bytes live at the snapshot)


@dataclass
class SnapshotFacts:
    """One snapshot file, per device."""

    file: str  # relative to the run
    rank: int | None
    devices: list[SnapshotDevice]


def frame_label(row: dict) -> str:
    """`model.py:39 (forward)`: a first user frame as findings name it (file name only)."""
    frame = row.get("frame")
    if not frame:
        return str(row.get("label", "?"))
    name = str(frame["filename"]).replace("\\", "/").rsplit("/", 1)[-1]
    return f"{name}:{frame['line']} ({frame['name']})"


def snapshot_facts(
    file: str,
    rank: int | None,
    summary: dict,
    frames: Callable[[int], list[dict]],
) -> SnapshotFacts:
    """The findings' view of a snapshot: `summary` is `snapshot_summary(snap)`, `frames(d)`
    is `by_first_user_frame(snap, d)`."""
    devices = []
    for d in summary["devices"]:
        rows = frames(d["device"])

        def top(key: str, rows: list[dict] = rows) -> list[tuple[str, int]]:
            ranked = sorted((r for r in rows if r[key] > 0), key=lambda r: -r[key])
            return [(frame_label(r), int(r[key])) for r in ranked[:TOP_FRAMES]]

        devices.append(SnapshotDevice(
            d["device"], d["reserved_bytes"], d["allocated_bytes"],
            max(d["peak"]["live_bytes"], d["allocated_bytes"]), d["fragmentation"]["free_bytes"],
            d["fragmentation"]["external"], int(d["trace_entries"].get("oom", 0)),
            top("peak_bytes"), top("snapshot_bytes"),
        ))  # fmt: skip
    return SnapshotFacts(file, rank, devices)
