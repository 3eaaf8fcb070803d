"""ModuleProfiler: forward and backward time of every nn.Module, per step, on the host and (with
CUDA events) on the device, cheap enough to leave on. Records: docs/FORMAT.md, `modules`."""

from __future__ import annotations

import atexit
import fnmatch
import json
import types
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial, update_wrapper
from time import perf_counter_ns
from typing import Any

from ._env import env_enabled
from ._gpu_events import EventBackend, pick_event_backend
from ._module_records import BlockWriter, resolve_backward
from ._timer import MyTimer

_NODE_STAMPS = "tb_perf.modules"  # key of our stamps in an autograd node's metadata


class _WrappedForward:
    """Takes a wrapped forward off its module (a hook handle's `remove()`), and switches it
    off: a call under way when it was taken off is not kept. If another wrapper was set on
    top of it since (it calls ours), taking ours off would break that one: ours stays, off
    (it calls forward, untimed)."""

    def __init__(self, module: Any, method: Any, on: list[bool]) -> None:
        self._module, self._method, self._on = module, method, on

    def remove(self) -> None:
        self._on[0] = False
        if vars(self._module).get("forward") is self._method:
            del self._module.forward


@dataclass
class _Profiled:
    module: Any
    module_id: int
    path: str
    handles: list[Any]


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

    Forward time is the module's `forward` call (also when it raises), timed by a wrapper set
    as the instance's `forward` and taken off at `detach()`: torch calls a module that has
    hooks on a slower path (~2 µs a call). Where the instance's forward was replaced already
    (a `torch.compile`d model, accelerate's hooks), a forward pre-hook and forward hook time it
    instead. Backward time runs from the moment the autograd engine is about to run the last
    node the module's forward created to the moment it is about to run the node that made the
    module's input, through hooks on those two nodes only (full backward hooks wrap every input
    and output in an extra autograd function, cost ~10x more and break in-place modules), on
    one step in `backward_every_n_steps`. Device time comes from CUDA events read at later
    steps, never waited on before `detach()`.

    Disabled (`enabled=False`, `ENABLE_MODULE_PROFILER=0`, or a disabled timer), it installs no
    wrappers or hooks at all. A `torch.compile`d model is timed as a whole, and modules compiled
    in place (`module.compile()`) are not timed, nor is anything inside them: hooks inside
    compiled code would break its graphs; the metadata says what was left out. Calls made from
    inside other compiled code (a compiled training step) are skipped the same way.

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
        backward_every_n_steps: time backward on one profiled step in N (the 2nd, the
            N+2nd, ...: not the first, slowed by warm-up), forward on all of them. Timing
            backward costs more (a hook on an autograd node per module call) and its times
            vary little from step to step; the records list the steps whose backward was
            timed, and the plugin scales backward to all steps. 1: every step (full
            fidelity).
        gpu: None times on CUDA when torch sees a GPU; True requires it; False turns it off;
            an EventBackend object uses that backend.
        record_shapes: record the tensor shapes of each module's first call (through a forward
            hook: its calls take torch's slower path).
        flush_every_steps: summarize and write the measured steps every N steps (and at
            `detach()`), which costs far less than once per step; a crash loses at most the
            last N steps' module times.
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
        backward_every_n_steps: int = 10,
        gpu: bool | EventBackend | None = None,
        record_shapes: bool = False,
        flush_every_steps: int = 10,
    ) -> None:
        if min(every_n_steps, aggregate_steps, backward_every_n_steps, flush_every_steps) < 1:
            raise ValueError(
                "every_n_steps, aggregate_steps, backward_every_n_steps and flush_every_steps "
                "must be >= 1"
            )
        if max_depth is not None and max_depth < 0:
            raise ValueError(f"max_depth must be >= 0, not {max_depth}")
        if enabled is None:
            enabled = env_enabled("ENABLE_MODULE_PROFILER")
        self.enabled = bool(enabled) and timer.enabled
        self.model = model
        self.timer = timer
        self.max_depth = max_depth
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        self.every_n_steps = every_n_steps
        self.aggregate_steps = aggregate_steps
        self.backward = backward
        self.backward_every_n_steps = backward_every_n_steps
        self.record_shapes = record_shapes
        self.flush_every_steps = flush_every_steps
        self._gpu_request = gpu
        self._events: EventBackend | None = None
        self._attached = False
        self._hooked = False
        self._structure_changed = False
        self._profiled: dict[int, _Profiled] = {}  # id(module) -> its hooks
        self._declared: dict[tuple[int, str], int] = {}  # (id(module), path) -> module id
        self._compiled_note: str | None = None
        # perf_counter_ns() stamps of the open calls; with GPU events, (start event, stamp)
        self._stack: list[Any] = []
        self._fwd_calls: list[tuple] = []
        # Backward: each forward call marked this step as (module id, forward t0, t1, the
        # stamps of the nodes where its backward starts); resolved at the end of the step.
        self._bwd_marked: list[tuple] = []
        self._pass_open = [False]  # a backward pass is running and its end callback is queued
        self._pass_ends: list[tuple[int, Any]] = []
        self._timing_backward = [False]  # this step's backward is timed (read by the hooks)
        self._ended_steps: list[tuple] = []  # measured, not yet summarized and written
        self._blocks: BlockWriter | None = None  # once attached
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
        self._events, gpu_status = pick_event_backend(self._gpu_request)
        self._reached = self._stamping_hook()
        self._file = self.timer.writer.record_file("modules")
        sampled = self.backward and self.backward_every_n_steps > 1
        self._blocks = BlockWriter(self._file, self.aggregate_steps, self._events, sampled)
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
                "flush_every_steps": self.flush_every_steps,
                "backward": self.backward,
                "backward_every_n_steps": self.backward_every_n_steps,
                "gpu": gpu_status,
                "compiled": self._compiled_note,
            }
        )
        if not self._is_profiled_step(self._step):
            self._remove_hooks()
        self._timing_backward[0] = self._times_backward(self._step)
        self.timer.add_step_callback(self._on_step)
        atexit.register(self.detach)
        return self

    def detach(self) -> None:
        """Write what was measured (waiting for device times) and remove every hook: the model
        is left exactly as before."""
        if not self._attached:
            return
        self._end_step()
        self._release()
        self._guarded(self._write_ended, wait_gpu=True)

    def _release(self) -> None:
        """Take back everything attach() put in place."""
        self._attached = False
        self._timing_backward[0] = False  # (for forwards still under way)
        self.timer.remove_step_callback(self._on_step)
        self._model_changed_handle.remove()
        self._remove_hooks()
        self._profiled.clear()
        atexit.unregister(self.detach)

    def __enter__(self) -> ModuleProfiler:
        return self.attach()

    def __exit__(self, *exc_info: object) -> None:
        self.detach()

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
        ids_by_path = {p.path: p.module_id for p in self._profiled.values()}
        new = [(m, path) for key, (m, path) in selected.items() if key not in self._profiled]
        for module, path in new:  # named_modules() order: parents first, children in order
            module_id = ids_by_path[path] = self._declare(module, path, ids_by_path)
            self._profiled[id(module)] = _Profiled(module, module_id, path, [])
        for profiled in self._profiled.values():
            if not profiled.handles:
                profiled.handles = self._install(profiled.module, profiled.module_id)
        self._hooked = True
        self._structure_changed = False

    def _declare(self, module: Any, path: str, ids_by_path: dict[str, int]) -> int:
        key = (id(module), path)
        module_id = self._declared.get(key)
        if module_id is None:
            module_id = self._declared[key] = len(self._declared) + 1
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
        """Time one module's calls, the cheapest way that measures what was asked: its
        forward wrapped on the instance, or, where the instance's forward was replaced already
        (a torch.compile'd model, accelerate's hooks), forward hooks. A module with a hook
        is called on torch's slow path, ~2 µs a call more than a wrapped forward costs."""
        if "forward" in vars(module):
            handles = self._hooks(module, module_id)
        else:
            handles = [self._wrap_forward(module, module_id)]
        if self.record_shapes and module_id not in self._shapes_done:
            handles.append(module.register_forward_hook(self._shapes_hook(module_id)))
        return handles

    def _wrap_forward(self, module: Any, module_id: int) -> _WrappedForward:
        """Set an instance `forward` that times the class's forward around the call (also
        when it raises). Bound to the module, so a deepcopy of the model calls its own."""
        forward = type(module).forward
        calls, clock = self._fwd_calls, perf_counter_ns
        timing_backward, grad_enabled = self._timing_backward, self._grad_enabled
        marked, mark_outputs, new_stamps = self._bwd_marked, self._mark_outputs, self._node_stamps
        # Inside code that torch.compile traces (a compiled caller) the wrapper reduces to the
        # call instead of breaking its graph: dynamo treats is_compiling() as True there.
        compiling = self._torch.compiler.is_compiling
        on = [True]  # off once taken off (see _WrappedForward)
        if self._events is None:

            def timed(self_: Any, *args: Any, **kwargs: Any) -> Any:
                if compiling():
                    return forward(self_, *args, **kwargs)
                t0 = clock()
                try:
                    output = forward(self_, *args, **kwargs)
                finally:
                    t1 = clock()
                    if on[0]:  # (not taken off while it ran: detached mid-forward)
                        calls.append((module_id, t0, t1))
                if timing_backward[0] and grad_enabled():
                    node = getattr(output, "grad_fn", None)
                    if node is None:
                        mark_outputs(module_id, t0, t1, output)
                    else:  # the usual case, inline: one tensor out
                        stamps = node.metadata.get(_NODE_STAMPS) or new_stamps(node)
                        marked.append((module_id, t0, t1, (stamps,)))
                return output

        else:
            record = self._events.record

            def timed(self_: Any, *args: Any, **kwargs: Any) -> Any:
                if compiling():
                    return forward(self_, *args, **kwargs)
                start_event, t0 = record(), clock()
                try:
                    output = forward(self_, *args, **kwargs)
                finally:
                    t1 = clock()
                    if on[0]:
                        calls.append((module_id, t0, t1, start_event, record()))
                if timing_backward[0] and grad_enabled():
                    mark_outputs(module_id, t0, t1, output)
                return output

        update_wrapper(timed, forward)  # its signature, name and docs
        method = types.MethodType(timed, module)
        module.forward = method
        return _WrappedForward(module, method, on)

    def _hooks(self, module: Any, module_id: int) -> list[Any]:
        """The forward pre-hook and forward hook of one module."""
        stack, calls, clock = self._stack, self._fwd_calls, perf_counter_ns
        timing_backward, grad_enabled = self._timing_backward, self._grad_enabled
        mark_outputs = self._mark_outputs
        compiling = self._torch.compiler.is_compiling  # (as in _wrap_forward)
        if self._events is None:

            def before(_module: Any, _args: Any) -> None:
                if not compiling():
                    stack.append(clock())

            def after(_module: Any, _args: Any, output: Any) -> None:
                if compiling():
                    return
                t0 = stack.pop()
                t1 = clock()
                calls.append((module_id, t0, t1))
                if timing_backward[0] and grad_enabled():
                    mark_outputs(module_id, t0, t1, output)

        else:
            record = self._events.record

            def before(_module: Any, _args: Any) -> None:
                if not compiling():
                    stack.append((record(), clock()))

            def after(_module: Any, _args: Any, output: Any) -> None:
                if compiling():
                    return
                start_event, t0 = stack.pop()
                t1 = clock()
                calls.append((module_id, t0, t1, start_event, record()))
                if timing_backward[0] and grad_enabled():
                    mark_outputs(module_id, t0, t1, output)

        return [
            module.register_forward_pre_hook(before),
            module.register_forward_hook(after, always_call=True),
        ]

    def _shapes_hook(self, module_id: int) -> Any:
        def record_shapes(module: Any, args: Any, output: Any) -> None:
            if module_id in self._shapes_done or self._torch.compiler.is_compiling():
                return
            self._shapes_done.add(module_id)
            shapes = {"inputs": [_shape(a) for a in args], "output": _shape(output)}
            self._file.append(json.dumps({"k": "shapes", "id": module_id, **shapes}) + "\n")

        return record_shapes

    # --- backward -------------------------------------------------------------------------

    def _mark_outputs(self, module_id: int, t0: int, t1: int, output: Any) -> None:
        """Mark the nodes where this call's backward starts: its outputs' `grad_fn`s."""
        nodes: list[Any] = []
        for tensor in _tensors(output):
            node = tensor.grad_fn
            if node is not None and not any(node is known for known in nodes):
                nodes.append(node)
        if nodes:
            self._bwd_marked.append((module_id, t0, t1, tuple(map(self._node_stamps, nodes))))

    def _node_stamps(self, node: Any) -> tuple[list[int], list[Any] | None]:
        """When the engine reached `node` (times, and device events with a GPU): kept on the
        node with one hook, so every call marked there shares its times (a module and its
        last child start together; a call ends where the next one starts). The hook only
        stamps: calls are matched to stamps at the end of the step."""
        metadata = node.metadata
        stamps = metadata.get(_NODE_STAMPS)
        if stamps is None:
            stamps = metadata[_NODE_STAMPS] = ([], None if self._events is None else [])
            node.register_prehook(partial(self._reached, stamps))
        return stamps

    def _stamping_hook(self) -> Any:
        """The node hook, `reached(stamps, grads)` (bound to a node's stamps with `partial`,
        cheaper than a closure per node): it appends the time (and an event)."""
        clock, pass_open = perf_counter_ns, self._pass_open
        queue_callback, pass_finished = self._queue_callback, self._backward_finished
        backend = self._events
        if backend is None:

            def reached(stamps: tuple[list[int], Any], _grads: Any) -> None:
                stamps[0].append(clock())
                if not pass_open[0]:  # the first node of a backward pass
                    pass_open[0] = True
                    queue_callback(pass_finished)

        else:
            record = backend.record

            def reached(stamps: tuple[list[int], Any], _grads: Any) -> None:
                stamps[0].append(clock())
                stamps[1].append(record())
                if not pass_open[0]:
                    pass_open[0] = True
                    queue_callback(pass_finished)

        return reached

    def _backward_finished(self) -> None:
        """Queued on the engine: the end of a backward pass, where calls whose input needed no
        gradient end."""
        self._pass_open[0] = False
        event = self._events.record() if self._events is not None else None
        self._pass_ends.append((perf_counter_ns(), event))

    # --- steps and records ----------------------------------------------------------------

    def _is_profiled_step(self, step: int) -> bool:
        return (step - self._first_step) % self.every_n_steps == 0

    def _times_backward(self, step: int) -> bool:
        """Whether `step` is profiled with its backward: one profiled step in
        `backward_every_n_steps`, from the second one (the first, slowed by warm-up, would
        stand for the N - 1 after it)."""
        if not self.backward or not self._is_profiled_step(step):
            return False
        profiled = (step - self._first_step) // self.every_n_steps
        return (profiled - 1) % self.backward_every_n_steps == 0

    def _on_step(self, new_step: int) -> None:
        self._end_step()
        if len(self._ended_steps) >= self.flush_every_steps:
            self._guarded(self._write_ended, wait_gpu=False)
        self._step = new_step
        self._timing_backward[0] = self._times_backward(new_step)
        if not self._attached:
            return  # writing failed and the profiler turned itself off
        if self._is_profiled_step(new_step):
            if not self._hooked or self._structure_changed:
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
        except (OSError, ValueError) as exc:  # ValueError: the writer was closed first
            self._failed = True
            why = f"cannot write {self._file.path}: {exc}"
            self.timer.writer.collector_stopped("ModuleProfiler", self._step, why, exc)
            if self._attached:
                self._release()

    def _end_step(self) -> None:
        """Set the step that just ended aside, as measured; it is summarized and written with
        the next ones (in one go, while the code is warm: far cheaper than once per step)."""
        if self._stack:
            warnings.warn(
                f"ModuleProfiler: {len(self._stack)} module call(s) still open at the end of "
                f"step {self._step} (hooks removed mid-forward?); dropped",
                RuntimeWarning,
                stacklevel=3,
            )
            self._stack.clear()
        if self._fwd_calls or self._bwd_marked:
            self._ended_steps.append((
                self._step, self._fwd_calls[:], self._bwd_marked[:], self._pass_ends,
                self._timing_backward[0],
            ))  # fmt: skip
            self._fwd_calls.clear()
            self._bwd_marked.clear()
        self._pass_ends = []
        self._pass_open[0] = False  # a backward that raised never ran its callback

    def _write_ended(self, wait_gpu: bool) -> None:
        """Summarize the steps set aside into blocks; write the full blocks (and, when
        `wait_gpu`, the last one too) and the device times that are ready."""
        blocks = self._blocks
        if blocks is None:  # never attached: nothing was measured
            return
        for step, fwd, marked, pass_ends, timed_backward in self._ended_steps:
            bwd = resolve_backward(marked, pass_ends)
            if fwd or bwd:
                blocks.add(step, fwd, bwd, timed_backward)
        self._ended_steps.clear()
        if wait_gpu:
            blocks.close()
        blocks.write_gpu_times(wait_gpu)
        self._file.flush()
