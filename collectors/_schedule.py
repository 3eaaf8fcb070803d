"""One window scheduler: at which collectors' steps a capture backend records.

The scheduler knows steps, not tools. torch.profiler is its first backend (`profile_steps`); the
Nsight backend (`collectors/_capture.py`) implements the same `CaptureBackend` protocol. Policies
say which steps record: `Schedule` (torch.profiler.schedule's cycles) and `Windows` (explicit
ranges). A "step" is whatever the caller counts: training steps, micro-batches, hits of a named
hook point, invocations of a pipeline task.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

logger = logging.getLogger(__name__)


class CaptureBusy(RuntimeError):
    """Raised by a backend's `prepare`/`start` when the tool it drives is in use by another
    capture (torch.profiler runs one session per process): this window is skipped, later ones
    are still tried."""


class Phase(enum.Enum):
    NONE = "none"  # not capturing (skip_first, wait)
    WARMUP = "warmup"  # the backend is prepared, its records are discarded
    ACTIVE = "active"  # recorded and written as one window
    DONE = "done"  # no window will follow


class Policy(Protocol):
    def phase(self, index: int) -> tuple[Phase, int]:
        """The phase of the step `index` steps after the first one the scheduler saw, and the
        number of the window (cycle) it belongs to; called once per step, in step order."""


@dataclass(frozen=True)
class Schedule:
    """torch.profiler.schedule's parameters: skip `skip_first` steps, then cycles of `wait`
    idle, `warmup` prepared and `active` recorded steps, `repeat` times (0: forever)."""

    skip_first: int = 0
    wait: int = 1
    warmup: int = 1
    active: int = 3
    repeat: int = 1

    def __post_init__(self) -> None:
        for name in ("skip_first", "wait", "warmup", "repeat"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, not {getattr(self, name)}")
        if self.active < 1:
            raise ValueError(f"active must be >= 1, not {self.active}")

    def phase(self, index: int) -> tuple[Phase, int]:
        if index < self.skip_first:
            return Phase.NONE, -1
        cycle, position = divmod(index - self.skip_first, self.wait + self.warmup + self.active)
        if self.repeat and cycle >= self.repeat:
            return Phase.DONE, cycle
        if position < self.wait:
            return Phase.NONE, cycle
        if position < self.wait + self.warmup:
            return Phase.WARMUP, cycle
        return Phase.ACTIVE, cycle


@dataclass(frozen=True)
class Windows:
    """Explicit windows: steps `start <= index < stop` of each `(start, stop)` record, each
    window prepared `warmup` steps before its start. Windows must be sorted and not overlap."""

    windows: tuple[tuple[int, int], ...]
    warmup: int = 0

    def __init__(self, windows: Sequence[tuple[int, int]], warmup: int = 0) -> None:
        windows = tuple((int(start), int(stop)) for start, stop in windows)
        if not windows:
            raise ValueError("Windows needs at least one (start, stop) window")
        if warmup < 0:
            raise ValueError(f"warmup must be >= 0, not {warmup}")
        previous_stop = None
        for start, stop in windows:
            if start < 0:
                raise ValueError(f"window ({start}, {stop}): start must be >= 0")
            if stop <= start:
                raise ValueError(f"window ({start}, {stop}): stop must be greater than start")
            if previous_stop is not None and start < previous_stop + warmup:
                raise ValueError(
                    f"window ({start}, {stop}) overlaps the window before it (ends at "
                    f"{previous_stop}, warmup {warmup}): windows must be sorted and disjoint"
                )
            previous_stop = stop
        object.__setattr__(self, "windows", windows)
        object.__setattr__(self, "warmup", warmup)

    def phase(self, index: int) -> tuple[Phase, int]:
        for cycle, (start, stop) in enumerate(self.windows):
            if index < start - self.warmup:
                return Phase.NONE, cycle
            if index < start:
                return Phase.WARMUP, cycle
            if index < stop:
                return Phase.ACTIVE, cycle
        return Phase.DONE, len(self.windows)


class CaptureBackend(Protocol):
    """A tool that records windows of steps. The scheduler calls, per window:
    `prepare()` (at warmup; skipped when there is none), `start(first)`, `step(n)` for each
    further step, then `stop(first, last)` — or `cancel()` when a prepared or started window
    must not be written. `close()` once at the end waits for writes still in flight."""

    def prepare(self) -> None: ...

    def start(self, step: int) -> None: ...

    def step(self, step: int) -> None: ...

    def stop(self, first_step: int, last_step: int) -> None: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class WindowScheduler:
    """Drives a backend from the collectors' step numbers: call `begin_step(n)` when step `n`
    begins (repeating the current step is a no-op) and `close()` at the end.

    Steps count from the first step seen (or from `origin` when given: absolute step numbers),
    numbering gaps included, so ranks that number their steps alike capture the same steps. A
    window ends when a step outside it begins, or at `end_step(n)` when step `n` is its last
    (callers that know when a step ends, e.g. a hook point's region, stop it there). A window open
    at `close()` is written up to the current step. A backend call that raises is logged and ends
    capturing: training goes on.
    """

    def __init__(
        self,
        backend: CaptureBackend,
        policy: Policy,
        *,
        rank: int = 0,
        ranks: Iterable[int] | None = None,
        origin: int | None = None,
    ) -> None:
        self.backend = backend
        self.policy = policy
        self.ranks = None if ranks is None else frozenset(ranks)
        self.captures = self.ranks is None or rank in self.ranks
        self._origin = origin
        self._step: int | None = None
        self._prepared: int | None = None  # the cycle prepared for
        self._recording: tuple[int, int] | None = None  # (cycle, first step)
        self._done = not self.captures
        self._closed = False
        self._warned_busy = False  # windows skipped for a busy tool: logged once

    @property
    def done(self) -> bool:
        """True once no window will follow (the policy ended, capture failed, or closed)."""
        return self._done

    def begin_step(self, step: int) -> None:
        if self._done or step == self._step:
            return
        if self._origin is None:
            self._origin = step
        previous, self._step = self._step, step
        phase, cycle = self.policy.phase(step - self._origin)
        if self._recording is not None and previous is not None:  # a window starts at a step
            if phase is Phase.ACTIVE and cycle == self._recording[0]:
                self._call(self.backend.step, step)
                return
            first = self._recording[1]
            self._recording = None
            self._call(self.backend.stop, first, previous)
        if self._prepared is not None and (phase is Phase.NONE or cycle != self._prepared):
            self._prepared = None  # the steps jumped past this window's start
            self._call(self.backend.cancel)
        if phase is Phase.WARMUP and self._prepared is None:
            if self._call(self.backend.prepare):
                self._prepared = cycle
        elif phase is Phase.ACTIVE:
            prepared, self._prepared = self._prepared is not None, None
            if (prepared or self._call(self.backend.prepare)) and self._call(
                self.backend.start, step
            ):
                self._recording = (cycle, step)
        elif phase is Phase.DONE:
            self._done = True

    def end_step(self, step: int) -> None:
        """Step `step` has ended: stop the window now if the next step is not in it."""
        if self._recording is None or step != self._step or self._origin is None:
            return  # (a window records from a step, and the first step set the origin)
        phase, cycle = self.policy.phase(step + 1 - self._origin)
        if phase is Phase.ACTIVE and cycle == self._recording[0]:
            return
        first, self._recording = self._recording[1], None
        self._call(self.backend.stop, first, step)
        if phase is Phase.DONE:
            self._done = True

    def close(self) -> None:
        """Write the window open now (up to the current step) and wait for the backend."""
        if self._closed:
            return
        self._closed = True
        if self._recording is not None and self._step is not None:  # a window starts at a step
            first, self._recording = self._recording[1], None
            self._call(self.backend.stop, first, self._step)
        elif self._prepared is not None:
            self._prepared = None
            self._call(self.backend.cancel)
        self._done = True
        self.backend.close()

    def _call(self, method: Callable[..., None], *args: int) -> bool:
        """Call the backend; False if capturing has ended or the call failed."""
        if self._done:
            return False
        try:
            method(*args)
            return True
        except CaptureBusy as busy:
            if not self._warned_busy:
                self._warned_busy = True
                logger.warning("%s: a window is skipped: %s", type(self.backend).__name__, busy)
            return False
        except Exception:
            logger.warning(
                "%s.%s%s failed; capturing stops, training goes on",
                type(self.backend).__name__,
                method.__name__,
                args,
                exc_info=True,
            )
            self._done = True
            self._recording = self._prepared = None
            try:
                self.backend.cancel()
            except Exception:
                logger.debug("cancel after a failed capture call failed too", exc_info=True)
            return False
