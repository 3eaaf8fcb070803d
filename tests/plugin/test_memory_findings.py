"""The memory rules on synthetic series with known answers: a leak's slope and interval, clean
series with allocator / RSS creep and noise that must stay quiet, a one-off jump, warm-up,
fragmentation and the peak (docs/FINDINGS.md, "Memory findings")."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from tb_perf_plugin.analysis.findings import DEFAULT_THRESHOLDS, AnalysisInputs
from tb_perf_plugin.analysis.memory import (
    RankMemory,
    bucketed,
    mann_kendall,
    rank_memory,
    theil_sen,
    trend,
)
from tb_perf_plugin.analysis.memory_rules import memory_fragmentation, memory_leak, memory_peak
from tb_perf_plugin.analysis.rules import find_all

GIB, MIB, KIB = 1024**3, 1024**2, 1024


def cpu(rss: np.ndarray) -> RankMemory:
    n = len(rss)
    nan = np.full(n, np.nan)
    return RankMemory(0, "cpu", np.arange(n), np.arange(n) * 10**8, nan, nan, nan, nan, nan,
                      np.asarray(rss, dtype=np.float64))  # fmt: skip


def cuda(allocated, reserved=None, peak=None, retries=None, ooms=None, total=None) -> RankMemory:
    allocated = np.asarray(allocated, dtype=np.float64)
    n = len(allocated)

    def column(values, default):
        return np.asarray(default if values is None else values, dtype=np.float64)

    return RankMemory(
        0, "cuda:0", np.arange(n), np.arange(n) * 10**8, allocated,
        column(reserved, allocated), column(peak, allocated), column(retries, np.zeros(n)),
        column(ooms, np.zeros(n)), np.full(n, 3.0 * GIB), device_total=total,
    )  # fmt: skip


def inputs(memory: RankMemory) -> AnalysisInputs:
    return AnalysisInputs(memory={memory.rank: memory})


def leaks(memory: RankMemory) -> list:
    return memory_leak(inputs(memory), DEFAULT_THRESHOLDS)


@pytest.fixture
def rng() -> np.random.Generator:
    """Each test's own noise: its series do not depend on which tests ran before it."""
    return np.random.default_rng(7)


def test_theil_sen_and_mann_kendall_against_brute_force():
    x = np.array([0, 1, 2, 3, 5, 8, 9], dtype=float)
    y = np.array([1.0, 3.0, 2.0, 7.0, 9.0, 20.0, 18.0])
    pairs = [(y[j] - y[i]) / (x[j] - x[i]) for i, j in itertools.combinations(range(7), 2)]
    slope, intercept, low, high = theil_sen(x, y)
    assert slope == np.median(pairs)
    assert intercept == np.median(y - slope * x)
    assert min(pairs) <= low <= slope <= high <= max(pairs)
    s, tau, p = mann_kendall(y)
    signs = [np.sign(y[j] - y[i]) for i, j in itertools.combinations(range(7), 2)]
    assert s == sum(signs) == 17 and tau == pytest.approx(17 / 21)
    # n = 7 without ties: Var(S) = 7*6*19/18 = 44.33; z = (17 - 1) / sqrt(44.33) = 2.403
    assert p == pytest.approx(0.00813, abs=2e-4)
    assert mann_kendall(np.ones(10))[2] == 1.0  # all tied: no trend


def test_leak_of_one_mib_per_step_is_found_with_its_slope(rng):
    steps = 60
    rss = 400 * MIB + np.arange(steps) * MIB + rng.normal(0, 200 * KIB, steps)
    (finding,) = leaks(cpu(rss))
    evidence = finding.evidence
    assert evidence["slope"]["value"] == pytest.approx(MIB, rel=0.02)
    assert evidence["slope_low"]["value"] < MIB < evidence["slope_high"]["value"]
    assert evidence["series"]["value"] == "rss" and float(evidence["p_value"]["value"]) < 1e-6
    assert evidence["first_step"]["value"] == 6  # warm-up: 10 % of 60
    assert "device_total" not in evidence  # the host's memory is not known
    assert finding.severity == "warning" and finding.title.startswith("Rank 0's resident memory")


@pytest.mark.parametrize("creep", [1 * KIB, 2 * KIB, 3 * KIB])
def test_clean_series_with_allocator_creep_stays_quiet(creep, rng):
    """A clean loop's RSS creeps 0.2-3 KB a step (measured here) with page-sized noise, and
    a trend that steady is highly significant: only the minimum effect keeps it quiet."""
    steps = 500
    rss = 300 * MIB + np.arange(steps) * creep + rng.integers(0, 64, steps) * 4096
    memory = cpu(rss)
    fit = trend(memory, 0.1, 3, 8)
    assert fit is not None and fit.p_value < 0.01 and fit.low > 0  # significant...
    assert leaks(memory) == []  # ...but small


def test_noise_without_trend_and_a_one_off_jump_stay_quiet(rng):
    noise = 2 * GIB + rng.normal(0, 50 * MIB, 200)
    assert leaks(cpu(noise)) == []
    # a cache filled once (200 MiB at step 100) is not a leak: the slope's interval holds 0
    jump = np.where(np.arange(200) < 100, 1 * GIB, 1 * GIB + 200 * MIB).astype(float)
    assert leaks(cuda(jump + rng.normal(0, MIB, 200))) == []
    # growth that stopped halfway: the second half of the window is flat
    stopped = 1 * GIB + np.minimum(np.arange(200), 100) * MIB + rng.normal(0, 64 * KIB, 200)
    assert leaks(cuda(stopped)) == []


def test_warm_up_growth_is_left_out():
    """Memory that grows while the first 10 % of the steps warm up, then stays flat."""
    allocated = np.r_[np.arange(20) * 50 * MIB, np.full(180, 19 * 50 * MIB)] + 2 * GIB
    assert leaks(cuda(allocated)) == []


def test_cuda_leak_projects_out_of_memory_and_is_critical_when_near():
    steps = np.arange(100)
    allocated = 10 * GIB + steps * 40 * MIB
    memory = cuda(allocated, reserved=allocated + GIB, total=16 * GIB)
    (finding,) = leaks(memory)
    evidence = finding.evidence
    # reserved at step 99: 10 GiB + 99*40 MiB + 1 GiB; 16 GiB are reached (16-14.87)/40 MiB later
    left = (16 * GIB - (11 * GIB + 99 * 40 * MIB)) / (40 * MIB)
    assert evidence["out_of_memory_at_step"]["value"] == int(99 + left)
    assert evidence["series"]["value"] == "allocated"
    assert finding.severity == "critical"  # within 10x the 90 steps seen
    slow = cuda(1 * GIB + steps * 100 * KIB, total=80 * GIB)
    assert leaks(slow) == []  # 100 KiB/step over 90 steps: 8.8 MiB < 16 MiB minimum growth


def test_fragmentation_rule():
    t = DEFAULT_THRESHOLDS
    flat = np.full(50, 2.0 * GIB)
    (found,) = memory_fragmentation(inputs(cuda(flat, 10 * GIB + 0 * flat, 3 * GIB + 0 * flat)), t)
    assert found.evidence["unused_fraction"]["value"] == 0.7
    assert found.evidence["unused"] == {"value": 7 * GIB, "unit": "bytes"}
    # the cache is about the peak: nothing to report
    assert (
        memory_fragmentation(inputs(cuda(flat, 3.2 * GIB + 0 * flat, 3 * GIB + 0 * flat)), t) == []
    )
    # 40 % unused but only 400 MiB: small
    small = cuda(flat / 8, 1000 * MIB + 0 * flat, 600 * MIB + 0 * flat)
    assert memory_fragmentation(inputs(small), t) == []
    # cudaMalloc retries during the steady steps
    retries = np.r_[np.zeros(25), np.full(25, 3.0)]
    (found,) = memory_fragmentation(inputs(cuda(flat, flat * 1.1, flat, retries)), t)
    assert found.evidence["alloc_retries"]["value"] == 3 and "retried" in found.title
    assert memory_fragmentation(inputs(cpu(np.full(50, GIB))), t) == []


def test_peak_rule():
    t = DEFAULT_THRESHOLDS
    allocated = np.full(20, 10.0 * GIB)
    high = cuda(allocated, peak=np.r_[np.full(19, 12.0 * GIB), [14.6 * GIB]], total=16 * GIB)
    (found,) = memory_peak(inputs(high), t)
    assert found.severity == "warning" and found.steps == [19]
    assert found.evidence["peak_share"]["value"] == pytest.approx(14.6 / 16, abs=1e-4)
    assert memory_peak(inputs(cuda(allocated, total=16 * GIB)), t) == []  # 62 %
    assert memory_peak(inputs(cuda(allocated)), t) == []  # no device total, no OOM
    oom = cuda(allocated, ooms=np.r_[np.zeros(10), np.ones(10)])
    (found,) = memory_peak(inputs(oom), t)
    assert found.severity == "critical" and "ran out of CUDA memory" in found.title


def test_findings_are_registered_and_sorted():
    memory = cuda(np.arange(60) * 40 * MIB + 10 * GIB, total=16 * GIB,
                  ooms=np.ones(60))  # fmt: skip
    kinds = [(f.kind, f.severity) for f in find_all(inputs(memory))]
    assert kinds[0][1] == "critical" and {k for k, _ in kinds} >= {"memory_leak", "memory_peak"}


def test_rank_memory_uses_the_longest_writer_and_bucketing():
    rows = [(0, s, 10**9 + s, "cpu", 100.0 + s, 0) for s in range(5)]
    rows += [(0, s, 2 * 10**9 + s, "cpu", 999.0, 1) for s in range(3)]  # a restart, 3 samples
    table = pd.DataFrame(rows, columns=["rank", "step", "t", "device", "rss", "writer"])
    for column in ("allocated", "reserved", "peak", "retries", "ooms"):
        table[column] = np.nan
    memory = rank_memory(table, 0)
    assert memory.rss.tolist() == [100, 101, 102, 103, 104] and not memory.cuda
    assert rank_memory(table, 1) is None
    values = np.array([1.0, np.nan, 3.0, np.nan, np.nan, np.nan, 4.0])
    means = bucketed(values, 2)
    assert means[[0, 1, 3]].tolist() == [1.0, 3.0, 4.0] and np.isnan(means[2])
    highest = bucketed(values, 3, "max")
    assert highest[[0, 2]].tolist() == [3.0, 4.0] and np.isnan(highest[1])
