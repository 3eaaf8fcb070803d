"""Mirrors repeat MyTimer's spans into other tools' traces: torch.profiler and NVTX."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

# torch's Chrome-trace export writes range names without JSON escaping (checked on 2.13): a
# quote or a control character in a span name would make the whole trace unreadable.
_UNSAFE_IN_TRACE = re.compile(r'["\\\x00-\x1f]')


class Mirror(Protocol):
    """Opens and closes a range in another tool; ranges nest like the timer's spans."""

    def push(self, name: str) -> None: ...

    def pop(self) -> None: ...


class RecordFunctionMirror:
    """Spans appear as `user_annotation` events in torch.profiler / Kineto traces.

    Costs about 7 µs per span even when no profiler runs, so it is opt-in (profile_steps adds
    one only while a window records). A `pop()` with no range open is ignored: it belongs to a
    span opened before the mirror was added to the timer. Quotes, backslashes and control
    characters in names become `'`, `/` and spaces in the trace (torch does not escape them).
    """

    def __init__(self) -> None:
        from torch.autograd.profiler import record_function

        self._record_function = record_function
        self._open: list[Any] = []

    def push(self, name: str) -> None:
        if _UNSAFE_IN_TRACE.search(name):
            name = name.replace('"', "'").replace("\\", "/")
            name = re.sub(r"[\x00-\x1f]", " ", name)
        ctx = self._record_function(name)
        ctx.__enter__()
        self._open.append(ctx)

    def pop(self) -> None:
        if self._open:
            self._open.pop().__exit__(None, None, None)

    def close_all(self) -> None:
        """Close the ranges still open (innermost first), e.g. before a profiler stops."""
        while self._open:
            self._open.pop().__exit__(None, None, None)


def _nvtx_mirror() -> Mirror:
    """The NVTX labeler of create_labeler() (a no-op one when disabled or unavailable)."""
    from ._nvtx import create_labeler

    return create_labeler()


MIRRORS: dict[str, Callable[[], Mirror]] = {
    "record_function": RecordFunctionMirror,
    "nvtx": _nvtx_mirror,
}


def make_mirror(spec: str | Mirror) -> Mirror:
    if not isinstance(spec, str):
        return spec
    try:
        return MIRRORS[spec]()
    except KeyError:
        raise ValueError(f"unknown mirror {spec!r}; known: {', '.join(sorted(MIRRORS))}") from None
