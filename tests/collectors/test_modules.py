"""ModuleProfiler on real torch models: forward and backward per module, the file it writes,
and the bad inputs it must survive (exceptions, recursion, hooks removed, a model that changes)."""

from __future__ import annotations

import copy
import json
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="ModuleProfiler profiles torch models")
from torch import nn  # noqa: E402

from collectors import ModuleProfiler, MyTimer  # noqa: E402
from tests.collectors.test_timer import OutOfOrderEvents  # noqa: E402
from tests.helpers import timer_records  # noqa: E402


class Block(nn.Module):
    """A residual block that also calls a submodule shared by every block."""

    def __init__(self, shared: nn.Module) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(16)
        self.ff = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))
        self.shared = shared

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.ff(self.norm(x)) + self.shared(x)


class ResidualNet(nn.Module):
    def __init__(self, blocks: int = 3) -> None:
        super().__init__()
        self.embed = nn.Linear(8, 16)
        self.shared = nn.Linear(16, 16)
        self.blocks = nn.ModuleList([Block(self.shared) for _ in range(blocks)])
        self.head = nn.Linear(16, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def module_file_records(run_dir: Path) -> list[dict]:
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob("rank0.*.modules.jsonl")
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"schema": "tb_perf.modules", "version": 1}
    return [json.loads(line) for line in lines[1:]]


def parsed(run_dir: Path) -> tuple[dict[int, dict], list[dict]]:
    """Module declarations by id, and the `calls` records."""
    records = module_file_records(run_dir)
    modules = {r["id"]: r for r in records if r["k"] == "module"}
    return modules, [r for r in records if r["k"] == "calls"]


def by_path(modules: dict[int, dict], entries: list[list]) -> dict[str, list]:
    return {modules[e[0]]["path"]: e for e in entries}


def train(model: nn.Module, timer: MyTimer, steps: int, *, batch: int = 4) -> None:
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(batch, 8)
    for _ in range(steps):
        with timer.range("forward"):
            loss = model(x).square().mean()
        with timer.range("backward"):
            loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        timer.step()


def hook_state(model: nn.Module) -> list:
    """Everything hooks could leave on a model's modules."""
    return [
        (
            path,
            sorted(vars(m)),
            list(m._forward_pre_hooks),
            list(m._forward_hooks),
            dict(m._forward_hooks_with_kwargs),
            dict(m._forward_hooks_always_called),
        )
        for path, m in model.named_modules()
    ]


def test_residual_model_forward_and_backward_nest_and_add_up(tmp_path):
    torch.manual_seed(0)
    model = ResidualNet()
    timer = MyTimer(tmp_path, gpu=False)
    with ModuleProfiler(model, timer, gpu=False, backward_every_n_steps=1, flush_every_steps=3):
        train(model, timer, steps=4)
        assert [r["step"] for r in parsed(tmp_path)[1]] == [0, 1, 2]  # written 3 at a time
    timer.close()
    modules, calls = parsed(tmp_path)
    paths = {m["path"] for m in modules.values()}
    assert paths == {p for p, _ in model.named_modules()}  # every module, not only leaves
    assert {m["path"]: m["type"] for m in modules.values()}["blocks.1.ff.0"] == "Linear"
    parents = {m["path"]: modules[m["parent"]]["path"] if m["parent"] else None
               for m in modules.values()}  # fmt: skip
    assert parents["blocks.1.ff.2"] == "blocks.1.ff" and parents["blocks"] == ""
    assert {m["path"]: m["params"] for m in modules.values()}["blocks.0.ff"] == (
        16 * 32 + 32 + 32 * 16 + 16
    )
    spans = {(r["step"], r["name"]): r for r in timer_records(tmp_path) if r["k"] == "span"}
    assert [r["step"] for r in calls] == [0, 1, 2, 3]
    for record in calls:
        assert record["last_step"] == record["step"]
        for phase in ("fwd", "bwd"):
            entries = by_path(modules, record[phase])
            for path, (_, n, total, self_ns, samples) in entries.items():
                assert 0 <= self_ns <= total and len(samples) == n
                parent = parents[path]
                while parent is not None and parent not in entries:  # containers: never called
                    parent = parents[parent]
                if parent is not None and path != "shared":
                    assert total <= entries[parent][2], (phase, path, parent)
            # A module called several times per step counts each call; its total is
            # inside the callers'.
            assert entries["shared"][1] == 3
            assert entries["shared"][2] <= sum(entries[f"blocks.{i}"][2] for i in range(3))
            assert entries["blocks.1"][1] == 1 and entries["blocks.1.ff.1"][1] == 1
        fwd = by_path(modules, record["fwd"])
        # Forward calls nest exactly: self times partition the model's time.
        assert sum(e[3] for e in fwd.values()) == fwd[""][2]
        top_level = sum(fwd[p][2] for p in ("embed", "blocks.0", "blocks.1", "blocks.2", "head"))
        span = spans[(record["step"], "forward")]
        assert top_level <= fwd[""][2] <= span["t1"] - span["t0"]
        bwd = by_path(modules, record["bwd"])
        assert sum(e[3] for e in bwd.values()) <= bwd[""][2]
        assert bwd["blocks.2"][2] > 0 and bwd["embed"][2] > 0
        backward_span = spans[(record["step"], "backward")]
        assert bwd[""][2] <= backward_span["t1"] - backward_span["t0"]


def test_detach_leaves_the_model_exactly_as_before(tmp_path):
    model = ResidualNet()
    before = hook_state(model)
    timer = MyTimer(tmp_path, gpu=False)
    profiler = ModuleProfiler(model, timer, gpu=False).attach()
    assert hook_state(model) != before
    train(model, timer, steps=1)
    profiler.detach()
    assert hook_state(model) == before
    profiler.detach()  # twice is fine
    train(model, timer, steps=1)
    timer.close()
    _, calls = parsed(tmp_path)
    assert [r["step"] for r in calls] == [0]


def test_disabled_installs_no_hooks_and_writes_nothing(tmp_path, monkeypatch):
    model = ResidualNet()
    before = hook_state(model)
    timer = MyTimer(tmp_path, gpu=False)
    monkeypatch.setenv("ENABLE_MODULE_PROFILER", "0")
    with ModuleProfiler(model, timer) as profiler:
        assert not profiler.enabled
        assert hook_state(model) == before
        train(model, timer, steps=2)
    with ModuleProfiler(model, MyTimer(enabled=False), enabled=True):
        assert hook_state(model) == before  # a disabled timer disables it too
    timer.close()
    assert not list((tmp_path / "plugins" / "tb_perf").glob("*.modules.jsonl"))


def test_exception_inside_forward_closes_its_calls(tmp_path):
    class Flaky(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = nn.Linear(8, 8)
            self.fail = True

        def forward(self, x):
            y = self.inner(x)
            if self.fail:
                raise ValueError("bad batch")
            return y

    model = nn.Sequential(nn.Linear(8, 8), Flaky(), nn.Linear(8, 1))
    timer = MyTimer(tmp_path, gpu=False)
    profiler = ModuleProfiler(model, timer, gpu=False).attach()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing left open to warn about
        with pytest.raises(ValueError, match="bad batch"):
            model(torch.randn(2, 8))
        timer.step()
        model[1].fail = False
        train(model, timer, steps=1)
        profiler.detach()
    timer.close()
    modules, calls = parsed(tmp_path)
    failed = by_path(modules, calls[0]["fwd"])
    assert failed[""][1] == failed["1"][1] == failed["1.inner"][1] == 1
    assert "2" not in failed  # never reached
    assert calls[0]["bwd"] == []
    assert set(by_path(modules, calls[1]["fwd"])) == {"", "0", "1", "1.inner", "2"}
    assert by_path(modules, calls[1]["bwd"])["1"][2] > 0


def test_recursion_counts_calls_but_time_once(tmp_path):
    class Recursive(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.linear = nn.Linear(8, 8)

        def forward(self, x, depth: int = 3):
            x = self.linear(x)
            return self(x, depth - 1) if depth else x

    model = Recursive()
    timer = MyTimer(tmp_path, gpu=False)
    with ModuleProfiler(model, timer, gpu=False):
        model(torch.randn(2, 8)).sum().backward()
        timer.step()
    timer.close()
    modules, calls = parsed(tmp_path)
    fwd = by_path(modules, calls[0]["fwd"])
    _, n, total, self_ns, samples = fwd[""]
    assert n == 4 and fwd["linear"][1] == 4
    assert total == max(samples)  # the outermost call only
    assert self_ns + fwd["linear"][2] == total  # nested calls are not counted twice


def test_hooks_removed_mid_run_and_model_changed_between_steps(tmp_path):
    model = ResidualNet(blocks=1)
    timer = MyTimer(tmp_path, gpu=False)
    profiler = ModuleProfiler(model, timer, gpu=False).attach()
    train(model, timer, steps=1)
    # Detach between forward and backward: the backward hooks already on the graph are inert.
    loss = model(torch.randn(2, 8)).sum()
    profiler.detach()
    loss.backward()
    timer.step()
    profiler.attach()
    model.extra = nn.Linear(1, 1)  # the model grows a module used from now on
    model.head = nn.Linear(16, 1)  # and replaces one
    original_forward = model.forward
    model.forward = lambda x: model.extra(original_forward(x))
    train(model, timer, steps=2)
    # Detach from inside a forward: the open calls are dropped, never kept.
    model.extra.register_forward_pre_hook(lambda module, args: profiler.detach())
    model(torch.randn(2, 8))
    timer.close()
    modules, calls = parsed(tmp_path)
    assert [r["step"] for r in calls] == [0, 1, 2, 3, 4]  # 4: the calls finished before detach
    assert {"", "head"} <= by_path(modules, calls[4]["fwd"]).keys()  # (inside the lambda)
    assert "extra" not in by_path(modules, calls[4]["fwd"])  # ran from its detaching hook
    assert by_path(modules, calls[1]["fwd"]).keys() >= {"", "head"}
    assert calls[1]["bwd"] == []  # detached before backward ran
    heads = [m["id"] for m in modules.values() if m["path"] == "head"]
    assert len(heads) == 2  # the replaced head is a new module
    later = by_path(modules, calls[3]["fwd"])
    assert later["extra"][1] == 1 and modules[later["extra"][0]]["parent"] != 0
    assert [e[0] for e in calls[3]["fwd"] if modules[e[0]]["path"] == "head"] == [heads[1]]


def test_forward_replaced_before_or_after_attaching(tmp_path):
    """A module whose instance forward was replaced before attaching (accelerate does so) is
    timed with hooks, its open calls dropped with a warning at a detach mid-forward; a
    wrapper set over ours after attaching keeps working after detach, ours switched off."""
    model = ResidualNet(blocks=1)
    for patched in (model, model.head):
        patched.forward = patched.forward  # an instance forward, as a patcher would set
    timer = MyTimer(tmp_path, gpu=False)
    profiler = ModuleProfiler(model, timer, gpu=False, backward_every_n_steps=1).attach()
    assert list(model.head._forward_hooks) and "forward" in vars(model.embed)
    wrapped = model.embed.forward
    model.embed.forward = lambda x: wrapped(x) + 0  # set over ours
    train(model, timer, steps=2)
    model.head.register_forward_hook(lambda module, args, output: profiler.detach())
    with pytest.warns(RuntimeWarning, match="1 module call.* still open"):
        model(torch.randn(2, 8))  # the model's own call is open
    assert (
        not model.head._forward_pre_hooks
        and not model._forward_hooks
        and "forward" not in vars(model.blocks[0])
    )
    assert model.embed(torch.ones(1, 8)).shape == (1, 16)  # theirs, over ours switched off
    timer.close()
    modules, calls = parsed(tmp_path)
    for record in calls[:2]:
        fwd, bwd = by_path(modules, record["fwd"]), by_path(modules, record["bwd"])
        assert fwd["head"][1] == fwd["embed"][1] == fwd[""][1] == 1
        assert bwd["head"][1] == bwd["embed"][1] == 1
    assert "" not in by_path(modules, calls[2]["fwd"])


def test_a_deepcopy_of_a_profiled_model_runs_its_own_weights(tmp_path):
    """An EMA copy made while profiling (copy.deepcopy) computes with its own parameters."""
    model = ResidualNet(blocks=1)
    timer = MyTimer(tmp_path, gpu=False)
    x = torch.randn(2, 8)
    with ModuleProfiler(model, timer, gpu=False):
        ema = copy.deepcopy(model)
        with torch.no_grad():
            for p in ema.parameters():
                p.zero_()
        assert torch.equal(ema(x), torch.zeros(2, 1))
        assert not torch.equal(model(x), torch.zeros(2, 1))
    timer.close()


def test_every_n_steps_removes_hooks_in_between_and_aggregate_blocks(tmp_path):
    model = ResidualNet(blocks=1)
    before = hook_state(model)
    timer = MyTimer(tmp_path, gpu=False)
    hooked = []
    profiler = ModuleProfiler(model, timer, gpu=False, every_n_steps=2, aggregate_steps=3)
    with profiler:
        for _ in range(9):
            hooked.append(hook_state(model) != before)
            train(model, timer, steps=1)
    timer.close()
    assert hooked == [True, False] * 4 + [True]
    modules, calls = parsed(tmp_path)
    assert [(r["step"], r["last_step"]) for r in calls] == [(0, 4), (6, 8)]
    first, second = by_path(modules, calls[0]["fwd"]), by_path(modules, calls[1]["fwd"])
    assert first["blocks.0.ff"][1] == 3 and second["blocks.0.ff"][1] == 2
    assert len(first["shared"][4]) == 3


def test_backward_is_timed_on_one_step_in_ten_by_default(tmp_path):
    """Forward every step, backward on steps 1, 11, ...: the autograd nodes get our hooks on
    those steps only, and each record says whether its step timed backward."""
    model = ResidualNet(blocks=1)
    timer = MyTimer(tmp_path, gpu=False)
    stamped = []
    with ModuleProfiler(model, timer, gpu=False) as profiler:
        assert profiler.backward_every_n_steps == 10
        for _ in range(13):
            output = model(torch.randn(4, 8))
            stamped.append("tb_perf.modules" in output.grad_fn.metadata)
            output.square().mean().backward()
            timer.step()
    timer.close()
    modules, calls = parsed(tmp_path)
    assert stamped == [step in (1, 11) for step in range(13)]
    assert [r["step"] for r in calls] == list(range(13))
    assert [r["bwd_steps"] for r in calls] == [[s] if s in (1, 11) else [] for s in range(13)]
    assert all(by_path(modules, r["fwd"])["blocks.0.ff"][1] == 1 for r in calls)
    timed = [r["step"] for r in calls if r["bwd"]]
    assert timed == [1, 11] and by_path(modules, calls[1]["bwd"])["blocks.0.ff"][1] == 1
    meta = json.loads(next((tmp_path / "plugins" / "tb_perf").glob("*.meta.json")).read_text())
    assert meta["modules"]["backward_every_n_steps"] == 10 and meta["modules"]["backward"]


def test_backward_sampling_counts_profiled_steps_and_lists_them_per_block(tmp_path):
    """With every_n_steps=2 the profiled steps are 0, 2, 4, ...; backward on one of them in
    3 from the second (steps 2 and 8); blocks of two profiled steps list theirs."""
    model = ResidualNet(blocks=1)
    timer = MyTimer(tmp_path, gpu=False)
    options = {"every_n_steps": 2, "aggregate_steps": 2, "backward_every_n_steps": 3}
    with ModuleProfiler(model, timer, gpu=False, **options):
        train(model, timer, steps=12)
    timer.close()
    modules, calls = parsed(tmp_path)
    assert [(r["step"], r["last_step"], r["bwd_steps"]) for r in calls] == [
        (0, 2, [2]), (4, 6, []), (8, 10, [8]),
    ]  # fmt: skip
    assert [by_path(modules, r["bwd"]).get("blocks.0", [0, 0])[1] for r in calls] == [1, 0, 1]
    assert all(by_path(modules, r["fwd"])["blocks.0"][1] == 2 for r in calls)


@pytest.mark.parametrize("options", [{"backward_every_n_steps": 1}, {"backward": False}])
def test_full_fidelity_and_forward_only_records_list_no_backward_steps(tmp_path, options):
    """Every step timed backward (or none was to be): records as before the option existed."""
    model = ResidualNet(blocks=1)
    timer = MyTimer(tmp_path, gpu=False)
    with ModuleProfiler(model, timer, gpu=False, **options):
        train(model, timer, steps=3)
    timer.close()
    _, calls = parsed(tmp_path)
    assert [sorted(r) for r in calls] == [["bwd", "fwd", "k", "last_step", "step"]] * 3
    assert all(bool(r["bwd"]) == options.get("backward", True) for r in calls)
    with pytest.raises(ValueError):
        ModuleProfiler(model, timer, backward_every_n_steps=0)


def test_samples_are_capped_and_evenly_spaced(tmp_path):
    layer = nn.Linear(4, 4)
    model = nn.Sequential(layer)
    timer = MyTimer(tmp_path, gpu=False)
    with ModuleProfiler(model, timer, gpu=False, backward=False):
        with torch.no_grad():
            for _ in range(100):
                model(torch.randn(1, 4))
        timer.step()
    timer.close()
    modules, calls = parsed(tmp_path)
    _, n, total, _, samples = by_path(modules, calls[0]["fwd"])["0"]
    assert n == 100 and len(samples) == 32
    assert sum(samples) <= total


def test_selection_by_depth_and_patterns_and_shapes(tmp_path):
    model = ResidualNet(blocks=2)
    timer = MyTimer(tmp_path, gpu=False)
    options = {"max_depth": 2, "exclude": ["blocks.1*"], "record_shapes": True}
    with ModuleProfiler(model, timer, gpu=False, **options):
        train(model, timer, steps=2)
    timer.close()
    records = module_file_records(tmp_path)
    modules = {r["id"]: r for r in records if r["k"] == "module"}
    assert {m["path"] for m in modules.values()} == {
        "", "embed", "shared", "blocks", "blocks.0", "head",
    }  # fmt: skip
    shapes = {modules[r["id"]]["path"]: r for r in records if r["k"] == "shapes"}
    assert shapes["embed"]["inputs"] == [[4, 8]] and shapes["embed"]["output"] == [4, 16]
    shape_records = [r for r in records if r["k"] == "shapes"]
    assert len(shape_records) == len(modules) - 1  # first calls only; "blocks" is never called
    meta = json.loads(next((tmp_path / "plugins" / "tb_perf").glob("*.meta.json")).read_text())
    assert meta["modules"]["modules"] == 6 and meta["modules"]["exclude"] == ["blocks.1*"]
    assert meta["modules"]["gpu"] == "off" and meta["modules"]["compiled"] is None
    with pytest.raises(ValueError):
        ModuleProfiler(model, timer, every_n_steps=0)


def test_device_times_arrive_as_late_records(tmp_path):
    device = OutOfOrderEvents()
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 1))
    timer = MyTimer(tmp_path, gpu=False)
    profiler = ModuleProfiler(
        model, timer, gpu=device, backward_every_n_steps=1, flush_every_steps=1
    ).attach()
    train(model, timer, steps=2)
    written = module_file_records(tmp_path)
    assert [r["step"] for r in written if r["k"] == "calls"] == [0, 1]  # one step at a time
    assert not [r for r in written if r["k"] == "mgpu"]
    for event in device.events:
        event.done = True
    train(model, timer, steps=1)
    profiler.detach()  # waits for the last step's events
    timer.close()
    modules = {r["id"]: r["path"] for r in module_file_records(tmp_path) if r["k"] == "module"}
    gpu = [r for r in module_file_records(tmp_path) if r["k"] == "mgpu"]
    assert [r["step"] for r in gpu] == [0, 1, 2]
    fwd = {modules[i]: ns for i, ns in gpu[0]["fwd"]}
    # Fake events tick 1000 ns per event recorded: the model's call spans its children's.
    assert fwd[""] > fwd["0"] > 0 and fwd[""] > fwd["1"] > 0
    assert {modules[i] for i, _ in gpu[0]["bwd"]} == {"", "0", "1"}
    assert device.synchronized  # only at detach


def test_compiled_model_is_timed_whole_and_says_why(tmp_path):
    model = ResidualNet(blocks=1)
    compiled = torch.compile(model, backend="eager")
    timer = MyTimer(tmp_path, gpu=False)
    with ModuleProfiler(compiled, timer, gpu=False, backward_every_n_steps=1):
        train(compiled, timer, steps=2)
    model.blocks[0].compile(backend="eager")  # compiled in place: skipped with its insides
    counters = torch._dynamo.utils.counters
    counters.clear()
    with ModuleProfiler(model, timer, gpu=False):
        train(model, timer, steps=1)
    # "shared" is hooked, yet called from inside the compiled block: its hooks vanish from the
    # traced code instead of breaking the graph.
    assert counters["stats"]["unique_graphs"] == 1 and not counters["graph_break"]
    timer.close()
    records = module_file_records(tmp_path)
    modules = {r["id"]: r for r in records if r["k"] == "module"}
    calls = [r for r in records if r["k"] == "calls"]
    whole = by_path(modules, calls[0]["fwd"])
    assert list(whole) == [""] and modules[calls[0]["fwd"][0][0]]["type"] == "ResidualNet"
    assert by_path(modules, calls[0]["bwd"])[""][2] > 0
    partial = by_path(modules, calls[2]["fwd"])
    assert "blocks.0" not in partial and "blocks.0.ff" not in partial and "embed" in partial
    assert "shared" not in partial
    meta = json.loads(next((tmp_path / "plugins" / "tb_perf").glob("*.meta.json")).read_text())
    assert "'blocks.0'" in meta["modules"]["compiled"]


def test_unwritable_run_turns_the_profiler_off_not_the_training(tmp_path, monkeypatch):
    model = ResidualNet(blocks=1)
    before = hook_state(model)
    timer = MyTimer(tmp_path, gpu=False)
    profiler = ModuleProfiler(model, timer, gpu=False, flush_every_steps=1).attach()
    train(model, timer, steps=1)

    def disk_full() -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(profiler._file, "flush", disk_full)
    with pytest.warns(RuntimeWarning, match="ModuleProfiler stopped.*No space left"):
        train(model, timer, steps=2)
    assert hook_state(model) == before
    assert (
        profiler._model_changed
        not in torch.nn.modules.module._global_module_registration_hooks.values()
    )
    counts = defaultdict(int)
    for record in timer_records(tmp_path):
        counts[record["k"]] += 1
    monkeypatch.undo()
    timer.close()
    assert counts["step"] == 3  # the timer kept going


def test_gradient_accumulation_times_each_backward_pass(tmp_path):
    torch.manual_seed(0)
    model = ResidualNet(blocks=2)
    timer = MyTimer(tmp_path, gpu=False)
    with ModuleProfiler(model, timer, gpu=False, backward_every_n_steps=1):
        for _ in range(2):
            for _ in range(3):  # micro-batches: forward and backward three times per step
                with timer.range("forward"):
                    loss = model(torch.randn(4, 8)).square().mean()
                with timer.range("backward"):
                    loss.backward()
            timer.step()
    timer.close()
    modules, calls = parsed(tmp_path)
    spans = [r for r in timer_records(tmp_path) if r["k"] == "span"]
    for record in calls:
        backward_ns = sum(s["t1"] - s["t0"] for s in spans
                          if s["step"] == record["step"] and s["name"] == "backward")  # fmt: skip
        bwd = by_path(modules, record["bwd"])
        assert bwd[""][1] == 3 and bwd["blocks.1.ff"][1] == 3 and bwd["shared"][1] == 6
        assert bwd[""][2] <= backward_ns  # each call ends within its own pass
        assert bwd["blocks.1.ff"][2] <= bwd["blocks.1"][2] <= bwd[""][2]
