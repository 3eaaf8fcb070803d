"""Reading ModuleProfiler files (docs/FORMAT.md, `modules` records) into tables."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import numpy as np
import pandas as pd

from .records import Int64, read_appended

RECORD_COLUMNS = {
    "modules": ["rank", "writer", "id", "path", "type", "parent", "params"],
    "blocks": ["rank", "writer", "step", "last_step", "bwd_steps"],
    "backward_steps": ["rank", "writer", "step", "last_step", "bwd_step"],
    "calls": ["rank", "writer", "step", "last_step", "phase", "id", "calls", "total_ns", "self_ns"],
    "samples": ["rank", "writer", "phase", "id", "ns"],
    "gpu": ["rank", "writer", "step", "last_step", "phase", "id", "gpu_ns"],
    "shapes": ["rank", "writer", "id", "inputs", "output"],
}  # fmt: skip

_OBJECT_COLUMNS = {"path", "name", "type", "parent", "inputs", "output", "class_names"}


def frame(rows: list[tuple], columns: list[str]) -> pd.DataFrame:
    """A table of `rows` with the same dtypes whether it has rows or not (int64, else object
    for text and recorded JSON), so tables of successive reads concatenate alike."""
    dtypes = {c: object if c in _OBJECT_COLUMNS else np.int64 for c in columns}
    return pd.DataFrame(rows, columns=columns).astype(dtypes)


@dataclass
class ModuleRecords:
    """A run's ModuleProfiler records as read (docs/FORMAT.md). Module ids are unique per
    writer file only: every table carries the `writer` it came from."""

    modules: pd.DataFrame  # declarations, in declaration order
    blocks: pd.DataFrame  # one per `calls` record: the steps it covers, how many timed backward
    backward_steps: pd.DataFrame  # the steps of a block listed in its `bwd_steps` (when it has it)
    calls: pd.DataFrame  # one per module and phase of a `calls` record (phase 0/1)
    samples: pd.DataFrame  # per-call durations of those entries
    gpu: pd.DataFrame  # `mgpu` entries
    shapes: pd.DataFrame  # `shapes` records (inputs, output as recorded)

    @classmethod
    def empty(cls) -> ModuleRecords:
        return cls(**{name: frame([], cols) for name, cols in RECORD_COLUMNS.items()})


MODULES_SCHEMA = "tb_perf.modules"


class _ModuleRecord(msgspec.Struct, tag_field="k", tag="module"):
    id: Int64
    path: str
    type: str
    parent: Int64
    params: Int64


class _CallsRecord(msgspec.Struct, tag_field="k", tag="calls"):
    step: Int64
    last_step: Int64
    fwd: list[tuple[Int64, Int64, Int64, Int64, list[Int64]]] = []
    bwd: list[tuple[Int64, Int64, Int64, Int64, list[Int64]]] = []
    bwd_steps: list[Int64] | None = None  # absent: every step of the block timed backward


class _ModuleGpuRecord(msgspec.Struct, tag_field="k", tag="mgpu"):
    step: Int64
    last_step: Int64
    fwd: list[tuple[Int64, Int64]] = []
    bwd: list[tuple[Int64, Int64]] = []


class _ShapesRecord(msgspec.Struct, tag_field="k", tag="shapes"):
    id: Int64
    inputs: Any = None
    output: Any = None


_MODULES_DECODER = msgspec.json.Decoder(
    _ModuleRecord | _CallsRecord | _ModuleGpuRecord | _ShapesRecord
)
_MODULE_KINDS = frozenset({"module", "calls", "mgpu", "shapes"})
_FILE_COLUMNS = {name: cols[2:] for name, cols in RECORD_COLUMNS.items()}  # without rank, writer


@dataclass
class ModuleFile:
    """One modules file's records as columns (ids as written), and where its read ended."""

    tables: dict[str, pd.DataFrame]  # _FILE_COLUMNS
    declared: dict[int, str]  # id -> path
    bytes_read: int
    truncated_tail: bool
    problems: list[str] = field(default_factory=list)
    file_id: tuple[int, int, int, int] = (0, 0, 0, 0)  # as TimerTables.file_id


def _extend(columns: dict[str, list], record: Any, phase: int, **values: tuple) -> None:
    """Append one phase's entries of a block record to `columns`."""
    n = len(values["id"])
    columns["step"] += [record.step] * n
    columns["last_step"] += [record.last_step] * n
    columns["phase"] += [phase] * n
    for name, column in values.items():
        columns[name] += column


def _module_tables(
    records: list[Any], declared: dict[int, str]
) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """Columns of newly read records; `declared` (id -> path) is extended. Entries naming an id
    the file has not declared are skipped, as are second declarations of an id. Block entries
    are gathered as columns and checked in bulk: a long run has millions of samples."""
    rows: dict[str, list] = {"modules": [], "blocks": [], "backward_steps": [], "shapes": []}
    calls: dict[str, list] = {name: [] for name in _FILE_COLUMNS["calls"]}
    gpu: dict[str, list] = {name: [] for name in _FILE_COLUMNS["gpu"]}
    samples: list[list[int]] = []  # one list per `calls` row
    redeclared = 0
    for record in records:
        kind = type(record)
        if kind is _ModuleRecord:
            if record.id in declared:
                redeclared += record.path != declared[record.id]
                continue
            declared[record.id] = record.path
            rows["modules"].append(
                (record.id, record.path, record.type, record.parent, record.params)
            )
        elif kind is _CallsRecord:
            first, last, listed = record.step, record.last_step, record.bwd_steps
            if listed is None:
                rows["blocks"].append((first, last, last - first + 1))
            else:  # (each step once, and only the block's own)
                timed = sorted({step for step in listed if first <= step <= last})
                rows["blocks"].append((first, last, len(timed)))
                rows["backward_steps"] += [(first, last, step) for step in timed]
            for phase, entries in enumerate((record.fwd, record.bwd)):
                if entries:
                    ids, counts, totals, own, sampled = zip(*entries, strict=True)
                    _extend(calls, record, phase, id=ids, calls=counts, total_ns=totals,
                            self_ns=own)  # fmt: skip
                    samples += sampled
        elif kind is _ModuleGpuRecord:
            for phase, entries in enumerate((record.fwd, record.bwd)):
                if entries:
                    ids, gpu_ns = zip(*entries, strict=True)
                    _extend(gpu, record, phase, id=ids, gpu_ns=gpu_ns)
        elif kind is _ShapesRecord:
            rows["shapes"].append((record.id, record.inputs, record.output))
    tables = {name: frame(values, _FILE_COLUMNS[name]) for name, values in rows.items()}
    known = np.fromiter(declared, np.int64, len(declared))
    for name, columns in (("calls", calls), ("gpu", gpu)):
        tables[name] = pd.DataFrame({c: np.array(v, dtype=np.int64) for c, v in columns.items()})
    lengths = np.fromiter(map(len, samples), np.int64, len(samples))
    tables["samples"] = pd.DataFrame({
        "phase": np.repeat(tables["calls"]["phase"].to_numpy(), lengths),
        "id": np.repeat(tables["calls"]["id"].to_numpy(), lengths),
        "ns": np.fromiter(itertools.chain.from_iterable(samples), np.int64, int(lengths.sum())),
    })  # fmt: skip
    undeclared = 0
    for name in ("calls", "gpu", "shapes"):
        table = tables[name]
        ok = np.isin(table["id"].to_numpy(np.int64), known)
        undeclared += int((~ok).sum())
        tables[name] = table[ok].reset_index(drop=True)
    samples_ok = np.isin(tables["samples"]["id"].to_numpy(), known)
    tables["samples"] = tables["samples"][samples_ok].reset_index(drop=True)
    problems = []
    if undeclared:
        problems.append(f"{undeclared} module entries with an undeclared id skipped")
    if redeclared:
        problems.append(f"{redeclared} module ids declared again with another path (ignored)")
    return tables, problems


def read_modules_file(
    path: str,
    max_bytes: int,
    on_progress: Callable[[int], None] | None = None,
    previous: ModuleFile | None = None,
) -> ModuleFile:
    """Read a ModuleProfiler file with the timer files' JSON-lines reader; given an earlier
    read of the same file, read only the lines appended since and extend it."""
    lines, extends, file_id = read_appended(
        path, MODULES_SCHEMA, _MODULES_DECODER, _MODULE_KINDS, max_bytes, on_progress, previous
    )
    if not extends:
        previous = None  # new, replaced, truncated or rewritten: read from the start
    declared = dict(previous.declared) if previous is not None else {}
    tables, problems = _module_tables(lines.records, declared)
    if previous is not None:
        tables = {
            name: pd.concat([previous.tables[name], table], ignore_index=True)
            for name, table in tables.items()
        }
        problems = previous.problems + problems
    return ModuleFile(
        tables, declared, lines.bytes_read, lines.truncated_tail, problems + lines.skipped,
        file_id,
    )  # fmt: skip


def module_records(parts: list[tuple[int, int, ModuleFile]]) -> ModuleRecords:
    """All writers' module tables, each row tagged with its rank and writer."""
    if not parts:
        return ModuleRecords.empty()
    return ModuleRecords(**{
        name: pd.concat(
            [f.tables[name].assign(rank=rank, writer=writer) for rank, writer, f in parts],
            ignore_index=True,
        )[columns]
        for name, columns in RECORD_COLUMNS.items()
    })  # fmt: skip
