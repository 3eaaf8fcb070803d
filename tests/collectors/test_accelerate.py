"""The Accelerate recipe of docs/INTEGRATIONS.md, run as written on the CPU: its run has one
step per batch with the loop's spans and data waits, Accelerate's rank, module times, and the
plugin reads it."""

import json
import re
import time
from pathlib import Path

import pytest

from tests.helpers import timer_records
from tests.plugin.conftest import PluginClient

REPO = Path(__file__).resolve().parents[2]
pytest.importorskip("accelerate", reason="the Accelerate recipe needs accelerate (test extra)")
torch = pytest.importorskip("torch", reason="the Accelerate recipe needs torch")
from torch.utils.data import DataLoader, Dataset  # noqa: E402

SAMPLE_S = 0.01  # per sample: waits dominate the steps even on a busy CPU
BATCHES, EPOCHS = 4, 2


class SlowSamples(Dataset):
    def __len__(self) -> int:
        return 2 * BATCHES

    def __getitem__(self, i: int):
        time.sleep(SAMPLE_S)
        return torch.full((4,), float(i)), torch.ones(1)


def recipe() -> str:
    """The first Python block of the Accelerate section of docs/INTEGRATIONS.md."""
    text = (REPO / "docs" / "INTEGRATIONS.md").read_text()
    section = text.split("## Hugging Face Accelerate", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)


def test_the_documented_recipe_runs_and_writes_a_run(tmp_path):
    run_dir = tmp_path / "logs" / "accelerate"
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    names = {
        "model": model,
        "optimizer": torch.optim.SGD(model.parameters(), lr=0.01),
        "loader": DataLoader(SlowSamples(), batch_size=2),
        "loss_fn": torch.nn.functional.mse_loss,
        "run_dir": run_dir,
        "epochs": EPOCHS,
    }
    exec(compile(recipe(), "docs/INTEGRATIONS.md", "exec"), names)

    records = timer_records(run_dir)
    steps = [r for r in records if r["k"] == "step"]
    assert [s["step"] for s in steps] == list(range(BATCHES * EPOCHS))
    spans = [r for r in records if r["k"] == "span"]
    for step in range(BATCHES * EPOCHS + 1):
        mine = sorted(s["name"] for s in spans if s["step"] == step)
        # an epoch's last wait finds the end of the data: it is in the step after its last batch
        # (the next epoch's first; after the last epoch, a step that never ran)
        if step == BATCHES * EPOCHS:
            assert mine == ["dataloader"]
        else:
            waits = 2 if step % BATCHES == 0 and step > 0 else 1
            assert mine == sorted(["backward", "forward", "optimizer"] + ["dataloader"] * waits)
    waits = sorted(s["t1"] - s["t0"] for s in spans if s["name"] == "dataloader")
    assert waits[len(waits) // 2] >= 2 * SAMPLE_S * 1e9  # a batch's samples, at the median
    (meta_path,) = (run_dir / "plugins" / "tb_perf").glob("rank0.*.meta.json")
    meta = json.loads(meta_path.read_text())
    assert (meta["rank"], meta["world_size"], meta["rank_source"]) == (0, 1, "explicit")
    assert meta["dataloader"]["type"] == "DataLoaderShard"  # the prepared loader
    assert meta["closed_unix_ns"] is not None

    client = PluginClient(tmp_path / "logs")
    summary = client.json("summary", run="accelerate")
    assert summary["steps"] == {"count": BATCHES * EPOCHS, "first": 0, "last": 7}
    assert {r["name"] for r in summary["spans"]} == {
        "dataloader", "forward", "backward", "optimizer"
    }  # fmt: skip
    findings = client.json("findings", run="accelerate")["findings"]
    loading = next(f for f in findings if f["kind"] == "data_loading")
    assert loading["evidence"]["source"]["value"] == "MyTimer data-loading spans"
    modules = client.json("modules", run="accelerate")
    rows = {row["path"]: row for row in modules["rows"]}
    assert {"", "0", "1", "2"} <= set(rows)  # the unwrapped model, under its own paths
    assert rows["0"]["forward"]["calls"] == rows["0"]["backward"]["calls"] == BATCHES * EPOCHS
