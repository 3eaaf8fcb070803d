"""What fixing a finding would save: `impact = {ns_per_step, share_of_step, basis}`, the step
time a perfect fix of its cause would take off a median step, from the numbers its rule
measured, and `basis` naming the method (docs/FINDINGS.md, impact). Where a finding's fix
does not shorten steps in a way the run can measure (memory capacity, efficiency ratios, a
profile without steps), `ns_per_step` and `share_of_step` are None and `basis` says why.

Each estimate is an upper bound of the saving where the rule's time overlaps other work it
cannot see (a blocked host's GPU work still runs; an idle GPU's host work still has to happen
somewhere). Where the finding's ranks have traced steps whose critical path holds the cause's
events, the estimate is the path's instead (what_if.py): how much shorter the median traced
step's longest path gets with those events taking no time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .findings import Finding
from .what_if import MAX_RANKS, WhatIfStep, path_impact


def _value(finding: Finding, name: str) -> float | None:
    item = finding.evidence.get(name)
    return None if item is None else float(item["value"])


def _measured(time: str, share: str | None, step: str | None, basis: str) -> Callable:
    """An estimate from the evidence: `time` per step, and its share of the step (`share`, or
    `time` over `step`)."""

    def estimate(finding: Finding) -> dict[str, Any]:
        ns = _value(finding, time)
        if ns is None:
            return _unknown(f"{basis}: not measured")
        fraction = _value(finding, share) if share else None
        if fraction is None and step is not None:
            step_ns = _value(finding, step)
            fraction = ns / step_ns if step_ns else None
        return {"ns_per_step": int(ns), "share_of_step": fraction, "basis": basis}

    return estimate


def _unknown(basis: str) -> dict[str, Any]:
    return {"ns_per_step": None, "share_of_step": None, "basis": basis}


def _hotspot(finding: Finding) -> dict[str, Any]:
    self_ns, steps = _value(finding, "self_time"), _value(finding, "traced_steps")
    if not self_ns or not steps:
        return _unknown("operator self time: no traced steps")
    return {
        "ns_per_step": int(self_ns / steps),
        "share_of_step": _value(finding, "share"),
        "basis": "the operator's self time per traced step (the bound: the op made free)",
    }


def _outliers(finding: Finding) -> dict[str, Any]:
    excess, median = _value(finding, "excess_per_step"), _value(finding, "median_step_time")
    if excess is None or not median:
        return _unknown("slow steps: not measured")
    return {
        "ns_per_step": int(excess),
        "share_of_step": excess / (median + excess),  # of the mean step, which they lengthen
        "basis": "the slow steps' time above the median, spread over every step",
    }


_ESTIMATES: dict[str, Callable[[Finding], dict[str, Any]]] = {
    "data_loading": _measured(
        "median_time",
        "median_share",
        None,
        "the median step's wait for input (an input pipeline that keeps up hides it)",
    ),
    "communication": _measured(
        "median_exposed",
        "median_exposed_share",
        None,
        "exposed communication per median step (hidden if fully overlapped with compute)",
    ),
    "straggler": _measured(
        "median_extra_wait_of_others",
        None,
        "median_step_time",
        "the others' extra wait per step (what the job loses to the slow rank)",
    ),
    "sync_point": _measured(
        "median_time",
        "median_share",
        None,
        "the host's time blocked on the device per median step (the bound: the GPU work "
        "behind the wait still has to run)",
    ),
    "host_bound": _measured(
        "median_device_idle",
        None,
        "median_step_time",
        "the GPU's idle time per median step (the bound: a host that keeps the GPU fed)",
    ),
    "recompilation": _measured(
        "recompile_time_per_step",
        "run_time_share",
        None,
        "the time spent recompiling, spread over every step (what stable guards would save)",
    ),
    "hotspot": _hotspot,
    "step_outlier": _outliers,
}
_NOT_STEP_TIME = {
    "variability": "step-time variation: steadier steps change the spread, not the median",
    "compute_efficiency": "an efficiency ratio: the saving depends on the fix",
    "python_hotspot": "a share of profiled time: the profile has no steps",
    "one_off_step": "one-off work: not a per-step cost",
    "kernel_replay": "a measurement caveat: the trace's times are inflated by kernel replay",
    "memory_leak": "memory, not step time",
    "memory_peak": "memory, not step time",
    "fragmentation": "memory, not step time",
}


# the kinds whose cause the critical path can take away (what_if.py)
_ON_THE_PATH = ("data_loading", "communication", "sync_point", "host_bound", "hotspot")


def with_impact(
    finding: Finding, median_step: Callable[[int], WhatIfStep | None] | None = None
) -> Finding:
    """The finding with its `impact`: from the critical path of its ranks' median traced steps
    (`median_step`: rank -> that step's graph) where the path holds the cause's events, else
    from the numbers its rule measured."""
    cause = str(finding.evidence.get("cause", {}).get("value", ""))
    if finding.kind == "host_bound" and cause == "initialization":
        return replace(finding, impact=_unknown("one-off start-up work: not a per-step cost"))
    if median_step is not None and finding.kind in _ON_THE_PATH:
        steps = [s for r in finding.ranks[:MAX_RANKS] if (s := median_step(r)) is not None]
        subject = finding.scope.rsplit("@", 1)[0] if "@" in finding.scope else ""
        found = path_impact(finding.kind, cause, subject, steps)
        if found is not None:
            return replace(finding, impact=found)
    estimate = _ESTIMATES.get(finding.kind)
    if estimate is not None:
        return replace(finding, impact=estimate(finding))
    return replace(finding, impact=_unknown(_NOT_STEP_TIME.get(finding.kind, "not estimated")))


# findings that say the measurements themselves overstate the job's: read before the others
_CAVEATS = ("kernel_replay",)


def by_impact(finding: Finding) -> tuple[int, int]:
    """Sort key: caveats on the measurements first, then the most step time saved; findings
    without a time saving after them."""
    if finding.kind in _CAVEATS:
        return (-1, 0)
    ns = (finding.impact or {}).get("ns_per_step")
    return (0, -ns) if ns is not None else (1, 0)
