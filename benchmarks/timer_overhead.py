"""MyTimer's overhead against its anchors, all measured in this one run on this machine.

    python benchmarks/timer_overhead.py [--json]

Prints, for each measurement, the time per call and the ratio to its anchor, with the target
the foundation issue set (docs/PERFORMANCE.md keeps the numbers):
  enabled start/stop pair   vs a bare perf_counter_ns pair        (target <= 5x)
  enabled start/stop pair   vs torch.profiler.record_function     (reported)
  disabled start/stop pair  vs an empty method-call pair          (target <= 1.5x)
  disabled range()          vs `with contextlib.nullcontext()`    (target <= 1.3x)
  step()                    as a share of the sample model's step (target <= 1 %)
Timings are the minimum over repeats of a timeit loop (the least disturbed run).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import timeit
from pathlib import Path
from time import perf_counter_ns

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "sample_runs")]

from generate import sample_model, timed_train_step  # noqa: E402

from collectors import MyTimer  # noqa: E402

REPEAT = 7


def per_call_ns(stmt, number: int) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=REPEAT)) / number * 1e9


class _Empty:
    def start(self, name: str) -> None:
        pass

    def stop(self, name: str) -> None:
        pass


def measure_pairs(tmp: Path) -> dict[str, float]:
    enabled = MyTimer(tmp / "enabled", gpu=False)
    disabled = MyTimer(tmp / "disabled", enabled=False)
    empty = _Empty()
    n = 200_000

    spans = enabled._spans

    def enabled_pair():
        enabled.start("span")
        enabled.stop("span")
        if len(spans) >= 100:  # as step() would: the buffer never grows past a step's spans
            spans.clear()

    def bare_pair():
        perf_counter_ns()
        perf_counter_ns()

    def disabled_pair():
        disabled.start("span")
        disabled.stop("span")

    def empty_pair():
        empty.start("span")
        empty.stop("span")

    def disabled_range():
        with disabled.range("span"):
            pass

    def null_context():
        with contextlib.nullcontext():
            pass

    results = {}
    for name, func in [
        ("enabled_pair", enabled_pair),
        ("bare_perf_counter_pair", bare_pair),
        ("disabled_pair", disabled_pair),
        ("empty_method_pair", empty_pair),
        ("disabled_range", disabled_range),
        ("nullcontext", null_context),
    ]:
        results[name] = per_call_ns(func, n)
    spans.clear()
    enabled.close()
    disabled.close()
    return results


def measure_record_function() -> float:
    from torch.autograd.profiler import record_function

    def pair():
        with record_function("span"):
            pass

    return per_call_ns(pair, 20_000)


def measure_step_share(tmp: Path, steps: int = 300) -> dict[str, float]:
    """The sample_runs model (the MLP of sample_runs/generate.py, batch 32, SGD) on one rank.

    step() is timed around each call; median and mean over the steps after warm-up are
    reported (the mean counts rare flushes in full, and also scheduler noise); the step time
    is the median step. Loops: with the sample's slow data
    loading (0.4 ms per sample, as in sample_runs), compute only, and compute only with
    flush_every_steps=10.
    """
    import time

    import torch

    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = sample_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = torch.nn.CrossEntropyLoss()
    x, y = torch.randn(32, 64), torch.randint(0, 2, (32,))
    out = {}
    loops = (
        ("with_slow_data", 0.0004, 1),
        ("compute_only", 0.0, 1),
        ("compute_only_flush_every_10", 0.0, 10),
    )
    for label, per_sample_s, flush_every in loops:
        timer = MyTimer(tmp / label, gpu=False, flush_every_steps=flush_every)

        def next_batch(per_sample_s=per_sample_s):
            if per_sample_s:
                time.sleep(per_sample_s * len(x))  # the sample's slow decoding
            return x, y

        step_costs, step_times = [], []
        for _ in range(steps):
            t0 = perf_counter_ns()
            timed_train_step(timer, model, optimizer, loss_fn, next_batch)
            before = perf_counter_ns()
            timer.step()
            after = perf_counter_ns()
            step_costs.append(after - before)
            step_times.append(after - t0)
        timer.close()
        warm = slice(steps // 10, None)  # skip warm-up steps (first allocations, file creation)
        costs = sorted(step_costs[warm])
        step = sorted(step_times[warm])[len(step_times[warm]) // 2]
        median, mean = costs[len(costs) // 2], sum(costs) / len(costs)
        out[label] = {
            "step_call_median_ns": median,
            "step_call_mean_ns": mean,
            "step_time_ns": step,
            "share_pct": 100 * median / step,
            "share_of_mean_pct": 100 * mean / step,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the raw numbers as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        pairs = measure_pairs(tmp)
        pairs["record_function_pair"] = measure_record_function()
        shares = measure_step_share(tmp)
    if args.json:
        print(json.dumps({"pairs_ns": pairs, "step": shares}, indent=2))
        return
    rows = [
        (
            "enabled start/stop pair",
            pairs["enabled_pair"],
            "bare perf_counter_ns pair",
            pairs["bare_perf_counter_pair"],
            5.0,
        ),
        (
            "enabled start/stop pair",
            pairs["enabled_pair"],
            "record_function enter/exit",
            pairs["record_function_pair"],
            None,
        ),
        (
            "disabled start/stop pair",
            pairs["disabled_pair"],
            "empty method-call pair",
            pairs["empty_method_pair"],
            1.5,
        ),
        (
            "disabled range()",
            pairs["disabled_range"],
            "with nullcontext()",
            pairs["nullcontext"],
            1.3,
        ),
    ]
    print(f"{'measured':26} {'ns':>8}  {'anchor':28} {'ns':>8}  {'ratio':>6}  target")
    for name, value, anchor, anchor_value, target in rows:
        ratio = value / anchor_value
        verdict = "" if target is None else f"<= {target}x {'ok' if ratio <= target else 'MISSED'}"
        print(f"{name:26} {value:8.0f}  {anchor:28} {anchor_value:8.0f}  {ratio:6.2f}  {verdict}")
    for label, s in shares.items():
        verdict = "ok" if s["share_pct"] <= 1.0 else "MISSED"
        print(
            f"step() {label:28} median {s['step_call_median_ns'] / 1e3:5.1f} us "
            f"(mean {s['step_call_mean_ns'] / 1e3:5.1f}) of a {s['step_time_ns'] / 1e6:.2f} ms "
            f"step = {s['share_pct']:.2f} % (mean {s['share_of_mean_pct']:.2f} %)  "
            f"<= 1 % {verdict}"
        )


if __name__ == "__main__":
    main()
