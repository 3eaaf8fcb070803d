"""The run analysis' merge at 256 to 4,096 ranks from the ranks' summaries alone (no events).

    python benchmarks/scale_summaries.py [--ranks 256,1024,4096] [--json]

Each rank's summary (pipeline/rank_summary.py) is what a worker sends for its rank; the merge
(`analyze.analyze_run`, on a worker of its own) turns them into the run's analysis, the one
thing the serving process receives and keeps. The template: the real summary of one rank of
benchmarks/scale.py's run (the NCCL trace of ../shared/data laid end to end twice: 6 steps),
copied once per rank with its own rank and a clock skew of up to +-5 ms, each copy written to a
file as a worker writes it into the store. Each rank count is one fresh process
(benchmarks/_measure.py) that measures:
  merge     the merge's wall time and its process' peak RSS (the summaries taken from their
            files one at a time, as the merge takes them)
  kept      the analysis the serving process keeps: its pickled size and the memory it
            holds once unpickled (tracemalloc)
Per rank: each of these divided by the rank count. Target (issue 23): what the serving
process keeps is flat per rank (its 4,096-rank value within 1.2x of its 256-rank value per
rank), and the merge's time and memory grow linearly (per rank within 1.5x).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import MB, bench_dir, loadavg, run_child  # noqa: E402

TEMPLATE_RANK = 1  # a rank that waits for the straggler, as most ranks do
SKEW_NS = 5_000_000
FLAT = 1.2  # what the serving process keeps, per rank: 4,096 ranks / 256 ranks
LINEAR = 1.5  # the merge's time and peak, per rank


def template(path: Path) -> Path:
    """The pickled summary of scale.py's rank TEMPLATE_RANK (made once, under `path`)."""
    import scale

    from tb_perf_plugin.ingest.kineto import read_trace
    from tb_perf_plugin.pipeline.rank_summary import summarize_rank
    from tb_perf_plugin.pipeline.read import TraceFile

    logdir = scale.generate(4)
    trace = next((logdir / "scale4").glob(f"worker{TEMPLATE_RANK}.*.pt.trace.json.gz"))
    tables = read_trace(str(trace))
    summary = summarize_rank(
        str(trace.parent), TEMPLATE_RANK, [TraceFile(str(trace), 1, "file name", tables)], {}
    )
    path.write_bytes(pickle.dumps(summary))
    return path


def _copy(summary: Any, rank: int, skew: int) -> Any:
    """The summary as rank `rank`'s, on a clock `skew` ns off."""
    import dataclasses

    moved = {s: (a + skew, b + skew) for s, (a, b) in summary.steps.items()}
    return dataclasses.replace(
        summary,
        rank=rank,
        steps=moved,
        breakdowns=[dataclasses.replace(b, rank=rank, start_ns=b.start_ns + skew)
                    for b in summary.breakdowns],
        trace_spans=[(f"worker{rank}.pt.trace.json.gz",
                      [(a + skew, b + skew) for a, b in span]) for _, span in summary.trace_spans],
        operator_rows=summary.operator_rows.assign(rank=rank),
        kernel_rows=summary.kernel_rows.assign(rank=rank),
        collective_rows=summary.collective_rows.assign(rank=rank),
        devices=[dataclasses.replace(d, rank=rank) for d in summary.devices],
        gpus=[dataclasses.replace(g, rank=rank) for g in summary.gpus],
        host_calls={(rank, step): ns for (_, step), ns in summary.host_calls.items()},
        step_rows=[(s, a + skew, b + skew, source, d0 + skew, d1 + skew)
                   for s, a, b, source, d0, d1 in summary.step_rows],
    )  # fmt: skip


def measure(template_path: str, ranks: int) -> dict[str, Any]:
    """In the child: the merge of `ranks` copies of the template, stored as workers store."""
    import os
    import random
    import shutil
    import time
    import tracemalloc
    import zlib

    import pandas as pd

    from tb_perf_plugin.discovery import Run
    from tb_perf_plugin.ingest.timer import SPAN_COLUMNS
    from tb_perf_plugin.pipeline.analyze import analyze_run
    from tb_perf_plugin.pipeline.rank_summary import taken_summary
    from tb_perf_plugin.pipeline.read import RunTables

    summary = pickle.loads(Path(template_path).read_bytes())
    rng = random.Random(9)
    skews = [rng.randint(-SKEW_NS, SKEW_NS) for _ in range(ranks)]
    folder = tempfile.mkdtemp(prefix="summaries-")
    stored = []
    for r in range(ranks):
        stored.append(os.path.join(folder, f"rank{r}.summary"))
        Path(stored[-1]).write_bytes(zlib.compress(pickle.dumps(_copy(summary, r, skews[r])), 1))
    # each rank's steps as MyTimer records them (the run's ranks); no trace events at all
    steps = pd.DataFrame(
        [(s, a + skews[r], b + skews[r], r, r) for r in range(ranks)
         for s, (a, b) in summary.steps.items()],
        columns=["step", "t0", "t1", "rank", "writer"],
    )  # fmt: skip
    tables = RunTables(signature=(), spans=pd.DataFrame(columns=[*SPAN_COLUMNS, "rank"]),
                       steps=steps)  # fmt: skip
    run = Run(name="simulated", path=tempfile.gettempdir())
    t0 = time.perf_counter()
    analysis = analyze_run(run, tables, (taken_summary(path) for path in stored))
    merge_s = time.perf_counter() - t0
    shutil.rmtree(folder)
    kept = pickle.dumps(analysis)
    del analysis
    tracemalloc.start()
    loaded = pickle.loads(kept)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {
        "merge_s": merge_s,
        "kept_pickle_bytes": len(kept),
        "kept_bytes": held,
        "findings": len(loaded.findings),
        "breakdowns": len(loaded.breakdowns),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", default="256,1024,4096", help="rank counts, comma-separated")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = [int(n) for n in args.ranks.split(",")]
    path = template(bench_dir() / "rank_summary.pickle")
    print(f"template: rank {TEMPLATE_RANK} of benchmarks/scale.py's run, "
          f"{path.stat().st_size / 1e3:.0f} kB pickled; load {loadavg()}")  # fmt: skip
    results = {}
    for ranks in counts:
        child = run_child(
            "import sys; sys.path.insert(0, 'benchmarks'); from scale_summaries import measure\n"
            "import tb_perf_plugin.pipeline.analyze",
            f"return measure({str(path)!r}, {ranks})",
            timeout=args.timeout,
            sample_workers=False,
        )
        if child.status != "ok":
            print(f"{ranks} ranks: {child.status}: {child.message}")
            return 1
        out = {**child.out, "peak_bytes": child.hwm_end, "added_peak_bytes": child.added_rss}
        results[ranks] = out
        print(
            f"{ranks:5d} ranks: merge {out['merge_s']:6.2f} s ({out['merge_s'] / ranks * 1e3:.2f} "
            f"ms a rank), merge process peak {out['peak_bytes'] / MB:5.0f} MB "
            f"(+{out['added_peak_bytes'] / MB:.0f} MB: {out['added_peak_bytes'] / ranks / 1e3:.0f}"
            f" kB a rank); kept {out['kept_bytes'] / MB:5.1f} MB "
            f"({out['kept_bytes'] / ranks / 1e3:.1f} kB a rank, pickled "
            f"{out['kept_pickle_bytes'] / ranks / 1e3:.1f} kB); {out['findings']} findings"
        )
    ok = True
    if len(counts) > 1:
        low, high = results[counts[0]], results[counts[-1]]
        n0, n1 = counts[0], counts[-1]
        for name, key, target in (("kept", "kept_bytes", FLAT), ("merge time", "merge_s", LINEAR),
                                  ("merge peak", "added_peak_bytes", LINEAR)):  # fmt: skip
            ratio = (high[key] / n1) / (low[key] / n0)
            met = ratio <= target
            ok &= met
            print(f"{name:10s} per rank, {n1} / {n0} ranks: {ratio:.2f} "
                  f"[{'ok' if met else 'MISSED'}: <= {target}]")  # fmt: skip
    if args.json:
        print(json.dumps({"results": results}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
