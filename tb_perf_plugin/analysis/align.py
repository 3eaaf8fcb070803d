"""Putting every rank on rank 0's clock.

Each rank gets an affine map `t -> t + offset_ns + drift_ns_per_s * (t - anchor_ns) / 1e9`
from, in order of preference: the collectors' clock sync (measured), matching collectives (the
k-th instance of the same collective ends at about the same time on every rank), or step
boundaries (the same step starts at about the same time). Pure functions; docs/ALIGNMENT.md
gives the formulas.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

import numpy as np

# Collectives whose instances end together on all participating ranks. Point-to-point
# transfers (send/recv) do not: they must never be sequence-matched.
_POINT_TO_POINT = re.compile(r"send|recv|sendrecv|p2p|isend|irecv", re.IGNORECASE)
MIN_COLLECTIVE_PAIRS = 3
MIN_PAIRS_FOR_DRIFT = 8
OUTLIER_SCALES = 6.0
MIN_OUTLIER_NS = 20_000  # pairs closer than this to the fit are never outliers
MAX_REFITS = 5

_Times = TypeVar("_Times", np.ndarray, np.int64)  # an array of times or one


class Method(str, Enum):
    REFERENCE = "reference"
    CLOCK_SYNC = "clock_sync"
    COLLECTIVES = "collectives"
    STEPS = "steps"
    NONE = "none"


@dataclass(frozen=True)
class Alignment:
    rank: int
    method: Method
    offset_ns: int = 0
    uncertainty_ns: int = 0
    drift_ns_per_s: float | None = None
    anchor_ns: int = 0  # where the drift term is zero (the rank's own clock)
    pairs: int = 0  # matched collectives or steps behind a fitted alignment
    outliers: int = 0  # pairs set aside by the fit

    def apply(self, t: _Times) -> _Times:
        """Map int64 ns on this rank's clock to rank 0's clock."""
        shifted = t + np.int64(self.offset_ns)
        if self.drift_ns_per_s:
            correction = (t - np.int64(self.anchor_ns)).astype(np.float64) * (
                self.drift_ns_per_s / 1e9
            )
            shifted = shifted + np.rint(correction).astype(np.int64)
        return shifted

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method.value,
            "offset_ns": self.offset_ns,
            "uncertainty_ns": self.uncertainty_ns,
            "drift_ns_per_s": self.drift_ns_per_s,
            "pairs": self.pairs,
            "outliers": self.outliers,
        }


@dataclass
class RankClockEvidence:
    """What one rank offers for alignment, all on its own clock."""

    rank: int
    clock_sync: dict[str, Any] | None = None
    # (signature, end_ns) of collective instances in time order; signature = (name, group, size)
    collectives: list[tuple[tuple, int]] | None = None
    step_starts: dict[int, int] | None = None  # step -> start ns


def is_point_to_point(name: str) -> bool:
    return bool(_POINT_TO_POINT.search(name))


def from_clock_sync(rank: int, sync: dict[str, Any]) -> Alignment | None:
    try:
        return Alignment(
            rank,
            Method.CLOCK_SYNC,
            int(sync["offset_ns"]),
            int(sync["uncertainty_ns"]),
            float(sync["drift_ns_per_s"]) if sync.get("drift_ns_per_s") is not None else None,
            int(sync.get("measured_at_unix_ns") or 0),
            int(sync.get("rounds") or 0),
        )
    except (KeyError, TypeError, ValueError):
        return None


def match_collectives(
    reference: list[tuple[tuple, int]], other: list[tuple[tuple, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """End times of the same collective instances: the k-th instance of each signature on one
    rank paired with the k-th on the other. Point-to-point signatures are skipped."""

    def by_signature(items: list[tuple[tuple, int]]) -> dict[tuple, list[int]]:
        grouped: dict[tuple, list[int]] = {}
        for signature, end in items:
            if not is_point_to_point(str(signature[0])):
                grouped.setdefault(signature, []).append(end)
        return grouped

    ref, oth = by_signature(reference), by_signature(other)
    ref_ends, other_ends = [], []
    for signature in ref.keys() & oth.keys():
        n = min(len(ref[signature]), len(oth[signature]))
        ref_ends += ref[signature][:n]
        other_ends += oth[signature][:n]
    order = np.argsort(other_ends, kind="stable")
    return (
        np.asarray(ref_ends, dtype=np.int64)[order],
        np.asarray(other_ends, dtype=np.int64)[order],
    )


def _fit_line(x: np.ndarray, diff: np.ndarray) -> tuple[float, float | None]:
    """(intercept, drift or None): the drift only where the pairs span time and the linear
    term halves the worst residual of an offset-only fit."""
    if len(diff) >= MIN_PAIRS_FOR_DRIFT and np.ptp(x) > 0:
        slope, intercept = np.polyfit(x, diff, 1)
        residual = diff - (intercept + slope * x)
        offset_only = diff - np.median(diff)
        if np.abs(residual).max() < 0.5 * np.abs(offset_only).max():
            return float(intercept), float(slope)
    return float(np.median(diff)), None


def fit(rank: int, method: Method, ref_times: np.ndarray, own_times: np.ndarray) -> Alignment:
    """Least-squares offset (and drift, with enough pairs spread in time) mapping own -> ref.

    Pairs far off the fit (beyond OUTLIER_SCALES robust standard deviations: one rank woke late
    from a blocking collective, a straggling step) are set aside and the fit redone, at most a
    quarter of them. Uncertainty is twice the largest residual of the pairs kept: they are only
    known to end "about together" (ring latency, wake-up delays), so the fit is trusted no more
    closely than they agree.
    """
    diff = (ref_times - own_times).astype(np.float64)
    anchor = int(own_times[0])
    x = (own_times - anchor).astype(np.float64) / 1e9
    keep = np.ones(len(diff), dtype=bool)
    for _ in range(MAX_REFITS):
        intercept, drift = _fit_line(x[keep], diff[keep])
        residual = diff - (intercept + (drift or 0.0) * x)
        scale = 1.4826 * np.median(np.abs(residual[keep]))
        inliers = np.abs(residual) <= max(OUTLIER_SCALES * scale, MIN_OUTLIER_NS)
        if np.array_equal(inliers, keep) or inliers.sum() < max(
            MIN_COLLECTIVE_PAIRS, 0.75 * len(diff)
        ):
            break
        keep = inliers
    return Alignment(
        rank,
        method,
        int(round(intercept)),
        int(2 * np.abs(residual[keep]).max()) + 1,
        drift,
        anchor,
        int(keep.sum()),
        int(len(diff) - keep.sum()),
    )


def align_ranks(evidence: Iterable[RankClockEvidence]) -> dict[int, Alignment]:
    """One Alignment per rank; the first rank, the lowest (rank 0 normally), is the reference.
    `evidence` comes in rank order and is taken one rank at a time, keeping the reference's
    only: aligning a run holds two ranks' collectives at a time, not every rank's."""
    result: dict[int, Alignment] = {}
    reference: RankClockEvidence | None = None
    for rank in evidence:
        if reference is None:
            reference = rank
            result[rank.rank] = Alignment(rank.rank, Method.REFERENCE)
        elif rank.rank <= reference.rank:
            raise ValueError(f"rank {rank.rank}'s evidence after rank {reference.rank}'s")
        else:
            result[rank.rank] = _align_one(reference, rank)
    return result


def _align_one(reference: RankClockEvidence, rank: RankClockEvidence) -> Alignment:
    if rank.clock_sync:
        sync = from_clock_sync(rank.rank, rank.clock_sync)
        if sync is not None:
            return sync
    if reference.collectives and rank.collectives:
        ref_ends, own_ends = match_collectives(reference.collectives, rank.collectives)
        if len(ref_ends) >= MIN_COLLECTIVE_PAIRS:
            return fit(rank.rank, Method.COLLECTIVES, ref_ends, own_ends)
    if reference.step_starts and rank.step_starts:
        common = sorted(reference.step_starts.keys() & rank.step_starts.keys())
        if common:
            ref = np.array([reference.step_starts[s] for s in common], dtype=np.int64)
            own = np.array([rank.step_starts[s] for s in common], dtype=np.int64)
            return fit(rank.rank, Method.STEPS, ref, own)
    return Alignment(rank.rank, Method.NONE)
