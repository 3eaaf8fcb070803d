"""Module tree from traces: a with_stack profile of a model with residual branches and a shared
submodule, recorded here, a shared trace of a checkpointed ResNet, and a Lightning
PyTorchProfiler trace (attribute paths from its `[pl][module]` labels)."""

import pandas as pd
import pytest

from tb_perf_plugin.analysis.modules import module_events, module_view, trace_module_data
from tb_perf_plugin.ingest.kineto import read_trace

CHECKPOINTED = "traces/AMD-AGI__TraceLens/tests/traces/mi300/resnet_act_checkpoint.json.gz"
STEPS = 3
LIGHTNING_STEPS = 2  # traced steps of the Lightning fit


@pytest.fixture(scope="module")
def stack_profile(tmp_path_factory):
    torch = pytest.importorskip("torch")
    from torch.profiler import ProfilerActivity, profile

    class Residual(torch.nn.Module):
        def __init__(self, shared: torch.nn.Module) -> None:
            super().__init__()
            self.inner = torch.nn.Linear(64, 64)
            self.shared = shared

        def forward(self, x):
            return x + self.shared(self.inner(x)) + self.shared(x)  # shared: twice per call

    shared = torch.nn.ReLU()
    model = torch.nn.Sequential(Residual(shared), Residual(shared), torch.nn.Linear(64, 2))
    x = torch.randn(32, 64)
    with profile(activities=[ProfilerActivity.CPU], with_stack=True) as prof:
        for _ in range(STEPS):
            model(x).sum().backward()
    logdir = tmp_path_factory.mktemp("modules")
    (logdir / "stack").mkdir()
    path = logdir / "stack" / "worker0.1.pt.trace.json"
    prof.export_chrome_trace(str(path))
    return logdir, path


def trace_table(path) -> pd.DataFrame:
    """The module view of one trace file (as rank 0, no steps), forward stats per path."""
    events = module_events(read_trace(str(path))).assign(rank=0)
    steps = pd.DataFrame({c: pd.Series(dtype="int64") for c in ("rank", "step", "t0", "t1")})
    rows = module_view(trace_module_data(events, steps))["rows"]
    return pd.DataFrame([{**{k: r[k] for k in ("path", "type", "depth")}, **r["forward"]}
                         for r in rows]).set_index("path")  # fmt: skip


def test_tree_of_a_model_with_residual_branches_and_a_shared_submodule(stack_profile):
    _, path = stack_profile
    table = trace_table(path)
    assert list(table.index) == [
        "Sequential_0",
        "Sequential_0/Residual_0",
        "Sequential_0/Residual_0/Linear_0",
        "Sequential_0/Residual_0/ReLU_0",
        "Sequential_0/Residual_1",
        "Sequential_0/Residual_1/Linear_1",
        "Sequential_0/Residual_1/ReLU_0",
        "Sequential_0/Linear_2",
    ]
    assert table.loc["Sequential_0", "calls"] == STEPS
    assert table.loc["Sequential_0/Residual_1/Linear_1", "type"] == "Linear"
    # the shared ReLU is called twice in each Residual: every call counts
    assert table.loc["Sequential_0/Residual_0/ReLU_0", "calls"] == 2 * STEPS
    for path, row in table.iterrows():
        children = table[
            (table["depth"] == row["depth"] + 1) & table.index.str.startswith(path + "/")
        ]
        assert children["total_ns"].sum() <= row["total_ns"]
        assert row["self_ns"] == row["total_ns"] - children["total_ns"].sum()


def test_modules_route(stack_profile, make_client):
    logdir, _ = stack_profile
    answer = make_client(logdir).json("modules", run="stack")
    assert answer["source"] == "trace" and answer["total_rows"] == 8
    assert answer["class_names"] is True and answer["phases"] == ["forward"]
    assert answer["device"] is False and answer["steps"] == []  # no steps in this trace
    root = answer["rows"][0]
    assert root["path"] == "Sequential_0" and root["depth"] == 0 and root["parent"] is None
    assert root["backward"] is None and root["forward"]["pct_of_step"] is None
    assert root["total"] == root["forward"]


def test_checkpointed_resnet_trace(shared_data):
    table = trace_table(shared_data / CHECKPOINTED).reset_index()
    assert table["path"].iloc[0] == "DistributedDataParallel_0"
    assert table["depth"].max() >= 4
    assert (table["self_ns"] >= 0).all() and (table["self_ns"] <= table["total_ns"]).all()


def test_a_trace_without_stacks_has_no_modules(tmp_path, make_client):
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "worker0.1.pt.trace.json").write_text(
        '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, '
        '"tid": 1, "ts": 1, "dur": 2}]}'
    )
    answer = make_client(tmp_path).json("modules", run="plain")
    reason = answer.pop("empty_reason")
    assert answer == {
        "run": "plain", "rank": None, "source": None, "class_names": False, "phases": [],
        "device": False, "settings": [], "steps": [], "backward_steps": [], "rows": [],
        "total_rows": 0, "warnings": [],
    }  # fmt: skip
    assert "its traces hold no module events" in reason and "with_stack=True" in reason


@pytest.fixture(scope="module")
def lightning_logdir(tmp_path_factory):
    """A real Lightning fit on CPU with its PyTorchProfiler (module labels on by default)."""
    torch = pytest.importorskip("torch")
    pl = pytest.importorskip("lightning.pytorch", reason="lightning is not installed")
    from lightning.pytorch.profilers import PyTorchProfiler

    class Block(torch.nn.Module):
        def __init__(self, shared: torch.nn.Module) -> None:
            super().__init__()
            self.lin = torch.nn.Linear(16, 16)
            self.shared = shared

        def forward(self, x):
            return x + self.shared(self.lin(x)) + self.shared(x)

    class Net(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            shared = torch.nn.ReLU()  # one module under two parents
            self.body = torch.nn.Sequential(Block(shared), Block(shared))
            self.head = torch.nn.Linear(16, 1)

        def forward(self, x):
            return self.head(self.body(x))

        def training_step(self, batch, _):
            return self(batch[0]).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.01)

    logdir = tmp_path_factory.mktemp("lightning")
    profiler = PyTorchProfiler(
        dirpath=str(logdir / "pl"), filename="perf", export_to_chrome=True,
        schedule=torch.profiler.schedule(wait=0, warmup=1, active=LIGHTNING_STEPS),
    )  # fmt: skip
    trainer = pl.Trainer(
        max_steps=LIGHTNING_STEPS + 2, profiler=profiler, accelerator="cpu", logger=False,
        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
    )  # fmt: skip
    data = torch.utils.data.TensorDataset(torch.randn(16 * (LIGHTNING_STEPS + 2), 16))
    trainer.fit(Net(), torch.utils.data.DataLoader(data, batch_size=16))
    return logdir


def test_lightning_labels_give_attribute_paths(lightning_logdir, make_client):
    client = make_client(lightning_logdir)
    answer = client.json("modules", run="pl")
    assert answer["source"] == "trace" and answer["class_names"] is False
    rows = {r["path"]: r for r in answer["rows"]}
    # the model itself is not labelled; the tree follows the attribute paths
    assert [r["path"] for r in answer["rows"]] == [
        "body", "body.0", "body.0.lin", "body.0.shared", "body.1", "body.1.lin", "head",
    ]  # fmt: skip
    assert rows["body.0.lin"]["parent"] == "body.0" and rows["body.0.lin"]["depth"] == 2
    assert rows["body"]["type"] == "Sequential" and rows["body.0"]["type"] == "Block"
    assert rows["head"]["forward"]["calls"] == LIGHTNING_STEPS
    # named_modules() lists the shared ReLU once, under its first path: every call counts there
    assert rows["body.0.shared"]["forward"]["calls"] == 4 * LIGHTNING_STEPS
    for row in answer["rows"]:
        forward = row["forward"]
        assert 0 <= forward["self_ns"] <= forward["total_ns"]
    # Lightning's ProfilerStep#N windows give the steps: one point per traced step
    assert [s["steps"] for s in answer["steps"]] == [LIGHTNING_STEPS]
    assert 0 < rows["body"]["forward"]["pct_of_step"] < 100
    series = client.json("module_steps", run="pl", path="head", phase="forward")["series"]
    assert len(series) == 1 and len(series[0]["host_ns"]) == LIGHTNING_STEPS
    assert sum(series[0]["host_ns"]) == rows["head"]["forward"]["total_ns"]
