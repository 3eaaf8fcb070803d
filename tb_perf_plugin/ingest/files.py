"""Opening logdir files: the one way every reader and discovery does it.

Whoever can drop a file into a shared logdir must not make the server read files outside it,
block on a FIFO or a device, or allocate past the per-file limit (the threat model in
docs/RELIABILITY.md). Discovery decides which paths are the logdir's (`refusal`: links that
leave it are skipped unless the server's owner opts in); readers open them with `open_input`,
which reads regular files only, checks the size on the open descriptor, and never blocks.
"""

from __future__ import annotations

import fcntl
import os
import stat
from functools import cached_property
from typing import BinaryIO, NamedTuple

from ..errors import Unreadable

FOLLOW_LINKS_ENV = "TB_PERF_FOLLOW_LINKS"
HEAD_BYTES = 64 << 10  # read (and, for gzip, inflated) to decide a file's kind
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def human_bytes(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def check_size(name: str, size: int, max_bytes: int, what: str = "file") -> None:
    """Refuse a file over the per-file limit, saying how to raise it."""
    if size > max_bytes:
        raise Unreadable(
            f"{name} is {human_bytes(size)}, over the {human_bytes(max_bytes)} limit for one "
            f"{what} (TB_PERF_MAX_FILE_MB raises it)"
        )


def follow_links_from_env() -> bool:
    """The owner's opt-in to reading link targets outside the logdir (`TB_PERF_FOLLOW_LINKS=1`)."""
    return os.environ.get(FOLLOW_LINKS_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def file_kind(mode: int) -> str:
    """What a file that is not regular is, in words."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def refusal(path: str, real_root: str, follow_links: bool = False) -> str | None:
    """Why discovery must leave `path` out (None: it may be read). A path whose real location
    (after every link) lies outside `real_root` is refused unless `follow_links`; a dangling or
    looping link is refused always. Only the reason is returned, never the file's content."""
    real = os.path.realpath(path)
    try:
        os.stat(real)
    except OSError as exc:
        return f"a link that leads nowhere ({exc.strerror or exc})"
    if follow_links or os.path.commonpath([real, real_root]) == real_root:
        return None
    return "a link to a file outside the logdir (TB_PERF_FOLLOW_LINKS=1 follows such links)"


def open_input(path: str, max_bytes: int | None, what: str = "file") -> BinaryIO:
    """`path` opened for binary reading, if it is a regular file within `max_bytes` (None: of
    any size, for a caller that reads a bounded head); else
    Unreadable naming the file and the reason. Opening never blocks (a FIFO with no writer, a
    terminal) and the checks are made on the open descriptor, so a file swapped after
    discovery looked at it is judged as what is actually read."""
    name = os.path.basename(path)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(
                f"{name}: {file_kind(info.st_mode)}, not a regular file: not read (only "
                "regular files are)"
            )
        if max_bytes is not None:
            check_size(name, info.st_size, max_bytes, what)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class Head:
    """A file's first HEAD_BYTES bytes, as each reader's sniffer (`readers.py`) sees them:
    `data` as read, and for text formats `text` (decoded, without a leading BOM and blanks)
    and its non-blank `lines`."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    @cached_property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")

    @cached_property
    def lines(self) -> list[str]:
        return [line for line in self.text.splitlines() if line.strip()]


class Verdict(NamedTuple):
    """A reader's word on a file's head: one of its files (`ours`), or one it refuses although
    it looks like its kind (a JSON document that is not a trace); `reason` in words."""

    ours: bool
    reason: str
