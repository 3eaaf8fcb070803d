"""`tb-perf`: the plugin's analysis without TensorBoard.

Exit codes: 0 ok, 1 regression found by a `diff` gate, 2 usage error, 3 unreadable input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from .errors import InvalidArgument, NotFound, TbPerfError, Unreadable
from .service import RunService

EXIT_OK, EXIT_REGRESSION, EXIT_USAGE, EXIT_UNREADABLE = 0, 1, 2, 3


def _resolve(run: str, logdir: str | None) -> tuple[RunService, str]:
    """A service and run name for RUN: a run name under --logdir, or a run directory's path."""
    if logdir is not None:
        return RunService(logdir), run
    if not os.path.isdir(run):
        raise InvalidArgument(f"{run!r} is not a directory (give a run directory, or --logdir)")
    service = RunService(run)
    names = sorted(service.discover())
    if "." in names:
        return service, "."
    if len(names) == 1:
        return service, names[0]
    if not names:
        raise NotFound(f"no tb-perf run or torch.profiler trace under {run!r}")
    listing = ", ".join(names[:20]) + (" ..." if len(names) > 20 else "")
    raise InvalidArgument(f"{run!r} holds {len(names)} runs ({listing}); use --logdir {run} NAME")


def _ms(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1e6:.2f}"


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


def _rank_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    header = ["rank", "host", "status", "steps", "mean ms", "p50 ms", "p95 ms", "max ms"]
    rows = []
    for r in summary["ranks"]:
        stats = r["step_time_ns"] or {}
        rows.append(
            [
                str(r["rank"]),
                str(r["host"]),
                r["status"],
                str(r["steps"]),
                _ms(stats.get("mean")),
                _ms(stats.get("p50")),
                _ms(stats.get("p95")),
                _ms(stats.get("max")),
            ]
        )
    return header, rows


def _text_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(c) for c in column) for column in zip(header, *rows, strict=False)]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in [header, *rows]
    ]
    return "\n".join(lines)


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    def escape(cell: str) -> str:
        return cell.replace("|", "\\|")

    lines = [
        "| " + " | ".join(escape(c) for c in header) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def format_summary(summary: dict[str, Any], fmt: str, limit: int = 20) -> str:
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
        table(*_rank_rows(summary)),
        table(*_summary_rows(summary, limit)),
    ]
    if summary["warnings"]:
        parts.append("warnings:\n" + "\n".join(f"- {w}" for w in summary["warnings"]))
    return "\n\n".join(parts)


def _analyze(args: argparse.Namespace) -> int:
    service, name = _resolve(args.run, args.logdir)
    try:
        summary = service.summary(name, args.rank, wait_s=None)
    finally:
        service.close()
    if summary["run"] == ".":
        summary["run"] = args.run if args.logdir is None else args.logdir
    print(format_summary(summary, args.format, args.top))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tb-perf", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    analyze = commands.add_parser(
        "analyze",
        help="step times per rank and the span table of one run",
        description="Print a run's step-time statistics per rank and its span table.",
    )
    analyze.add_argument(
        "run", metavar="RUN", help="a run directory, or a run name when --logdir is given"
    )
    analyze.add_argument("--logdir", help="the logdir RUN is a name in")
    analyze.add_argument("--rank", help="only this rank (default: all ranks)")
    analyze.add_argument("--format", choices=["text", "json", "md"], default="text")
    analyze.add_argument("--top", type=int, default=20, help="span rows to print (text, md)")
    analyze.set_defaults(handler=_analyze)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (InvalidArgument, NotFound) as exc:
        print(f"tb-perf: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    except Unreadable as exc:
        print(f"tb-perf: unreadable input: {exc.message}", file=sys.stderr)
        return EXIT_UNREADABLE
    except TbPerfError as exc:
        print(f"tb-perf: {exc.message}", file=sys.stderr)
        return EXIT_UNREADABLE


if __name__ == "__main__":
    sys.exit(main())
