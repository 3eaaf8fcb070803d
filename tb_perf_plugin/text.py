"""Answers as text: the plain-text and Markdown reports of `tb-perf analyze` and `tb-perf diff`,
and the wording `tb-perf report`'s HTML shares with them (evidence in human units, which ranks
a many-rank report lists, a rank's memory line). Pure functions of route answers."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from .analysis.wording import MAX_RANKS_APART, OPERATOR_TIMES, memory_text

MAX_RANK_ROWS = 16  # more ranks: text and Markdown reports list the telling ones (as the heatmap)
HIGHEST_SHOWN, LOWEST_SHOWN = 5, 3
MORE_RANKS_HINT = "; --rank R for one rank, --format json for all"


def _ms(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1e6:.2f}"


def _duration_text(ns: float) -> str:
    """Nanoseconds in the largest of s, ms, µs that keeps the number at 1 or more."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.0f} ns"


def _flop_text(n: float) -> str:
    for prefix, scale in (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= scale:
            return f"{n / scale:.2f} {prefix}FLOP"
    return f"{n:g} FLOP"


# How evidence numbers read, by the unit the rules give them (docs/FINDINGS.md)
EVIDENCE_UNITS: dict[str, Callable[[float], str]] = {
    "ns": _duration_text,
    "bytes": memory_text,
    "fraction": "{:.1%}".format,
    "%": "{:.1f}%".format,
    "x": "{:.2f}×".format,
    "FLOP": _flop_text,
    "step": str,  # a step number: the name says it is a step
}


def evidence_text(item: dict[str, Any]) -> str:
    """A finding's evidence value (`{"value", "unit"}`) in human units, chosen by its unit, so
    that evidence a new rule adds reads right too; `A/B` is A's text per B (`bytes/step`:
    "1.06 MiB/step"). Text, and units not in EVIDENCE_UNITS (`ranks`, `TFLOP/s`, counts): the
    value and its unit as they are. `--format json` keeps the raw numbers."""
    value, unit = item["value"], item["unit"]
    base, slash, per = unit.partition("/")
    show = EVIDENCE_UNITS.get(base)
    if show is None or isinstance(value, bool) or not isinstance(value, int | float):
        return f"{value} {unit}" if unit else str(value)
    return show(value) + slash + per


def _summary_rows(summary: dict[str, Any], limit: int) -> tuple[list[str], list[list[str]]]:
    header = ["span", "calls", "total ms", "self ms", "mean ms", "p50 ms", "p95 ms", "% of step"]
    rows = [
        [
            s["name"],
            str(s["calls"]),
            _ms(s["total_ns"]),
            _ms(s["self_ns"]),
            _ms(s["mean_ns"]),
            _ms(s["p50_ns"]),
            _ms(s["p95_ns"]),
            "-" if s["pct_of_step"] is None else f"{s['pct_of_step']:.1f}",
        ]
        for s in summary["spans"][:limit]
    ]
    return header, rows


def telling_ranks(
    items: list[dict[str, Any]],
    value: Callable[[dict[str, Any]], float | None],
    named: set[int],
    order: str,
) -> tuple[list[dict[str, Any]], str | None]:
    """`items` (one per rank) or, past MAX_RANK_ROWS of them, the HIGHEST_SHOWN and LOWEST_SHOWN
    by `value` and the ranks in `named`, in rank order, with a line saying which were kept."""
    if len(items) <= MAX_RANK_ROWS:
        return items, None
    valued = [(v, i) for i in items if (v := value(i)) is not None]
    ordered = [i for _, i in sorted(valued, key=lambda pair: pair[0])]
    keep = {i["rank"] for i in ordered[-HIGHEST_SHOWN:] + ordered[:LOWEST_SHOWN]} | named
    shown = [i for i in items if i["rank"] in keep]
    return shown, (
        f"{len(shown)} of {len(items)} ranks: the {HIGHEST_SHOWN} highest and {LOWEST_SHOWN} "
        f"lowest by {order}{', and those the findings name' if named else ''}"
    )


def mean_step_time(rank: dict[str, Any]) -> float | None:
    """A `summary` rank's mean step time (ns), what its ranks are ordered by."""
    return (rank["step_time_ns"] or {}).get("mean")


def named_ranks(findings: list[dict[str, Any]]) -> set[int]:
    """Ranks that findings about a few ranks name (not those of a finding collapsed across
    many ranks)."""
    return {r for f in findings if len(f["ranks"]) <= MAX_RANKS_APART for r in f["ranks"]}


def _rank_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]], str | None]:
    header = ["rank", "host", "pid", "status", "steps", "from", "mean ms", "p50 ms", "p95 ms",
              "max ms"]  # fmt: skip
    named = named_ranks(summary["findings"])
    ranks, note = telling_ranks(summary["ranks"], mean_step_time, named, "mean step time")
    # ProfilerStep windows run on to their device work: its mean beside the host's
    device = any(r.get("device_step_time_ns") for r in ranks)
    if device:
        header.append("device mean ms")
    rows = []
    for r in ranks:
        stats = r["step_time_ns"] or {}
        rows.append(
            [
                str(r["rank"]),
                r["host"] or "-",  # a trace named otherwise than by its handler has no host
                "-" if r["pid"] is None else str(r["pid"]),
                r["status"],
                str(r["steps"]),
                r["step_source"] or "-",
                _ms(stats.get("mean")),
                _ms(stats.get("p50")),
                _ms(stats.get("p95")),
                _ms(stats.get("max")),
                *([_ms((r["device_step_time_ns"] or {}).get("mean"))] if device else []),
            ]
        )
    return header, rows, note


def _rank_table(summary: dict[str, Any], table: Callable[..., str]) -> str:
    header, rows, note = _rank_rows(summary)
    return table(header, rows) + (f"\n({note}{MORE_RANKS_HINT})" if note else "")


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _gpu_text(gpus: list[dict[str, Any]], fmt: str, table: Callable[..., str]) -> str:
    """The GPU summary: per rank and device, what it is and how its kernels used it over the
    step windows (docs/ANALYSIS.md, GPU summary)."""
    heading = "## GPU summary" if fmt == "md" else "GPU summary (over the step windows):"
    if not gpus:
        return f"{heading}\nno GPU kernels in the traces (or no traces)"
    header = ["rank", "GPU", "name", "memory", "capability", "SMs", "utilization",
              "est. SM efficiency", "est. occupancy", "Tensor Cores"]  # fmt: skip
    rows = [
        [str(g["rank"]), str(g["device"]), g["name"] or "-",
         "-" if g["memory_bytes"] is None else memory_text(g["memory_bytes"]),
         g["compute_capability"] or "-", "-" if g["sm_count"] is None else str(g["sm_count"]),
         _share(g["utilization"]), _share(g["sm_efficiency"]), _share(g["occupancy"]),
         _share(g["tensor_core_share"])]
        for g in gpus
    ]  # fmt: skip
    return heading + "\n\n" + table(header, rows, left=3)


def _execution_text(execution: list[dict[str, Any]], fmt: str, table: Callable[..., str]) -> str:
    """The execution summary: per rank, each category's mean ms per step and share of step
    time (the breakdown's categories; docs/ANALYSIS.md)."""
    heading = "## Execution summary" if fmt == "md" else "execution summary (mean per step):"
    if not execution:
        return f"{heading}\nno traced steps to break down"
    categories = list(execution[0]["categories"])
    header = ["rank", "steps", "step ms", *categories]
    rows = [
        [str(e["rank"]), str(e["steps"]), _ms(e["step_ns"]),
         *(f"{_ms(c['ns_per_step'])} ({c['share']:.1%})" for c in e["categories"].values())]
        for e in execution
    ]  # fmt: skip
    return heading + "\n\n" + table(header, rows)


def _bandwidth(value: float | None) -> str:
    return "-" if value is None else f"{value / 1e9:.2f}"


def _distributed_text(distributed: dict[str, Any], fmt: str, table: Callable[..., str]) -> str:
    """Per rank, computation, overlapped and exposed communication and the rest; per collective
    and process group, calls, bytes and nccl-tests' bandwidths (docs/ANALYSIS.md,
    Distributed)."""
    heading = "## Distributed" if fmt == "md" else "distributed (over the traced steps):"
    parts = [heading]
    ranks = distributed["ranks"]
    if ranks:
        header = ["rank", "computation ms", "overlap ms", "exposed comm. ms", "other ms"]
        rows = [[str(r["rank"]), _ms(r["computation_ns"]), _ms(r["overlap_ns"]),
                 _ms(r["exposed_ns"]), _ms(r["other_ns"])]
                for r in ranks[:MAX_RANK_ROWS]]  # fmt: skip
        more = len(ranks) - MAX_RANK_ROWS
        note = f"\n({more} more ranks{MORE_RANKS_HINT})" if more > 0 else ""
        parts.append(table(header, rows) + note)
    for first, rows in (("collective", distributed["collectives"]),
                        ("point-to-point", distributed["point_to_point"])):  # fmt: skip
        if not rows:
            continue
        header = [first, "group", "calls", "bytes", "total ms", "mean ms", "algbw GB/s",
                  "busbw GB/s", "slowest rank"]  # fmt: skip
        cells = [[r["name"], r["group"] or "-", str(r["calls"]),
                  "-" if r["bytes"] is None else memory_text(r["bytes"]), _ms(r["total_ns"]),
                  _ms(r["mean_ns"]), _bandwidth(r["algo_bandwidth"]),
                  _bandwidth(r["bus_bandwidth"]), str(r["slowest_rank"])]
                 for r in rows]  # fmt: skip
        parts.append(table(header, cells, left=2))
    if len(parts) == 1:
        parts.append("no traced steps and no communication kernels")
    return "\n\n".join(parts)


def _spans_text(summary: dict[str, Any], limit: int, table: Callable[..., str]) -> str:
    if not summary["spans"]:
        return summary["spans_empty_reason"]
    return table(*_summary_rows(summary, limit))


def _top_operators_text(rows: list[dict[str, Any]], fmt: str, table: Callable[..., str]) -> str:
    heading = "## Top operators" if fmt == "md" else "top operators:"
    if not rows:
        return f"{heading}\nno operators in the traces (or no traces)"
    header = ["operator", "calls", *(f"{label} ms" for label in OPERATOR_TIMES.values())]
    cells = [[_cut(r["name"]), str(r["calls"]), *(_ms(r[key]) for key in OPERATOR_TIMES)]
             for r in rows]  # fmt: skip
    return heading + "\n\n" + table(header, cells)


def _top_kernels_text(rows: list[dict[str, Any]], fmt: str, table: Callable[..., str]) -> str:
    heading = "## Top kernels" if fmt == "md" else "top kernels:"
    if not rows:
        return f"{heading}\nno GPU kernels in the traces (or no traces)"
    header = ["kernel", "calls", "total ms", "mean ms", "% of kernel time", "Tensor Cores"]
    cells = [[_cut(r["short_name"]), str(r["calls"]), _ms(r["total_ns"]), _ms(r["mean_ns"]),
              f"{r['pct_of_kernel_time']:.1f}", "yes" if r["tensor_cores"] else "no"]
             for r in rows]  # fmt: skip
    return heading + "\n\n" + table(header, cells)


def _text_table(header: list[str], rows: list[list[str]], left: int = 1) -> str:
    """Aligned columns: the first `left` (names) to the left, numbers to the right."""
    widths = [max(len(c) for c in column) for column in zip(header, *rows, strict=False)]
    lines = [
        "  ".join(
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in [header, *rows]
    ]
    return "\n".join(lines)


def _md_table(header: list[str], rows: list[list[str]], left: int = 1) -> str:
    def escape(cell: str) -> str:
        return cell.replace("|", "\\|")

    lines = [
        "| " + " | ".join(escape(c) for c in header) + " |",
        "|" + "|".join(["---"] * left + ["---:"] * (len(header) - left)) + "|",
    ]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def impact_text(impact: dict[str, Any] | None) -> str:
    """What a fix would save, in words: "saves ≈ 14.20 ms per step (31 %)" or its basis."""
    if not impact or impact.get("ns_per_step") is None:
        return f"no step-time estimate ({(impact or {}).get('basis', 'not estimated')})"
    share = impact.get("share_of_step")
    of_step = "" if share is None else f" ({share:.0%} of the step)"
    return f"saves ≈ {impact['ns_per_step'] / 1e6:.2f} ms per step{of_step}"


def _findings_text(findings: list[dict[str, Any]], fmt: str) -> str:
    """Findings, the most step time a fix would save first: severity, title, what a fix would
    save, evidence, what to do; a symptom says which finding explains it."""
    if not findings:
        return "No findings: nothing crossed a threshold (docs/FINDINGS.md)."
    lines = ["## Findings" if fmt == "md" else "findings:"]
    for f in findings:
        evidence = ", ".join(
            f"{name} {evidence_text(item)}" for name, item in f["evidence"].items()
        )
        bullet = "-" if fmt == "md" else "*"
        lines.append(f"{bullet} [{f['severity']}] {f['kind']}: {f['title']}")
        lines.append(f"  impact: {impact_text(f.get('impact'))}")
        if f.get("explained_by"):
            lines.append(f"  explained by: {f['explained_by']}")
        lines.append(f"  evidence: {evidence}")
        lines.append(f"  fix: {f['recommendation']}")
    return "\n".join(lines)


def _top_modules(rows: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The `limit` modules with the most time (both phases) and the modules enclosing them, in
    tree order (`rows` are the modules route's): a module's time holds its children's, so the
    tree is cut where time gets small, and never-called containers (ModuleList) are kept."""
    timed = [i for i, row in enumerate(rows) if row["total"] is not None]
    timed.sort(key=lambda i: -rows[i]["total"]["total_ns"])
    at = {row["path"]: i for i, row in enumerate(rows)}
    keep: set[int] = set()
    for most_timed in timed[:limit]:
        i: int | None = most_timed
        while i is not None and i not in keep:
            keep.add(i)
            i = at.get(rows[i]["parent"])
    return [rows[i] for i in sorted(keep)]


def module_rows(
    modules: dict[str, Any], limit: int, indent: str
) -> tuple[list[str], list[list[tuple[str, float | None]]]]:
    """The module table of `analyze` and `report`: per cell its text and the number it shows
    (None for text), in tree order."""
    phases = [p for p in ("forward", "backward") if p in modules["phases"]]
    header = ["module", "type", "calls", *(f"{p} ms" for p in phases), "self ms", "% of step"]
    rows = []
    for row in _top_modules(modules["rows"], limit):
        total = row["total"] or {}
        pct = total.get("pct_of_step")
        calls = total.get("calls")
        rows.append([
            (indent * row["depth"] + (row["path"] or "(model)"), None),
            (row["type"], None),
            ("-" if calls is None else str(calls), calls),
            *((_ms(row[p] and row[p]["total_ns"]), row[p] and row[p]["total_ns"])
              for p in phases),
            (_ms(total.get("self_ns")), total.get("self_ns")),
            ("-" if pct is None else f"{pct:.1f}", pct),
        ])  # fmt: skip
    return header, rows


def _modules_text(modules: dict[str, Any], fmt: str, limit: int) -> str:
    """The module tree, cut to the modules with the most time; the notes that change how to
    read it (a compiled model timed whole, trace class names)."""
    source = (
        "ModuleProfiler records"
        if modules["source"] == "collector"
        else "torch.profiler traces, forward only"
    )
    called = sum(row["total"] is not None for row in modules["rows"])
    heading = "## Modules" if fmt == "md" else "modules:"
    notes = [f"note: {s['compiled']}" for s in modules["settings"] if s["compiled"]]
    if modules["class_names"]:
        notes.append("note: names are trace class names with a per-class counter, not paths")
    if not called:
        return "\n".join([heading, f"{source}: no module calls recorded", *notes])
    shown = f"the {min(limit, called)} of {called} called modules with the most time"
    header, cells = module_rows(modules, limit, "\u00a0\u00a0" if fmt == "md" else "  ")
    rows = [[text for text, _ in row] for row in cells]
    table = _md_table if fmt == "md" else _text_table
    intro = f"{source}: {shown}, in tree order"
    return "\n".join([heading, intro, *notes]) + "\n\n" + table(header, rows, left=2)


def memory_line(rank: dict[str, Any]) -> str:
    """One rank's memory in a line: its peak, RSS from first to last sample, the trend the
    leak rule fits, reserved memory above the peak."""
    source = ", torch.profiler's memory events" if rank["source"] == "trace" else ""
    parts = [f"rank {rank['rank']} ({rank['device']}{source})"]
    top = rank["max_peak"]
    if top is not None:
        total = rank["device_total"]
        of = f" = {top['share']:.0%} of {memory_text(total)}" if top["share"] else ""
        parts.append(f"peak allocated {memory_text(top['bytes'])} at step {top['step']}{of}")
    if rank["rss_first"] is not None:
        parts.append(f"RSS {memory_text(rank['rss_first'])} -> {memory_text(rank['rss_last'])}")
    trend = rank["trend"]
    if trend is not None:
        leak = " (memory_leak)" if trend["leak"] else ""
        parts.append(f"{trend['series']} trend {memory_text(trend['slope'])}/step{leak}")
    if rank["fragmentation"] is not None:
        parts.append(f"reserved above peak {memory_text(rank['fragmentation']['unused'])}")
    return ", ".join(parts)


MEMORY_ORDER = "peak allocation (last RSS without CUDA)"


def memory_order(rank: dict[str, Any]) -> float | None:
    """What ranks' memory lines are ordered by (`memory_summary` rows): MEMORY_ORDER."""
    return rank["max_peak"]["bytes"] if rank["max_peak"] else rank["rss_last"]


def _memory_text(memory: list[dict[str, Any]], findings: list[dict[str, Any]], fmt: str) -> str:
    heading = "## Memory" if fmt == "md" else "memory:"
    bullet = "-" if fmt == "md" else "*"
    shown, note = telling_ranks(memory, memory_order, named_ranks(findings), MEMORY_ORDER)
    lines = [f"{bullet} {memory_line(rank)}" for rank in shown]
    return "\n".join([heading, *lines, *([f"({note}{MORE_RANKS_HINT})"] if note else [])])


def memory_summary(memory: dict[str, Any]) -> list[dict[str, Any]]:
    """The memory route's ranks without their series (RSS: its first and last sample), as
    `analyze` reports them."""
    series = {"steps", "t_ns", "allocated", "reserved", "peak", "rss", "bucket"}
    out = []
    for rank in memory["ranks"]:
        rss = [v for v in rank["rss"] or [] if v is not None]
        out.append({
            **{k: v for k, v in rank.items() if k not in series},
            "rss_first": rss[0] if rss else None,
            "rss_last": rss[-1] if rss else None,
        })  # fmt: skip
    return out


def snapshot_brief(answer: dict[str, Any], top: int) -> dict[str, Any]:
    """The snapshot route's answer cut to what `analyze` reports: per device its peak, its
    totals at the snapshot, its OOMs and the `top` first user frames by bytes live at the peak."""
    return {
        "file": answer["file"],
        "rank": answer["rank"],
        "format": answer["format"],
        "devices": [{
            "device": d["device"],
            "peak_live_bytes": d["peak"]["live_bytes"],
            "peak_reserved_bytes": d["peak"]["reserved_bytes"],
            "reserved_bytes": d["reserved_bytes"],
            "allocated_bytes": d["allocated_bytes"],
            "segments": d["segments"],
            "allocations": d["allocations"],
            "ooms": d["trace_entries"].get("oom", 0),
            "top_frames": [{k: f[k] for k in ("label", "peak_bytes", "peak_count")}
                           for f in d["by_first_user_frame"][:top]],
        } for d in answer["devices"]],
    }  # fmt: skip


def _snapshots_text(snapshots: list[dict[str, Any]], fmt: str, table: Callable[..., str]) -> str:
    heading = "## Memory snapshots" if fmt == "md" else "memory snapshots:"
    parts = [heading]
    for snap in snapshots:
        rank = "" if snap.get("rank") is None else f", rank {snap['rank']}"
        if "error" in snap:
            parts.append(f"{snap['file']}{rank}: not read ({snap['error']})")
            continue
        header = ["device", "peak live", "peak reserved", "reserved at dump", "segments",
                  "allocations", "OOMs"]  # fmt: skip
        rows = [[str(d["device"]), memory_text(d["peak_live_bytes"]),
                 memory_text(d["peak_reserved_bytes"]), memory_text(d["reserved_bytes"]),
                 str(d["segments"]), str(d["allocations"]), str(d["ooms"])]
                for d in snap["devices"]]  # fmt: skip
        parts.append(f"{snap['file']}{rank} ({snap['format']})\n\n" + table(header, rows))
        for d in snap["devices"]:
            if d["top_frames"]:
                frames = [[_cut(f["label"]), memory_text(f["peak_bytes"]), str(f["peak_count"])]
                          for f in d["top_frames"]]  # fmt: skip
                title = f"device {d['device']}: live at the peak, by first user frame"
                parts.append(title + "\n\n" + table(["frame", "bytes", "allocations"], frames))
    return "\n\n".join(parts)


def format_summary(summary: dict[str, Any], fmt: str, limit: int = 20) -> str:
    """The analyze report; `summary` is the summary route's answer plus "findings",
    "modules" (the modules route's answer, `None` for a run without module calls), "memory"
    (`memory_summary` of the memory route, `[]` without MemorySampler records), "operators"
    and "kernels" (the top rows of those routes) and "snapshots" (`snapshot_brief` of each
    rank's newest memory snapshot); its own "distributed" is `None` for a run of one rank
    without collectives (no section then)."""
    if fmt == "json":
        return json.dumps(summary, indent=2)
    table = _md_table if fmt == "md" else _text_table
    steps = summary["steps"]
    title = f"run {summary['run']}" + (
        "" if summary["rank"] is None else f", rank {summary['rank']}"
    )
    parts = [
        ("# " if fmt == "md" else "") + title,
        f"{len(summary['ranks'])} rank(s), {steps['count']} step(s)"
        + ("" if steps["first"] is None else f" ({steps['first']}..{steps['last']})"),
        _findings_text(summary["findings"], fmt),
    ]
    if summary["ranks"]:
        parts += [
            _gpu_text(summary["gpus"], fmt, table),
            _execution_text(summary["execution_summary"], fmt, table),
        ]
        if summary["distributed"] is not None:
            parts.append(_distributed_text(summary["distributed"], fmt, table))
        parts += [
            _rank_table(summary, table),
            _spans_text(summary, limit, table),
            _top_operators_text(summary["operators"][:limit], fmt, table),
            _top_kernels_text(summary["kernels"][:limit], fmt, table),
        ]
        if summary.get("critical_path") and summary["critical_path"]["job"]:
            parts.append(critical_path_text(summary["critical_path"], fmt, limit))
    else:
        parts.append("no torch.profiler traces and no collector records in this run")
    if summary["snapshots"]:
        parts.append(_snapshots_text(summary["snapshots"], fmt, table))
    if summary["memory"]:
        parts.append(_memory_text(summary["memory"], summary["findings"], fmt))
    if summary["modules"] is not None:
        parts.append(_modules_text(summary["modules"], fmt, limit))
    if summary.get("imported"):
        parts.append(_imported_text(summary["imported"], fmt))
    if summary["warnings"]:
        parts.append("warnings:\n" + "\n".join(f"- {w}" for w in summary["warnings"]))
    return "\n\n".join(parts)


def critical_path_text(paths: dict[str, Any], fmt: str, limit: int = 20) -> str:
    """Per step (at most `limit`), the job's critical path: its length against the step's,
    the rank it runs through, its three largest categories and the two events (operators or
    kernels) with the most path time."""
    lines = ["## Critical path" if fmt == "md" else "critical path (per step, slowest rank):"]
    bullet = "-" if fmt == "md" else "*"
    steps = {(s["rank"], s["step"]): s for r in paths["ranks"] for s in r["steps"]}
    for job in paths["job"][:limit]:
        s = steps[(job["rank"], job["step"])]
        share = s["share_of_step"]
        of_step = (
            ""
            if share is None
            else f" ({share:.0%} of the step's {_duration_text(s['duration_ns'])})"
        )
        categories = ", ".join(f"{c['category']} {c['share']:.0%}" for c in s["by_category"][:3])
        tops = sorted(s["top_kernels"][:2] + s["top_operators"][:2], key=lambda t: -t["ns"])[:2]
        top = "; top " + ", ".join(f"{t['name']} {t['share']:.0%}" for t in tops) if tops else ""
        step = "whole trace" if job["step"] is None else f"step {job['step']}"
        joined = job.get("joined")
        across = ""
        if joined:
            ranks = " → ".join(str(t["rank"]) for t in joined["through_ranks"][:6])
            across = (
                f"; collectives joined: {_duration_text(joined['length_ns'])} through rank(s) "
                f"{ranks}"
            )
        lines.append(
            f"{bullet} {step}: {_duration_text(s['length_ns'])}{of_step} on rank {job['rank']}: "
            f"{categories}{top}{across}"
        )
    if len(paths["job"]) > limit:
        lines.append(f"({len(paths['job']) - limit} more steps in --format json)")
    return "\n".join(lines)


def _imported_text(imported: list[dict[str, Any]], fmt: str) -> str:
    lines = ["## Imported files" if fmt == "md" else "imported files:"]
    bullet = "-" if fmt == "md" else "*"
    for f in imported:
        if f["kind"] is None:
            lines.append(f"{bullet} {f['file']}: not imported ({f['shows']})")
        else:
            state = "" if f["read"] else " (unreadable: see warnings)"
            what = f"{f['kind']}, rank {f['rank']}{state}"
            lines.append(f"{bullet} {f['file']}: {what} -> {f['shows']}")
    return "\n".join(lines)


def _delta_ms(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1e6:+.2f}"


def _cut(name: str, width: int = 80) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _delta_rows(rows: list[dict[str, Any]], key: str, limit: int) -> list[list[str]]:
    return [
        [_cut(str(r[key]) + (f" ({r['phase']})" if "phase" in r else "")), r["status"],
         _ms(r["baseline_ns"]), _ms(r["candidate_ns"]), _delta_ms(r["delta_ns"])]
        for r in rows[:limit]
    ]  # fmt: skip


def _side_text(name: str, side: dict[str, Any], unit: str) -> str | None:
    if side["baseline"] is None and side["candidate"] is None:
        return None
    formats = {"bytes": memory_text, "%": lambda v: f"{v:.1f}%", "fraction": lambda v: f"{v:.1%}"}
    show = formats[unit]
    values = [("-" if side[k] is None else show(side[k])) for k in ("baseline", "candidate")]
    return f"{name}: {values[0]} -> {values[1]}"


def diff_parts(body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """The category rows a diff report shows and what they are: the median step's parts
    (`attribution`, adding up to the median difference), else the means per step."""
    if body.get("attribution"):
        return body["attribution"], "median step, adds up to the median difference"
    return body["categories"], "mean per step"


def format_diff(body: dict[str, Any], fmt: str, limit: int = 10) -> str:
    """The diff report: `body` is the compare route's answer (docs/DIFF.md)."""
    if fmt == "json":
        return json.dumps(body, indent=2)
    table = _md_table if fmt == "md" else _text_table
    step = body["step_time"]
    head = "## " if fmt == "md" else ""
    parts = [
        ("# " if fmt == "md" else "") + f"diff {body['baseline']} -> {body['candidate']}",
        step["headline"],
        table(["steps", "baseline", "candidate"], [
            ["count", str(step["baseline"]["steps"]), str(step["candidate"]["steps"])],
            ["median ms", _ms(step["baseline"]["median_ns"]), _ms(step["candidate"]["median_ns"])],
            ["p95 ms", _ms(step["baseline"]["p95_ns"]), _ms(step["candidate"]["p95_ns"])],
        ]),
        f"ratio {step['ratio']} (candidate / baseline median), {1 - step['alpha']:.0%} interval "
        f"{step['ci']}: {step['verdict']}",
    ]  # fmt: skip
    if body["ranks"]["note"]:
        parts.append(f"note: {body['ranks']['note']}")
    parts_rows, statistic = diff_parts(body)
    if parts_rows:
        rows = [[c["category"], _ms(c["baseline_ns"]), _ms(c["candidate_ns"]),
                 _delta_ms(c["delta_ns"])] for c in parts_rows]  # fmt: skip
        columns = ["category", "baseline ms", "candidate ms", "delta ms"]
        title = f"{head}categories ({statistic}, {body['category_source']})"
        parts.append(title + "\n\n" + table(columns, rows))
    header = ["name", "status", "baseline ms", "candidate ms", "delta ms"]
    for section, key in (("operators", "name"), ("kernels", "short_name"), ("modules", "path")):
        if body[section]:
            title = f"{head}{section} (per step, largest changes first)"
            parts.append(title + "\n\n" + table(header, _delta_rows(body[section], key, limit), 2))
    if body["collectives"]:
        rows = [[r["name"], r["group"] or "-", r["status"],
                 *(_bandwidth(r[k][side]) for k in ("algo_bandwidth", "bus_bandwidth")
                   for side in ("baseline", "candidate"))]
                for r in body["collectives"][:limit]]  # fmt: skip
        columns = ["collective", "group", "status", "algbw GB/s (baseline)", "(candidate)",
                   "busbw GB/s (baseline)", "(candidate)"]  # fmt: skip
        parts.append(f"{head}collectives (bandwidth)\n\n" + table(columns, rows, 3))
    lines = [
        _side_text("peak allocated", body["memory"]["peak_bytes"], "bytes"),
        _side_text("peak reserved", body["memory"]["reserved_bytes"], "bytes"),
        _side_text("memory slope per step", body["memory"]["slope_bytes_per_step"], "bytes"),
        _side_text("GPU busy (traces)", body["gpu"]["trace_utilization"], "%"),
        _side_text("GPU utilization (GpuTracker)", body["gpu"]["tracker_utilization"], "%"),
        _side_text("straggler spread", body["balance"]["spread"], "fraction"),
    ]
    if any(lines):
        parts.append("\n".join(f"- {line}" for line in lines if line))
    findings = body["findings"]
    changes = [f"- appeared: [{f['severity']}] {f['title']}" for f in findings["appeared"]]
    changes += [f"- disappeared: [{f['severity']}] {f['title']}" for f in findings["disappeared"]]
    if changes:
        parts.append(f"{head}findings\n" + "\n".join(changes))
    return "\n\n".join(parts)


def emit(text: str) -> None:
    """Print to stdout. When the reader has closed the pipe (`| head -1`), the rest goes to
    /dev/null, so neither this nor the flush at exit raises, and the command still finishes:
    every file of an `ingest --run` is copied, a `diff` gate still exits 1."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
