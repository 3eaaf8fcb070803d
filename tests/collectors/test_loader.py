"""timed_loader: a real DataLoader's waits become spans of the step that uses the batch, its
settings reach the metadata, and errors close the span."""

import json

import pytest

from collectors import MyTimer, RunWriter, timed_loader
from tests.helpers import timer_records

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader, Dataset  # noqa: E402


class SlowSamples(Dataset):
    def __init__(self, n: int, per_sample_s: float) -> None:
        self.n, self.per_sample_s = n, per_sample_s

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        import time

        time.sleep(self.per_sample_s)
        if i == 999:
            raise ValueError("corrupt sample 999")
        return torch.full((4,), float(i))


def train(run_dir, loader, steps_done: list) -> None:
    with RunWriter(run_dir, rank=0, world_size=1) as writer, MyTimer(writer, gpu=False) as timer:
        timer.set_step(0)
        for batch in timed_loader(loader, timer):
            with timer.range("forward"):
                batch.sum()
            steps_done.append(timer.current_step)
            timer.step()


def test_waits_are_spans_of_the_step_that_uses_the_batch(tmp_path):
    loader = DataLoader(SlowSamples(12, 0.002), batch_size=4)
    steps: list = []
    train(tmp_path / "run", loader, steps)
    assert steps == [0, 1, 2]
    spans = [r for r in timer_records(tmp_path / "run") if r.get("name") == "dataloader"]
    # one wait per batch, plus the one that found the end of the data (in step 3)
    assert [s["step"] for s in spans] == [0, 1, 2, 3]
    assert all(s["t1"] - s["t0"] >= 8_000_000 for s in spans[:3])  # 4 samples x 2 ms
    (meta_path,) = (tmp_path / "run" / "plugins" / "tb_perf").glob("*.meta.json")
    settings = json.loads(meta_path.read_text())["dataloader"]
    assert settings == {  # prefetch_factor is None without workers: left out
        "type": "DataLoader", "num_workers": 0, "pin_memory": False,
        "persistent_workers": False, "batch_size": 4,
    }  # fmt: skip
    assert len(timed_loader(loader, MyTimer(enabled=False))) == 3


def test_a_loader_error_closes_the_span_and_propagates(tmp_path):
    loader = DataLoader(SlowSamples(1000, 0.0), batch_size=500)
    with pytest.raises(ValueError, match="corrupt sample 999"):
        train(tmp_path / "run", loader, [])
    spans = [r for r in timer_records(tmp_path / "run") if r.get("name") == "dataloader"]
    assert len(spans) == 2 and all(s["t1"] >= s["t0"] for s in spans)
