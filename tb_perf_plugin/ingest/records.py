"""Reading run format v1 JSON-lines files: header check, truncated tails, unknown records."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Protocol

import msgspec

from ..errors import Unreadable
from .files import open_input

SUPPORTED_VERSION = 1
# Record integers become int64 columns: a value outside int64 makes its line malformed instead
# of failing the whole file when the columns are built.
Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
# `\udcff`-style escapes of lone surrogates: valid JSON text (Python's json writes them for
# names decoded with surrogateescape), but refused by msgspec; read as U+FFFD instead
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


@dataclass
class LinesRead:
    """Records decoded from one JSON-lines file and what was wrong with the rest."""

    records: list[Any]
    bytes_read: int  # up to and including the last complete line
    # bytes after the last newline: a write cut short, or one under way
    truncated_tail: bool = False
    skipped: list[str] = field(default_factory=list)  # why lines were skipped


def read_header(first_line: bytes, path: str, schema: str) -> None:
    """Refuse files of another schema or a newer version with a message that says what to do."""
    name = os.path.basename(path)
    try:
        header = msgspec.json.decode(first_line)
    except (msgspec.DecodeError, RecursionError):
        raise Unreadable(f"{name}: the first line is not a JSON header") from None
    if not isinstance(header, dict) or header.get("schema") != schema:
        raise Unreadable(f"{name}: not a {schema} file (its first line is another header)")
    version = header.get("version")
    if version != SUPPORTED_VERSION:
        raise Unreadable(
            f"{name}: {schema} version {version!r} is not supported by this tb-perf "
            f"(it reads version {SUPPORTED_VERSION}); upgrade tb-perf to read it"
        )


def read_json_lines(
    path: str,
    schema: str,
    decoder: msgspec.json.Decoder,
    known_kinds: frozenset[str],
    max_bytes: int,
    on_progress: Callable[[int], None] | None = None,
    offset: int = 0,
) -> LinesRead:
    """Decode every complete line after the header with `decoder` (a tagged union of Structs).

    With `offset` (the `bytes_read` of an earlier read of the same file), only what was appended
    since is read: the files are append-only. Lines of record kinds this version does not know
    are skipped silently (newer writers may add kinds); malformed lines are skipped and
    reported. A last line without its newline is left unread: a live writer may be in the
    middle of it.
    """
    with open_input(path, max_bytes) as handle:
        handle.seek(offset)
        data = handle.read(max_bytes)
    if on_progress is not None:
        on_progress(len(data))
    end = data.rfind(b"\n") + 1
    if offset == 0:
        header_end = data.find(b"\n")
        if header_end < 0:
            if data:
                read_header(data, path, schema)  # a header cut short: "not a JSON header"
            return LinesRead([], 0, truncated_tail=bool(data))
        read_header(data[:header_end], path, schema)
        body = data[header_end + 1 : end]
    else:
        body = data[:end]
    try:
        records = decoder.decode_lines(body)
        skipped: list[str] = []
    except (msgspec.DecodeError, RecursionError):  # ValidationError is a DecodeError
        records, skipped = _decode_line_by_line(body, decoder, known_kinds)
    return LinesRead(records, offset + end, truncated_tail=end < len(data), skipped=skipped)


class EarlierRead(Protocol):
    """What a reader keeps of its last read of a file, to read only what was appended since."""

    bytes_read: int
    file_id: tuple[int, int, int, int]  # (st_dev, st_ino, st_mtime_ns, st_size)


def only_appended(before: tuple[int, int, int, int], now: tuple[int, int, int, int]) -> bool:
    """Same file, and it grew (or did not change at all): an append-only writer's doing."""
    same_file = before[:2] == now[:2]
    return same_file and (now[3] > before[3] or now[2:] == before[2:])


def read_appended(
    path: str,
    schema: str,
    decoder: msgspec.json.Decoder,
    known_kinds: frozenset[str],
    max_bytes: int,
    on_progress: Callable[[int], None] | None,
    previous: EarlierRead | None,
) -> tuple[LinesRead, bool, tuple[int, int, int, int]]:
    """`read_json_lines` from where `previous` ended when the file only grew since, else from
    the start. Returns the lines, whether they extend `previous`, and the file's identity."""
    st = os.stat(path)
    file_id = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
    extends = previous is not None and only_appended(previous.file_id, file_id)
    offset = previous.bytes_read if previous is not None and extends else 0
    lines = read_json_lines(path, schema, decoder, known_kinds, max_bytes, on_progress, offset)
    return lines, extends, file_id


def _decode_line_by_line(
    body: bytes, decoder: msgspec.json.Decoder, known_kinds: frozenset[str]
) -> tuple[list[Any], list[str]]:
    records: list[Any] = []
    bad_lines = 0
    for line in body.splitlines():
        if not line.strip():
            continue
        try:
            records.append(_decode_line(line, decoder))
        except msgspec.ValidationError:
            try:
                kind = msgspec.json.decode(line).get("k")
            except (msgspec.DecodeError, AttributeError, RecursionError):
                kind = None
            if not isinstance(kind, str) or kind in known_kinds:
                bad_lines += 1  # not a record, or a kind we know with wrong fields
        except (msgspec.DecodeError, RecursionError):
            bad_lines += 1
    return records, ([f"{bad_lines} malformed line(s) skipped"] if bad_lines else [])


def _decode_line(line: bytes, decoder: msgspec.json.Decoder) -> Any:
    """One record; escapes of lone surrogates (which msgspec refuses) are read as U+FFFD."""
    try:
        return decoder.decode(line)
    except msgspec.ValidationError:
        raise
    except msgspec.DecodeError:
        if b"\\u" not in line:
            raise
        return decoder.decode(_LONE_SURROGATE.sub(rb"\\ufffd", line))
