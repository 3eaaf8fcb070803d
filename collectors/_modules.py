"""ModuleProfiler: forward and backward time of every nn.Module, per step, on the host and (with
CUDA events) on the device, cheap enough to leave on. Records: docs/FORMAT.md, `modules`."""

from __future__ import annotations

import atexit
import fnmatch
import functools
import json
import os
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from time import perf_counter_ns
from typing import Any

from ._gpu_events import EventBackend, cuda_backend_if_available
from ._timer import MyTimer

_FALSE_WORDS = {"0", "false", "no", "off"}
SAMPLES_PER_BLOCK = 32  # per-call durations kept per module, phase and block of steps
PHASES = ("fwd", "bwd")
_NODE_MARKS = "tb_perf.modules"  # key of our marks in an autograd node's metadata


class _BackwardCall:
    """One forward call's backward: set by hooks on autograd nodes as the engine reaches them."""

    __slots__ = ("module_id", "start", "end", "start_event", "end_event")

    def __init__(self, module_id: int) -> None:
        self.module_id = module_id
        self.start: int | None = None
        self.end: int | None = None
        self.start_event: Any = None
        self.end_event: Any = None


@dataclass
class _ModuleStats:
    """One module's calls in one phase of a block of steps."""

    calls: int = 0
    total_ns: int = 0
    self_ns: int = 0
    samples: list[int] = field(default_factory=list)


@dataclass
class _Profiled:
    module: Any
    module_id: int
    path: str
    handles: list[Any]


def _spaced(values: list[int], count: int) -> list[int]:
    """`count` evenly spaced values of `values` (all of them when there are no more)."""
    if len(values) <= count:
        return values
    last = len(values) - 1
    return [values[round(i * last / (count - 1))] for i in range(count)]


def _tensors(value: Any) -> Iterator[Any]:
    """Tensors in a forward argument or result: the value itself, or one level of a tuple,
    list or dict (enough for nn modules and model-output dataclasses)."""
    if hasattr(value, "grad_fn"):
        yield value
    elif isinstance(value, (tuple, list)):
        yield from (v for v in value if hasattr(v, "grad_fn"))
    elif isinstance(value, dict):
        yield from (v for v in value.values() if hasattr(v, "grad_fn"))


def _shape(value: Any) -> Any:
    if hasattr(value, "shape"):
        return list(value.shape)
    if isinstance(value, (tuple, list)):
        return [_shape(v) for v in value]
    return None


def _start_then_longest(call: tuple) -> tuple[int, int]:
    return call[1], -call[2]


def summarize_calls(calls: list[tuple], stats: dict[int, _ModuleStats]) -> list[tuple]:
    """Add one step's calls of one phase, `(module_id, t0, t1, ...)`, into `stats`.

    Calls nest by time (forward calls always do; backward ones nearly always): a call's self
    time is its duration minus the calls directly inside it, and a call inside a call of the
    same module counts in the outer one's total only, so recursion is not counted twice.
    Returns the calls counted in totals (for their device times).
    """
    calls.sort(key=_start_then_longest)
    outermost: list[tuple] = []
    stack: list[list] = []  # [call, time of the calls directly inside it], innermost last
    open_ids: dict[int, int] = {}
    for call in (*calls, None):
        while stack and (call is None or call[1] >= stack[-1][0][2] or call[2] > stack[-1][0][2]):
            done, inner = stack.pop()
            module_id = done[0]
            duration = done[2] - done[1]
            module_stats = stats.get(module_id)
            if module_stats is None:
                module_stats = stats[module_id] = _ModuleStats()
            module_stats.calls += 1
            module_stats.self_ns += duration - inner if duration > inner else 0
            module_stats.samples.append(duration)
            open_ids[module_id] -= 1
            if not open_ids[module_id]:
                module_stats.total_ns += duration
                outermost.append(done)
            if stack:
                stack[-1][1] += duration
        if call is not None:
            stack.append([call, 0])
            open_ids[call[0]] = open_ids.get(call[0], 0) + 1
    return outermost


class ModuleProfiler:
    """Times forward and backward of a model's modules, per step of a MyTimer.

    Usage::

        timer = MyTimer("runs/exp1")
        with ModuleProfiler(model, timer):
            for batch in loader:
                loss = model(batch).sum()
                loss.backward()
                optimizer.step()
                timer.step()   # the step's module times are written here

    Forward time runs from a module's forward pre-hook to its forward hook (run even when
    forward raises). Backward time runs from the moment the autograd engine is about to run the
    last node the module's forward created to the moment it is about to run the node that made
    the module's input, through hooks on those two nodes only: full backward hooks wrap every
    input and output in an extra autograd function, cost ~10x more and break in-place modules.
    Device time comes from CUDA events read at later steps, never waited on before `detach()`.

    Disabled (`enabled=False`, `ENABLE_MODULE_PROFILER=0`, or a disabled timer), it installs no
    hooks at all. A `torch.compile`d model is timed as a whole, and modules compiled in place
    (`module.compile()`) are not timed, nor is anything inside them: hooks inside compiled code
    would break its graphs; the metadata says what was left out. Calls made from inside other
    compiled code (a compiled training step) are skipped the same way.

    Args:
        model: the nn.Module; every submodule is profiled under its attribute path (a module
            registered under several paths, under its first).
        timer: the MyTimer whose steps the records follow and whose run they go to.
        max_depth: profile modules at most this deep (the model is depth 0).
        include, exclude: `fnmatch` patterns on the path (`encoder.layers.*.attn`); with
            `include`, only matching modules are profiled.
        every_n_steps: profile one step in N (hooks are removed in between, so the other
            steps cost nothing).
        aggregate_steps: write one record per N profiled steps, for very large models.
        backward: also time backward.
        gpu: None times on CUDA when torch sees a GPU; True requires it; False turns it off;
            an EventBackend object uses that backend.
        record_shapes: record the tensor shapes of each module's first call.
    """

    def __init__(
        self,
        model: Any,
        timer: MyTimer,
        *,
        enabled: bool | None = None,
        max_depth: int | None = None,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        every_n_steps: int = 1,
        aggregate_steps: int = 1,
        backward: bool = True,
        gpu: bool | EventBackend | None = None,
        record_shapes: bool = False,
    ) -> None:
        if every_n_steps < 1 or aggregate_steps < 1:
            raise ValueError("every_n_steps and aggregate_steps must be >= 1")
        if max_depth is not None and max_depth < 0:
            raise ValueError(f"max_depth must be >= 0, not {max_depth}")
        if enabled is None:
            enabled = os.environ.get("ENABLE_MODULE_PROFILER", "1").strip().lower() not in (
                _FALSE_WORDS
            )
        self.enabled = bool(enabled) and timer.enabled
        self.model = model
        self.timer = timer
        self.max_depth = max_depth
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        self.every_n_steps = every_n_steps
        self.aggregate_steps = aggregate_steps
        self.backward = backward
        self.record_shapes = record_shapes
        self._gpu_request = gpu
        self._events: EventBackend | None = None
        self._attached = False
        self._hooked = False
        self._structure_changed = False
        self._profiled: dict[int, _Profiled] = {}  # id(module) -> its hooks
        self._declared: dict[tuple[int, str], int] = {}  # (id(module), path) -> module id
        self._compiled_note: str | None = None
        self._stack: list[tuple] = []
        self._fwd_calls: list[tuple] = []
        self._bwd_calls: list[tuple] = []
        self._backward_pending: list[_BackwardCall] = []  # started in the running backward
        self._backward_open = False
        self._block: dict[str, dict[int, _ModuleStats]] = {phase: {} for phase in PHASES}
        self._block_gpu: dict[str, list[tuple]] = {phase: [] for phase in PHASES}
        self._block_first: int | None = None
        self._block_last: int | None = None
        self._block_steps = 0
        self._pending_gpu: list[tuple] = []
        self._step = 0
        self._first_step = 0
        self._shapes_done: set[int] = set()
        self._file: Any = None
        self._failed = False

    # --- attach / detach ------------------------------------------------------------------

    def attach(self) -> ModuleProfiler:
        """Install the hooks (for the current step, if it is one to profile)."""
        if not self.enabled or self._attached:
            return self
        import torch

        self._torch = torch
        self._grad_enabled = torch.is_grad_enabled
        self._queue_callback = torch.autograd.Variable._execution_engine.queue_callback
        self._events, gpu_status = self._pick_event_backend(self._gpu_request)
        self._file = self.timer.writer.record_file("modules")
        current = self.timer.current_step
        self._step = self._first_step = 0 if current is None else current
        self._attached = True
        self._model_changed_handle = (
            torch.nn.modules.module.register_module_module_registration_hook(self._model_changed)
        )
        self._sync_hooks()
        self.timer.writer.update_metadata(
            modules={
                "modules": len(self._profiled),
                "max_depth": self.max_depth,
                "include": list(self.include),
                "exclude": list(self.exclude),
                "every_n_steps": self.every_n_steps,
                "aggregate_steps": self.aggregate_steps,
                "backward": self.backward,
                "gpu": gpu_status,
                "compiled": self._compiled_note,
            }
        )
        if not self._is_profiled_step(self._step):
            self._remove_hooks()
        self.timer.add_step_callback(self._on_step)
        atexit.register(self.detach)
        return self

    def detach(self) -> None:
        """Write what was measured (waiting for device times) and remove every hook: the model
        is left exactly as before."""
        if not self._attached:
            return
        self._attached = False
        self.timer.remove_step_callback(self._on_step)
        self._model_changed_handle.remove()
        self._remove_hooks()
        self._profiled.clear()
        atexit.unregister(self.detach)
        self._guarded(self._write_step, wait_gpu=True)

    def __enter__(self) -> ModuleProfiler:
        return self.attach()

    def __exit__(self, *exc_info: object) -> None:
        self.detach()

    @staticmethod
    def _pick_event_backend(gpu: bool | EventBackend | None) -> tuple[EventBackend | None, str]:
        if gpu is False:
            return None, "off"
        if gpu is None or gpu is True:
            backend, status = cuda_backend_if_available()
            if backend is None and gpu is True:
                raise RuntimeError(f"gpu=True but GPU timing is unavailable: {status}")
            return backend, status if backend else f"off ({status})"
        return gpu, getattr(gpu, "name", type(gpu).__name__)

    # --- which modules, and their hooks -------------------------------------------------------

    def _selected(self) -> dict[int, tuple[Any, str]]:
        """id(module) -> (module, path) of the modules to profile now, outside compiled code."""
        model = self.model
        if hasattr(model, "_orig_mod"):  # torch.compile(model): its insides are compiled graphs
            self._compiled_note = (
                "the model is torch.compile'd: modules inside it run as compiled graphs that "
                "hooks would break, so only the whole model is timed; profile the eager model "
                "(or compile submodules) to see per-module times"
            )
            return {id(model): (model, "")}
        selected: dict[int, tuple[Any, str]] = {}
        compiled_prefixes: list[str] = []
        for path, module in model.named_modules():
            if any(path.startswith(prefix) for prefix in compiled_prefixes):
                continue
            if getattr(module, "_compiled_call_impl", None) is not None:
                compiled_prefixes.append(path + "." if path else "")
                continue  # its own hooks would run inside its compiled call
            depth = path.count(".") + 1 if path else 0
            if self.max_depth is not None and depth > self.max_depth:
                continue
            if self.include and not any(fnmatch.fnmatchcase(path, p) for p in self.include):
                continue
            if any(fnmatch.fnmatchcase(path, p) for p in self.exclude):
                continue
            selected[id(module)] = (module, path)
        if compiled_prefixes:
            names = ", ".join(repr(p.rstrip(".")) or "the model" for p in compiled_prefixes)
            self._compiled_note = (
                f"compiled in place, not timed (with everything inside): {names}; hooks on them "
                "would run inside compiled code"
            )
        return selected

    def _model_changed(self, _module: Any, _name: str, _submodule: Any) -> None:
        """torch's registration hook: a submodule was set somewhere in the process (maybe in
        this model); the hooks are brought up to date at the next block of steps."""
        self._structure_changed = True

    def _sync_hooks(self) -> None:
        """Hook the modules the model has now: new ones are declared, gone ones unhooked (the
        model may change between steps)."""
        selected = self._selected()
        gone = [k for k, p in self._profiled.items() if selected.get(k, (None, ""))[1] != p.path]
        for key in gone:
            for handle in self._profiled.pop(key).handles:
                handle.remove()
        new = [(m, path) for key, (m, path) in selected.items() if key not in self._profiled]
        for module, path in sorted(new, key=lambda item: item[1]):  # parents before children
            module_id = self._declare(module, path)
            self._profiled[id(module)] = _Profiled(module, module_id, path, [])
        for profiled in self._profiled.values():
            if not profiled.handles:
                profiled.handles = self._install(profiled.module, profiled.module_id)
        self._hooked = True
        self._structure_changed = False

    def _declare(self, module: Any, path: str) -> int:
        key = (id(module), path)
        module_id = self._declared.get(key)
        if module_id is None:
            module_id = self._declared[key] = len(self._declared) + 1
            ids_by_path = {p.path: p.module_id for p in self._profiled.values()}
            parent, parent_path = 0, path
            while parent_path and not parent:
                parent_path = parent_path.rpartition(".")[0]
                parent = ids_by_path.get(parent_path, 0)
            record = {
                "k": "module",
                "id": module_id,
                "path": path,
                "type": type(getattr(module, "_orig_mod", module)).__name__,
                "parent": parent,
                "params": sum(p.numel() for p in module.parameters()),
            }
            self._file.append(json.dumps(record) + "\n")
        return module_id

    def _remove_hooks(self) -> None:
        for profiled in self._profiled.values():
            for handle in profiled.handles:
                handle.remove()
            profiled.handles = []
        self._hooked = False

    def _install(self, module: Any, module_id: int) -> list[Any]:
        """The forward pre-hook and forward hook of one module, the cheapest variant that
        measures what was asked."""
        stack, calls, clock = self._stack, self._fwd_calls, perf_counter_ns
        mark_backward = self._mark_backward if self.backward else None
        # Inside code that torch.compile traces (a compiled caller), the hooks reduce to nothing
        # instead of breaking its graph: dynamo treats is_compiling() as True there.
        compiling = self._torch.compiler.is_compiling
        if self._events is None:

            def before(_module: Any, _args: Any) -> None:
                if not compiling():
                    stack.append(clock())

            def after(_module: Any, args: Any, kwargs: Any, output: Any) -> None:
                if compiling():
                    return
                calls.append((module_id, stack.pop(), clock()))
                if mark_backward is not None:
                    mark_backward(module_id, args, kwargs, output)

        else:
            record = self._events.record

            def before(_module: Any, _args: Any) -> None:
                if not compiling():
                    stack.append((record(), clock()))

            def after(_module: Any, args: Any, kwargs: Any, output: Any) -> None:
                if compiling():
                    return
                start_event, start = stack.pop()
                calls.append((module_id, start, clock(), start_event, record()))
                if mark_backward is not None:
                    mark_backward(module_id, args, kwargs, output)

        handles = [
            module.register_forward_pre_hook(before),
            module.register_forward_hook(after, with_kwargs=True, always_call=True),
        ]
        if self.record_shapes and module_id not in self._shapes_done:
            handles.append(module.register_forward_hook(self._shapes_hook(module_id)))
        return handles

    def _shapes_hook(self, module_id: int) -> Any:
        def record_shapes(module: Any, args: Any, output: Any) -> None:
            if module_id in self._shapes_done or self._torch.compiler.is_compiling():
                return
            self._shapes_done.add(module_id)
            shapes = {"inputs": [_shape(a) for a in args], "output": _shape(output)}
            self._file.append(json.dumps({"k": "shapes", "id": module_id, **shapes}) + "\n")

        return record_shapes

    # --- backward -------------------------------------------------------------------------

    def _mark_backward(self, module_id: int, args: Any, kwargs: Any, output: Any) -> None:
        """Hook the two autograd nodes that bound this call's backward (see the class doc)."""
        if not self._grad_enabled():
            return
        node = getattr(output, "grad_fn", None)
        if node is not None:  # the usual case: one tensor out
            call = _BackwardCall(module_id)
            self._node_marks(node)[0].append(call)
        else:
            nodes = {id(t.grad_fn): t.grad_fn for t in _tensors(output) if t.grad_fn is not None}
            if not nodes:
                return
            call = _BackwardCall(module_id)
            for node in nodes.values():
                self._node_marks(node)[0].append(call)
        if len(args) == 1 and not kwargs:  # the usual case: one tensor in
            node = getattr(args[0], "grad_fn", None)
            if node is not None:
                self._node_marks(node)[1].append(call)
            return
        nodes = {}
        for value in (*args, *kwargs.values()):
            for tensor in _tensors(value):
                if tensor.grad_fn is not None:
                    nodes[id(tensor.grad_fn)] = tensor.grad_fn
        for node in nodes.values():
            self._node_marks(node)[1].append(call)

    def _node_marks(self, node: Any) -> tuple[list[_BackwardCall], list[_BackwardCall]]:
        """The calls whose backward starts and ends at `node`, kept on the node itself with
        one hook, so that every call marked there gets the same time (a module and its last
        child start together; a call ends when the next one starts)."""
        marks = node.metadata.get(_NODE_MARKS)
        if marks is None:
            marks = node.metadata[_NODE_MARKS] = ([], [])
            node.register_prehook(functools.partial(self._node_reached, marks))
        return marks

    def _node_reached(self, marks: tuple[list, list], _grads: Any) -> None:
        if not self._attached:
            return
        now = perf_counter_ns()
        event = self._events.record() if self._events is not None else None
        starts, ends = marks
        for call in ends:
            if call.start is not None:
                call.end, call.end_event = now, event
        for call in starts:
            if call.start is None:
                call.start, call.start_event = now, event
                self._backward_pending.append(call)
        if starts and not self._backward_open:  # one callback per backward pass
            self._backward_open = True
            self._queue_callback(self._backward_finished)

    def _backward_finished(self) -> None:
        """End of a backward pass: calls whose inputs needed no gradient end here."""
        self._backward_open = False
        now = perf_counter_ns()
        end_event = self._events.record() if self._events is not None else None
        for call in self._backward_pending:
            if call.end is None:
                call.end, call.end_event = now, end_event
            self._bwd_calls.append(
                (call.module_id, call.start, call.end, call.start_event, call.end_event)
            )
        self._backward_pending.clear()

    # --- steps and records ----------------------------------------------------------------

    def _is_profiled_step(self, step: int) -> bool:
        return (step - self._first_step) % self.every_n_steps == 0

    def _on_step(self, new_step: int) -> None:
        self._guarded(self._write_step, wait_gpu=False)
        self._step = new_step
        if not self._attached:
            return  # writing failed and the profiler turned itself off
        if self._is_profiled_step(new_step):
            if not self._hooked or (self._structure_changed and not self._block_steps):
                self._sync_hooks()
        elif self._hooked:
            self._remove_hooks()

    def _guarded(self, action: Any, **kwargs: Any) -> None:
        """Run `action`; if the run's files cannot be written, turn off instead of failing
        the training step."""
        if self._failed:
            return
        try:
            action(**kwargs)
        except OSError as exc:
            self._failed = True
            warnings.warn(
                f"ModuleProfiler stopped: cannot write {self._file.path}: {exc}",
                RuntimeWarning,
                stacklevel=3,
            )
            if self._attached:
                self._attached = False
                self.timer.remove_step_callback(self._on_step)
                self._remove_hooks()
                atexit.unregister(self.detach)

    def _write_step(self, wait_gpu: bool) -> None:
        """Fold the step that just ended into the block; write the block when it is full."""
        if self._stack:
            warnings.warn(
                f"ModuleProfiler: {len(self._stack)} module call(s) still open at the end of "
                f"step {self._step} (hooks removed mid-forward?); dropped",
                RuntimeWarning,
                stacklevel=3,
            )
            self._stack.clear()
        self._backward_pending.clear()  # a backward that raised never ran its callback
        self._backward_open = False
        fwd, bwd = self._fwd_calls[:], self._bwd_calls[:]
        self._fwd_calls.clear()
        self._bwd_calls.clear()
        if fwd or bwd:
            if self._block_first is None:
                self._block_first = self._step
            self._block_last = self._step
            self._block_steps += 1
            for phase, calls in (("fwd", fwd), ("bwd", bwd)):
                counted = summarize_calls(calls, self._block[phase])
                if self._events is not None:
                    self._block_gpu[phase].extend((c[0], c[3], c[4]) for c in counted)
        if self._block_steps >= self.aggregate_steps or (wait_gpu and self._block_steps):
            self._write_block()
        if self._pending_gpu:
            self._write_gpu_times(wait_gpu)
        self._file.flush()

    def _write_block(self) -> None:
        lists = {
            phase: [
                [module_id, s.calls, s.total_ns, s.self_ns, _spaced(s.samples, SAMPLES_PER_BLOCK)]
                for module_id, s in sorted(self._block[phase].items())
            ]
            for phase in PHASES
        }
        first, last = self._block_first, self._block_last
        record = {"k": "calls", "step": first, "last_step": last, **lists}
        self._file.append(json.dumps(record, separators=(",", ":")) + "\n")
        if self._events is not None:
            self._pending_gpu.append((first, last, self._block_gpu))
        self._block = {phase: {} for phase in PHASES}
        self._block_gpu = {phase: [] for phase in PHASES}
        self._block_first = self._block_last = None
        self._block_steps = 0

    def _write_gpu_times(self, wait: bool) -> None:
        events = self._events
        still_pending = []
        for first, last, per_phase in self._pending_gpu:
            pairs = [pair for calls in per_phase.values() for _, *pair in calls]
            if wait:
                for _, end_event in pairs:
                    events.synchronize(end_event)
            elif not all(events.query(e0) and events.query(e1) for e0, e1 in pairs):
                still_pending.append((first, last, per_phase))
                continue
            sums = {}
            for phase, calls in per_phase.items():
                totals: dict[int, int] = {}
                for module_id, e0, e1 in calls:
                    totals[module_id] = totals.get(module_id, 0) + events.elapsed_ns(e0, e1)
                sums[phase] = sorted(totals.items())
            record = {"k": "mgpu", "step": first, "last_step": last}
            record.update((phase, [list(item) for item in items]) for phase, items in sums.items())
            self._file.append(json.dumps(record, separators=(",", ":")) + "\n")
        self._pending_gpu = still_pending
