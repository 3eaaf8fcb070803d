"""Reading MemorySampler and GpuTracker files (docs/FORMAT.md, `memory` and `system` records)
into tables, and the `memory` / `system` sections of a rank's metadata.

Values a collector could not read are `null` in the files and NaN in the tables (float64 holds
byte counts exactly up to 2^53, far beyond any device).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import numpy as np
import pandas as pd

from .records import Int64, read_appended

MEMORY_SCHEMA = "tb_perf.memory"
SYSTEM_SCHEMA = "tb_perf.system"
MEMORY_VALUES = ["allocated", "reserved", "peak", "retries", "ooms", "rss"]
MEMORY_COLUMNS = ["step", "t", "device", *MEMORY_VALUES]
SYSTEM_COLUMNS = ["t", "cpu_pct", "rss"]
GPU_VALUES = [
    "util", "mem_util", "mem_used", "mem_total", "power_w", "sm_clock_mhz", "temp_c", "pcie_tx",
    "pcie_rx",
]  # fmt: skip
GPU_COLUMNS = ["t", "index", *GPU_VALUES]


class MemRecord(msgspec.Struct, tag_field="k", tag="mem"):
    step: Int64
    t: Int64
    device: str = "cpu"
    allocated: Int64 | None = None
    reserved: Int64 | None = None
    peak: Int64 | None = None
    retries: Int64 | None = None
    ooms: Int64 | None = None
    rss: Int64 | None = None


class GpuSample(msgspec.Struct):
    index: Int64
    util: float | None = None
    mem_util: float | None = None
    mem_used: float | None = None
    mem_total: float | None = None
    power_w: float | None = None
    sm_clock_mhz: float | None = None
    temp_c: float | None = None
    pcie_tx: float | None = None
    pcie_rx: float | None = None


class SysRecord(msgspec.Struct, tag_field="k", tag="sys"):
    t: Int64
    cpu_pct: float | None = None
    rss: Int64 | None = None
    gpus: list[GpuSample] = []


_MEMORY_DECODER = msgspec.json.Decoder(MemRecord)
_SYSTEM_DECODER = msgspec.json.Decoder(SysRecord)


def _floats(values: list[float | int | None]) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def memory_frame(records: list[MemRecord]) -> pd.DataFrame:
    """One row per `mem` record: MEMORY_COLUMNS (step, t int64; device text; values float64)."""
    columns: dict[str, object] = {
        "step": np.fromiter((r.step for r in records), np.int64, len(records)),
        "t": np.fromiter((r.t for r in records), np.int64, len(records)),
        "device": pd.Series([r.device for r in records], dtype=object),
    }
    for name in MEMORY_VALUES:
        columns[name] = _floats([getattr(r, name) for r in records])
    return pd.DataFrame(columns)[MEMORY_COLUMNS]


def system_frames(records: list[SysRecord]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per `sys` record: SYSTEM_COLUMNS; one row per GPU of a record: GPU_COLUMNS)."""
    system = pd.DataFrame({
        "t": np.fromiter((r.t for r in records), np.int64, len(records)),
        "cpu_pct": _floats([r.cpu_pct for r in records]),
        "rss": _floats([r.rss for r in records]),
    })  # fmt: skip
    samples = [(r.t, g) for r in records for g in r.gpus]
    gpus: dict[str, object] = {
        "t": np.fromiter((t for t, _ in samples), np.int64, len(samples)),
        "index": np.fromiter((g.index for _, g in samples), np.int64, len(samples)),
    }
    for name in GPU_VALUES:
        gpus[name] = _floats([getattr(g, name) for _, g in samples])
    return system, pd.DataFrame(gpus)[GPU_COLUMNS]


@dataclass
class SamplerFile:
    """One memory or system file's records as tables, and where its read ended."""

    tables: dict[str, pd.DataFrame]  # "memory", or "system" and "gpus"
    bytes_read: int
    truncated_tail: bool
    problems: list[str] = field(default_factory=list)
    file_id: tuple[int, int, int, int] = (0, 0, 0, 0)  # as TimerTables.file_id


def _read_sampler_file(
    path: str,
    schema: str,
    decoder: msgspec.json.Decoder,
    kind: str,
    to_tables: Callable[[list], dict[str, pd.DataFrame]],
    max_bytes: int,
    on_progress: Callable[[int], None] | None,
    previous: SamplerFile | None,
) -> SamplerFile:
    lines, extends, file_id = read_appended(
        path, schema, decoder, frozenset({kind}), max_bytes, on_progress, previous
    )
    if not extends:
        previous = None  # new, replaced, truncated or rewritten: read from the start
    tables = to_tables(lines.records)
    problems = lines.skipped
    if previous is not None:
        tables = {
            name: pd.concat([previous.tables[name], table], ignore_index=True)
            for name, table in tables.items()
        }
        problems = previous.problems + problems
    return SamplerFile(tables, lines.bytes_read, lines.truncated_tail, problems, file_id)


def read_memory_file(
    path: str,
    max_bytes: int,
    on_progress: Callable[[int], None] | None = None,
    previous: SamplerFile | None = None,
) -> SamplerFile:
    """A MemorySampler file as the table `memory`; given an earlier read of the same file, only
    the lines appended since are read (the file is append-only)."""
    return _read_sampler_file(
        path, MEMORY_SCHEMA, _MEMORY_DECODER, "mem",
        lambda records: {"memory": memory_frame(records)}, max_bytes, on_progress, previous,
    )  # fmt: skip


def read_system_file(
    path: str,
    max_bytes: int,
    on_progress: Callable[[int], None] | None = None,
    previous: SamplerFile | None = None,
) -> SamplerFile:
    """A GpuTracker file as the tables `system` (process) and `gpus` (one row per GPU and
    sample), read incrementally like `read_memory_file`."""

    def to_tables(records: list[SysRecord]) -> dict[str, pd.DataFrame]:
        system, gpus = system_frames(records)
        return {"system": system, "gpus": gpus}

    return _read_sampler_file(
        path, SYSTEM_SCHEMA, _SYSTEM_DECODER, "sys", to_tables, max_bytes, on_progress, previous
    )
