"""Comparing two runs: is the candidate faster or slower than the baseline, and where?

Pure functions over what the service already computes for each run (step times, the
breakdown, the operators/kernels/modules/memory/gpu/findings answers), gathered in `RunFacts`.
The step-time verdict rests on a bootstrap interval of the ratio of medians, so that a CI gate
fires on regressions that are real, not on noise. Fields and formulas: docs/DIFF.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .kernel_names import short_kernel_name

ALPHA = 0.01  # a 99 % interval
RESAMPLES = 4000
SEED = 20240607  # fixed: the same runs always give the same interval
NO_CHANGE = (0.95, 1.05)
MAX_ROWS = 500  # rows of each delta table
_CHUNK_VALUES = 4_000_000  # resampled values held at once
# Breakdown categories as users know them (the headline's "mostly ..." part).
CATEGORY_NAMES = {
    "compute": "GPU compute",
    "communication": "communication",
    "memcpy": "memcpy",
    "memset": "memset",
    "runtime": "CUDA runtime",
    "dataloader": "DataLoader",
    "cpu": "CPU ops",
    "idle": "idle",
}
REST = "(other)"  # the part of a step no category or top-level span covers


@dataclass
class RunFacts:
    """One run's inputs to the diff. Times in ns; `categories` are per-step means (they add up
    to the mean step time, which medians would not)."""

    name: str
    step_times: dict[int, dict[int, int]]  # rank -> step -> step time
    categories: dict[str, float] = field(default_factory=dict)
    category_source: str | None = None  # "breakdown" or "spans" (MyTimer top-level spans)
    # rank -> step -> category (or top-level span name) -> ns: the same source, per step
    step_parts: dict[int, dict[int, dict[str, float]]] = field(default_factory=dict)
    traced_steps: float = 1.0  # steps the trace tables cover, per rank (per-step divisor)
    # name, calls, total_ns, annotation (ProfilerStep#N, record_function, MyTimer: not diffed)
    operators: list[dict[str, Any]] = field(default_factory=list)
    kernels: list[dict[str, Any]] = field(default_factory=list)  # name, calls, total_ns
    modules: list[dict[str, Any]] = field(default_factory=list)  # path, phase, total_ns
    module_steps: float = 1.0
    memory: dict[str, float | None] = field(default_factory=dict)
    gpu: dict[str, float | None] = field(default_factory=dict)
    findings: list[dict[str, Any]] = field(default_factory=list)
    # collective_table rows across ranks (point-to-point included): name, group, calls,
    # total_ns, mean_ns, algo_bandwidth, bus_bandwidth
    collectives: list[dict[str, Any]] = field(default_factory=list)

    @property
    def world(self) -> list[int]:
        """Every rank the run has data of, with steps or not."""
        return sorted(self.step_times)

    @property
    def ranks(self) -> list[int]:
        """The ranks with completed steps."""
        return sorted(r for r, steps in self.step_times.items() if steps)


def run_step_times(facts: RunFacts) -> np.ndarray:
    """The run's time per step: the slowest rank's, since ranks wait for each other at the
    step's collectives (a single rank: its own)."""
    slowest: dict[int, int] = {}
    for steps in facts.step_times.values():
        for step, ns in steps.items():
            slowest[step] = max(slowest.get(step, 0), ns)
    return np.array([slowest[s] for s in sorted(slowest)], dtype=np.float64)


def _bootstrap_medians(values: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    out = np.empty(n)
    rows = max(1, _CHUNK_VALUES // max(len(values), 1))
    for first in range(0, n, rows):
        count = min(rows, n - first)
        picks = rng.integers(0, len(values), size=(count, len(values)))
        out[first : first + count] = np.median(values[picks], axis=1)
    return out


def ratio_interval(
    baseline: np.ndarray,
    candidate: np.ndarray,
    alpha: float = ALPHA,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> tuple[float, float, float]:
    """r = median(candidate) / median(baseline) and its percentile-bootstrap (1 - alpha)
    interval: each run's steps resampled with replacement, independently, `resamples` times,
    with a fixed seed so that a gate gives the same answer on the same data."""
    rng = np.random.default_rng(seed)
    ratio = float(np.median(candidate) / np.median(baseline))
    ratios = _bootstrap_medians(candidate, rng, resamples) / _bootstrap_medians(
        baseline, rng, resamples
    )
    low, high = np.quantile(ratios, [alpha / 2, 1 - alpha / 2])
    return ratio, float(low), float(high)


def verdict(low: float, high: float) -> str:
    """slower: the whole interval above 1; faster: below 1; no change: inside [0.95, 1.05];
    inconclusive otherwise."""
    if low > 1:
        return "slower"
    if high < 1:
        return "faster"
    if NO_CHANGE[0] <= low and high <= NO_CHANGE[1]:
        return "no change"
    return "inconclusive"


def steps_to_settle(ratio: float, low: float, high: float, steps: int) -> int | None:
    """Steps per run that would likely settle an inconclusive interval.

    The interval's half-width w on the log scale shrinks as 1/sqrt(n) with n steps per run.
    It settles when w falls below |log r| (the interval leaves 1: slower/faster) or below the
    distance from log r to the nearer edge of [log 0.95, log 1.05] (no change); with n steps
    now, that takes n × (w / target)² steps, the smaller of the two where both are possible.
    An estimate assuming the ratio stays where it is; None where neither can settle.
    """
    half = (math.log(high) - math.log(low)) / 2
    center = math.log(ratio)
    targets = [abs(center)]
    if NO_CHANGE[0] < ratio < NO_CHANGE[1]:
        targets.append(min(math.log(NO_CHANGE[1]) - center, center - math.log(NO_CHANGE[0])))
    targets = [t for t in targets if t > 0]
    if not targets or half <= 0:
        return None
    return max(steps + 1, math.ceil(steps * (half / max(targets)) ** 2))


def _ms(ns: float) -> str:
    sign = "−" if ns < 0 else "+"
    return f"{sign}{abs(ns) / 1e6:.0f} ms" if abs(ns) >= 1e6 else f"{sign}{abs(ns) / 1e3:.0f} µs"


def _slowest_ranks(facts: RunFacts) -> dict[int, tuple[int, int]]:
    """Step -> (step time, the rank that set it): the slowest rank (the lowest of equals)."""
    out: dict[int, tuple[int, int]] = {}
    for rank in sorted(facts.step_times):
        for step, ns in facts.step_times[rank].items():
            if step not in out or ns > out[step][0]:
                out[step] = (ns, rank)
    return out


def _parts_of(facts: RunFacts, rank: int, step: int, ns: float) -> dict[str, float] | None:
    """The step's parts on `rank` with the rest of its time as REST (they sum to `ns`);
    None when the source does not cover that step."""
    parts = facts.step_parts.get(rank, {}).get(step)
    if parts is None:
        return None
    out = dict(parts)
    out[REST] = out.get(REST, 0.0) + ns - sum(parts.values())
    return out


def median_step_parts(facts: RunFacts) -> dict[str, float] | None:
    """The run's median step split into parts, adding up to its median step time.

    The steps ordered by time (then number): the middle one, or the mean of the two middle
    ones, whose mean time is the median. A step's parts are the slowest rank's categories (or
    top-level spans) in that step, and REST for the time they leave. A middle step the source
    does not cover (outside the traced windows) is stood in for by the covered step nearest in
    time, its parts scaled to the middle step's time. None when no step is covered.
    """
    slowest = _slowest_ranks(facts)
    if not slowest or not facts.step_parts:
        return None
    order = sorted(slowest, key=lambda s: (slowest[s][0], s))
    covered = {s: p for s in order if (p := _parts_of(facts, slowest[s][1], s, slowest[s][0]))}
    if not covered:
        return None
    middle = {order[(len(order) - 1) // 2], order[len(order) // 2]}
    total: dict[str, float] = {}
    for step in sorted(middle):
        ns = slowest[step][0]
        stand_in = min(covered, key=lambda s: (abs(slowest[s][0] - ns), s))
        scale = ns / slowest[stand_in][0] if slowest[stand_in][0] else 0.0
        for name, part in covered[stand_in].items():
            total[name] = total.get(name, 0.0) + part * scale / len(middle)
    return total


def attribute(baseline: RunFacts, candidate: RunFacts) -> list[dict[str, Any]]:
    """The median difference, part by part: `{category, baseline_ns, candidate_ns, delta_ns}`
    of each run's median step (`median_step_parts`); the deltas add up to the difference of
    the medians (REST left out where it is 0 in both). Empty when the runs' sources differ or
    either has no covered step."""
    if baseline.category_source != candidate.category_source:
        return []
    old, new = median_step_parts(baseline), median_step_parts(candidate)
    if old is None or new is None:
        return []
    names = [n for n in dict.fromkeys([*old, *new]) if n != REST] + [REST]
    rows = []
    for name in names:
        b, c = old.get(name, 0.0), new.get(name, 0.0)
        if name == REST and round(b) == 0 and round(c) == 0:
            continue  # the parts cover both median steps
        rows.append({"category": name, "baseline_ns": round(b), "candidate_ns": round(c),
                     "delta_ns": round(c - b)})  # fmt: skip
    return rows


def _part_name(name: str, source: str | None) -> str:
    return CATEGORY_NAMES.get(name, name) if source == "breakdown" else name


def _change(delta_ns: int, parts: list[dict[str, Any]], source: str | None) -> str:
    """ ", median step −19 ms, mostly data −16 ms": the median difference and its largest part
    in the same direction, and what the other parts add when that part exceeds the whole by
    5 % or more."""
    text = f", median step {_ms(delta_ns)}"
    same = [p for p in parts if p["delta_ns"] * delta_ns > 0]
    if not same:
        return text
    top = max(same, key=lambda p: (abs(p["delta_ns"]), p["category"] != REST))
    text += f", mostly {_part_name(top['category'], source)} {_ms(top['delta_ns'])}"
    rest = delta_ns - top["delta_ns"]
    if rest * delta_ns < 0 and abs(rest) >= 0.05 * abs(delta_ns):
        text += f" (other parts {_ms(rest)})"
    return text


def headline(step: dict[str, Any], parts: list[dict[str, Any]], source: str | None) -> str:
    """One sentence: the verdict, the factor with its interval (a speed-up as 1/r, so that
    "1.32× faster" reads as users expect), the median step's change and its largest part
    (`attribute`: the parts add up to the median difference)."""
    ratio, (low, high) = step["ratio"], step["ci"]
    if ratio is None:
        return "no step times to compare"
    change = _change(step["median_delta_ns"], parts, source)
    if step["verdict"] == "faster":
        factor = f"{1 / ratio:.2f}× faster per step [{1 / high:.2f}, {1 / low:.2f}]"
        return f"candidate is {factor}{change}"
    if step["verdict"] == "slower":
        return f"candidate is {ratio:.2f}× slower per step [{low:.2f}, {high:.2f}]{change}"
    if step["verdict"] == "no change":
        return f"no change per step: {ratio:.3f}× [{low:.3f}, {high:.3f}]{change}"
    settle = step["steps_to_settle"]
    more = f"; about {settle} steps per run would settle it" if settle else ""
    return f"inconclusive: {ratio:.2f}× per step [{low:.2f}, {high:.2f}]{change}{more}"


def _distribution(values: np.ndarray) -> dict[str, Any]:
    if not len(values):
        return {"steps": 0, "median_ns": None, "p95_ns": None}
    ordered = np.sort(values)
    p95 = ordered[max(math.ceil(0.95 * len(ordered)) - 1, 0)]
    return {"steps": len(values), "median_ns": round(float(np.median(values))),
            "p95_ns": round(float(p95))}  # fmt: skip


def compare_step_times(baseline: np.ndarray, candidate: np.ndarray) -> dict[str, Any]:
    """Both runs' step-time distributions, the ratio of medians, its interval and verdict."""
    body: dict[str, Any] = {"baseline": _distribution(baseline),
                            "candidate": _distribution(candidate), "ratio": None,
                            "ci": [None, None], "alpha": ALPHA, "verdict": "inconclusive",
                            "steps_to_settle": None, "median_delta_ns": None}  # fmt: skip
    if len(baseline) < 2 or len(candidate) < 2:
        return body
    body["median_delta_ns"] = round(float(np.median(candidate) - np.median(baseline)))
    ratio, low, high = ratio_interval(baseline, candidate)
    body.update(
        ratio=round(ratio, 4), ci=[round(low, 4), round(high, 4)], verdict=verdict(low, high)
    )
    if body["verdict"] == "inconclusive":
        body["steps_to_settle"] = steps_to_settle(
            ratio, low, high, max(len(baseline), len(candidate))
        )
    return body


def _operators_only(facts: RunFacts) -> list[dict[str, Any]]:
    """The run's operators without its annotations: step markers (`ProfilerStep#N`, numbered
    differently in each run) and user spans are not operators that changed."""
    return [row for row in facts.operators if not row.get("annotation", False)]


def _rows(
    baseline: list[dict[str, Any]],
    candidate: list[dict[str, Any]],
    keys: tuple[str, ...],
    per_b: float,
    per_c: float,
    calls: bool,
) -> list[dict[str, Any]]:
    """Per key, both runs' time (and calls) per step, the delta and whether the row is new,
    vanished or changed; largest absolute delta first."""

    def index(rows: list[dict[str, Any]]) -> dict[tuple, dict[str, Any]]:
        return {tuple(r[k] for k in keys): r for r in rows}

    b, c = index(baseline), index(candidate)
    out = []
    for key in b.keys() | c.keys():
        old, new = b.get(key), c.get(key)
        old_ns = old["total_ns"] / per_b if old else 0.0
        new_ns = new["total_ns"] / per_c if new else 0.0
        row = dict(zip(keys, key, strict=True))
        row.update(baseline_ns=round(old_ns), candidate_ns=round(new_ns),
                   delta_ns=round(new_ns - old_ns))  # fmt: skip
        if calls:
            row["baseline_calls"] = round(old["calls"] / per_b, 2) if old else 0
            row["candidate_calls"] = round(new["calls"] / per_c, 2) if new else 0
        row["status"] = "new" if old is None else "vanished" if new is None else "changed"
        out.append(row)
    out.sort(key=lambda r: (-abs(r["delta_ns"]), str(r[keys[0]])))
    return out


def _collective_rows(
    baseline: list[dict[str, Any]], candidate: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per collective kind and process group, both runs' calls, mean time and bandwidths
    (bytes per second), whether it is new, vanished or in both; the most time (in either
    run) first."""
    b = {(r["name"], r["group"]): r for r in baseline}
    c = {(r["name"], r["group"]): r for r in candidate}
    out = []
    for key in b.keys() | c.keys():
        old, new = b.get(key, {}), c.get(key, {})
        out.append({
            "name": key[0],
            "group": key[1],
            "status": "new" if not old else "vanished" if not new else "changed",
            "calls": {"baseline": old.get("calls"), "candidate": new.get("calls")},
            **{k: _side(old.get(k), new.get(k))
               for k in ("mean_ns", "algo_bandwidth", "bus_bandwidth")},
            "total_ns": max(old.get("total_ns", 0), new.get("total_ns", 0)),
        })  # fmt: skip
    out.sort(key=lambda r: (-r["total_ns"], r["name"], r["group"] or ""))
    for row in out:
        del row["total_ns"]
    return out


def _side(b: float | None, c: float | None, digits: int = 0) -> dict[str, Any]:
    def fmt(v: float | None) -> float | None:
        return None if v is None else (round(v) if digits == 0 else round(v, digits))

    delta = None if b is None or c is None else fmt(c - b)
    return {"baseline": fmt(b), "candidate": fmt(c), "delta": delta}


def _balance(facts: RunFacts) -> dict[str, Any]:
    """Straggler spread: per step, (slowest - fastest rank) / median rank; its median."""
    steps: dict[int, list[int]] = {}
    for rank_steps in facts.step_times.values():
        for step, ns in rank_steps.items():
            steps.setdefault(step, []).append(ns)
    spreads = [(max(v) - min(v)) / float(np.median(v)) for v in steps.values() if len(v) > 1]
    medians = {r: float(np.median(list(s.values()))) for r, s in facts.step_times.items() if s}
    slowest = max(medians, key=lambda r: medians[r]) if len(medians) > 1 else None
    return {"spread": round(float(np.median(spreads)), 4) if spreads else None,
            "slowest_rank": slowest}  # fmt: skip


def representative_step(facts: RunFacts, steps: set[int] | None = None) -> dict[str, Any] | None:
    """The step whose time is nearest the run's median (among `steps` when given): a typical
    step to open in the timeline."""
    times: dict[int, int] = {}
    for rank_steps in facts.step_times.values():
        for step, ns in rank_steps.items():
            if steps is None or step in steps:
                times[step] = max(times.get(step, 0), ns)
    if not times:
        return None
    median = float(np.median(list(times.values())))
    step = min(times, key=lambda s: (abs(times[s] - median), s))
    return {"run": facts.name, "step": step}


def compare(baseline: RunFacts, candidate: RunFacts) -> dict[str, Any]:
    """The diff answer (docs/DIFF.md): candidate minus baseline throughout."""
    b_ranks, c_ranks = baseline.world, candidate.world
    matched = sorted(set(b_ranks) & set(c_ranks)) if len(b_ranks) == len(c_ranks) else []
    note = None
    unstepped = [side for side, facts in (("baseline", baseline), ("candidate", candidate))
                 if not facts.ranks]  # fmt: skip
    if len(b_ranks) != len(c_ranks):
        note = (
            f"world sizes differ ({len(b_ranks)} vs {len(c_ranks)} ranks): compared on "
            "per-step aggregates (the slowest rank's step time), ranks not matched"
        )
    elif matched != b_ranks:
        note = f"rank numbers differ ({b_ranks} vs {c_ranks}): only {matched} are matched"
    elif unstepped:
        note = (
            f"the {' and the '.join(unstepped)} {'have' if len(unstepped) > 1 else 'has'} no "
            "completed steps (no MyTimer step, no ProfilerStep#N): step times are not compared"
        )
    step = compare_step_times(run_step_times(baseline), run_step_times(candidate))
    source = baseline.category_source or candidate.category_source
    categories: list[dict[str, Any]] = []
    if baseline.category_source == candidate.category_source:
        for name in dict.fromkeys([*baseline.categories, *candidate.categories]):
            old, new = baseline.categories.get(name, 0.0), candidate.categories.get(name, 0.0)
            categories.append({"category": name, "baseline_ns": round(old),
                               "candidate_ns": round(new),
                               "delta_ns": round(new - old)})  # fmt: skip
    attribution = attribute(baseline, candidate)
    step["headline"] = headline(step, attribution, source)
    per_b, per_c = baseline.traced_steps, candidate.traced_steps
    operators = _rows(_operators_only(baseline), _operators_only(candidate), ("name",),
                      per_b, per_c, True)  # fmt: skip
    kernels = _rows(baseline.kernels, candidate.kernels, ("name",), per_b, per_c, True)
    for row in kernels:
        row["short_name"] = short_kernel_name(row["name"])
    modules = _rows(baseline.modules, candidate.modules, ("path", "phase"),
                    baseline.module_steps, candidate.module_steps, False)  # fmt: skip
    collectives = _collective_rows(baseline.collectives, candidate.collectives)
    b_keys = {f["key"]: f for f in baseline.findings}
    c_keys = {f["key"]: f for f in candidate.findings}

    def brief(f: dict[str, Any]) -> dict[str, Any]:
        return {k: f[k] for k in ("key", "kind", "severity", "title")}

    b_balance, c_balance = _balance(baseline), _balance(candidate)
    common = set(step_numbers(baseline)) & set(step_numbers(candidate))
    return {
        "baseline": baseline.name,
        "candidate": candidate.name,
        "ranks": {
            "matched": matched,
            "baseline_world": len(b_ranks),
            "candidate_world": len(c_ranks),
            "note": note,
        },  # fmt: skip
        "step_time": step,
        "category_source": source if categories else None,
        "categories": categories,
        "attribution": attribution,
        "per_step": {"baseline": round(per_b, 2), "candidate": round(per_c, 2)},
        "operators": operators[:MAX_ROWS],
        "operators_total": len(operators),
        "kernels": kernels[:MAX_ROWS],
        "kernels_total": len(kernels),
        "modules": modules[:MAX_ROWS],
        "modules_total": len(modules),
        "collectives": collectives[:MAX_ROWS],
        "collectives_total": len(collectives),
        "memory": {
            k: _side(baseline.memory.get(k), candidate.memory.get(k))
            for k in ("peak_bytes", "reserved_bytes", "slope_bytes_per_step")
        },  # fmt: skip
        "gpu": {
            k: _side(baseline.gpu.get(k), candidate.gpu.get(k), 4)
            for k in ("trace_utilization", "tracker_utilization")
        },  # fmt: skip
        "balance": {
            "spread": _side(b_balance["spread"], c_balance["spread"], 4),
            "slowest_rank": {
                "baseline": b_balance["slowest_rank"],
                "candidate": c_balance["slowest_rank"],
            },  # fmt: skip
            "ranks": [
                {"rank": r, **_side(_rank_median(baseline, r), _rank_median(candidate, r))}
                for r in matched
            ],
        },
        "findings": {
            "appeared": [brief(c_keys[k]) for k in c_keys if k not in b_keys],
            "disappeared": [brief(b_keys[k]) for k in b_keys if k not in c_keys],
            "kept": [brief(c_keys[k]) for k in c_keys if k in b_keys],
        },
        "links": {
            "baseline_step": representative_step(baseline, common or None),
            "candidate_step": representative_step(candidate, common or None),
        },
    }


def step_numbers(facts: RunFacts) -> set[int]:
    """Step numbers any rank of the run recorded."""
    return {s for steps in facts.step_times.values() for s in steps}


def _rank_median(facts: RunFacts, rank: int) -> float | None:
    steps = facts.step_times.get(rank)
    return float(np.median(list(steps.values()))) if steps else None
