"""One-off work in the first traced step: CUDA / HIP set-up (context, streams, modules, device
queries: `host_calls`' initialization class) or torch.compile compiling (CompileMonitor
records) that fills a step once and never again. Such a step is left out of the step
statistics every rule reads (the traced-step medians, the steady MyTimer steps), and said so
in a note (docs/FINDINGS.md, one_off_step), rather than reported as a slow step, a host-bound
GPU or a hotspot. A rank whose only traced step is one-off keeps it: there is nothing else to
judge, and `host_bound` names the cause `initialization` then."""

from __future__ import annotations

from dataclasses import replace

from .breakdown import StepBreakdown
from .findings import AnalysisInputs, Finding, OneOffStep, Thresholds, evidence

ONE_OFF_SHARE = 0.3  # of its step: one-off work this large makes the step one-off
_WHAT = {"initialization": "CUDA/HIP set-up calls", "compilation": "torch.compile compiling"}


def one_off_steps(inputs: AnalysisInputs) -> list[OneOffStep]:
    """The first traced step of each rank with more than one, when one-off work takes at least
    ONE_OFF_SHARE of it."""
    compiled = inputs.compile_records
    by_rank: dict[int, list[StepBreakdown]] = {}
    for done in inputs.breakdowns:
        if done.step is not None:
            by_rank.setdefault(done.rank, []).append(done)
    out = []
    for rank, found in sorted(by_rank.items()):
        numbered = sorted(found, key=lambda b: int(b.step or 0))
        if len(numbered) < 2:
            continue
        first = numbered[0]
        step = int(first.step or 0)
        spent = {"initialization": inputs.host_calls.get((rank, step), {}).get(
            "initialization", 0)}  # fmt: skip
        if compiled is not None and len(compiled):
            mine = compiled[(compiled["rank"] == rank) & (compiled["step"] == step)]
            spent["compilation"] = int(mine["compile_ns"].sum())
        cause = max(spent, key=lambda c: spent[c])
        if spent[cause] >= ONE_OFF_SHARE * first.duration_ns > 0:
            out.append(OneOffStep(rank, step, cause, int(spent[cause]),
                                  first.duration_ns))  # fmt: skip
    return out


def leave_out_one_off(inputs: AnalysisInputs) -> AnalysisInputs:
    """The inputs without their one-off steps (`one_off` lists them): not in the traced-step
    breakdowns, and among the steps the step statistics skip."""
    found = one_off_steps(inputs)
    if not found:
        return inputs
    dropped = {(o.rank, o.step) for o in found}
    skipped = {rank: set(steps) for rank, steps in inputs.profiler_steps.items()}
    for o in found:
        skipped.setdefault(o.rank, set()).add(o.step)
    return replace(
        inputs,
        breakdowns=[b for b in inputs.breakdowns if (b.rank, b.step) not in dropped],
        profiler_steps=skipped,
        one_off=found,
    )


def one_off_step(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """The note that a step was left out: which, why and how long."""
    return [
        Finding(
            "one_off_step",
            "info",
            f"Step {o.step} on rank {o.rank} is one-off work ({_WHAT[o.cause]}, "
            f"{o.ns / 1e6:,.1f} ms): left out of the step statistics",
            evidence(
                one_off_time=(o.ns, "ns"),
                step_time=(o.duration_ns, "ns"),
                share=(o.ns / o.duration_ns, "fraction"),
                cause=(o.cause, ""),
            ),
            "Nothing to fix in the loop: it happens once. Start the profiler after it "
            "(torch.profiler.schedule(wait=1, warmup=1, ...)) so traces show steady steps.",
            {"tab": "timeline", "params": {"rank": o.rank, "step": o.step}},
            ranks=[o.rank],
            steps=[o.step],
            scope=f"rank{o.rank}",
        )
        for o in inputs.one_off
    ]
