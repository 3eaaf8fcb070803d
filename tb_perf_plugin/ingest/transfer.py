"""Parsed trace tables as one compact, size-capped message, for executors on other machines.

A Dask worker may not see the serving process' disk, so it cannot leave its result in the
trace cache the way a local process does. It parses the file and sends back the tables packed
instead: a JSON header (metadata, string table, column dtypes) and the raw columns, zlib-deflated
at level 1. Columns of integer ids and times compress well: a real 87 MB Kineto trace becomes
1.2 MB (docs/RELIABILITY.md). Nothing is pickled: the serving process rebuilds the arrays with
`np.frombuffer` from dtypes it checks. Only the serving process caches the result.
"""

from __future__ import annotations

import dataclasses
import json
import os
import struct
import zlib

import numpy as np

from ..errors import Unreadable
from .readers import FileKind, read_timeline_file
from .tables import TraceMeta, TraceTables

DEFAULT_MAX_RESULT_BYTES = int(float(os.environ.get("TB_PERF_MAX_RESULT_MB", "256")) * 1e6)
_TABLES = ("slices", "memory")
_HEADER = struct.Struct("<Q")


def pack(tables: TraceTables) -> bytes:
    """The tables as one deflated message (see the module docstring)."""
    columns, chunks = [], []
    for table in _TABLES:
        for column, values in getattr(tables, table).items():
            array = np.ascontiguousarray(values)
            columns.append([table, column, array.dtype.str, len(array)])
            chunks.append(array.tobytes())
    header = json.dumps(
        {"meta": dataclasses.asdict(tables.meta), "names": tables.names, "columns": columns}
    ).encode()
    compressor = zlib.compressobj(1)
    parts = [compressor.compress(_HEADER.pack(len(header)) + header)]
    parts += [compressor.compress(chunk) for chunk in chunks]
    parts.append(compressor.flush())
    return b"".join(parts)


def unpack(message: bytes, path: str) -> TraceTables:
    """The tables of `path` from a `pack` message; ValueError when it is not one."""
    try:
        raw = zlib.decompress(message)
        (size,) = _HEADER.unpack_from(raw)
        header = json.loads(raw[_HEADER.size : _HEADER.size + size])
        offset = _HEADER.size + size
        tables: dict[str, dict[str, np.ndarray]] = {table: {} for table in _TABLES}
        for table, column, dtype, length in header["columns"]:
            kind = np.dtype(dtype).kind
            if table not in tables or kind not in "biuf":  # numbers only: no objects
                raise ValueError(f"unexpected column {table}.{column} ({dtype})")
            array = np.frombuffer(raw, dtype=np.dtype(dtype), count=length, offset=offset)
            tables[table][column] = array
            offset += array.nbytes
        if offset != len(raw):
            raise ValueError(f"{len(raw) - offset} bytes left over")
        meta = TraceMeta(**{**header["meta"], "path": path})
        return TraceTables(meta, header["names"], tables["slices"], tables["memory"])
    except (zlib.error, struct.error, KeyError, TypeError) as exc:
        raise ValueError(f"not a packed trace table ({exc})") from exc


def parse_packed(path: str, max_file_bytes: int, kind: FileKind, max_result_bytes: int) -> bytes:
    """Executor task for workers without the serving process' disk: parse `path`, a timeline
    file of `kind`, and return its tables packed; Unreadable past `max_result_bytes`."""
    message = pack(read_timeline_file(path, max_file_bytes, kind))
    if len(message) > max_result_bytes:
        raise Unreadable(
            f"its parsed tables pack to {len(message) / 1e6:.0f} MB, over the "
            f"{max_result_bytes / 1e6:.0f} MB a worker may return (TB_PERF_MAX_RESULT_MB "
            "raises it)"
        )
    return message
