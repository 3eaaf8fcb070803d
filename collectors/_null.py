"""The no-op context manager and decorator that switched-off collectors hand out.

A module of its own so that `_nvtx`, `_capture`, `_flops` and `_tasks` need not import `_timer`
for it (which imported `_mirror`, which imports `_nvtx`: a cycle).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])


class _NullRange:
    """What `range()` returns while the timer is disabled: a context manager doing nothing."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> None:
        return None

    def __call__(self, func: _F) -> _F:
        return func


_NULL_RANGE = _NullRange()
