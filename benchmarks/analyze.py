"""What the analysis costs on top of ingest (issue 4): `df_index_resolver.json.gz`.

    python benchmarks/analyze.py [--repeat 5] [--json]

In one process, best of --repeat runs each:
- ingest: `read_trace(path)` (cold: no cache), the anchor;
- analysis: `analyze_run`, everything the analysis views and findings need, computed once per
  run version (step breakdowns, operator and kernel events, GPU metrics, findings), plus what
  the routes then do per request: operators by name and by input shapes, kernels by name.
Target: analysis <= 50 % of ingest.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import tempfile
from pathlib import Path

from _measure import best_of, shared_trace

from tb_perf_plugin.analysis import operators
from tb_perf_plugin.analysis.kernels import merge_kernel_rows
from tb_perf_plugin.analysis.operators import merge_operator_rows
from tb_perf_plugin.discovery import discover_runs
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.pipeline.analyze import analyze_run
from tb_perf_plugin.pipeline.rank_summary import rank_summaries
from tb_perf_plugin.pipeline.read import read_run

TARGET = 0.50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trace = shared_trace("df_index_resolver/df_index_resolver.json.gz")
    with tempfile.TemporaryDirectory() as logdir:
        (Path(logdir) / "df").mkdir()
        os.symlink(trace, Path(logdir) / "df" / "rank1.pt.trace.json.gz")
        run = discover_runs(logdir, follow_links=True)["df"]  # the link leaves the logdir
        with concurrent.futures.ThreadPoolExecutor(1) as executor:
            tables = read_run(
                run, run.signature(), max_file_bytes=1 << 34, executor=executor,
                cache_dir=None, on_progress=lambda _: None,
            )  # fmt: skip

        def analysis() -> None:
            operators._NESTINGS.clear()  # each repeat as the first analysis of these tables
            result = analyze_run(run, tables, rank_summaries(run.path, tables))
            merge_operator_rows(result.operator_rows)
            merge_operator_rows(result.operator_rows, "input_dims")
            merge_kernel_rows(result.kernel_rows)

        ingest_s = best_of(lambda: read_trace(str(trace)), args.repeat)
        analysis_s = best_of(analysis, args.repeat)
    ratio = analysis_s / ingest_s
    result = {"ingest_s": ingest_s, "analysis_s": analysis_s, "ratio": ratio, "target": TARGET}
    if args.json:
        print(json.dumps(result))
        return
    print(f"df_index_resolver.json.gz, best of {args.repeat}:")
    print(f"  ingest (read_trace, cold)        {ingest_s:8.3f} s")
    print(f"  full analysis of the tables      {analysis_s:8.3f} s")
    verdict = "ok" if ratio <= TARGET else "MISSED"
    print(f"  analysis / ingest                {ratio:8.1%}   <= {TARGET:.0%} {verdict}")
    print(f"load average (1 min): {os.getloadavg()[0]:.2f} (2 cores; other work inflates times)")


if __name__ == "__main__":
    main()
