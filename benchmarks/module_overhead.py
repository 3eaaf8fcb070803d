"""ModuleProfiler's overhead against its anchors, all measured in this one run on this machine.

    python benchmarks/module_overhead.py [--json] [--rounds 20]

(a) Per module call, forward profiling against plain no-op forward pre + post hooks on the same
    module, interleaved, >= 1e5 calls per repeat, minimum of repeats (target <= 1.5x). Reported
    for the forward-only profiler and for the default one (backward on) under no_grad, plus what
    a call costs with no hooks at all.
(b) On the 42-module `nn.TransformerEncoder(nn.TransformerEncoderLayer(128, 4, 256,
    batch_first=True), 4)`, batch (8, 64, 128), CPU: forward + backward profiling against the
    same loop without it, in interleaved rounds (profiler attached in every other block of
    steps, the order alternating): each round's ratio of median step times (robust to a step
    disturbed by other work), summarized as the median over rounds with a 95 % bootstrap
    confidence interval (target: +5 % at most). Both arms run MyTimer spans and steps.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import timeit
from pathlib import Path
from time import perf_counter_ns

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import torch  # noqa: E402
from _measure import loadavg  # noqa: E402
from torch import nn  # noqa: E402

from collectors import ModuleProfiler, MyTimer  # noqa: E402

CALLS = 100_000
REPEAT = 7


class _Passthrough(nn.Module):
    """The cheapest module: what is measured is the call and its hooks."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x


def per_call_costs(tmp: Path) -> dict[str, float]:
    """ns per module call for each hook set, interleaved repeats, minimum of repeats."""
    x = torch.zeros(1)
    bare = _Passthrough()
    noop = _Passthrough()
    noop.register_forward_pre_hook(lambda module, args: None)
    noop.register_forward_hook(lambda module, args, output: None)
    timer = MyTimer(tmp / "calls", gpu=False)
    forward_only = _Passthrough()
    default = _Passthrough()
    profilers = {
        "forward_only": ModuleProfiler(forward_only, timer, backward=False, gpu=False).attach(),
        "default_no_grad": ModuleProfiler(default, timer, gpu=False).attach(),
    }
    subjects = {"no_hooks": bare, "noop_hooks": noop, "forward_only": forward_only,
                "default_no_grad": default}  # fmt: skip
    best = {name: float("inf") for name in subjects}
    with torch.no_grad():
        for _ in range(REPEAT):
            for name, module in subjects.items():
                seconds = timeit.timeit(lambda m=module: m(x), number=CALLS)
                best[name] = min(best[name], seconds / CALLS * 1e9)
                timer.step()  # drains the profiler's buffer as a training step would
    for profiler in profilers.values():
        profiler.detach()
    timer.close()
    return best


def _bootstrap_median_ci(values: list[float], seed: int = 0, draws: int = 10_000) -> tuple:
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(draws))
    return medians[int(0.025 * draws)], medians[int(0.975 * draws) - 1]


def transformer_overhead(tmp: Path, rounds: int, steps: int) -> dict[str, object]:
    torch.manual_seed(0)
    model = nn.TransformerEncoder(nn.TransformerEncoderLayer(128, 4, 256, batch_first=True), 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    batch = torch.randn(8, 64, 128)
    timer = MyTimer(tmp / "transformer", gpu=False)
    profiler = ModuleProfiler(model, timer, gpu=False)

    def run_steps(n: int) -> list[int]:
        times = []
        for _ in range(n):
            t0 = perf_counter_ns()
            with timer.range("forward"):
                loss = model(batch).square().mean()
            with timer.range("backward"):
                loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            timer.step()
            times.append(perf_counter_ns() - t0)
        return times

    run_steps(10)  # warm-up: oneDNN kernels are chosen on the first calls
    profiler.attach()
    run_steps(3)
    profiler.detach()
    ratios, off_all, on_all = [], [], []
    for r in range(rounds):
        arms = ("off", "on") if r % 2 == 0 else ("on", "off")
        median = {}
        for arm in arms:
            if arm == "on":
                profiler.attach()
            times = run_steps(steps)[1:]  # the first step of a block pays attach/detach
            if arm == "on":
                profiler.detach()
            (on_all if arm == "on" else off_all).extend(times)
            median[arm] = statistics.median(times)
        ratios.append(median["on"] / median["off"])
    timer.close()
    low, high = _bootstrap_median_ci(ratios)
    modules = sum(1 for _ in model.modules())
    return {
        "modules": modules,
        "rounds": rounds,
        "steps_per_block": steps,
        "step_ms_off_median": statistics.median(off_all) / 1e6,
        "step_ms_on_median": statistics.median(on_all) / 1e6,
        "ratio": statistics.median(ratios),
        "ratio_ci95": [low, high],
        "ratio_of_medians": statistics.median(on_all) / statistics.median(off_all),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--steps", type=int, default=6, help="steps per block")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        calls = per_call_costs(Path(tmp))
        transformer = transformer_overhead(Path(tmp), args.rounds, args.steps)
    result = {"loadavg": loadavg(), "per_call_ns": calls, "transformer": transformer}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"load average {result['loadavg']}")
    noop = calls["noop_hooks"]
    print("(a) per module call (ns, min of repeats):")
    print(f"    no hooks               {calls['no_hooks']:8.0f}")
    print(f"    no-op pre+post hooks   {noop:8.0f}   (anchor)")
    for name in ("forward_only", "default_no_grad"):
        ratio = calls[name] / noop
        verdict = "ok" if ratio <= 1.5 else "MISSED"
        print(f"    {name:22s} {calls[name]:8.0f}   {ratio:.2f}x the anchor (<= 1.5x {verdict})")
    t = transformer
    low, high = t["ratio_ci95"]
    verdict = "ok" if high <= 1.05 else ("MISSED" if low > 1.05 else "inconclusive")
    print(f"(b) TransformerEncoder, {t['modules']} modules, {t['rounds']} interleaved rounds:")
    print(f"    step median {t['step_ms_off_median']:.2f} ms without, "
          f"{t['step_ms_on_median']:.2f} ms with forward+backward profiling")  # fmt: skip
    added = f"{100 * (t['ratio'] - 1):+.2f} %"
    interval = f"[95 % CI {100 * (low - 1):+.2f}, {100 * (high - 1):+.2f}]"
    print(f"    added {added} {interval} (<= +5 % {verdict})")


if __name__ == "__main__":
    main()
