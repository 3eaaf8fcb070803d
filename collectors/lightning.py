"""tb-perf for PyTorch Lightning: `Trainer(profiler=TbPerfProfiler())` records Lightning's actions
as MyTimer spans, one tb-perf step per training batch (docs/INTEGRATIONS.md).

Lightning is imported here only, so `import collectors` works and stays cheap without it.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from time import perf_counter_ns
from typing import Any, NamedTuple

import lightning
from lightning.pytorch.profilers import Profiler

from ._env import env_enabled
from ._loader import SPAN_NAME as LOADER_SPAN
from ._loader import loader_settings
from ._timer import MyTimer
from ._writer import RunWriter

__all__ = ["ActionStats", "TbPerfProfiler"]

# The Lightning actions that mark training batches (Lightning 2.x names)
FETCH_SUFFIX = ".train_dataloader_next"  # [_TrainingEpochLoop].train_dataloader_next
BATCH = "run_training_batch"
EPOCH = "run_training_epoch"
BATCH_END = ("[LightningModule]", ".on_train_batch_end")  # the last hook of a training batch
EVAL_STEPS = ("[Strategy]", (".validation_step", ".test_step", ".predict_step"))


class ActionStats(NamedTuple):
    """One action's totals. `self_ns` is the time the action was the innermost one running, so
    self times add up to the time covered by actions without counting nested ones twice."""

    calls: int
    total_ns: int
    self_ns: int


class _Action:
    """An action between its start and stop."""

    __slots__ = ("name", "span_id", "begin_ns", "parent", "open", "self_ns")

    def __init__(self, name: str, span_id: int, begin_ns: int, parent: _Action | None) -> None:
        self.name = name
        self.span_id = span_id
        self.begin_ns = begin_ns
        self.parent = parent  # the innermost action open at start
        self.open = True
        self.self_ns = 0


class TbPerfProfiler(Profiler):
    """A Lightning profiler that writes a tb-perf run: every action (`run_training_batch`,
    `[Strategy]…training_step`, `[Strategy]…backward`, hooks…) becomes a span, each training
    batch a step, and its wait for data (`[_TrainingEpochLoop].train_dataloader_next`) a
    `dataloader` span, so the PERF tab's step views and data-loading finding work as with
    `timed_loader`.

    Usage::

        trainer = Trainer(profiler=TbPerfProfiler())     # the run is the logger's log_dir
        trainer.fit(model)                               # summary() is logged at the end

    Lightning starts and stops actions by name, and a stop need not match the innermost start,
    so actions are kept by name (not on MyTimer's stack) and written with `MyTimer.add_span`:
    a span's parent is the innermost action open throughout it (siblings may overlap).
    A step runs from the start of a batch's data wait (or of `run_training_batch`) to the end
    of its `on_train_batch_end` hook; validation and epoch hooks between batches are spans
    outside any step. Steps are numbered by Lightning's batch index over all epochs.
    Host time only; `modules=True` adds per-module forward/backward times (ModuleProfiler).
    `ENABLE_TIMER=0` turns it off: nothing is written.

    Args:
        dirpath: the tb-perf run directory; None uses the Trainer's `log_dir` (the logger's
            version directory), so PERF data sits in the run of the logger's scalars. A later
            stage in the same process (`trainer.test` after `trainer.fit`) goes into the
            sub-run `<dirpath>/<stage>-<n>`: a process cannot reopen its files in a run.
        filename: also write `summary()` to `<dirpath>/<stage>-<filename>.txt` (Lightning's
            convention); without it, the summary is logged.
        modules: True attaches a ModuleProfiler to the LightningModule during training
            batches; a mapping passes its options (`{"max_depth": 2}`).
    """

    def __init__(
        self,
        dirpath: str | os.PathLike[str] | None = None,
        filename: str | None = None,
        *,
        modules: bool | Mapping[str, Any] = False,
    ) -> None:
        # Lightning's Profiler takes `str | Path`: another os.PathLike goes as a Path
        if dirpath is not None and not isinstance(dirpath, str | Path):
            dirpath = Path(dirpath)
        super().__init__(dirpath=dirpath, filename=filename)
        self._module_options = (
            dict(modules) if isinstance(modules, Mapping) else ({} if modules else None)
        )
        self._timer: MyTimer | None = None
        self._writer: RunWriter | None = None
        self._trainer: Any = None
        self._module_profiler: Any = None
        self._modules_attached = False
        self._base_dir: Path | None = None
        self._runs_opened = 0
        self._stack: list[_Action] = []  # open actions in start order
        self._by_name: dict[str, list[_Action]] = {}
        self._last_event_ns = 0
        self._unrecorded: dict[str, int] = {}  # started while no run was open
        self._warned: set[str] = set()
        self._stats: dict[str, list[int]] = {}
        self._step: int | None = None  # the step under way, None between training batches
        self._last_index = -1
        self._step_began_ns = 0
        self._step_ns: list[int] = []
        self._loader_recorded = False

    @property
    def timer(self) -> MyTimer | None:
        """The MyTimer of the stage under way (None outside `setup`…`teardown`)."""
        return self._timer

    @property
    def run_dir(self) -> Path | None:
        """Where the last stage was written."""
        return None if self._writer is None else self._writer.run_dir

    @property
    def actions(self) -> dict[str, ActionStats]:
        """Calls, total and self time per span name, for the stage since `setup`."""
        return {name: ActionStats(*values) for name, values in self._stats.items()}

    # --- Lightning's profiler interface ---------------------------------------------------

    def setup(self, stage: str, local_rank: int | None = None, log_dir: str | None = None) -> None:
        """Open this rank's files in the run (Lightning calls it once per `fit`/`test`/...)."""
        super().setup(stage, local_rank, log_dir)
        if self._timer is not None:  # set up again without a teardown
            self._close_run()
        self._stats, self._step_ns, self._warned = {}, [], set()
        self._loader_recorded = False
        if not env_enabled("ENABLE_TIMER"):
            return
        stage_name = str(getattr(stage, "value", stage))
        self._trainer = _trainer_of(getattr(self, "_lightning_module", None))
        rank = world_size = None  # None: RunWriter finds them
        if self._trainer is not None:
            rank, world_size = self._trainer.global_rank, self._trainer.world_size
        self._runs_opened += 1
        if self._base_dir is None:  # the first run (its RunWriter sets _base_dir)
            run_dir = None if self.dirpath is None else Path(self.dirpath)
        else:
            run_dir = self._base_dir / f"{stage_name}-{self._runs_opened}"
        self._writer = RunWriter(run_dir, rank=rank, world_size=world_size)
        if self._base_dir is None:
            self._base_dir = self._writer.run_dir
        self._writer.update_metadata(
            lightning={"version": lightning.__version__, "stage": stage_name}
        )
        self._timer = MyTimer(self._writer, gpu=False)
        self._last_event_ns = perf_counter_ns()

    def start(self, action_name: str) -> None:
        timer = self._timer
        if timer is None:
            self._unrecorded[action_name] = self._unrecorded.get(action_name, 0) + 1
            return
        if action_name.endswith(FETCH_SUFFIX) and BATCH not in self._by_name:
            self._begin_step(self._batch_index(after_ready=False))
        elif action_name == BATCH and self._step is None:
            self._begin_step(self._batch_index(after_ready=True))
        elif self._modules_attached and _is_eval_step(action_name):
            self._module_profiler.detach()  # module times are per training batch
            self._modules_attached = False
        now = perf_counter_ns()
        stack = self._stack
        if stack:
            stack[-1].self_ns += now - self._last_event_ns
        self._last_event_ns = now
        action = _Action(action_name, timer.next_span_id(), now, stack[-1] if stack else None)
        stack.append(action)
        self._by_name.setdefault(action_name, []).append(action)

    def stop(self, action_name: str) -> None:
        now = perf_counter_ns()
        started = self._by_name.get(action_name)
        if not started:
            self._stop_unknown(action_name)
            return
        action = started.pop()
        if not started:
            del self._by_name[action_name]
        self._finish(action, now)
        if self._step is not None and (
            action_name == EPOCH
            or (action_name.startswith(BATCH_END[0]) and action_name.endswith(BATCH_END[1]))
        ):
            self._end_step()

    def summary(self) -> str:
        """Calls, total and self time per action (self times do not count nested actions
        twice), the steps, and where the run is."""
        run_dir = self.run_dir
        if self._base_dir is None or run_dir is None:  # (a base dir comes with a writer)
            return "tb-perf: nothing recorded (no setup yet, or ENABLE_TIMER=0)"
        stage = getattr(self._stage, "value", self._stage)
        steps = len(self._step_ns)
        mean_ms = sum(self._step_ns) / steps / 1e6 if steps else 0.0
        lines = [
            f"tb-perf profile ({stage}): {steps} training steps, mean {mean_ms:.3f} ms; "
            f"run written to {run_dir}",
            f"  open it with `tensorboard --logdir {run_dir.parent}` (PERF tab) or "
            f"`tb-perf analyze {run_dir}`",
        ]
        stats = sorted(self.actions.items(), key=lambda item: (-item[1].self_ns, item[0]))
        if not stats:
            return "\n".join(lines)
        recorded = sum(s.self_ns for _, s in stats)
        width = max(len("Action"), *(len(name) for name, _ in stats))
        header = (
            f"{'Action':<{width}}  {'Calls':>7}  {'Total s':>10}  {'Self s':>10}  {'Self %':>7}"
        )
        lines += ["", header, "-" * len(header)]
        for name, s in stats:
            share = 100.0 * s.self_ns / recorded if recorded else 0.0
            lines.append(
                f"{name:<{width}}  {s.calls:>7}  {s.total_ns / 1e9:>10.6f}  "
                f"{s.self_ns / 1e9:>10.6f}  {share:>7.2f}"
            )
        lines += [
            "-" * len(header),
            f"{'Recorded (sum of self)':<{width}}  {'':>7}  {'':>10}  {recorded / 1e9:>10.6f}  "
            f"{100.0 if recorded else 0.0:>7.2f}",
            "Self: time the action was the innermost one running; Total includes nested actions,",
            f"so totals overlap. `{LOADER_SPAN}` is [_TrainingEpochLoop].train_dataloader_next.",
        ]
        return "\n".join(lines)

    def teardown(self, stage: str | None) -> None:
        """Close actions still open (with a warning naming them), end the step under way and
        close the run's files."""
        if self._timer is not None:
            self._close_run()
        super().teardown(stage)

    # --- steps ----------------------------------------------------------------------------

    def _batch_index(self, after_ready: bool) -> int:
        """Lightning's index of the batch being fetched (before it is counted as ready) or run,
        over all epochs, so step numbers survive resuming; never a number already used."""
        try:
            ready = self._trainer.fit_loop.epoch_loop.batch_progress.total.ready
            index = ready - 1 if after_ready else ready
        except (AttributeError, ReferenceError):
            index = self._last_index + 1  # not a Trainer we know: count the batches
        if self._step is None and index <= self._last_index:
            index = self._last_index + 1
        return index

    def _begin_step(self, index: int) -> None:
        timer = self._timer
        if self._step == index or timer is None:  # (steps begin only while a run is open)
            return
        if self._step is None:
            # Spans since the last step were added with the next step's number; writing them
            # now keeps set_step() from counting them as a step of their own.
            timer.flush()
        timer.set_step(index)
        self._step, self._last_index = index, index
        self._step_began_ns = perf_counter_ns()
        if not self._loader_recorded:
            self._record_loader()
        if self._module_options is not None and not self._modules_attached:
            self._attach_modules()

    def _end_step(self) -> None:
        if self._timer is not None:  # (a step under way has a run open)
            self._timer.step()
        self._step_ns.append(perf_counter_ns() - self._step_began_ns)
        self._step = None

    def _record_loader(self) -> None:
        """The train DataLoader's settings, as `timed_loader` records them, for the data-loading
        finding's advice (known once the fit loop made the loader, by the first batch)."""
        self._loader_recorded = True
        loader = getattr(self._trainer, "train_dataloader", None)
        if hasattr(loader, "num_workers") and self._writer is not None:  # one DataLoader
            self._writer.update_metadata(dataloader=loader_settings(loader))

    def _attach_modules(self) -> None:
        """Attach at the first training batch (after `configure_model` and the move to the
        device), with the LightningModule the Trainer hands its profiler."""
        timer, options = self._timer, self._module_options
        if timer is None or options is None:  # (called at a step with modules=...)
            return
        model = getattr(self._trainer, "lightning_module", None)
        if model is None:
            self._warn_once("modules", "TbPerfProfiler(modules=...) found no LightningModule")
            self._module_options = None
            return
        if self._module_profiler is None:
            from ._modules import ModuleProfiler

            self._module_profiler = ModuleProfiler(model, timer, **options)
        self._module_profiler.attach()
        self._modules_attached = True

    # --- actions --------------------------------------------------------------------------

    def _finish(self, action: _Action, now: int) -> None:
        stack = self._stack
        if stack[-1] is action:
            stack.pop()
            action.self_ns += now - self._last_event_ns
        else:  # an outer action stops first: the innermost one keeps running
            stack[-1].self_ns += now - self._last_event_ns
            stack.remove(action)
        self._last_event_ns = now
        action.open = False
        parent = action.parent
        while parent is not None and not parent.open:
            parent = parent.parent
        name = LOADER_SPAN if action.name.endswith(FETCH_SUFFIX) else action.name
        if self._timer is not None:  # (actions are kept only while a run is open)
            self._timer.add_span(
                name,
                action.begin_ns,
                now,
                parent=0 if parent is None else parent.span_id,
                span_id=action.span_id,
            )
        stats = self._stats.setdefault(name, [0, 0, 0])
        stats[0] += 1
        stats[1] += now - action.begin_ns
        stats[2] += action.self_ns

    def _stop_unknown(self, action_name: str) -> None:
        count = self._unrecorded.get(action_name, 0)
        if count:  # started before setup or after teardown: not recorded
            self._unrecorded[action_name] = count - 1
            return
        self._warn_once(
            f"stop:{action_name}", f"TbPerfProfiler: stop({action_name!r}) without a start; ignored"
        )

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, RuntimeWarning, stacklevel=3)

    def _close_run(self) -> None:
        if self._stack:
            names = [a.name for a in self._stack]
            warnings.warn(
                f"TbPerfProfiler: actions still open at teardown were closed there: {names}",
                RuntimeWarning,
                stacklevel=3,
            )
            now = perf_counter_ns()
            for action in reversed(self._stack[:]):
                self._finish(action, now)
            self._by_name.clear()
        if self._step is not None:
            self._end_step()
        if self._modules_attached:
            self._module_profiler.detach()
            self._modules_attached = False
        self._module_profiler = None
        if self._timer is not None:
            self._timer.close()
        if self._writer is not None:
            self._writer.close()
        self._timer, self._trainer = None, None


def _trainer_of(module: Any) -> Any:
    """The Trainer of the LightningModule the Trainer set on its profiler (`_lightning_module`,
    as for Lightning's PyTorchProfiler), or None."""
    try:
        return None if module is None else module.trainer
    except (AttributeError, ReferenceError, RuntimeError):  # detached or collected module
        return None


def _is_eval_step(name: str) -> bool:
    return name.startswith(EVAL_STEPS[0]) and name.endswith(EVAL_STEPS[1])
