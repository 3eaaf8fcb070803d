"""`tb-perf report`: one self-contained, offline HTML file of a run, for people who do not run
TensorBoard.

`gather` asks the views for the answers their routes give (nothing is recomputed here);
`render` turns them into HTML with inline CSS and inline SVG charts. The page loads nothing:
its Content-Security-Policy forbids every fetch, and the only script sorts tables. Every text
that comes from a run (span, operator, kernel and module names, finding texts) is escaped.
"""

from __future__ import annotations

import html
import os
from typing import Any

from . import views
from .analysis.wording import OPERATOR_TIMES, memory_text
from .store import RunStore
from .text import (
    MEMORY_ORDER,
    diff_parts,
    evidence_text,
    impact_text,
    mean_step_time,
    memory_line,
    memory_order,
    memory_summary,
    module_rows,
    named_ranks,
    telling_ranks,
)

TOP_ROWS = 20  # operators, kernels, spans and modules shown
MAX_BARS = 120  # breakdown bars per rank (the first traced steps)
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")  # fmt: skip
SEVERITY_COLORS = {"critical": "#c0392b", "warning": "#d68910", "info": "#2e86c1"}
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:1200px;padding:16px 24px;color:#1b1f23;background:#fff}
h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:16px 0 6px}.muted{color:#666}
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}
th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}
th{background:#f6f8fa;cursor:pointer;user-select:none}td.l,th.l{text-align:left}
td.name{max-width:520px;overflow:hidden;text-overflow:ellipsis}
.finding{border-left:5px solid #999;padding:6px 12px;margin:10px 0;background:#fafafa}
.sev{display:inline-block;color:#fff;border-radius:3px;padding:0 6px;font-size:12px;
text-transform:uppercase;margin-right:6px}.legend span{margin-right:14px;white-space:nowrap}
.swatch{display:inline-block;width:10px;height:10px;margin-right:4px}
svg text{font:11px system-ui,sans-serif;fill:#333}
"""

SORT_SCRIPT = """
document.querySelectorAll("table.sortable th").forEach(function (th) {
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0], up = th.dataset.dir !== "asc";
    th.dataset.dir = up ? "asc" : "desc";
    var key = function (row) { var c = row.cells[th.cellIndex];
      return c.dataset.v !== undefined ? parseFloat(c.dataset.v) : c.textContent; };
    Array.from(body.rows).sort(function (a, b) {
      var x = key(a), y = key(b), d = x < y ? -1 : x > y ? 1 : 0;
      return up ? d : -d; }).forEach(function (row) { body.appendChild(row); });
  });
});
"""


def gather(
    store: RunStore, name: str, rank: str | None = None, title: str | None = None
) -> dict[str, Any]:
    """The views' answers the report shows, waiting for ingest; with `rank`, that rank's
    (findings: its own and run-wide ones, as `analyze` gives them)."""
    summary = views.overview.summary(store, name, rank, wait_s=None)
    selected = summary["rank"]
    found = views.findings.findings(store, name, wait_s=None)["findings"]
    if selected is not None:
        found = [f for f in found if not f["ranks"] or selected in f["ranks"]]
    ranks = [r for r in summary["ranks"] if selected in (None, r["rank"])]
    shown, note = telling_ranks(ranks, mean_step_time, named_ranks(found), "mean step time")
    top = str(TOP_ROWS)
    return {
        "title": title or summary["run"],
        "summary": summary,
        # the ranks charted one by one (past 16: the telling ones, `ranks_note` says which)
        "rank_summaries": [
            views.overview.summary(store, name, str(r["rank"]), wait_s=None) for r in shown
        ],  # fmt: skip
        "ranks_note": note,
        "findings": found,
        "breakdown": views.breakdown.breakdown(store, name, rank, wait_s=None),
        "operators": views.operators.operators(store, name, rank, limit=top, wait_s=None),
        "kernels": views.kernels.kernels(store, name, rank, limit=top, wait_s=None),
        "modules": views.modules.modules(store, name, rank, wait_s=None),
        "memory": views.memory.memory(store, name, rank, wait_s=None),
        "gpu": views.gpu.gpu(store, name, rank, wait_s=None),
    }


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _ms(ns: float | None) -> str:
    return "-" if ns is None else f"{ns / 1e6:.2f}"


def _cell(text: Any, value: float | None = None, left: bool = False, title: str = "") -> str:
    """A table cell; `value` is what the sort script orders by (the raw number), `title` the
    full text a shortened name stands for."""
    attrs = ' class="l name"' if left else ""
    if value is not None:
        attrs += f' data-v="{value}"'
    if title:
        attrs += f' title="{_e(title)}"'
    return f"<td{attrs}>{_e(text)}</td>"


def _table(header: list[str], rows: list[list[str]], left: int = 1) -> str:
    heads = "".join(
        f'<th class="l">{_e(h)}</th>' if i < left else f"<th>{_e(h)}</th>"
        for i, h in enumerate(header)
    )
    body = "".join(f"<tr>{''.join(row)}</tr>" for row in rows)
    return f'<table class="sortable"><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table>'


def _legend(names: list[str]) -> str:
    items = "".join(
        f'<span><i class="swatch" style="background:{PALETTE[i % len(PALETTE)]}"></i>{_e(n)}</span>'
        for i, n in enumerate(names)
    )
    return f'<div class="legend">{items}</div>'


def stacked_bars_svg(bars: list[tuple[str, list[float]]], names: list[str], unit_ns: bool) -> str:
    """Vertical stacked bars (one per label, one segment per name, colors as `_legend`), with
    the largest total on the axis; each segment's <title> gives its value."""
    top = max((sum(v) for _, v in bars), default=0) or 1
    width, height, left, bottom = max(360, 26 * len(bars) + 70), 220, 60, 34
    step = (width - left - 10) / max(len(bars), 1)
    axis = f"{_ms(top)} ms" if unit_ns else f"{top}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">',
        f'<line x1="{left}" y1="10" x2="{left}" y2="{height - bottom}" stroke="#999"/>',
        f'<text x="{left - 4}" y="14" text-anchor="end">{axis}</text>',
        f'<text x="{left - 4}" y="{height - bottom}" text-anchor="end">0</text>',
    ]
    scale = (height - bottom - 10) / top
    for i, (label, values) in enumerate(bars):
        x = left + i * step + 2
        y: float = height - bottom
        for j, value in enumerate(values):
            h = value * scale
            if h <= 0:
                continue
            y -= h
            shown = f"{_ms(value)} ms" if unit_ns else f"{value}"
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(step - 4, 1):.1f}" height="{h:.1f}" '
                f'fill="{PALETTE[j % len(PALETTE)]}"><title>{_e(label)} {_e(names[j])}: '
                f"{shown}</title></rect>"
            )
        parts.append(
            f'<text x="{x + step / 2 - 2:.1f}" y="{height - bottom + 14}" '
            f'text-anchor="middle">{_e(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def line_chart_svg(series: list[tuple[str, list[int], list[float | None]]]) -> str:
    """One polyline per series (label, steps, ns), scaled to the data's range; y in ms."""
    points = [(x, y) for _, xs, ys in series for x, y in zip(xs, ys, strict=True) if y is not None]
    width, height, left, bottom = 760, 240, 60, 30
    if not points:
        return '<p class="muted">no data</p>'
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y1 = max(p[1] for p in points) or 1
    sx = (width - left - 10) / ((x1 - x0) or 1)
    sy = (height - bottom - 10) / y1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">',
        f'<line x1="{left}" y1="10" x2="{left}" y2="{height - bottom}" stroke="#999"/>',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" '
        'stroke="#999"/>',
        f'<text x="{left - 4}" y="14" text-anchor="end">{y1 / 1e6:.2f} ms</text>',
        f'<text x="{left - 4}" y="{height - bottom}" text-anchor="end">0</text>',
        f'<text x="{left}" y="{height - 10}">step {x0}</text>',
        f'<text x="{width - 10}" y="{height - 10}" text-anchor="end">step {x1}</text>',
    ]
    for i, (label, xs, ys) in enumerate(series):
        coords = " ".join(
            f"{left + (x - x0) * sx:.1f},{height - bottom - y * sy:.1f}"
            for x, y in zip(xs, ys, strict=True)
            if y is not None
        )
        parts.append(
            f'<polyline fill="none" stroke-width="1.5" stroke="{PALETTE[i % len(PALETTE)]}" '
            f'points="{coords}"><title>{_e(label)}</title></polyline>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _findings_html(findings: list[dict[str, Any]]) -> str:
    if not findings:
        return '<p class="muted">No findings: nothing crossed a threshold.</p>'
    out = []
    for f in findings:
        color = SEVERITY_COLORS.get(f["severity"], "#777")
        evidence = "".join(
            f"<tr>{_cell(name, left=True)}{_cell(evidence_text(item), left=True)}</tr>"
            for name, item in f["evidence"].items()
        )
        out.append(
            f'<div class="finding" style="border-color:{color}">'
            f'<h3><span class="sev" style="background:{color}">{_e(f["severity"])}</span>'
            f'{_e(f["title"])} <span class="muted">({_e(f["kind"])})</span></h3>'
            f'<p class="impact"><b>Impact:</b> {_e(impact_text(f.get("impact")))}</p>'
            f"<table>{evidence}</table><p><b>Fix:</b> {_e(f['recommendation'])}</p></div>"
        )
    return "".join(out)


def _breakdown_html(report: dict[str, Any]) -> str:
    """Traced steps split by category per rank; without traces, each rank's step time split
    by its MyTimer spans' self time (what no span covers: "outside spans")."""
    breakdown = report["breakdown"]
    if breakdown["ranks"]:
        categories = breakdown["categories"]
        out = [_charted_note(report), _legend(categories)]
        charted = {summary["rank"] for summary in report["rank_summaries"]}
        for rank in (r for r in breakdown["ranks"] if r["rank"] in charted):
            steps = rank["steps"][:MAX_BARS]
            bars = [
                (str(s["step"] if s["step"] is not None else "-"),
                 [s["ns"][c] for c in categories])
                for s in steps
            ]  # fmt: skip
            cut = len(rank["steps"]) - len(steps)
            note = f" (first {len(steps)} of {len(rank['steps'])} steps)" if cut else ""
            out.append(f"<h3>rank {rank['rank']}{note}</h3>")
            out.append(stacked_bars_svg(bars, categories, unit_ns=True))
        return "".join(out)
    names: list[str] = []
    for summary in report["rank_summaries"]:
        names += [s["name"] for s in summary["spans"][:TOP_ROWS] if s["name"] not in names]
    if not names:
        return '<p class="muted">No torch.profiler traces and no MyTimer spans.</p>'
    names.append("outside spans")
    bars = []
    for summary in report["rank_summaries"]:
        stats = next(r for r in summary["ranks"] if r["rank"] == summary["rank"])
        total = (stats["step_time_ns"] or {}).get("total", 0)
        steps = max(stats["steps"], 1)
        self_ns = {s["name"]: s["self_ns"] for s in summary["spans"]}
        values = [self_ns.get(n, 0) / steps for n in names[:-1]]
        values.append(max(total / steps - sum(values), 0))
        bars.append((f"rank {summary['rank']}", values))
    return (
        '<p class="muted">No torch.profiler traces: the mean step per rank, split by MyTimer '
        "spans' self time.</p>" + _charted_note(report) + _legend(names)
        + stacked_bars_svg(bars, names, unit_ns=True)
    )  # fmt: skip


def _steps_html(report: dict[str, Any]) -> str:
    """The step-time chart of the charted ranks, and a table of every rank."""
    summary = report["summary"]
    charted = {rank_summary["rank"] for rank_summary in report["rank_summaries"]}
    series = [(f"rank {s['rank']}", s["steps"], s["time_ns"]) for s in summary["step_series"]
              if s["rank"] in charted]  # fmt: skip
    rows = []
    for r in summary["ranks"]:
        stats = r["step_time_ns"] or {}
        rows.append([
            _cell(r["rank"], r["rank"]), _cell(r["host"] or "-", left=True),
            _cell(r["status"], left=True), _cell(r["steps"], r["steps"]),
            *(_cell(_ms(stats.get(k)), stats.get(k)) for k in ("mean", "p50", "p95", "max")),
        ])  # fmt: skip
    header = ["rank", "host", "status", "steps", "mean ms", "p50 ms", "p95 ms", "max ms"]
    legend = _legend([label for label, _, _ in series])
    return (
        _charted_note(report, "; the table has every rank") + legend + line_chart_svg(series)
        + _table(header, rows)
    )  # fmt: skip


def _charted_note(report: dict[str, Any], more: str = "") -> str:
    """Which ranks a chart shows, when it does not show them all."""
    note = report["ranks_note"]
    return f'<p class="muted">Charted: {_e(note)}{more}.</p>' if note else ""


def _share_cell(share: float | None) -> str:
    return _cell("-" if share is None else f"{share:.1%}", share)


def _gpu_summary_html(gpus: list[dict[str, Any]]) -> str:
    """The traces' GPU summary per rank and device (docs/ANALYSIS.md)."""
    if not gpus:
        return '<p class="muted">No GPU kernels in the traces (or no traces).</p>'
    header = ["rank", "GPU", "name", "memory", "capability", "SMs", "utilization",
              "est. SM efficiency", "est. occupancy", "Tensor Cores"]  # fmt: skip
    rows = [
        [_cell(g["rank"], g["rank"]), _cell(g["device"], g["device"]),
         _cell(g["name"] or "-", left=True),
         _cell("-" if g["memory_bytes"] is None else memory_text(g["memory_bytes"]),
               g["memory_bytes"]),
         _cell(g["compute_capability"] or "-"), _cell(g["sm_count"] or "-", g["sm_count"]),
         *(_share_cell(g[k]) for k in ("utilization", "sm_efficiency", "occupancy",
                                       "tensor_core_share"))]
        for g in gpus
    ]  # fmt: skip
    return '<p class="muted">Over the step windows.</p>' + _table(header, rows, left=0)


def _execution_html(execution: list[dict[str, Any]]) -> str:
    """Per rank, each breakdown category's mean ms per step and share of step time."""
    if not execution:
        return '<p class="muted">No traced steps to break down.</p>'
    categories = list(execution[0]["categories"])
    header = ["rank", "steps", "step ms", *categories]
    rows = [
        [_cell(e["rank"], e["rank"]), _cell(e["steps"], e["steps"]),
         _cell(_ms(e["step_ns"]), e["step_ns"]),
         *(_cell(f"{_ms(c['ns_per_step'])} ({c['share']:.1%})", c["ns_per_step"])
           for c in e["categories"].values())]
        for e in execution
    ]  # fmt: skip
    return '<p class="muted">Mean per step, and share of step time.</p>' + _table(header, rows)


def _spans_html(summary: dict[str, Any]) -> str:
    if not summary["spans"]:
        return f'<p class="muted">{_e(summary["spans_empty_reason"])}</p>'
    header = ["span", "calls", "total ms", "self ms", "mean ms", "p50 ms", "p95 ms", "% of step"]
    rows = [
        [_cell(s["name"], left=True), _cell(s["calls"], s["calls"]),
         *(_cell(_ms(s[k]), s[k]) for k in ("total_ns", "self_ns", "mean_ns", "p50_ns", "p95_ns")),
         _cell("-" if s["pct_of_step"] is None else f"{s['pct_of_step']:.1f}", s["pct_of_step"])]
        for s in summary["spans"][:TOP_ROWS]
    ]  # fmt: skip
    return _table(header, rows)


def _operators_html(operators: dict[str, Any]) -> str:
    if not operators["rows"]:
        return '<p class="muted">No operators: the run has no torch.profiler traces.</p>'
    header = ["operator", "calls", *(f"{words} ms" for words in OPERATOR_TIMES.values())]
    rows = [
        [_cell(o["name"], left=True), _cell(o["calls"], o["calls"]),
         *(_cell(_ms(o[k]), o[k]) for k in OPERATOR_TIMES)]
        for o in operators["rows"]
    ]  # fmt: skip
    shown = f"the top {len(rows)} of {operators['total_rows']}, by device then host self time"
    return f'<p class="muted">{shown}</p>' + _table(header, rows)


def _kernels_html(kernels: dict[str, Any]) -> str:
    if not kernels["rows"]:
        return '<p class="muted">No GPU kernels in the run\'s traces.</p>'
    header = ["kernel", "calls", "total ms", "mean ms", "% of kernel time", "Tensor Cores"]
    rows = [
        [_cell(k["short_name"], left=True, title=k["name"]), _cell(k["calls"], k["calls"]),
         _cell(_ms(k["total_ns"]), k["total_ns"]), _cell(_ms(k["mean_ns"]), k["mean_ns"]),
         _cell(f"{k['pct_of_kernel_time']:.1f}", k["pct_of_kernel_time"]),
         _cell("yes" if k["tensor_cores"] else "no")]
        for k in kernels["rows"]
    ]  # fmt: skip
    shown = f"the top {len(rows)} of {kernels['total_rows']}, by total time"
    return f'<p class="muted">{shown}</p>' + _table(header, rows)


def _modules_html(modules: dict[str, Any]) -> str:
    if modules["source"] is None:
        return '<p class="muted">No module calls (ModuleProfiler or traces).</p>'
    header, cells = module_rows(modules, TOP_ROWS, "\u00a0\u00a0")
    rows = [
        [_cell(text, value, left=column < 2) for column, (text, value) in enumerate(row)]
        for row in cells
    ]
    notes = "".join(f'<p class="muted">{_e(s["compiled"])}</p>' for s in modules["settings"]
                    if s["compiled"])  # fmt: skip
    return (
        f'<p class="muted">the modules with the most time (forward + backward) and their '
        f"parents, in tree order; source: {_e(modules['source'])}</p>{notes}"
        + _table(header, rows, left=2)
    )


def _memory_html(memory: dict[str, Any], findings: list[dict[str, Any]]) -> str:
    ranks = memory_summary(memory)
    if not ranks:
        return f'<p class="muted">{_e(memory["empty_reason"])}</p>'
    shown, note = telling_ranks(ranks, memory_order, named_ranks(findings), MEMORY_ORDER)
    items = "".join(f"<li>{_e(memory_line(r))}</li>" for r in shown)
    more = f'<p class="muted">{_e(note)}; --rank R for one rank.</p>' if note else ""
    return f"<ul>{items}</ul>{more}"


def _gpu_html(gpu: dict[str, Any]) -> str:
    """Per rank and GPU: mean utilization, peak memory used, mean power; or why none."""
    if gpu["gpu_reason"] is not None:
        return f'<p class="muted">No GpuTracker samples: {_e(gpu["gpu_reason"])}</p>'

    def mean(values: list[float | None] | None) -> float | None:
        known = [v for v in values or [] if v is not None]
        return sum(known) / len(known) if known else None

    rows = []
    for rank in gpu["ranks"]:
        for d in rank["devices"]:
            util, power = mean(d["util"]), mean(d["power_w"])
            used = max((v for v in d["mem_used"] or [] if v is not None), default=None)
            rows.append([
                _cell(rank["rank"], rank["rank"]), _cell(d["index"], d["index"]),
                _cell(d["name"] or "-", left=True),
                _cell("-" if util is None else f"{util:.1f}", util),
                _cell("-" if used is None else memory_text(used), used),
                _cell("-" if power is None else f"{power:.1f}", power),
            ])  # fmt: skip
    header = ["rank", "GPU", "name", "mean util %", "max memory used", "mean power W"]
    return _table(header, rows, left=0)


def delta_bars_svg(rows: list[tuple[str, float]]) -> str:
    """Horizontal bars of candidate-minus-baseline deltas (ns) around a zero line: slower to
    the right in red, faster to the left in green; each bar's <title> gives its value."""
    top = max((abs(v) for _, v in rows), default=0) or 1
    width, row_h, label_w = 760, 22, 260
    half = (width - label_w - 20) / 2
    zero = label_w + half
    height = row_h * len(rows) + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">',
        f'<line x1="{zero}" y1="0" x2="{zero}" y2="{height}" stroke="#999"/>',
    ]
    for i, (label, value) in enumerate(rows):
        y, w = 5 + i * row_h, abs(value) / top * half
        x = zero if value >= 0 else zero - w
        color = "#c0392b" if value > 0 else "#27ae60"
        shown = f"{value / 1e6:+.2f} ms"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{_e(label)} {shown}</text>'
            f'<rect x="{x:.1f}" y="{y + 2}" width="{max(w, 1):.1f}" height="{row_h - 6}" '
            f'fill="{color}"><title>{_e(label)}: {shown}</title></rect>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _side_cells(side: dict[str, Any], show: Any) -> list[str]:
    return [
        _cell("-" if side[k] is None else show(side[k]), side[k])
        for k in ("baseline", "candidate", "delta")
    ]


def _compare_html(body: dict[str, Any]) -> str:
    """The compare route's answer: headline, step times, category deltas as bars, the largest
    operator/kernel/module changes, memory, GPU and balance, findings that came or went."""
    step = body["step_time"]
    out = [
        f"<h3>{_e(step['headline'])}</h3>",
        f'<p class="muted">baseline {_e(body["baseline"])}, candidate {_e(body["candidate"])}; '
        f"ratio of medians {_e(step['ratio'])}, {1 - step['alpha']:.0%} interval "
        f"{_e(step['ci'])}: {_e(step['verdict'])}</p>",
    ]
    if body["ranks"]["note"]:
        out.append(f'<p class="muted">{_e(body["ranks"]["note"])}</p>')
    out.append(
        _table(
            ["steps", "baseline", "candidate"],
            [
                [_cell(label, left=True),
                 *(_cell(show(step[k][key]), step[k][key]) for k in ("baseline", "candidate"))]
                for label, key, show in (("count", "steps", str), ("median ms", "median_ns", _ms),
                                         ("p95 ms", "p95_ns", _ms))
            ],
        )
    )  # fmt: skip
    parts, statistic = diff_parts(body)
    if parts:
        ranked = sorted(parts, key=lambda c: -abs(c["delta_ns"]))
        out.append(
            f'<p class="muted">{_e(statistic)}, by {_e(body["category_source"])}: candidate '
            "minus baseline</p>" + delta_bars_svg([(c["category"], c["delta_ns"]) for c in ranked])
        )
    header = ["name", "status", "baseline ms", "candidate ms", "delta ms"]
    for section, key in (("operators", "name"), ("kernels", "short_name"), ("modules", "path")):
        rows = [
            [_cell(r[key] + (f" ({r['phase']})" if "phase" in r else ""), left=True,
                   title=r["name"] if key == "short_name" else ""),
             _cell(r["status"], left=True),
             *(_cell(_ms(r[k]), r[k]) for k in ("baseline_ns", "candidate_ns", "delta_ns"))]
            for r in body[section][:TOP_ROWS]
        ]  # fmt: skip
        if rows:
            out.append(f"<h3>{section} per step, largest changes first "
                       f"({len(rows)} of {body[f'{section}_total']})</h3>")  # fmt: skip
            out.append(_table(header, rows, left=2))
    sides = [
        ("peak allocated", body["memory"]["peak_bytes"], memory_text),
        ("peak reserved", body["memory"]["reserved_bytes"], memory_text),
        ("memory slope per step", body["memory"]["slope_bytes_per_step"], memory_text),
        ("GPU busy (traces), %", body["gpu"]["trace_utilization"], "{:.1f}".format),
        ("GPU utilization (GpuTracker), %", body["gpu"]["tracker_utilization"], "{:.1f}".format),
        ("straggler spread", body["balance"]["spread"], "{:.1%}".format),
    ]
    rows = [[_cell(name, left=True), *_side_cells(side, show)] for name, side, show in sides
            if side["baseline"] is not None or side["candidate"] is not None]  # fmt: skip
    rows += [
        [_cell(f"rank {r['rank']} median step ms", left=True), *_side_cells(r, _ms)]
        for r in body["balance"]["ranks"]
    ]
    if rows:
        out.append(_table(["", "baseline", "candidate", "delta"], rows))
    findings = body["findings"]
    changes = [
        f"<li>{what}: [{_e(f['severity'])}] {_e(f['title'])}</li>"
        for what in ("appeared", "disappeared")
        for f in findings[what]
    ]
    if changes:
        out.append(f"<h3>findings that changed</h3><ul>{''.join(changes)}</ul>")
    return "".join(out)


def render(report: dict[str, Any]) -> str:
    """The whole page for `gather`'s answers (and, under "compare", the compare route's answer
    with a baseline): one HTML string, nothing to fetch."""
    summary = report["summary"]
    steps = summary["steps"]
    span = "" if steps["first"] is None else f" ({steps['first']}..{steps['last']})"
    scope = "all ranks" if summary["rank"] is None else f"rank {summary['rank']}"
    sections = [
        ("Findings", _findings_html(report["findings"])),
        ("GPU summary", _gpu_summary_html(summary["gpus"])),
        *(
            [("Compared with the baseline", _compare_html(report["compare"]))]
            if report.get("compare")
            else []
        ),
        ("Step-time breakdown", _breakdown_html(report)),
        ("Execution summary", _execution_html(summary["execution_summary"])),
        ("Step time per rank", _steps_html(report)),
        ("MyTimer spans", _spans_html(summary)),
        ("Top operators", _operators_html(report["operators"])),
        ("Top kernels", _kernels_html(report["kernels"])),
        ("Modules", _modules_html(report["modules"])),
        ("Memory", _memory_html(report["memory"], report["findings"])),
        ("GpuTracker samples", _gpu_html(report["gpu"])),
    ]
    warnings = "".join(f"<li>{_e(w)}</li>" for w in summary["warnings"])
    body = "".join(f"<section><h2>{_e(t)}</h2>{content}</section>" for t, content in sections)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>tb-perf report: {_e(report['title'])}</title><style>{CSS}</style></head><body>"
        f"<h1>tb-perf report: {_e(report['title'])}</h1>"
        f'<p class="muted">{len(summary["ranks"])} rank(s), {steps["count"]} step(s){span}; '
        f"{scope}</p>{body}"
        + (f"<section><h2>Warnings</h2><ul>{warnings}</ul></section>" if warnings else "")
        + f"<script>{SORT_SCRIPT}</script></body></html>"
    )


def write_report(path: str, page: str) -> None:
    """Write the page atomically (a half-written report is never left at `path`)."""
    partial = f"{path}.partial"
    with open(partial, "w", encoding="utf-8") as out:
        out.write(page)
    os.replace(partial, path)
