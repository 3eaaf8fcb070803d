"""Request parameters as the views read them: every value arrives as the client's text (or
None), is checked here and refused with `InvalidArgument` quoting it bounded."""

from __future__ import annotations

import re

from .errors import InvalidArgument

_INTEGER = re.compile(r"\s*-?[0-9]{1,19}\s*")  # ASCII digits, within int64's digits


def integer(value: str | None) -> int | None:
    """`value` as an integer if it is one written in ASCII digits, else None (`str.isdigit`
    admits '²' and '٣', which `int` refuses or reads as digits nobody typed)."""
    return int(value) if value is not None and _INTEGER.fullmatch(value) else None


def shown(value: str | None) -> str:
    """A parameter's value as error messages quote it: bounded, whatever the client sent."""
    if value is None:
        return "nothing"
    return repr(value if len(value) <= 80 else value[:80] + "...")


def int_param(value: str | None, name: str, low: int | None = None, high: int | None = None) -> int:
    """The parameter `name` as an integer within [low, high]."""
    number = integer(value)
    if number is None:
        raise InvalidArgument(f"the {name!r} parameter must be an integer (got {shown(value)})")
    if (low is not None and number < low) or (high is not None and number > high):
        raise InvalidArgument(f"{name}={number} is outside [{low}, {high}]")
    return number


def limit_param(value: str | None, high: int, default: int | None = None) -> int:
    """A `limit` parameter: at most `high` rows, `default` (else `high`) when not given."""
    if not value:
        return high if default is None else default
    return int_param(value, "limit", 1, high)


def rank_param(valid: list[int], rank: str | None) -> int | None:
    """The selected rank, one of `valid`; None when not given (every rank)."""
    if rank is None or rank == "":
        return None
    number = integer(rank)
    if number not in valid:
        raise InvalidArgument(f"rank {shown(rank)} is not a rank of this run (ranks: {valid})")
    return number


def rank_set(value: str | None, valid: list[int]) -> set[int] | None:
    """A comma-separated set of ranks, each one of `valid`; None when not given (every rank)."""
    if not value:
        return None
    ranks = set()
    for part in value.split(","):
        rank = integer(part)
        if rank not in valid:
            raise InvalidArgument(f"rank {shown(part)} is not a rank of this run (ranks: {valid})")
        ranks.add(rank)
    return ranks


def required(value: str | None, name: str) -> str:
    """A parameter that must be given (and not empty)."""
    if not value:
        raise InvalidArgument(f"the {name!r} parameter is required")
    return value
