"""Files from other tools in a run (docs/IMPORT.md): what each one is, and one reader per kind.

A file's kind comes from its first bytes; its name only words the answer ("named .sqlite but
holds text"). A suffix can lie (a `.json.gz` that is plain JSON, a `.prof` someone saved a trace
as), and reading a file with the wrong reader gives a worse error than refusing it up front.

Kinds: `kineto` (torch.profiler / Chrome JSON trace, plain or gzip), `nsys` (Nsight Systems
SQLite export), `ncu` (Nsight Compute CSV), `events` (the generic event CSV of
`events_csv.py`) and `pstats` (cProfile / pstats / Lightning AdvancedProfiler `.prof` files,
marshal data). The first three become timeline tables (`read_timeline_file`); `ncu` feeds the
Kernels view and `pstats` a Python function table.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import filecmp
import os
import secrets
import shutil
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from ..errors import Unreadable
from . import events_csv, kineto
from .events_csv import events_layout, read_events_csv
from .files import open_input
from .kineto import TraceTables, read_trace
from .nsys import read_nsys_sqlite

HEAD_BYTES = 64 << 10  # read (and, for gzip, inflated) to decide a file's kind
SQLITE_MAGIC = b"SQLite format 3\x00"
GZIP_MAGIC = b"\x1f\x8b"
# marshal: a dict (`{`, with or without FLAG_REF 0x80) whose first key is a tuple (`(` or the
# small-tuple `)`, either with FLAG_REF) or that is empty (TYPE_NULL `0` ends it)
_MARSHAL_DICT = (0x7B, 0xFB)
_MARSHAL_FIRST_KEY = (0x28, 0x29, 0xA8, 0xA9, 0x30)
# Nsight Compute `--csv` output (details and raw pages): a header line like this, possibly
# after the profiled program's own output and ncu's `==PROF==` notes
NCU_HEADER_START, NCU_KERNEL_COLUMN = '"ID",', '"Kernel Name"'
DROPPED_SUFFIXES = (".sqlite", ".prof", ".pstats")  # picked up from the run directory itself
IMPORTED_FOLDER = ("plugins", "tb_perf", "imported")
NSYS_READER_VERSION = 1  # bump whenever nsys.read_nsys_sqlite's tables change: cached ones miss


class FileKind(str, Enum):
    """What an imported file is."""

    KINETO = "kineto"
    NSYS = "nsys"
    NCU = "ncu"
    EVENTS = "events"
    PSTATS = "pstats"


TIMELINE_KINDS = (FileKind.KINETO, FileKind.NSYS, FileKind.EVENTS)
FEEDS = {
    FileKind.KINETO: "timeline, operators, kernels, steps (a torch.profiler trace)",
    FileKind.NSYS: "timeline and kernels (kernels, memcpy, CUDA runtime, NVTX ranges)",
    FileKind.NCU: "per-kernel metrics in the Kernels view",
    FileKind.EVENTS: "timeline (one slice per row; steps when it has a step column)",
    FileKind.PSTATS: "Python function table and the python_hotspot finding",
}


@dataclass(frozen=True)
class Sniffed:
    """A file's kind (None: not importable) and what its content looks like, in words."""

    kind: FileKind | None
    reason: str


def sniff(path: str) -> Sniffed:
    """The kind of the file at `path`, from its first HEAD_BYTES bytes."""
    try:
        with open_input(path, None) as handle:  # only the head is read
            head = handle.read(HEAD_BYTES)
    except Unreadable as exc:
        return Sniffed(None, exc.message)
    except OSError as exc:
        return Sniffed(None, f"unreadable ({exc.strerror or exc})")
    return sniff_bytes(head, os.path.basename(path))


def _inflated_heads(head: bytes) -> Iterator[bytes]:
    """What the first gzip member in `head` holds, then with each next member added, up to
    HEAD_BYTES (a member may end before the trace's key does: writers that flush per block
    make one member each). The first member's damage is the file's; a later one's is left to
    the reader to report."""
    inflater = zlib.decompressobj(wbits=47)
    out = inflater.decompress(head, HEAD_BYTES)
    yield out
    while inflater.eof and inflater.unused_data.startswith(GZIP_MAGIC) and len(out) < HEAD_BYTES:
        head, inflater = inflater.unused_data, zlib.decompressobj(wbits=47)
        try:
            out += inflater.decompress(head, HEAD_BYTES - len(out))
        except zlib.error:
            return
        yield out


def sniff_bytes(head: bytes, name: str) -> Sniffed:
    """The kind of a file that starts with `head` (`name` only words the reason)."""
    if not head:
        return Sniffed(None, "empty file")
    if head.startswith(SQLITE_MAGIC):
        return Sniffed(FileKind.NSYS, "SQLite database (an Nsight Systems export)")
    if head.startswith(GZIP_MAGIC):
        reasons = []
        try:
            for inflated in _inflated_heads(head):
                found = _sniff_text(inflated)
                if found.kind is FileKind.KINETO:
                    return Sniffed(FileKind.KINETO, "gzip-compressed JSON trace")
                reasons.append(found.reason)
        except zlib.error as exc:
            return Sniffed(None, f"corrupt gzip data ({exc})")
        return Sniffed(None, f"gzip file that holds no JSON trace ({reasons[0]})")
    if head[0] in _MARSHAL_DICT and len(head) > 1 and head[1] in _MARSHAL_FIRST_KEY:
        return Sniffed(FileKind.PSTATS, "marshal'd cProfile statistics")
    found = _sniff_text(head)
    lowered = name.lower()
    if found.kind is None and lowered.endswith(".sqlite"):
        return Sniffed(None, f"named .sqlite but holds no SQLite database ({found.reason})")
    if found.kind is None and lowered.endswith((".prof", ".pstats")):
        reason = f"named like a cProfile file but holds no marshal data ({found.reason})"
        return Sniffed(None, reason)
    return found


def _sniff_text(head: bytes) -> Sniffed:
    """JSON traces and CSV headers; anything else is not importable."""
    if b"\x00" in head:
        return Sniffed(None, "binary data of no known kind")
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        if '"traceEvents"' in text:
            return Sniffed(FileKind.KINETO, "JSON trace")
        return Sniffed(None, "JSON without `traceEvents` in its first 64 KiB (not a trace)")
    if text.startswith("["):
        if text[1:].lstrip().startswith("{") and '"ph"' in text:
            return Sniffed(FileKind.KINETO, "JSON trace (a bare array of events)")
        return Sniffed(None, "a JSON array that is not of trace events")
    lines = [line for line in text.splitlines() if line.strip()]
    if any(line.startswith(NCU_HEADER_START) and NCU_KERNEL_COLUMN in line for line in lines):
        return Sniffed(FileKind.NCU, "Nsight Compute CSV")
    if not lines:
        return Sniffed(None, "no content")
    try:
        header = next(csv.reader([lines[0]]))
    except csv.Error:
        return Sniffed(None, "text that is not a CSV")
    layout = events_layout(header)
    if not isinstance(layout, str):
        return Sniffed(FileKind.EVENTS, "event CSV")
    if len(header) > 1:
        return Sniffed(None, f"a CSV that is neither Nsight Compute's nor an event CSV: {layout}")
    return Sniffed(None, "text of no known kind")


def reader_version(kind: FileKind) -> int:
    """The version of the reader for `kind`: part of the trace cache key."""
    if kind is FileKind.KINETO:
        return kineto.PARSER_VERSION
    if kind is FileKind.EVENTS:
        return events_csv.READER_VERSION
    if kind is FileKind.NSYS:
        return NSYS_READER_VERSION
    raise ValueError(f"{kind.value} files are not cached as trace tables")


def read_timeline_file(path: str, max_bytes: int, kind: FileKind | None = None) -> TraceTables:
    """Trace tables of a timeline file (kineto, nsys, events), sniffing its kind unless given.
    Raises `errors.Unreadable` for a file of another kind or one its reader refuses."""
    if kind is None:
        found = sniff(path)
        if found.kind is None:
            raise Unreadable(f"{os.path.basename(path)}: not importable: {found.reason}")
        kind = found.kind
    if kind is FileKind.KINETO:
        return read_trace(path, max_bytes=max_bytes)
    if kind is FileKind.EVENTS:
        return read_events_csv(path, max_bytes)
    if kind is FileKind.NSYS:
        return read_nsys_sqlite(path, max_bytes)
    raise Unreadable(f"{os.path.basename(path)}: a {kind.value} file has no timeline")


def add_to_run(source: str, run_dir: str) -> tuple[str, bool]:
    """Copy `source` byte for byte into the run's imported folder: (its path there, whether it
    was copied). A file of the same name and content already there is kept (not copied); one
    of the same name and other content is never replaced: the copy gets the first free name
    of `name-2.ext`, `name-3.ext`, ... The copy is written under a hidden temporary name and
    linked into place, so discovery never sees half a file."""
    folder = os.path.join(run_dir, *IMPORTED_FOLDER)
    os.makedirs(folder, exist_ok=True)
    base = os.path.basename(source).lstrip(".") or "imported"
    temp = os.path.join(folder, f".{base}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask's permissions
    try:
        with os.fdopen(fd, "wb") as out, open(source, "rb") as handle:
            shutil.copyfileobj(handle, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
        stem, dot, suffixes = base.partition(".")
        for n in range(1, 1000):
            final = os.path.join(folder, base if n == 1 else f"{stem}-{n}{dot}{suffixes}")
            if os.path.exists(final) and filecmp.cmp(final, temp, shallow=False):
                return final, False
            if _place(temp, final):
                return final, True
        raise FileExistsError(errno.EEXIST, "no free name for the copy", base)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def _place(temp: str, final: str) -> bool:
    """Give `temp` the name `final` unless that name is taken; False when it is."""
    try:
        os.link(temp, final)  # fails on an existing name, where a rename would replace it
        return True
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: check, then rename
        if os.path.lexists(final):
            return False
        os.replace(temp, final)
        return True
