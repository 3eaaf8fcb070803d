"""The collectors' environment switches: `ENABLE_<NAME>=0` (or false/no/off) turns a collector
that is on by default off; `=1` (or true/yes/on) turns one that is off by default on."""

from __future__ import annotations

import os

_FALSE_WORDS = frozenset({"0", "false", "no", "off"})
_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


def env_enabled(variable: str, default: bool = True) -> bool:
    """Whether `variable` leaves the collector on (unset or empty: `default`)."""
    value = os.environ.get(variable, "").strip().lower()
    if not value:
        return default
    return value not in _FALSE_WORDS if default else value in _TRUE_WORDS


def switched_off(variable: str, enabled: bool | None = None) -> str | None:
    """Why a collector that is on by default is off, else None: `enabled=False` ("disabled"),
    or with `enabled=None` the environment ("disabled by VARIABLE=value")."""
    if enabled is not None:
        return None if enabled else "disabled"
    if env_enabled(variable):
        return None
    return f"disabled by {variable}={os.environ[variable]}"
