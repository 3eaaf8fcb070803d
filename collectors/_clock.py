"""The collectors' clock and a hook that skews it for tests.

Every timestamp the collectors write is `Clock.to_unix_ns(perf_counter_ns())`. Clock sync
(`_clock_sync.py`) reads the very same clock, so the offsets it records apply to our files as
they are.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

SKEW_ENV = "TB_PERF_CLOCK_SKEW"


@dataclass(frozen=True)
class ClockSkew:
    """A deliberate error added to the collectors' clock, so tests can check clock alignment.

    The skewed clock reads `true + offset_ns + drift_ppm * 1e-6 * (true - anchor)`: it is
    `offset_ns` ahead at the moment the clock is anchored and runs `drift_ppm` parts per million
    fast from then on.
    """

    offset_ns: int
    drift_ppm: float

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> ClockSkew | None:
        """`TB_PERF_CLOCK_SKEW="<offset_ns>:<drift_ppm>"` (e.g. `250000000:40`), else None."""
        value = (os.environ if env is None else env).get(SKEW_ENV, "").strip()
        if not value:
            return None
        offset, sep, drift = value.partition(":")
        try:
            return cls(int(offset), float(drift) if sep else 0.0)
        except ValueError:
            raise ValueError(
                f"{SKEW_ENV}={value!r} is not '<offset_ns>:<drift_ppm>' (e.g. '250000000:40')"
            ) from None


class Clock:
    """perf_counter_ns readings mapped to Unix-epoch ns through one anchor (see docs/FORMAT.md).

    The anchor pairs a `time.time_ns()` reading with the `perf_counter_ns()` readings around it,
    so the pairing error is at most half the read interval (well under a microsecond).
    """

    def __init__(self, skew: ClockSkew | None = None) -> None:
        before = time.perf_counter_ns()
        unix = time.time_ns()
        after = time.perf_counter_ns()
        self.skew = skew
        self.monotonic_ns = (before + after) // 2
        self.unix_ns = unix + (skew.offset_ns if skew else 0)
        self._offset = self.unix_ns - self.monotonic_ns
        self._rate = skew.drift_ppm * 1e-6 if skew else 0.0
        # Bound once: MyTimer converts every timestamp through this at flush time.
        self.to_unix_ns: Callable[[int], int] = self._drifting if self._rate else self._linear

    @classmethod
    def from_env(cls) -> Clock:
        """The collectors' clock, skewed if `TB_PERF_CLOCK_SKEW` says so."""
        return cls(ClockSkew.from_env())

    def _linear(self, monotonic_ns: int) -> int:
        return monotonic_ns + self._offset

    def _drifting(self, monotonic_ns: int) -> int:
        return monotonic_ns + self._offset + round((monotonic_ns - self.monotonic_ns) * self._rate)

    def now_unix_ns(self) -> int:
        return self.to_unix_ns(time.perf_counter_ns())

    def anchor(self) -> dict[str, Any]:
        """The `clock` field of the metadata file."""
        anchor: dict[str, Any] = {
            "unix_ns": self.unix_ns,
            "monotonic_ns": self.monotonic_ns,
            "monotonic_clock": "perf_counter",
        }
        if self.skew is not None:
            anchor["injected_skew"] = asdict(self.skew)
        return anchor
