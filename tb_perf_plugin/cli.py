"""`tb-perf`: the plugin's analysis without TensorBoard.

The command line only: what each command does is `commands.py`, imported once the line has been
parsed. Exit codes: 0 ok, 1 regression found by a `diff` gate, 2 usage error, 3 unreadable input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from .executor import KINDS, check_kind


def _executor_kind(text: str) -> str:
    try:
        return check_kind(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


EXECUTOR_HELP = (
    f"where per-file ingest runs: {', '.join(KINDS)} (default: TB_PERF_EXECUTOR or process)"
)


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "run",
        metavar="RUN",
        help="a run directory, one trace or snapshot file, or a run name when --logdir is given",
    )
    parser.add_argument("--logdir", help="the logdir RUN is a name in")
    parser.add_argument(
        "--job",
        help="a run directory a script was run into more than once holds several jobs: this "
        "one (its id or the start of it; default: the newest)",
    )
    parser.add_argument("--executor", type=_executor_kind, help=EXECUTOR_HELP)


class _VersionAction(argparse.Action):
    """`--version`: prints `tb-perf X.Y.Z` and exits 0; the number is read only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print tb-perf's version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from . import __version__

        print(f"tb-perf {__version__}")  # to stdout, as argparse's own version action
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tb-perf", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", required=True)
    analyze = commands.add_parser(
        "analyze",
        help="findings, GPU and execution summaries, step times per rank, spans, top operators "
        "and kernels, memory and the module tree of a run",
        description="Print a run's findings (most severe first, with evidence and what to "
        "change), the GPU summary per device and the execution summary per rank of its traces, "
        "its step-time statistics per rank, its span table, its top operators and kernels, one "
        "memory line per rank when it has MemorySampler records and, when it has module calls "
        "(ModuleProfiler or traces), the modules with the most time.",
    )
    _add_run_arguments(analyze)
    analyze.add_argument("--rank", help="only this rank (default: all ranks)")
    analyze.add_argument("--format", choices=["text", "json", "md"], default="text")
    analyze.add_argument(
        "--top",
        type=int,
        default=20,
        help="span, operator, kernel and module rows to print (operators and kernels: json too)",
    )

    export = commands.add_parser(
        "export-trace",
        help="one Chrome/Perfetto trace of a run, all ranks aligned",
        description="Write one trace of the run with every rank on rank 0's clock (pid = "
        "rank), MyTimer spans as their own threads, and counter tracks. Open it in "
        "ui.perfetto.dev or chrome://tracing.",
    )
    _add_run_arguments(export)
    export.add_argument("-o", "--output", required=True, help="merged.json or merged.json.gz")
    export.add_argument("--ranks", help="comma-separated ranks (default: all)")
    span = export.add_mutually_exclusive_group()
    span.add_argument("--steps", help="A:B, the steps to keep (inclusive)")
    span.add_argument("--window", help="T0:T1 in milliseconds from the run's start")

    ingest = commands.add_parser(
        "ingest",
        help="parse a run's traces into the cache ahead of time, or import files into a run",
        description="`tb-perf ingest RUN` parses every trace of the run into the cache "
        "(TB_PERF_CACHE_DIR), so TensorBoard opens it at once. `tb-perf ingest FILE... --run "
        "RUN` imports files from other tools (Nsight Systems SQLite, Nsight Compute CSV, "
        "cProfile/pstats, event CSV, torch.profiler traces; docs/IMPORT.md): each is checked "
        "and parsed, then copied verbatim into RUN/plugins/tb_perf/imported/.",
    )
    ingest.add_argument(
        "paths",
        nargs="+",
        metavar="RUN | FILE",
        help="a run (directory, or name with --logdir); with --run, the files to import",
    )
    ingest.add_argument(
        "--run",
        help="import the FILEs into this run (a directory, created if needed, or a name in "
        "--logdir): copied verbatim into its plugins/tb_perf/imported/",
    )
    ingest.add_argument("--logdir", help="the logdir RUN is a name in")
    ingest.add_argument("--executor", type=_executor_kind, help=EXECUTOR_HELP)

    diff = commands.add_parser(
        "diff",
        help="candidate against baseline: is it faster or slower per step, and where",
        description="Compare two runs (docs/DIFF.md): the step-time ratio of medians with a "
        "99%% bootstrap interval and a verdict, category, operator, kernel and module deltas, "
        "memory, GPU utilization, rank balance and findings that appeared or disappeared.",
    )
    diff.add_argument("baseline", metavar="BASELINE", help="a run directory, or a run name")
    diff.add_argument("candidate", metavar="CANDIDATE", help="a run directory, or a run name")
    diff.add_argument("--logdir", help="the logdir BASELINE and CANDIDATE are names in")
    diff.add_argument("--executor", type=_executor_kind, help=EXECUTOR_HELP)
    diff.add_argument("--format", choices=["text", "json", "md"], default="text")
    diff.add_argument("--top", type=int, default=10, help="rows of each delta table (text, md)")
    diff.add_argument(
        "--fail-on-regression",
        type=float,
        metavar="PCT",
        help="exit 1 when the interval's lower bound exceeds 1 + PCT/100",
    )

    report = commands.add_parser(
        "report",
        help="one self-contained offline HTML file of a run, for people without TensorBoard",
        description="Write one HTML file (inline CSS and SVG charts, nothing fetched) with the "
        "run's findings, step-time breakdown, step time per rank, span table, top operators, "
        "kernels and modules, memory and GPU summaries; with --baseline, the comparison too.",
    )
    _add_run_arguments(report)
    report.add_argument("--rank", help="only this rank (default: all ranks)")
    report.add_argument(
        "--baseline", help="a run to compare with (a run directory, or a name in --logdir)"
    )
    report.add_argument("-o", "--output", required=True, help="report.html")
    return parser


def _answered_from_cache(args: argparse.Namespace) -> bool:
    """`tb-perf analyze` of a run analysed before, unchanged since: its kept answer, printed
    without importing what computes one (`analyze_cache.py`)."""
    from .analyze_cache import recall
    from .text import emit, format_summary

    summary = recall(args)
    if summary is None:
        return False
    emit(format_summary(summary, args.format, args.top))
    return True


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .errors import (
        EXIT_OK,
        EXIT_UNREADABLE,
        EXIT_USAGE,
        InvalidArgument,
        NotFound,
        TbPerfError,
        Unreadable,
    )

    try:
        if args.command == "analyze" and _answered_from_cache(args):
            return EXIT_OK
        from .commands import HANDLERS

        return HANDLERS[args.command](args)
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
