"""Every findings rule, in one list: the step, trace and memory rules of `findings`, and the
rules that live next to the data they read (`compute`, `python_profile`)."""

from __future__ import annotations

from .compute import mfu_efficiency, recompilation
from .findings import (
    DEFAULT_THRESHOLDS,
    SEVERITIES,
    AnalysisInputs,
    Finding,
    Thresholds,
    communication,
    compute_efficiency,
    data_loading,
    host_bound,
    hotspot,
    memory_fragmentation,
    memory_leak,
    memory_peak,
    step_outlier,
    straggler,
    sync_point,
    variability,
)
from .python_profile import python_hotspot

RULES = (
    data_loading, communication, straggler, sync_point, host_bound, compute_efficiency,
    mfu_efficiency, hotspot, python_hotspot, recompilation, step_outlier, variability,
    memory_leak, memory_fragmentation, memory_peak,
)  # fmt: skip


def find_all(inputs: AnalysisInputs, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> list[Finding]:
    """Every rule's findings, most severe first."""
    findings = [f for rule in RULES for f in rule(inputs, thresholds)]
    return sorted(findings, key=lambda f: -SEVERITIES.index(f.severity))
