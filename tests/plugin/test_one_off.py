"""One-off work in the first traced step (analysis/one_off.py): left out of the step
statistics, with a note, on recorded-shape inputs."""

from __future__ import annotations

import pandas as pd

from tb_perf_plugin.analysis.breakdown import CATEGORIES, StepBreakdown
from tb_perf_plugin.analysis.findings import AnalysisInputs
from tb_perf_plugin.analysis.kernels import kernel_table
from tb_perf_plugin.analysis.one_off import leave_out_one_off, one_off_steps
from tb_perf_plugin.analysis.rules import find_all

STEP_NS = 10_000_000


def _step(step: int, duration: int, **ns: int) -> StepBreakdown:
    shares = {c: ns.get(c, 0) for c in CATEGORIES}
    shares["idle"] = duration - sum(shares.values())
    return StepBreakdown(0, step, step * STEP_NS * 10, duration, shares, 0, 0)


def _inputs(first_init_ns: int, compile_ns: int = 0) -> AnalysisInputs:
    """Four traced steps of a busy GPU; the first 1.2 s long, `first_init_ns` of it in CUDA
    set-up calls (and `compile_ns` of torch.compile compiling recorded in it)."""
    steps = [_step(4, 1_200_000_000, runtime=1_150_000_000, compute=20_000_000)]
    steps += [_step(s, STEP_NS, compute=8_000_000, runtime=500_000) for s in (5, 6, 7)]
    host_calls = {(0, 4): {"initialization": first_init_ns}}
    compiled = pd.DataFrame({"rank": [0], "step": [4], "compile_ns": [compile_ns]})
    return AnalysisInputs(
        breakdowns=steps, kernels=kernel_table([]), host_calls=host_calls,
        compile_records=compiled if compile_ns else None,
    )  # fmt: skip


def test_a_first_step_of_cuda_set_up_is_left_out_with_a_note():
    inputs = _inputs(first_init_ns=1_100_000_000)
    (found,) = one_off_steps(inputs)
    assert (found.rank, found.step, found.cause) == (0, 4, "initialization")
    kept = leave_out_one_off(inputs)
    assert [b.step for b in kept.breakdowns] == [5, 6, 7]
    assert kept.profiler_steps == {0: {4}}  # the step statistics skip it too
    findings = find_all(inputs)
    # the 1.15 s of runtime in step 4 would have made the GPU look starved: only the note
    assert [f.kind for f in findings] == ["one_off_step"]
    (note,) = findings
    assert note.severity == "info" and note.steps == [4]
    assert note.title == (
        "Step 4 on rank 0 is one-off work (CUDA/HIP set-up calls, 1,100.0 ms): left out of "
        "the step statistics"
    )
    assert note.impact == {
        "ns_per_step": None, "share_of_step": None, "basis": "one-off work: not a per-step cost"
    }  # fmt: skip


def test_compiling_in_the_first_step_is_one_off_too():
    (found,) = one_off_steps(_inputs(first_init_ns=0, compile_ns=900_000_000))
    assert found.cause == "compilation" and found.ns == 900_000_000


def test_a_slow_first_step_without_one_off_work_stays_in():
    """Without set-up calls or compiling, a long first step is a finding's to judge."""
    inputs = _inputs(first_init_ns=100_000_000)  # 8 % of the step
    assert one_off_steps(inputs) == []
    assert leave_out_one_off(inputs) is inputs
    assert "one_off_step" not in {f.kind for f in find_all(inputs)}
