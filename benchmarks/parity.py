"""Parity with torch-tb-profiler 0.4.3, measured: its own loader and our analysis on every
shared trace, side by side.

    python benchmarks/parity.py [--traces NAME,...] [--timeout S] [--json]
    python benchmarks/parity.py --record tests/fixtures/parity/

Per trace file: torch-tb-profiler's `RunProfileData.parse` + `RunGenerator.generate_run_profile`
(what its loader runs per file; in a child process, so a trace it cannot read or a hang is one
row, not the end of the run) against a fresh `RunStore` on a one-file run, read through the
views the CLI uses (`overview.summary`, `breakdown`) and the analysis behind the Operators and
Kernels views. Compared: step count and mean step time, category shares, GPU utilization / est.
SM efficiency / est. achieved occupancy, operator host and device totals, kernel totals.
Tolerances and every difference above them, by definition: docs/PARITY.md.

`--record DIR` writes torch-tb-profiler's numbers for the V100 ResNet-50 samples (PINNED) to
DIR/torch_tb_profiler_0.4.3.json, which tests/plugin/test_parity.py compares our live analysis
to without needing torch-tb-profiler installed.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import SHARED_DATA, loadavg  # noqa: E402

TBP_VERSION = "0.4.3"
FIXTURE_NAME = f"torch_tb_profiler_{TBP_VERSION}.json"
KINETO = "traces/pytorch__kineto/tb_plugin"
HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
TRACELENS = "traces/AMD-AGI__TraceLens/tests/traces"
# Every trace file of ../shared/data (SOURCES.md), by a short name.
TRACES = {
    "v100_w0_a": f"{KINETO}/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
    "v100_w0_b": f"{KINETO}/samples/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz",
    "v100_w4_a": f"{KINETO}/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
    "v100_w4_b": f"{KINETO}/samples/resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz",
    "gpu_metrics_input": f"{KINETO}/test/gpu_metrics_input.json",
    "df_index_resolver": f"{HTA}/df_index_resolver/df_index_resolver.json.gz",
    "nccl_data": f"{HTA}/nccl_parser_config/nccl_data.json.gz",
    "sampled_rank-0": f"{HTA}/trace_filter/sampled_rank-0.json.gz",
    "sampled_rank-1": f"{HTA}/trace_filter/sampled_rank-1.json.gz",
    "simple_add": f"{HTA}/critical_path/simple_add/benchmark_result_493459_1694039959_trace"
    ".json.gz",
    "triton_example": f"{HTA}/triton_example/triton_example.json.gz",
    "mi250": f"{HTA}/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
    "mtia_rank_0": f"{HTA}/mtia_trace_single_rank/mtia_rank_0.json.gz",
    "cpu_only": f"{HTA}/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
    "rank_non_gpu": f"{HTA}/rank_non_gpu/rank_non_gpu.json.gz",
    "backward_thread": f"{HTA}/call_stack/backward_thread.json",
    "b200": f"{TRACELENS}/b200/eager_trace.json.gz",
    "mi300": f"{TRACELENS}/mi300/resnet_act_checkpoint.json.gz",
}
PINNED = ("v100_w0_a", "v100_w0_b", "v100_w4_a", "v100_w4_b")  # the test's traces

# Our breakdown categories -> torch-tb-profiler's overview roles (its ProfileRole names).
ROLES = {
    "compute": "Kernel",
    "memcpy": "Memcpy",
    "memset": "Memset",
    "communication": "Communication",
    "runtime": "Runtime",
    "dataloader": "DataLoader",
    "cpu": "CPU Exec",
    "idle": "Other",
}
# Allowed |ours - theirs| per metric (docs/PARITY.md, "Tolerances"): points for shares and
# GPU metrics, percent of theirs for times, exact for counts and kernel totals. A difference
# beyond these is explained by definition in docs/PARITY.md under the metric's section.
TOLERANCE = {
    "steps": 0.0,  # count
    "step_mean": 1.0,  # % of theirs
    "share": 1.0,  # points
    "gpu": 1.0,  # points
    "op_host": 0.01,  # % of theirs: both sum the same µs fields
    "op_device": 1.0,  # % of theirs
    "kernel": 0.0,  # calls and µs, exact
}


# ------------------------------------------------------------------------------------------
# torch-tb-profiler's side (the bench extra; imported only in the child process)


def tbp_numbers(path: str) -> dict[str, Any]:
    """torch-tb-profiler's numbers for one trace file, as its loader computes them (µs)."""
    from torch_tb_profiler.profiler.data import RunProfileData
    from torch_tb_profiler.profiler.event_parser import ProfileRole
    from torch_tb_profiler.profiler.run_generator import RunGenerator

    with tempfile.TemporaryDirectory() as cache_dir:
        data = RunProfileData.parse("worker0", None, path, cache_dir)
        RunGenerator("worker0", None, data).generate_run_profile()
    costs = data.avg_costs.costs
    total = costs[ProfileRole.Total]
    # its role enum names our labels, but for "CPU Exec"
    role = {
        label: ProfileRole["CpuOp" if label == "CPU Exec" else label] for label in ROLES.values()
    }
    gpu = data.gpu_metrics_parser
    kernels: dict[str, list[float]] = {}
    if data.kernel_stat is not None:
        for name, row in data.kernel_stat.iterrows():
            kernels[str(name)] = [int(row["count"]), float(row["sum"])]
    return {
        "steps": {"count": len(data.steps_costs), "mean_us": float(total)},
        "shares": {name: _pct(costs[r], total) for name, r in role.items()},
        "gpu": {
            str(d): {
                "utilization": 100 * gpu.gpu_utilization[d],
                "sm_efficiency": _scaled(gpu.avg_approximated_sm_efficiency_per_device[d], 100),
                "occupancy": _scaled(gpu.avg_occupancy_per_device[d], 1),
            }
            for d in sorted(gpu.gpu_ids)
        },
        "operators": {
            o.name: [
                o.calls,
                o.self_host_duration,
                o.host_duration,
                o.self_device_duration,
                o.device_duration,
            ]
            for o in data.op_list_groupby_name
        },
        "kernels": kernels,
    }


def _pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else 0.0


def _scaled(value: float | None, factor: float) -> float | None:
    return None if value is None else factor * value


def run_tbp(path: Path, timeout: float) -> dict[str, Any]:
    """tbp_numbers in a fresh process: {"status": "ok", "numbers": ..., "seconds": ...}, or
    the failure ("error" with its last line, "timeout")."""
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--tbp-child", str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "message": f"no answer in {timeout:.0f} s"}
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        return {"status": "error", "message": lines[-1] if lines else f"exit {done.returncode}"}
    return {"status": "ok", "numbers": json.loads(done.stdout), "seconds": seconds}


# ------------------------------------------------------------------------------------------
# Our side


def our_numbers(path: Path) -> dict[str, Any]:
    """Our numbers for one trace file, in tbp_numbers' shape: the file as a run of its own in
    a fresh RunStore, read as `tb-perf analyze FILE` reads it."""
    from tb_perf_plugin import views
    from tb_perf_plugin.analysis.kernels import merge_kernel_rows
    from tb_perf_plugin.analysis.operators import merge_operator_rows
    from tb_perf_plugin.store import RunStore

    store = RunStore(str(path))
    try:
        summary = views.overview.summary(store, ".", wait_s=None)
        breakdown = views.breakdown.breakdown(store, ".", wait_s=None)
        analysis = store.analysis(store.find_run("."), None)
    finally:
        store.close()
    steps = [s for r in breakdown["ranks"] for s in r["steps"]]
    duration = sum(s["duration_ns"] for s in steps)
    (rank,) = summary["ranks"]
    step_time = rank["step_time_ns"]
    ops = merge_operator_rows(analysis.operator_rows)
    kernels = merge_kernel_rows(analysis.kernel_rows)
    return {
        "steps": {
            "count": rank["steps"],
            "mean_us": step_time["mean"] / 1e3 if step_time else None,
        },
        "shares": {
            role: _pct(sum(s["ns"][category] for s in steps), duration)
            for category, role in ROLES.items()
        },
        "gpu": {
            str(device["device"]): {
                "utilization": 100 * device["utilization"],
                "sm_efficiency": _scaled(device["sm_efficiency"], 100),
                "occupancy": _scaled(device["occupancy"], 100),
            }
            for device in summary["gpus"]
        },
        "operators": {
            row.name: [
                int(row.calls),
                row.host_self_ns / 1e3,
                row.host_total_ns / 1e3,
                row.device_self_ns / 1e3,
                row.device_total_ns / 1e3,
            ]
            for row in ops.itertuples(index=False)
            if not row.annotation  # tbp's operator table holds no record_function ranges
        },
        "kernels": {
            row.name: [int(row.calls), row.total_ns / 1e3]
            for row in kernels.itertuples(index=False)
        },
    }


# ------------------------------------------------------------------------------------------
# Comparing


def compare(ours: dict[str, Any], theirs: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per metric: key, metric (its words), ours, theirs, unit, diff (ours - theirs:
    in points, counts or µs, or for unit "%" in percent of theirs; None where that is not a
    number), ok (within TOLERANCE; None where ours is not available) and, for the operator
    names one side lacks, `names`."""
    rows: list[dict[str, Any]] = []

    def row(
        key: str,
        metric: str,
        a: float | None,
        b: float | None,
        unit: str,
        tolerance: float,
        **extra: Any,
    ) -> None:
        diff: float | None = None
        ok: bool | None = None
        if a is not None and b is not None:
            if unit != "%":
                diff = a - b
            elif b:
                diff = 100.0 * (a - b) / b
            ok = diff is not None and abs(diff) <= tolerance + 1e-9 or a == b
        rows.append(
            {
                "key": key,
                "metric": metric,
                "ours": a,
                "theirs": b,
                "unit": unit,
                "diff": diff,
                "ok": ok,
                **extra,
            }
        )

    row(
        "steps",
        "steps",
        ours["steps"]["count"],
        theirs["steps"]["count"],
        "count",
        TOLERANCE["steps"],
    )
    row(
        "step_mean",
        "mean step µs",
        ours["steps"]["mean_us"],
        theirs["steps"]["mean_us"],
        "%",
        TOLERANCE["step_mean"],
    )
    for role in ROLES.values():
        row(
            f"share:{role}",
            f"share {role}",
            ours["shares"][role],
            theirs["shares"][role],
            "pt",
            TOLERANCE["share"],
        )
    for device, metrics in theirs["gpu"].items():
        mine = (ours["gpu"] or {}).get(device, {})
        for key, value in metrics.items():
            row(
                f"gpu:{device}:{key}",
                f"GPU {device} {key.replace('_', ' ')}",
                mine.get(key),
                value,
                "pt",
                TOLERANCE["gpu"],
            )
    theirs_ops, ours_ops = theirs["operators"], ours["operators"]
    only_ours = sorted(set(ours_ops) - set(theirs_ops))
    only_theirs = sorted(set(theirs_ops) - set(ours_ops))
    row("op_only_ours", "operator names only ours", len(only_ours), 0, "count", 0, names=only_ours)
    row(
        "op_only_theirs",
        "operator names only theirs",
        0,
        len(only_theirs),
        "count",
        0,
        names=only_theirs,
    )
    common = sorted(set(theirs_ops) & set(ours_ops))
    for index, key, metric, unit, tolerance in (
        (0, "op_calls", "operator calls", "count", 0.0),
        (1, "op_host_self", "operator host self µs", "%", TOLERANCE["op_host"]),
        (2, "op_host_total", "operator host total µs", "%", TOLERANCE["op_host"]),
        (3, "op_device_self", "operator device self µs", "%", TOLERANCE["op_device"]),
        (4, "op_device_total", "operator device total µs", "%", TOLERANCE["op_device"]),
    ):
        row(
            key,
            metric,
            sum(ours_ops[n][index] for n in common),
            sum(theirs_ops[n][index] for n in common),
            unit,
            tolerance,
        )
    theirs_k, ours_k = theirs["kernels"], ours["kernels"]
    row("kernel_names", "kernel names", len(ours_k), len(theirs_k), "count", 0)
    row(
        "kernel_calls",
        "kernel calls",
        sum(c for c, _ in ours_k.values()),
        sum(c for c, _ in theirs_k.values()),
        "count",
        TOLERANCE["kernel"],
    )
    row(
        "kernel_total",
        "kernel total µs",
        sum(t for _, t in ours_k.values()),
        sum(t for _, t in theirs_k.values()),
        "µs",
        0.001 * sum(c for c, _ in theirs_k.values()),
    )
    same = [n for n in theirs_k if n in ours_k and _same_kernel(ours_k[n], theirs_k[n])]
    row(
        "kernel_equal",
        "kernels equal by name",
        len(same),
        len(theirs_k),
        "count",
        TOLERANCE["kernel"],
    )
    return rows


def _same_kernel(ours: list[float], theirs: list[float]) -> bool:
    """Same calls and total: exact up to our ns rounding of fractional µs (≤ 1 ns a call)."""
    return ours[0] == theirs[0] and abs(ours[1] - theirs[1]) <= 0.001 * theirs[0] + 1e-9


# ------------------------------------------------------------------------------------------
# Running and printing


def measure(names: list[str], timeout: float) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for name in names:
        path = SHARED_DATA / TRACES[name]
        print(f"{name} ...", file=sys.stderr)
        entry: dict[str, Any] = {"path": TRACES[name], "tbp": run_tbp(path, timeout)}
        start = time.perf_counter()
        entry["ours"] = our_numbers(path)
        entry["ours_seconds"] = time.perf_counter() - start
        if entry["tbp"]["status"] == "ok":
            entry["rows"] = compare(entry["ours"], entry["tbp"]["numbers"])
        report[name] = entry
    return report


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "count":
        return f"{value:,.0f}"
    return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.2f}"


def _diff(row: dict[str, Any]) -> str:
    if row["diff"] is None:
        return "theirs 0" if row["theirs"] == 0 and row["ours"] else ""
    unit = {"%": " %", "pt": " pt", "count": "", "µs": " µs"}[row["unit"]]
    return f"{row['diff']:+.2f}{unit}" if row["unit"] != "count" else f"{row['diff']:+,.0f}"


def print_report(report: dict[str, Any]) -> None:
    for name, entry in report.items():
        tbp = entry["tbp"]
        print(f"\n{name}: {entry['path']}")
        if tbp["status"] != "ok":
            print(f"  torch-tb-profiler {tbp['status']}: {tbp['message']}")
            ours = entry["ours"]
            print(
                f"  ours: {ours['steps']['count']} steps, {len(ours['operators'])} operators,"
                f" {len(ours['kernels'])} kernel names"
            )
            continue
        print(f"  {'metric':28} {'ours':>14} {'torch-tb-profiler':>18} {'diff':>10}  within")
        for row in entry["rows"]:
            verdict = {True: "ok", False: "differs", None: ""}[row["ok"]]
            print(
                f"  {row['metric']:28} {_number(row['ours'], row['unit']):>14}"
                f" {_number(row['theirs'], row['unit']):>18} {_diff(row):>10}  {verdict}"
            )
        print(
            f"  seconds: torch-tb-profiler {tbp['seconds']:.1f} (process), ours"
            f" {entry['ours_seconds']:.1f}"
        )
    print("\ndiffers = beyond the tolerance; docs/PARITY.md explains each by definition.")


# (column, row key, scale of the shown value: µs -> ms)
SUMMARY_COLUMNS = [
    ("steps", "steps", 1.0),
    ("mean step ms", "step_mean", 1e-3),
    ("Kernel %", "share:Kernel", 1.0),
    ("Communication %", "share:Communication", 1.0),
    ("Runtime %", "share:Runtime", 1.0),
    ("DataLoader %", "share:DataLoader", 1.0),
    ("CPU Exec %", "share:CPU Exec", 1.0),
    ("Other %", "share:Other", 1.0),
    ("op host self ms", "op_host_self", 1e-3),
    ("op device self ms", "op_device_self", 1e-3),
    ("kernel total ms", "kernel_total", 1e-3),
]


def print_markdown(report: dict[str, Any]) -> None:
    """One line per trace, each cell "ours / torch-tb-profiler" (docs/PARITY.md's table)."""
    head = ["trace", *(c for c, _, _ in SUMMARY_COLUMNS), "GPU util %", "beyond tolerance"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, entry in report.items():
        if entry["tbp"]["status"] != "ok":
            message = f"torch-tb-profiler {entry['tbp']['status']}: {entry['tbp']['message']}"
            print(f"| {name} | {message} |" + " |" * (len(head) - 2))
            continue
        rows = {r["key"]: r for r in entry["rows"]}
        cells = [name]
        for _, key, scale in SUMMARY_COLUMNS:
            r = rows[key]
            cells.append(f"{_cell(r['ours'], scale)} / {_cell(r['theirs'], scale)}")
        gpu = [r for r in entry["rows"] if r["key"].endswith(":utilization")]
        cells.append(", ".join(f"{_cell(r['ours'], 1)} / {_cell(r['theirs'], 1)}" for r in gpu))
        cells.append(", ".join(r["metric"] for r in entry["rows"] if r["ok"] is False))
        print("| " + " | ".join(cells) + " |")


def _cell(value: float | None, scale: float) -> str:
    if value is None:
        return "n/a"
    shown = value * scale
    return f"{shown:,.0f}" if shown == int(shown) or abs(shown) >= 1000 else f"{shown:,.1f}"


def record(directory: Path, timeout: float) -> None:
    """torch-tb-profiler's numbers for PINNED, written to directory/FIXTURE_NAME."""
    numbers = {}
    for name in PINNED:
        result = run_tbp(SHARED_DATA / TRACES[name], timeout)
        if result["status"] != "ok":
            raise SystemExit(f"{name}: torch-tb-profiler {result['status']}: {result['message']}")
        numbers[name] = {"path": TRACES[name], **_rounded(result["numbers"])}
    directory.mkdir(parents=True, exist_ok=True)
    out = {
        "generator": "python benchmarks/parity.py --record tests/fixtures/parity/",
        "torch_tb_profiler": TBP_VERSION,
        "traces": numbers,
    }
    text = json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False)
    # one line per operator and kernel: [calls, µs, ...]
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: f"[{' '.join(m[1].split())}]", text)
    (directory / FIXTURE_NAME).write_text(text + "\n")
    print(f"wrote {directory / FIXTURE_NAME}")


def _rounded(value: Any) -> Any:
    """Floats to 6 significant decimals of µs (ns precision and below), for a stable file."""
    if isinstance(value, float):
        return round(value, 6) if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", default=",".join(TRACES), help="comma-separated names")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per tbp process")
    parser.add_argument("--json", action="store_true", help="print the raw numbers as JSON")
    parser.add_argument("--markdown", action="store_true", help="one Markdown line per trace")
    parser.add_argument("--record", type=Path, help="write tbp's numbers for the pinned traces")
    parser.add_argument("--tbp-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.tbp_child:
        print(json.dumps(tbp_numbers(args.tbp_child)))
        return
    if args.record:
        record(args.record, args.timeout)
        return
    names = [n.strip() for n in args.traces.split(",") if n.strip()]
    unknown = [n for n in names if n not in TRACES]
    if unknown:
        raise SystemExit(f"unknown traces {unknown}: choose from {list(TRACES)}")
    start_load = loadavg()
    report = measure(names, args.timeout)
    if args.json:
        print(json.dumps(report, indent=1, default=str))
    elif args.markdown:
        print_markdown(report)
    else:
        print_report(report)
        print(f"load average (1 min) at start {start_load}, at end {loadavg()}")


if __name__ == "__main__":
    main()
