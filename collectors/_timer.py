"""MyTimer: named, nested spans per training step, written per rank (run format v1)."""

from __future__ import annotations

import atexit
import contextlib
import functools
import inspect
import json
import os
import warnings
from collections.abc import Callable, Sequence
from time import perf_counter_ns
from typing import Any, TypeVar, cast

from ._env import env_enabled
from ._gpu_events import EventBackend, pick_event_backend
from ._mirror import Mirror, make_mirror
from ._null import _NULL_RANGE, _NullRange
from ._writer import RunWriter

_F = TypeVar("_F", bound=Callable[..., Any])


class TimerError(RuntimeError):
    """A span was stopped that is not the innermost open one."""


class _Range:
    """`with timer.range(name):` and `@timer.range(name)`."""

    __slots__ = ("_timer", "_name")

    def __init__(self, timer: MyTimer, name: str | None) -> None:
        self._timer = timer
        self._name = name

    def __enter__(self) -> None:
        if self._name is None:
            raise TypeError("range() needs a name when used as a context manager")
        self._timer.start(self._name)

    def __exit__(self, *exc_info: object) -> None:
        if self._name is not None:  # else __enter__ raised
            self._timer.stop(self._name)

    def __call__(self, func: _F) -> _F:
        name = self._name or func.__qualname__
        timer = self._timer

        @functools.wraps(func)
        def timed(*args: Any, **kwargs: Any) -> Any:
            timer.start(name)
            try:
                return func(*args, **kwargs)
            finally:
                timer.stop(name)

        return cast(_F, timed)  # wraps(func): the same signature


class MyTimer:
    """Times named, nested spans of a training loop on the CPU and, when available, the GPU.

    Usage::

        timer = MyTimer("runs/exp1")
        for batch in loader:
            with timer.range("forward"):
                loss = model(batch)
            timer.start("backward"); loss.backward(); timer.stop("backward")
            timer.step()            # ends the step: its spans reach the file now

    `stop(name)` must name the innermost open span. Spans are buffered and written at step
    boundaries (`step()` / `set_step()`), so a crash loses at most the current step. GPU times
    come from events polled at later step boundaries and are written as late `gpu` records; no
    host-device synchronization is added before `close()`. Not thread-safe: use one timer per
    thread. Disabled with `enabled=False` or the environment variable `ENABLE_TIMER=0`, where
    every method is a no-op.

    Args:
        writer: a RunWriter, or a run directory to create one for (closed with the timer);
            None uses the default run directory of RunWriter.
        enabled: None reads `ENABLE_TIMER` (default on).
        gpu: None times on CUDA when torch sees a GPU; True requires it; False turns GPU timing off;
            an EventBackend object uses that backend.
        mirrors: also open each span in other tools, e.g. `("record_function",)` to see the spans
            in torch.profiler traces.
        scalar_interval_s: the tfevents scalar `tb_perf/step_time_ms` is written at most this
            often, as the mean over the steps since the last one (every step is in the timer
            file); 0 writes one per step.
        flush_every_steps: write the file every N steps instead of every step, for loops whose
            steps are so short (under ~2 ms) that one write per step shows; a crash then loses
            at most the last N steps.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> MyTimer:
        # Chosen at creation, not by reassigning __class__ later: a reassigned instance loses
        # CPython's attribute-access specialization, which would slow every call. The catch-all
        # parameters are what type checkers skip to read __init__'s; `__signature__` (below the
        # class) shows __init__'s to inspect.signature() and help().
        enabled = kwargs.get("enabled")
        if enabled is None:
            enabled = env_enabled("ENABLE_TIMER")
        return object.__new__(cls if enabled else _DisabledTimer)

    def __init__(
        self,
        writer: RunWriter | str | os.PathLike | None = None,
        *,
        enabled: bool | None = None,
        gpu: bool | EventBackend | None = None,
        mirrors: Sequence[str | Mirror] = (),
        scalar_interval_s: float = 1.0,
        flush_every_steps: int = 1,
    ) -> None:
        self.enabled = True  # `enabled` was decided in __new__
        self._owns_writer = not isinstance(writer, RunWriter)
        self.writer = writer if isinstance(writer, RunWriter) else RunWriter(writer)
        self._file = self.writer.record_file("timer")
        self._events, gpu_status = pick_event_backend(gpu)
        # a mirror that is off (NVTX disabled or unavailable) is left out: the fast path stays
        self._mirrors = [m for m in map(make_mirror, mirrors) if getattr(m, "enabled", True)]
        self._to_unix = self.writer.clock.to_unix_ns
        self._step_callbacks: list[Callable[[int], None]] = []
        self._stack: list[tuple] = []
        self._spans: list[tuple] = []
        self._pending_gpu: list[tuple] = []
        self._quoted_names: dict[str, str] = {}
        self._last_id = 0
        self._step = 0
        self._step_t0: int | None = None
        self._step_set_explicitly = False
        self._ended_step: int | None = None
        self._closed = False
        self._write_failed = False  # the file could not be written: spans are dropped since
        if flush_every_steps < 1:
            raise ValueError(f"flush_every_steps must be >= 1, not {flush_every_steps}")
        self._flush_every_steps = flush_every_steps
        self._steps_unflushed = 0
        self._scalar_interval_ns = int(scalar_interval_s * 1e9)
        self._scalar_steps: list[int] = []  # step times not yet written as a scalar
        self._scalar_written_at = perf_counter_ns()
        self._bind_span_methods()
        self.writer.update_metadata(
            timer={"gpu": gpu_status, "mirrors": [type(m).__name__ for m in self._mirrors]}
        )
        atexit.register(self.close)

    def _bind_span_methods(self) -> None:
        """Instance attributes shadow the general methods: the cheapest variant is bound."""
        if self._events is None and not self._mirrors:
            self.__dict__.update(start=self._start_cpu, stop=self._stop_cpu)
        else:
            self.__dict__.pop("start", None)
            self.__dict__.pop("stop", None)

    # --- mirrors and step callbacks (for capture backends such as profile_steps) ---------------

    @property
    def current_step(self) -> int | None:
        """The step under way; None before the first `set_step()`, `step()` or span."""
        if self._step_t0 is None and not self._spans and not self._stack:
            return None
        return self._step

    @property
    def mirrors(self) -> tuple[Mirror, ...]:
        return tuple(self._mirrors)

    def add_mirror(self, mirror: Mirror) -> None:
        """Also open spans started from now on in `mirror`.

        Spans already open are not pushed to it, yet their `stop()` still calls its `pop()`:
        a mirror added mid-step must ignore a `pop()` with nothing open.
        """
        self._mirrors = [*self._mirrors, mirror]
        self._bind_span_methods()

    def remove_mirror(self, mirror: Mirror) -> None:
        """Stop mirroring; ranges still open in `mirror` are the caller's to close."""
        self._mirrors = [m for m in self._mirrors if m is not mirror]
        self._bind_span_methods()

    @property
    def ended_step(self) -> int | None:
        """During step callbacks: the step that ended at this boundary (its record was
        written), or None when the boundary ended none (`set_step()` right after `step()`
        only renumbers the step `step()` began)."""
        return self._ended_step

    @property
    def unflushed_steps(self) -> int:
        """Steps ended but not yet written to the file (0 right after a flush): collectors
        with files of their own write theirs when the timer writes."""
        return self._steps_unflushed

    def add_step_callback(self, callback: Callable[[int], None]) -> None:
        """Call `callback(step)` whenever a step begins (`step()`, `set_step()`), after the
        previous step was written."""
        self._step_callbacks.append(callback)

    def remove_step_callback(self, callback: Callable[[int], None]) -> None:
        self._step_callbacks.remove(callback)

    # --- spans -------------------------------------------------------------------------------

    def start(self, name: str) -> None:
        """Open a span; it becomes a child of the innermost open span."""
        for mirror in self._mirrors:
            mirror.push(name)
        self._last_id += 1
        event = self._events.record() if self._events is not None else None
        self._stack.append((name, self._last_id, perf_counter_ns(), event))

    def stop(self, name: str) -> None:
        """Close the innermost open span, which must be named `name`."""
        end = perf_counter_ns()
        stack = self._stack
        if not stack or stack[-1][0] != name:
            self._raise_mismatch(name)
        _, span_id, begin, start_event = stack.pop()
        if self._events is not None:
            self._pending_gpu.append((self._step, span_id, start_event, self._events.record()))
        for mirror in reversed(self._mirrors):
            mirror.pop()
        self._spans.append((span_id, stack[-1][1] if stack else 0, name, self._step, begin, end))

    def _start_cpu(self, name: str) -> None:
        self._last_id += 1
        self._stack.append((name, self._last_id, perf_counter_ns(), None))

    def _stop_cpu(self, name: str) -> None:
        end = perf_counter_ns()
        stack = self._stack
        if not stack or stack[-1][0] != name:
            self._raise_mismatch(name)
        _, span_id, begin, _ = stack.pop()
        self._spans.append((span_id, stack[-1][1] if stack else 0, name, self._step, begin, end))

    def _raise_mismatch(self, name: str) -> None:
        if not self._stack:
            raise TimerError(f"stop({name!r}) but no span is open")
        raise TimerError(
            f"stop({name!r}) but the innermost open span is {self._stack[-1][0]!r}; "
            "spans must be stopped in reverse order of start()"
        )

    def range(self, name: str | None = None) -> _Range | _NullRange:
        """A span as a context manager (`with timer.range("fwd"):`) or decorator."""
        return _Range(self, name)

    def next_span_id(self) -> int:
        """Reserve an id for `add_span`: a span written later (at its end) can be named as the
        parent of the spans that end before it."""
        self._last_id += 1
        return self._last_id

    def add_span(
        self, name: str, begin_ns: int, end_ns: int, *, parent: int = 0, span_id: int | None = None
    ) -> int:
        """Record a span measured elsewhere and return its id, for integrations whose actions
        are keyed by name and may stop out of order (Lightning), which `start`/`stop` reject.

        `begin_ns`/`end_ns` are `time.perf_counter_ns()` readings; `parent` a span id (0: none);
        `span_id` one from `next_span_id()`, else a new one. The span is written at the next step
        boundary with the current step, is not timed on the GPU nor mirrored, and leaves the
        stack of spans open with `start()` as it is.
        """
        if span_id is None:
            span_id = self.next_span_id()
        self._spans.append((span_id, parent, name, self._step, begin_ns, end_ns))
        return span_id

    # --- steps -------------------------------------------------------------------------------

    def step(self) -> None:
        """End the current step (its spans and step time are written now); the next one begins."""
        now = perf_counter_ns()
        self._ended_step = None
        self._end_step(now)
        self._step += 1
        self._step_t0 = now
        self._step_set_explicitly = False
        for callback in self._step_callbacks:
            callback(self._step)

    def set_step(self, step: int) -> None:
        """Say that step `step` begins now; a step already under way ends here.

        The step that `step()` began implicitly is only renumbered if nothing ran in it yet,
        so `set_step(i)` at the top of a loop that also calls `step()` adds no empty steps.
        """
        now = perf_counter_ns()
        self._ended_step = None
        if self._spans or (self._step_t0 is not None and self._step_set_explicitly):
            self._end_step(now)
        self._step = int(step)
        self._step_t0 = now
        self._step_set_explicitly = True
        for callback in self._step_callbacks:
            callback(self._step)

    def _end_step(self, now: int) -> None:
        begin = self._step_t0
        if begin is None and self._spans:  # first step without set_step(): from its first span
            begin = min(span[4] for span in self._spans)
        if begin is not None:
            to_unix = self._to_unix
            self._file.append(
                f'{{"k":"step","step":{self._step},"t0":{to_unix(begin)},"t1":{to_unix(now)}}}\n'
            )
            self._ended_step = self._step
            self._add_step_time_scalar(now, now - begin)
        self._steps_unflushed += 1
        if self._steps_unflushed >= self._flush_every_steps:
            self.flush()

    def _add_step_time_scalar(self, now: int, step_ns: int) -> None:
        self._scalar_steps.append(step_ns)
        if now - self._scalar_written_at >= self._scalar_interval_ns:
            mean_ms = sum(self._scalar_steps) / len(self._scalar_steps) / 1e6
            self.writer.add_scalar("step_time_ms", mean_ms, self._step)
            self._scalar_steps.clear()
            self._scalar_written_at = now

    def flush(self) -> None:
        """Write the spans finished so far and the GPU times that are ready."""
        if self._write_failed:  # turned off: training goes on, nothing piles up
            self._spans.clear()
            self._pending_gpu.clear()
            self._steps_unflushed = 0
            with contextlib.suppress(OSError, ValueError):
                self._file.flush()  # drops the step lines
            return
        append = self._file.append
        to_unix = self._to_unix
        quoted = self._quoted_names
        for span_id, parent, name, step, begin, end in self._spans:
            name_json = quoted.get(name)
            if name_json is None:
                name_json = quoted[name] = json.dumps(name)
            append(
                f'{{"k":"span","id":{span_id},"parent":{parent},"name":{name_json},'
                f'"step":{step},"t0":{to_unix(begin)},"t1":{to_unix(end)}}}\n'
            )
        self._spans.clear()
        self._steps_unflushed = 0
        if self._pending_gpu:
            self._write_ready_gpu_times(wait=False)
        self._write_file()

    def _write_file(self) -> None:
        """Write the file; if it cannot be written (full disk, run directory deleted), warn
        once and stop writing instead of failing the training step."""
        try:
            self._file.flush()
        except (OSError, ValueError) as exc:  # ValueError: the writer was closed first
            self._write_failed = True
            why = f"cannot write {self._file.path}: {exc}"
            self.writer.collector_stopped("MyTimer", self._step, why, exc)

    def _write_ready_gpu_times(self, wait: bool) -> None:
        events = self._events
        if events is None:  # spans wait for GPU times only where there are events
            return
        still_pending = []
        for step, span_id, start_event, end_event in self._pending_gpu:
            if wait:
                events.synchronize(end_event)
            elif not (events.query(end_event) and events.query(start_event)):
                still_pending.append((step, span_id, start_event, end_event))
                continue  # events on other streams may complete out of order: keep looking
            gpu_ns = events.elapsed_ns(start_event, end_event)
            self._file.append(f'{{"k":"gpu","step":{step},"span":{span_id},"gpu_ns":{gpu_ns}}}\n')
        self._pending_gpu = still_pending

    def close(self) -> None:
        """Write what is left (waiting for GPU times still pending) and close the files."""
        if self._closed:
            return
        self._closed = True
        if self._stack:
            warnings.warn(
                f"MyTimer closed with open spans {[s[0] for s in self._stack]}; they are dropped",
                RuntimeWarning,
                stacklevel=2,
            )
        self.flush()
        if self._scalar_steps:
            self._scalar_written_at -= self._scalar_interval_ns  # write the last window now
            self._add_step_time_scalar(perf_counter_ns(), self._scalar_steps.pop())
        if self._pending_gpu:
            self._write_ready_gpu_times(wait=True)
            self._write_file()
        if self._owns_writer:
            self.writer.close()
        atexit.unregister(self.close)

    def __enter__(self) -> MyTimer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _init_signature(init: Callable[..., None]) -> inspect.Signature:
    """A class's parameters, `cls(...)`: those of its __init__ without `self`."""
    signature = inspect.signature(init)
    return signature.replace(parameters=list(signature.parameters.values())[1:])


# typeshed declares no `__signature__` on classes, though inspect.signature() reads it there
MyTimer.__signature__ = _init_signature(MyTimer.__init__)  # type: ignore[attr-defined]


class _DisabledTimer(MyTimer):
    """MyTimer with ENABLE_TIMER=0 / enabled=False: every method does nothing."""

    _ended_step = None
    _steps_unflushed = 0

    def __init__(self, writer: RunWriter | str | os.PathLike | None = None, **kwargs: Any) -> None:
        self.enabled = False
        # collectors handed `timer.writer` get a writer that records nothing, whatever was given
        if isinstance(writer, RunWriter):
            self.writer = RunWriter(
                writer.run_dir, rank=writer.rank, world_size=writer.world_size, enabled=False
            )
        else:
            self.writer = RunWriter(writer, enabled=False)
        self._owns_writer = False

    def start(self, name: str) -> None:
        pass

    def stop(self, name: str) -> None:
        pass

    def range(self, name: str | None = None) -> _NullRange:
        return _NULL_RANGE

    def next_span_id(self) -> int:
        return 0

    def add_span(
        self, name: str, begin_ns: int, end_ns: int, *, parent: int = 0, span_id: int | None = None
    ) -> int:
        return 0

    def step(self) -> None:
        pass

    def set_step(self, step: int) -> None:
        pass

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass
