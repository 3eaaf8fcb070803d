"""FlopsCounter on real CPU loops: the FLOPs of one sampled step against hand counts, MFU read
back through the plugin's readers against the test's own clock, and the counter's switches."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from time import perf_counter_ns

import pytest

torch = pytest.importorskip("torch")

from collectors import MyTimer  # noqa: E402
from collectors._flops import FlopsCounter  # noqa: E402
from tb_perf_plugin.analysis.compute import flops_inputs, mfu_per_step  # noqa: E402
from tb_perf_plugin.ingest.meta import read_meta  # noqa: E402
from tb_perf_plugin.ingest.timer import read_timer_file  # noqa: E402
from tests.helpers import timer_file  # noqa: E402


def meta_path(run_dir: Path) -> Path:
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob("rank0.*.meta.json")
    return path


def flops_meta(run_dir: Path) -> dict | None:
    return json.loads(meta_path(run_dir).read_text()).get("flops")


def test_mfu_of_a_matmul_loop_is_the_hand_count_over_the_step_time(tmp_path):
    """Each step's MFU is the hand count over the step's time, bracketed by the test's own
    clock around the set_step calls: exact however long the machine's load makes a step."""
    m, k, n, matmuls = 512, 384, 448, 6  # ~1 GFLOP: steps of a few ms here
    a, b = torch.randn(m, k), torch.randn(k, n)
    peak = 2e12  # FLOP/s chosen for the test (above this CPU's): it scales MFU alike
    timer = MyTimer(tmp_path, gpu=False)
    counter = FlopsCounter(timer, peak_flops=peak)
    before, after = [], []  # the timer's clock (perf_counter_ns) around each step boundary
    for step in range(9):  # set_step(8) ends step 7
        before.append(perf_counter_ns())
        timer.set_step(step)
        after.append(perf_counter_ns())
        if step < 8:
            with counter.count():
                for _ in range(matmuls):
                    torch.mm(a, b)
    counter.close()
    timer.close()

    by_hand = matmuls * 2 * m * n * k
    meta = read_meta(str(meta_path(tmp_path)))
    assert meta.flops.per_step == by_hand
    assert meta.flops.sampled_step == 1 and meta.flops.regions == 1
    assert meta.flops.by_operator == [("aten.mm", by_hand)]
    assert meta.flops.dtype == "fp32" and meta.flops.device_type == "cpu"
    assert (meta.flops.peak_flops, meta.flops.peak_source) == (peak, "argument")
    inputs = flops_inputs({0: meta})
    assert inputs.flops_per_step == {0: by_hand} and inputs.peak_flops == {0: peak}

    steps = read_timer_file(str(timer_file(tmp_path)), 1 << 20).steps
    table = mfu_per_step(steps.assign(rank=0), inputs.flops_per_step[0], inputs.peak_flops[0])
    assert table["step"].tolist() == list(range(8))
    for row in table.itertuples():
        shortest = before[row.step + 1] - after[row.step]
        longest = after[row.step + 1] - before[row.step]
        assert shortest <= row.duration_ns <= longest, row
        # FLOP/s, computed as mfu_per_step does: rounding keeps the order of the bounds
        fastest, slowest = by_hand / (shortest / 1e9), by_hand / (longest / 1e9)
        assert slowest / peak <= row.mfu <= fastest / peak, row
        assert slowest / 1e12 <= row.achieved_tflops <= fastest / 1e12, row


def test_only_the_sampled_step_is_counted_and_other_steps_get_the_shared_no_op(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)
    counter = FlopsCounter(timer, sample_step=3)
    x, w = torch.randn(8, 16), torch.randn(16, 4)
    regions = []
    for step in range(6):
        timer.set_step(step)
        for _ in range(2):  # two micro-batches per step (gradient accumulation)
            region = counter.count()
            regions.append(region)
            with region:
                x @ w
    timer.close()
    assert regions[0] is regions[1] is regions[-1]  # one shared object: no work per step
    assert sum(r is not regions[0] for r in regions) == 2  # both regions of step 3
    info = flops_meta(tmp_path)
    assert (info["sampled_step"], info["regions"], info["per_step"]) == (3, 2, 2 * 2 * 8 * 16 * 4)
    assert counter.flops_per_step == 2 * 2 * 8 * 16 * 4


def test_forward_and_backward_of_a_linear_layer_in_bfloat16(tmp_path):
    batch, d_in, d_out = 32, 64, 48
    model = torch.nn.Linear(d_in, d_out, bias=False).to(torch.bfloat16)
    x = torch.randn(batch, d_in, dtype=torch.bfloat16, requires_grad=True)
    timer = MyTimer(tmp_path, gpu=False)
    counter = FlopsCounter(timer, sample_step=0, top_operators=1)
    for step in range(2):
        timer.set_step(step)
        with counter.count():
            model(x).sum().backward()
    timer.close()
    info = flops_meta(tmp_path)
    # forward x @ W^T, backward dX = dY @ W and dW = dY^T @ x: three matmuls of 2*b*i*o
    assert info["per_step"] == 3 * 2 * batch * d_in * d_out
    assert info["dtype"] == "bf16" and info["by_dtype"] == {"bf16": info["per_step"]}
    assert len(info["by_operator"]) == 1
    assert info["peak_flops"] is None and info["device_name"]


def test_a_step_that_never_ends_is_written_at_close(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)
    with FlopsCounter(timer, sample_step=0) as counter:
        timer.set_step(0)
        with counter.count():
            torch.randn(4, 4) @ torch.randn(4, 4)
    assert flops_meta(tmp_path)["per_step"] == 2 * 4 * 4 * 4
    timer.close()


def test_peak_from_the_environment_and_a_bad_value(tmp_path, monkeypatch):
    monkeypatch.setenv("TB_PERF_PEAK_FLOPS", "312e12")
    timer = MyTimer(tmp_path / "a", gpu=False)
    assert FlopsCounter(timer).peak_flops == 312e12
    monkeypatch.setenv("TB_PERF_PEAK_FLOPS", "fast")
    with pytest.warns(RuntimeWarning, match="TB_PERF_PEAK_FLOPS"):
        assert FlopsCounter(timer).peak_flops is None
    with pytest.raises(ValueError, match="peak_flops"):
        FlopsCounter(timer, peak_flops=-1)
    timer.close()


@pytest.mark.parametrize("how", ["env", "timer"])
def test_disabled_counts_nothing(tmp_path, monkeypatch, how):
    if how == "env":
        monkeypatch.setenv("ENABLE_FLOPS_COUNTER", "0")
    timer = MyTimer(tmp_path, gpu=False, enabled=how != "timer")
    counter = FlopsCounter(timer, sample_step=0)
    for step in range(3):
        timer.set_step(step)
        with counter.count():
            torch.randn(4, 4) @ torch.randn(4, 4)
    timer.close()
    assert not counter.enabled and counter.flops_per_step is None
    if how == "env":
        assert flops_meta(tmp_path) is None


def test_a_counter_that_cannot_start_warns_once_and_training_goes_on(tmp_path, monkeypatch):
    timer = MyTimer(tmp_path, gpu=False)
    counter = FlopsCounter(timer, sample_step=0)

    def broken_mode():
        raise RuntimeError("no dispatch modes here")

    monkeypatch.setattr(counter, "_new_mode", broken_mode)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = []
        for step in range(4):
            timer.set_step(step)
            with counter.count():
                results.append(torch.ones(2, 2) @ torch.ones(2, 2))
    timer.close()
    assert len(results) == 4 and float(results[-1][0, 0]) == 2.0
    assert [str(w.message) for w in caught if "FlopsCounter" in str(w.message)] == [
        "FlopsCounter stopped at step 0: cannot start torch's FlopCounterMode: "
        "RuntimeError('no dispatch modes here'); training goes on"
    ]
    assert flops_meta(tmp_path) is None


def test_a_compiled_step_is_counted_and_compiling_goes_on_afterwards(tmp_path):
    """Counting runs compiled code eagerly: dynamo meeting FlopCounterMode would stop compiling
    that code for new shapes for the rest of the process (the job's behaviour would change)."""
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    graphs_before = counters["stats"]["unique_graphs"]
    compiled = torch.compile(lambda a, b: (a @ b).relu().sum(), backend="eager", dynamic=False)
    b = torch.randn(40, 8)
    timer = MyTimer(tmp_path, gpu=False)
    counter = FlopsCounter(timer)
    for step, rows in enumerate([24, 24, 24, 32, 48]):  # step 1 counted; then two new shapes
        timer.set_step(step)
        with counter.count():
            compiled(torch.randn(rows, 40), b)
    timer.close()
    graphs = counters["stats"]["unique_graphs"] - graphs_before
    torch._dynamo.reset()
    assert flops_meta(tmp_path)["per_step"] == 2 * 24 * 40 * 8
    assert graphs == 3  # 24, 32 and 48 rows: nothing recompiled for the counting, nothing lost
