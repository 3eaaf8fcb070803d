"""Every findings rule, in one list: the step and trace rules of `findings`, the memory rules
of `memory_rules`, and the rules that live next to the data they read (`compute`,
`python_profile`), and how their findings are merged across ranks."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

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
    kernel_replay,
    step_outlier,
    straggler,
    sync_point,
    variability,
)
from .impact import by_impact, with_impact
from .memory_rules import memory_fragmentation, memory_leak, memory_peak
from .one_off import leave_out_one_off, one_off_step
from .python_profile import python_hotspot
from .what_if import WhatIfStep
from .wording import MAX_RANKS_APART

RULES = (
    data_loading, communication, straggler, sync_point, host_bound, compute_efficiency,
    mfu_efficiency, hotspot, python_hotspot, recompilation, step_outlier, variability,
    memory_leak, memory_fragmentation, memory_peak, one_off_step, kernel_replay,
)  # fmt: skip


MAX_STEPS_LISTED = 50
TIMELINE_LANES = 4
_RANK_SCOPE = re.compile(r"^(?P<subject>.*)rank\d+$")


def find_all(inputs: AnalysisInputs, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> list[Finding]:
    """Every rule's findings on the inputs without their one-off steps (`one_off.py`), the most
    step time a fix would save first (`impact.py`), those without a time saving after them,
    most severe first; per-rank findings shared by many ranks, or by every rank, collapsed
    (`collapse_across_ranks`); symptoms marked with their cause (`explain`)."""
    inputs = leave_out_one_off(inputs)
    found = [f for rule in RULES for f in rule(inputs, thresholds)]
    findings = explain(collapse_across_ranks(found, world=len(_ranks(inputs))))
    step_of = _median_step(inputs)
    findings = [with_impact(f, step_of) for f in findings]
    by_severity = sorted(findings, key=lambda f: -SEVERITIES.index(f.severity))
    return _symptoms_after_causes(sorted(by_severity, key=by_impact))


def _median_step(inputs: AnalysisInputs) -> Callable[[int], WhatIfStep | None] | None:
    """rank -> the graph of its median traced step among those the step statistics keep."""
    median_step, skipped = inputs.median_step, inputs.profiler_steps
    if median_step is None:
        return None
    return lambda rank: median_step(rank, skipped.get(rank, set()))


def _symptoms_after_causes(findings: list[Finding]) -> list[Finding]:
    """The findings in order, each one a cause explains moved right after that cause."""
    keys = {f.key for f in findings}
    out = []
    for finding in findings:
        if finding.explained_by in keys:
            continue
        out.append(finding)
        out += [f for f in findings if f.explained_by == finding.key]
    return out


def _ranks(inputs: AnalysisInputs) -> set[int]:
    """The ranks the rules saw any step of."""
    return set(inputs.step_times) | {b.rank for b in inputs.breakdowns}


# symptom kind -> (cause kind, whether the cause must be on the symptom's own rank, whether
# in most of its steps): rank 0's wait in collectives is the straggler's (another rank); an
# idle GPU whose host waits for data is data loading's (the same rank); slow steps that are
# the steps torch.compile recompiled in are the recompilation's
_EXPLAINED_BY = {
    "communication": ("straggler", False, False),
    "host_bound": ("data_loading", True, False),
    "step_outlier": ("recompilation", True, True),
}


def explain(findings: list[Finding]) -> list[Finding]:
    """Each symptom whose cause was found too gets `explained_by` the cause's key: the views
    fold it under its cause rather than show a second fix for the same time."""
    out = []
    for finding in findings:
        cause_kind, same_rank, same_steps = _EXPLAINED_BY.get(finding.kind, (None, False, False))
        cause = next(
            (
                f for f in findings
                if f.kind == cause_kind
                and (set(f.ranks) & set(finding.ranks) if same_rank
                     else not set(finding.ranks) <= set(f.ranks))
                and (not same_steps
                     or 2 * len(set(f.steps) & set(finding.steps)) > len(finding.steps))
            ),
            None,
        )  # fmt: skip
        out.append(finding if cause is None else replace(finding, explained_by=cause.key))
    return out


def collapse_across_ranks(
    findings: list[Finding], limit: int = MAX_RANKS_APART, world: int | None = None
) -> list[Finding]:
    """One finding for each kind and subject (an operator, MFU) found on more than `limit`
    ranks, or on every one of the `world` ranks (two or more): a job-wide cause, such as a
    checkpoint slowing one step on all 256 ranks, or one data-loading problem on both ranks of
    a pair, is one finding that names the ranks, not one per rank that bury the rest. Its key
    ends in `ranks` (`step_outlier:ranks`); it shows the worst rank's finding (the highest
    severity, then the lowest rank) with the ranks and the union of the steps."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        match = _RANK_SCOPE.match(finding.scope)
        if match and len(finding.ranks) == 1:
            groups.setdefault((finding.kind, match["subject"]), []).append(finding)
    merged: dict[int, Finding | None] = {}  # id of a member -> its group's finding, once
    for (_, subject), members in groups.items():
        everywhere = world is not None and world >= 2 and len(members) == world
        if len(members) <= limit and not everywhere:
            continue
        worst = max(members, key=lambda f: (SEVERITIES.index(f.severity), -f.ranks[0]))
        ranks = sorted(f.ranks[0] for f in members)
        steps = sorted({step for f in members for step in f.steps})[:MAX_STEPS_LISTED]
        others = len(members) - 1
        view = worst.view
        if view.get("tab") == "timeline":  # lanes for the worst rank and a few others
            others_shown = [r for r in ranks if r != worst.ranks[0]][: TIMELINE_LANES - 1]
            lanes = [worst.ranks[0], *others_shown]
            view = {**view, "params": {**view["params"], "ranks": ",".join(map(str, lanes))}}
        merged.update((id(f), None) for f in members)
        merged[id(members[0])] = replace(
            worst, view=view,
            title=(
                f"{worst.title} — on all {len(members)} ranks"
                if everywhere
                else f"{worst.title} — and on {others} other rank{'s' * (others > 1)}"
            ),
            evidence={**worst.evidence, "ranks_affected": {"value": len(members), "unit": "ranks"}},
            ranks=ranks, steps=steps, scope=f"{subject}ranks",
        )  # fmt: skip
    out = []
    for finding in findings:
        if id(finding) not in merged:
            out.append(finding)
        elif (group := merged[id(finding)]) is not None:
            out.append(group)
    return out
