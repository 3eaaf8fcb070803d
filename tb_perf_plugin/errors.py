"""Errors the service raises; the HTTP layer maps them to status codes, the CLI to exit codes."""

from __future__ import annotations


class TbPerfError(Exception):
    code = "internal"
    http_status = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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


class ExecutorUnavailable(TbPerfError):
    """The configured executor cannot be used now (Dask not installed, its scheduler
    unreachable); a later request tries again."""

    code = "executor_unavailable"
    http_status = 503
