"""The memory rules: `memory_leak`, `fragmentation` and `memory_peak`, from each rank's
memory series (MemorySampler's records, its traces' memory events, both where it has both) and
its newest memory snapshot (docs/FINDINGS.md, memory)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .findings import AnalysisInputs, Finding, Thresholds, evidence
from .memory import (
    RankMemory,
    SnapshotDevice,
    SnapshotFacts,
    fragmentation,
    peak,
    steps_until,
    trend,
    warmup_count,
)
from .wording import memory_text


def _series_label(memory: RankMemory, series: str) -> str:
    """What a memory series is, in words, with where it comes from when not MemorySampler."""
    if series == "rss":
        return "resident memory (RSS)"
    return f"allocated {'CUDA' if memory.cuda else 'CPU'} memory{_from_traces(memory)}"


def memory_series(inputs: AnalysisInputs) -> list[tuple[int, RankMemory]]:
    """Every memory series the rules read, by rank: MemorySampler's (else the traces'), then
    the traces' of ranks that have both."""
    return sorted(inputs.memory.items()) + sorted(inputs.trace_memory.items())


def one_per_rank(findings: list[Finding]) -> list[Finding]:
    """A rule's findings with one per rank: where both of a rank's series show it, the first
    (MemorySampler's) says the traces' memory events show it too."""
    kept: dict[int, Finding] = {}
    for finding in findings:
        rank = finding.ranks[0]
        if rank not in kept:
            kept[rank] = finding
            continue
        first = kept[rank]
        also = {"also_in": {"value": "torch.profiler's memory events", "unit": ""}}
        kept[rank] = replace(first, evidence={**first.evidence, **also})
    return list(kept.values())


def _from_traces(memory: RankMemory) -> str:
    """A title's note that its memory numbers come from the traces' memory events."""
    return "" if memory.source == "MemorySampler" else " (torch.profiler's memory events)"


def _snapshot_device(
    inputs: AnalysisInputs, rank: int, device: str
) -> tuple[SnapshotFacts, SnapshotDevice] | None:
    """The rank's snapshot and its device `cuda:<i>` (its only device if that one is absent)."""
    for facts in inputs.snapshots:
        if facts.rank != rank or not facts.devices:
            continue
        index = int(device.partition(":")[2] or -1) if device.startswith("cuda") else -1
        chosen = next((d for d in facts.devices if d.device == index), facts.devices[0])
        return facts, chosen
    return None


def _frames_text(frames: list[tuple[str, int]]) -> str:
    return "; ".join(f"{label} {memory_text(n)}" for label, n in frames)


def memory_leak(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """Memory that keeps growing step after step once warm-up is over: a significant robust
    trend (Mann-Kendall, Theil-Sen with Sen's interval above 0) that is also large."""
    out = []
    for rank, memory in memory_series(inputs):
        fit = trend(memory, t.memory_warmup_fraction, t.memory_warmup_steps, t.leak_min_points)
        if fit is None:
            continue
        growth = fit.end_level - fit.start_level
        min_growth = max(t.leak_min_growth_bytes, t.leak_min_growth_fraction * fit.start_level)
        if (
            fit.p_value > t.leak_p_value
            or fit.low <= 0
            or fit.slope < t.leak_min_slope_bytes
            or growth < min_growth
            or min(fit.half_slopes) < t.leak_steadiness * fit.slope
        ):
            continue
        window = fit.last_step - fit.first_step
        total = memory.device_total if memory.cuda else None
        extra: dict[str, tuple[Any, str]] = {}
        severity = "warning"
        if total:
            # the allocator's footprint (reserved) is what runs into the device's limit
            footprint = np.nanmax([fit.end_level, memory.reserved[-1]])
            left = steps_until(float(footprint), fit.slope, float(total))
            if left is not None:
                extra["device_total"] = (int(total), "bytes")
                extra["out_of_memory_at_step"] = (int(fit.last_step + left), "step")
                if left <= t.leak_critical_horizon * max(window, 1):
                    severity = "critical"
        label = _series_label(memory, fit.series)
        snapshot = _snapshot_device(inputs, rank, memory.device)
        if snapshot is not None and snapshot[1].at_snapshot:
            extra["live_at_snapshot"] = (_frames_text(snapshot[1].at_snapshot), "")
            extra["snapshot"] = (snapshot[0].file, "")
        out.append(Finding(
            "memory_leak", severity,
            f"Rank {rank}'s {label} grows by {memory_text(fit.slope)} per step after warm-up",
            evidence(slope=(round(fit.slope), "bytes/step"),
                      slope_low=(round(fit.low), "bytes/step"),
                      slope_high=(round(fit.high), "bytes/step"),
                      slope_first_half=(round(fit.half_slopes[0]), "bytes/step"),
                      slope_second_half=(round(fit.half_slopes[1]), "bytes/step"),
                      p_value=(f"{fit.p_value:.2g}", ""), series=(fit.series, ""),
                      source=(memory.source, ""),
                      start_level=(round(fit.start_level), "bytes"),
                      end_level=(round(fit.end_level), "bytes"),
                      growth=(round(growth), "bytes"),
                      first_step=(fit.first_step, "step"), last_step=(fit.last_step, "step"),
                      **extra),
            "Something keeps a reference every step: tensors appended to a list (losses "
            "kept with their graph: log loss.item() or loss.detach()), caches keyed by "
            "step or shape, hooks or closures holding activations, growing metric states. "
            "Take a memory snapshot (MemorySnapshotter) over a few steps to see which "
            "allocations stay alive, by the line of code that made them.",
            {"tab": "memory", "params": {"rank": rank}}, ranks=[rank],
            steps=[fit.first_step, fit.last_step], scope=f"rank{rank}",
        ))  # fmt: skip
    return one_per_rank(out)


_FRAGMENTATION_FIX = (
    "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True so segments grow instead of piling "
    "up; keep tensor shapes stable (pad variable-length batches to a few sizes); free large "
    "temporaries early. A memory snapshot shows the segments and the free blocks between live "
    "allocations."
)


def memory_fragmentation(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """The CUDA caching allocator holds much more than the rank ever has allocated at once, or
    had to free its cache and retry cudaMalloc; from MemorySampler records, else from the
    rank's snapshot (reserved against the most bytes live at once in its trace)."""
    out = []
    for rank, memory in memory_series(inputs):
        skip = warmup_count(len(memory.steps), t.memory_warmup_fraction, t.memory_warmup_steps)
        found = fragmentation(memory, skip)
        if found is None:
            continue
        wasteful = (
            found.unused_fraction >= t.fragmentation_unused
            and found.unused_bytes >= t.fragmentation_min_bytes
        )
        if not wasteful and found.retries < 1:
            continue
        title = (
            f"Rank {rank}'s CUDA allocator reserves {memory_text(found.unused_bytes)} "
            f"({found.unused_fraction:.0%}) more than its peak allocation{_from_traces(memory)}"
            if wasteful
            else f"Rank {rank}'s CUDA allocator retried cudaMalloc {found.retries} time(s) "
            "after freeing its cache"
        )
        out.append(Finding(
            "fragmentation", "warning", title,
            evidence(unused_fraction=(found.unused_fraction, "fraction"),
                      unused=(round(found.unused_bytes), "bytes"),
                      reserved=(round(found.reserved), "bytes"),
                      peak_allocated=(round(found.peak), "bytes"),
                      alloc_retries=(found.retries, ""), steps=(found.steps, ""),
                      source=(memory.source, "")),
            _FRAGMENTATION_FIX,
            {"tab": "memory", "params": {"rank": rank}}, ranks=[rank], scope=f"rank{rank}",
        ))  # fmt: skip
    out = one_per_rank(out)
    recorded = {r for r, m in inputs.memory.items() if m.cuda}
    for facts in inputs.snapshots:
        if facts.rank in recorded:
            continue  # the records say it step by step
        for device in facts.devices:
            unused = device.reserved - device.peak_live
            share = unused / device.reserved if device.reserved else 0.0
            if share < t.fragmentation_unused or unused < t.fragmentation_min_bytes:
                continue
            who = "Its" if facts.rank is None else f"Rank {facts.rank}'s"
            out.append(Finding(
                "fragmentation", "warning",
                f"{who} CUDA allocator reserves {memory_text(unused)} ({share:.0%}) more "
                f"than the most memory ever live in snapshot {facts.file}",
                evidence(unused_fraction=(share, "fraction"), unused=(unused, "bytes"),
                          reserved=(device.reserved, "bytes"),
                          peak_live=(device.peak_live, "bytes"),
                          free_at_snapshot=(device.free_bytes, "bytes"),
                          external_fragmentation=(device.external, "fraction"),
                          snapshot=(facts.file, ""), device=(device.device, "")),
                _FRAGMENTATION_FIX,
                **_snapshot_place(facts),
            ))  # fmt: skip
    return out


def _snapshot_place(facts: SnapshotFacts) -> dict[str, Any]:
    """Where a finding from one snapshot points: the Memory tab on that snapshot, its rank."""
    return {
        "view": {"tab": "memory", "params": {"rank": facts.rank, "snapshot": facts.file}},
        "ranks": [] if facts.rank is None else [facts.rank],
        "scope": f"rank{facts.rank}" if facts.rank is not None else f"snapshot:{facts.file}",
    }


_PEAK_FIX = (
    "Lower the peak: a smaller micro-batch with gradient accumulation, activation "
    "checkpointing, mixed precision (bf16/fp16), an optimizer with less state or sharded "
    "(ZeRO/FSDP). A memory snapshot of the peak step shows what holds it."
)


def memory_peak(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """The rank ran out of CUDA memory, or its peak came close to the device's capacity (from
    MemorySampler records); or a snapshot's trace holds an out-of-memory error. The rank's
    snapshot names what held the peak, by first user frame."""
    out = []
    for rank, memory in memory_series(inputs):
        found = peak(memory)
        if found is None:
            continue
        share = found.share
        if found.ooms > 0:
            severity = "critical"
            title = f"Rank {rank} ran out of CUDA memory ({found.ooms} time(s))"
        elif share is not None and share >= t.peak_warning:
            severity = "warning"
            title = (
                f"Rank {rank}'s peak allocation reaches {share:.0%} of the GPU's memory"
                f"{_from_traces(memory)}"
            )
        else:
            continue
        extra: dict[str, tuple[Any, str]] = {}
        if found.device_total:
            extra["device_total"] = (found.device_total, "bytes")
            extra["peak_share"] = (share, "fraction")
        extra["source"] = (memory.source, "")
        snapshot = _snapshot_device(inputs, rank, memory.device)
        if snapshot is not None and snapshot[1].at_peak:
            extra["held_at_peak"] = (_frames_text(snapshot[1].at_peak), "")
            extra["snapshot"] = (snapshot[0].file, "")
        out.append(Finding(
            "memory_peak", severity, title,
            evidence(peak_allocated=(round(found.bytes), "bytes"),
                      peak_step=(found.step, "step"), ooms=(found.ooms, ""), **extra),
            _PEAK_FIX, {"tab": "memory", "params": {"rank": rank}}, ranks=[rank],
            steps=[found.step], scope=f"rank{rank}",
        ))  # fmt: skip
    out = one_per_rank(out)
    reported = {r for f in out for r in f.ranks}
    for facts in inputs.snapshots:
        if facts.rank in reported:
            continue
        for device in facts.devices:
            if not device.ooms:
                continue
            who = "It" if facts.rank is None else f"Rank {facts.rank}"
            out.append(Finding(
                "memory_peak", "critical",
                f"{who} ran out of CUDA memory in snapshot {facts.file}",
                evidence(peak_live=(device.peak_live, "bytes"),
                          reserved=(device.reserved, "bytes"), ooms=(device.ooms, ""),
                          held_at_peak=(_frames_text(device.at_peak), ""),
                          snapshot=(facts.file, ""), device=(device.device, "")),
                _PEAK_FIX,
                **_snapshot_place(facts),
            ))  # fmt: skip
    return out
