"""Reading CompileMonitor files (docs/COMPUTE.md, `compile` records) into a table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import numpy as np
import pandas as pd

from .records import Int64, read_appended

SCHEMA = "tb_perf.compile"
COUNT_COLUMNS = ["compile_ns", "frames", "graphs", "graph_breaks", "recompiles", "limit_hits"]
COMPILE_COLUMNS = ["step", "t", *COUNT_COLUMNS, "break_reasons", "recompile_reasons"]


class CompileRecord(msgspec.Struct, tag_field="k", tag="compile"):
    step: Int64
    t: Int64
    compile_ns: Int64 = 0
    frames: Int64 = 0
    graphs: Int64 = 0
    graph_breaks: Int64 = 0
    recompiles: Int64 = 0
    limit_hits: Int64 = 0
    break_reasons: list[tuple[str, Int64]] = []  # (reason, graph breaks) in this step
    recompile_reasons: list[tuple[str, str]] = []  # (function, reason), one per recompile


_DECODER = msgspec.json.Decoder(CompileRecord)


def compile_frame(records: list[CompileRecord]) -> pd.DataFrame:
    """One row per record: COMPILE_COLUMNS (counts int64; the reason columns hold lists of
    tuples)."""
    n = len(records)
    columns: dict[str, object] = {
        "step": np.fromiter((r.step for r in records), np.int64, n),
        "t": np.fromiter((r.t for r in records), np.int64, n),
    }
    for name in COUNT_COLUMNS:
        columns[name] = np.fromiter((getattr(r, name) for r in records), np.int64, n)
    columns["break_reasons"] = pd.Series([r.break_reasons for r in records], dtype=object)
    columns["recompile_reasons"] = pd.Series([r.recompile_reasons for r in records], dtype=object)
    return pd.DataFrame(columns)[COMPILE_COLUMNS]


@dataclass
class CompileFile:
    """One compile file's records as a table, and where its read ended."""

    table: pd.DataFrame  # COMPILE_COLUMNS
    bytes_read: int
    truncated_tail: bool
    problems: list[str] = field(default_factory=list)
    file_id: tuple[int, int, int, int] = (0, 0, 0, 0)  # as TimerTables.file_id


def read_compile_file(
    path: str,
    max_bytes: int,
    on_progress: Callable[[int], None] | None = None,
    previous: CompileFile | None = None,
) -> CompileFile:
    """A CompileMonitor file as a table; given an earlier read of the same file, only the lines
    appended since are read (the file is append-only)."""
    lines, extends, file_id = read_appended(
        path, SCHEMA, _DECODER, frozenset({"compile"}), max_bytes, on_progress, previous
    )
    table = compile_frame(lines.records)
    problems = lines.skipped
    if extends and previous is not None:
        table = pd.concat([previous.table, table], ignore_index=True)
        problems = previous.problems + problems
    return CompileFile(table, lines.bytes_read, lines.truncated_tail, problems, file_id)
