"""Errors the store and the views raise; the HTTP layer answers each with its status code and
`to_json()` body, the CLI with an exit code."""

from __future__ import annotations

from typing import Any

# `tb-perf`'s exit codes: ok, a regression found by a `diff` gate, a usage error (InvalidArgument,
# NotFound), unreadable input (Unreadable and every other TbPerfError)
EXIT_OK, EXIT_REGRESSION, EXIT_USAGE, EXIT_UNREADABLE = 0, 1, 2, 3


class TbPerfError(Exception):
    code = "internal"
    http_status = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


class Progress(TbPerfError):
    """The data a view needs is still being read (HTTP 202, with how far the read has come):
    raised by the store, so a view never checks for it (docs/HTTP_API.md, progress)."""

    code = "in_progress"
    http_status = 202

    def __init__(self, done_bytes: int, total_bytes: int) -> None:
        super().__init__(f"still reading the run ({done_bytes} of {total_bytes} bytes)")
        self.done_bytes = done_bytes
        self.total_bytes = total_bytes

    def to_json(self) -> dict[str, Any]:
        fraction = self.done_bytes / self.total_bytes if self.total_bytes else 0.0
        return {
            "progress": {
                "done_bytes": self.done_bytes,
                "total_bytes": self.total_bytes,
                "fraction": round(min(fraction, 1.0), 4),
            }
        }


class InvalidArgument(TbPerfError):
    """A request parameter is missing or not one of the values discovery found."""

    code = "invalid_argument"
    http_status = 400


class NotFound(TbPerfError):
    """No run (or rank, or file) of that name."""

    code = "not_found"
    http_status = 404


class Unreadable(TbPerfError):
    """The files exist but none can be read (unsupported schema version, corrupt content)."""

    code = "unreadable"
    http_status = 404


class OverLimit(Unreadable):
    """A task ran past the per-task time limit of the local pool and was stopped with its
    worker: never run again in the serving process, whose time it would take instead."""


class ExecutorUnavailable(TbPerfError):
    """The configured executor cannot be used now (Dask not installed, its scheduler
    unreachable); a later request tries again."""

    code = "executor_unavailable"
    http_status = 503
