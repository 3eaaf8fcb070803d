"""CompileMonitor: what torch.compile did during each training step, from dynamo's own
counters (docs/COMPUTE.md, `compile` records)."""

from __future__ import annotations

import atexit
import json
import os
import re
import warnings
from typing import Any

from ._env import env_enabled
from ._timer import MyTimer

# dynamo's `unimplemented` counter key when a function reached its recompile limit
_LIMIT_HIT = re.compile(r"recompile.?limit|cache.?size.?limit", re.IGNORECASE)
_REASON_CHARS = 300
_MODULE_WRAPPER = os.path.join("_dynamo", "external_utils.py")
_COMPILE_ID = re.compile(r"\s*\d+/(\d+):\s*")  # "0/3: " before a guard failure


def _function_label(code: Any) -> str:
    """`name (file.py:line)` of a code object dynamo compiled. `torch.compile(module)` compiles
    dynamo's own wrapper around the module's call, whose name would say nothing to the user."""
    if code.co_name == "inner" and code.co_filename.endswith(_MODULE_WRAPPER):
        return "a torch.compile'd nn.Module"
    return f"{code.co_name} ({os.path.basename(code.co_filename)}:{code.co_firstlineno})"


def _summary(text: str) -> str:
    """The headline of a dynamo message, with its `Explanation:` line when it has one (a
    graph break's headline alone, "Failed to trace builtin operator", does not say which)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    explanation = next((line for line in lines[1:] if line.startswith("Explanation:")), None)
    summary = lines[0] if explanation is None else f"{lines[0]}. {explanation}"
    return summary[:_REASON_CHARS] if lines else ""


def _new_recompiles(failures: list[str], newest: int) -> tuple[list[str], int]:
    """The reasons of the recompilations in one function's new guard failures (one each), and
    the newest graph seen failing since.

    Dynamo checks the function's cached graphs newest first and logs each failed check as
    `"F/C: reason"` (graph C of frame F); a recompilation follows when all fail, so a graph C
    newer than `newest` failing for the first time marks one recompilation, and its reason is
    why that graph did not fit. A failure without that prefix counts as one.
    """
    reasons = []
    for failure in failures:
        match = _COMPILE_ID.match(failure)
        if match is None:
            reasons.append(_summary(failure))
        elif int(match.group(1)) > newest:
            newest = int(match.group(1))
            reasons.append(_summary(failure[match.end() :]))
    return reasons, newest


class CompileMonitor:
    """Writes a `compile` record for each step of a MyTimer in which torch.compile compiled:
    compile time, new graphs, graph breaks and recompilations with their reasons, and hits of
    dynamo's recompile limit.

    Usage::

        timer = MyTimer("runs/exp1")
        model = torch.compile(model)
        with CompileMonitor(timer):
            for batch in loader:
                ...
                timer.step()

    It reads dynamo's process-wide counters at each step boundary (`torch._dynamo.utils`:
    `counters`, `guard_failures`, `cumulative_time_spent_ns`), which count compilations only,
    not calls: a step without compiling costs two dictionary lookups. It changes no logging or
    dynamo setting. These counters are private to torch: if they are missing or change shape,
    the monitor warns once and turns itself off. Everything compiled in the process is seen,
    including functions the program compiles outside the timed loop. Records reach the file
    when the timer writes its own.

    Args:
        timer: the MyTimer whose steps the records belong to and whose run they go to.
        max_reasons: at most this many graph-break and recompile reasons per record.
        enabled: None reads `ENABLE_COMPILE_MONITOR` (default on); a disabled timer disables it.
    """

    def __init__(
        self, timer: MyTimer, *, max_reasons: int = 20, enabled: bool | None = None
    ) -> None:
        if enabled is None:
            enabled = env_enabled("ENABLE_COMPILE_MONITOR")
        self.enabled = bool(enabled) and timer.enabled
        self.timer = timer
        self.max_reasons = max_reasons
        self._attached = False
        self._file: Any = None
        self._fingerprint: tuple[int, int] = (0, 0)
        self._totals: dict[str, int] = {}
        self._breaks: dict[str, int] = {}
        # code object -> (guard failures read, newest cache entry that failed)
        self._guards_seen: dict[Any, tuple[int, int]] = {}

    def attach(self) -> CompileMonitor:
        """Start watching; compilations from now on are recorded."""
        if not self.enabled or self._attached:
            return self
        try:
            import torch
            import torch._dynamo.utils as dynamo_utils

            self._dynamo = dynamo_utils
            self._fingerprint = self._read_fingerprint()
            self._guards_seen = {}
            self._totals, self._breaks, _ = self._read_totals()
            config = torch._dynamo.config
            settings = {
                "recompile_limit": getattr(config, "recompile_limit", None)
                or getattr(config, "cache_size_limit", None),
                "accumulated_recompile_limit": getattr(config, "accumulated_recompile_limit", None),
                "automatic_dynamic_shapes": getattr(config, "automatic_dynamic_shapes", None),
                "assume_static_by_default": getattr(config, "assume_static_by_default", None),
            }
        except Exception as exc:  # noqa: BLE001 - missing or changed private API: stay off
            warnings.warn(f"CompileMonitor is off: cannot read dynamo's counters ({exc!r})",
                          RuntimeWarning, stacklevel=2)  # fmt: skip
            self.enabled = False
            return self
        timer = self.timer
        self._now = timer.writer.clock.now_unix_ns
        self._file = timer.writer.record_file("compile")
        timer.writer.update_metadata(compile=settings)
        timer.add_step_callback(self._on_step)
        atexit.register(self.detach)
        self._attached = True
        return self

    def detach(self) -> None:
        """Record what the last step compiled, write the records and stop watching."""
        if not self._attached:
            return
        if self.timer.current_step is not None:
            self._record_or_stop(self.timer.current_step)
        self._stop()
        self._flush()

    def __enter__(self) -> CompileMonitor:
        return self.attach()

    def __exit__(self, *exc_info: object) -> None:
        self.detach()

    # --- internals ---------------------------------------------------------------------------

    def _read_fingerprint(self) -> tuple[int, int]:
        """Frames dynamo converted and its compile time: both change whenever it compiles."""
        dynamo = self._dynamo
        return (
            dynamo.counters["frames"]["total"],
            dynamo.cumulative_time_spent_ns.get("entire_frame_compile", 0),
        )

    def _read_totals(self) -> tuple[dict[str, int], dict[str, int], list[list]]:
        """Cumulative totals, graph breaks by reason, and the recompilations since last read."""
        dynamo = self._dynamo
        counters = dynamo.counters
        unimplemented = counters["unimplemented"]
        totals = {
            "compile_ns": int(dynamo.cumulative_time_spent_ns.get("entire_frame_compile", 0)),
            "frames": int(counters["frames"]["total"]),
            "graphs": int(counters["stats"]["unique_graphs"]),
            "limit_hits": sum(n for key, n in unimplemented.items() if _LIMIT_HIT.search(key)),
        }
        breaks = {_summary(reason): 0 for reason in counters["graph_break"]}
        for reason, n in counters["graph_break"].items():
            breaks[_summary(reason)] += int(n)
        recompiles = []
        seen = {}
        for code, failures in list(dynamo.guard_failures.items()):
            done, newest = self._guards_seen.get(code, (0, -1))
            if done > len(failures):  # dynamo was reset
                done, newest = 0, -1
            reasons, newest = _new_recompiles(failures[done:], newest)
            seen[code] = (len(failures), newest)
            label = _function_label(code)
            recompiles += [[label, reason] for reason in reasons]
        self._guards_seen = seen
        return totals, breaks, recompiles

    def _on_step(self, new_step: int) -> None:
        timer = self.timer
        if timer.ended_step is not None and not self._record_or_stop(timer.ended_step):
            return
        if timer.unflushed_steps == 0:  # the timer has just written its file: so do we
            self._flush()

    def _record_or_stop(self, step: int) -> bool:
        """Record the step; on any error warn once and stop watching (False)."""
        try:
            self._record(step)
            return True
        except Exception as exc:  # noqa: BLE001 - never stop training
            why = f"cannot read dynamo's counters ({exc!r})"
            self.timer.writer.collector_stopped("CompileMonitor", step, why)
            self._stop()
            return False

    def _record(self, step: int) -> None:
        fingerprint = self._read_fingerprint()
        if fingerprint == self._fingerprint:
            return
        self._fingerprint = fingerprint
        totals, breaks, recompiles = self._read_totals()
        if any(totals[k] < self._totals.get(k, 0) for k in totals):
            self._totals, self._breaks = {}, {}  # counters were cleared: count from zero
        delta = {k: v - self._totals.get(k, 0) for k, v in totals.items()}
        new_breaks = {r: n - self._breaks.get(r, 0) for r, n in breaks.items()}
        new_breaks = {r: n for r, n in new_breaks.items() if n > 0}
        self._totals, self._breaks = totals, breaks
        top_breaks = sorted(new_breaks.items(), key=lambda item: -item[1])[: self.max_reasons]
        record = {
            "k": "compile",
            "step": step,
            "t": self._now(),
            **delta,
            "graph_breaks": sum(new_breaks.values()),
            "recompiles": len(recompiles),
            "break_reasons": [[reason, n] for reason, n in top_breaks],
            "recompile_reasons": recompiles[: self.max_reasons],
        }
        self._file.append(json.dumps(record) + "\n")

    def _stop(self) -> None:
        if self._attached:
            self._attached = False
            self.timer.remove_step_callback(self._on_step)
            atexit.unregister(self.detach)

    def _flush(self) -> None:
        try:
            self._file.flush()
        except (OSError, ValueError) as exc:  # ValueError: the writer was closed first
            why = f"cannot write {self._file.path}: {exc}"
            self.timer.writer.collector_stopped("CompileMonitor", self.timer.ended_step, why, exc)
            self._stop()
