"""Module tree from traces: a with_stack profile of a model with residual branches and a shared
submodule, recorded here, and a shared trace of a checkpointed ResNet."""

import pytest

from tb_perf_plugin.analysis.modules import module_events, module_table
from tb_perf_plugin.ingest.kineto import read_trace

CHECKPOINTED = "traces/AMD-AGI__TraceLens/tests/traces/mi300/resnet_act_checkpoint.json.gz"
STEPS = 3


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


def test_tree_of_a_model_with_residual_branches_and_a_shared_submodule(stack_profile):
    _, path = stack_profile
    table = module_table(module_events(read_trace(str(path)))).set_index("path")
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
    assert answer["rows"][0]["path"] == "Sequential_0" and answer["rows"][0]["depth"] == 0


def test_checkpointed_resnet_trace(shared_data):
    table = module_table(module_events(read_trace(str(shared_data / CHECKPOINTED))))
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
    assert answer == {"run": "plain", "rank": None, "source": None, "rows": [], "total_rows": 0}
