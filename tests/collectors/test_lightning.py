"""TbPerfProfiler: a real Trainer.fit becomes one tb-perf step per training batch, with
Lightning's actions as spans and its data waits as `dataloader` spans; interleaved actions keep
their begin/end; self times add up without double counting; bad input never raises; the plugin
reads the run."""

import json
import subprocess
import sys
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.helpers import timer_records
from tests.plugin.conftest import PluginClient

REPO = Path(__file__).resolve().parents[2]
L = pytest.importorskip("lightning", reason="the Lightning adapter needs lightning (test extra)")
torch = pytest.importorskip("torch", reason="Lightning runs need torch")
from lightning.pytorch.loggers import TensorBoardLogger  # noqa: E402
from torch.utils.data import DataLoader, Dataset  # noqa: E402

from collectors.lightning import TbPerfProfiler  # noqa: E402

SAMPLE_S = 0.01  # per sample: a batch of 2 waits >= 20 ms, most of a step even on a busy CPU
FETCH = "[_TrainingEpochLoop].train_dataloader_next"
BATCH_ACTIONS = {
    "dataloader",
    "[Strategy]SingleDeviceStrategy.batch_to_device",
    "[LightningModule]Tiny.on_train_batch_start",
    "run_training_batch",
    "[LightningModule]Tiny.optimizer_step",
    "[Strategy]SingleDeviceStrategy.training_step",
    "[Strategy]SingleDeviceStrategy.backward",
    "[LightningModule]Tiny.on_train_batch_end",
}


class SlowSamples(Dataset):
    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int):
        time.sleep(SAMPLE_S)
        return torch.full((4,), float(i)), torch.ones(1)


class Tiny(L.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1)
        )

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", torch.nn.functional.mse_loss(self.net(x), y))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)


def trainer(profiler: TbPerfProfiler, logdir: Path) -> L.Trainer:
    return L.Trainer(
        accelerator="cpu",
        max_epochs=2,  # 2 x 4 batches
        limit_val_batches=1,
        num_sanity_val_steps=1,
        profiler=profiler,
        logger=TensorBoardLogger(str(logdir), name="exp"),
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )


def loader() -> DataLoader:
    return DataLoader(SlowSamples(), batch_size=2)


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    """One real fit with the adapter (modules on), then a validate with the same profiler."""
    logdir = tmp_path_factory.mktemp("lightning") / "logs"
    profiler = TbPerfProfiler(modules=True)
    fit = trainer(profiler, logdir)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Lightning's advice on tiny loaders
        fit.fit(Tiny(), loader(), loader())
        summary, actions, run_dir = profiler.summary(), profiler.actions, profiler.run_dir
        fit.validate(fit.lightning_module, loader())
    return SimpleNamespace(
        profiler=profiler, logdir=logdir, run_dir=run_dir, summary=summary, actions=actions
    )


def _meta(run_dir: Path) -> dict:
    (path,) = (run_dir / "plugins" / "tb_perf").glob("rank*.meta.json")
    return json.loads(path.read_text())


def _spans(run_dir: Path) -> list[dict]:
    return [r for r in timer_records(run_dir) if r["k"] == "span"]


def test_import_collectors_does_not_need_lightning():
    code = "import sys; sys.modules['lightning'] = None; import collectors; print('ok')"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


def test_fit_writes_one_step_per_training_batch(fitted):
    run_dir = fitted.run_dir
    assert run_dir == fitted.logdir / "exp" / "version_0"  # the logger's run: its scalars too
    assert list(run_dir.glob("events.out.tfevents.*"))
    records = timer_records(run_dir)
    steps = [r for r in records if r["k"] == "step"]
    assert [s["step"] for s in steps] == list(range(8))  # Lightning's batch index, both epochs
    assert all(a["t1"] <= b["t0"] for a, b in zip(steps, steps[1:], strict=False))
    spans = [r for r in records if r["k"] == "span"]
    assert len({s["id"] for s in spans}) == len(spans)
    by_id = {s["id"]: s for s in spans}
    for step in steps:
        inside = [s for s in spans if step["t0"] <= s["t0"] and s["t1"] <= step["t1"]]
        assert {s["name"] for s in inside} == BATCH_ACTIONS | {
            "[Strategy]SingleDeviceStrategy.on_train_batch_start",
            "[LightningModule]Tiny.on_before_batch_transfer",
            "[LightningModule]Tiny.transfer_batch_to_device",
            "[LightningModule]Tiny.on_after_batch_transfer",
            "[LightningModule]Tiny.on_before_zero_grad",
            "[LightningModule]Tiny.optimizer_zero_grad",
            "[LightningModule]Tiny.on_before_backward",
            "[LightningModule]Tiny.on_after_backward",
            "[LightningModule]Tiny.on_before_optimizer_step",
            "[LightningModule]Tiny.configure_gradient_clipping",
        }
        assert all(s["step"] == step["step"] for s in inside)
        (wait,) = [s for s in inside if s["name"] == "dataloader"]
        assert wait["t1"] - wait["t0"] >= 2 * SAMPLE_S * 1e9
        named = {s["name"]: s for s in inside}
        # nesting as Lightning runs them: batch > optimizer_step (closure) > training_step
        batch, opt = named["run_training_batch"], named["[LightningModule]Tiny.optimizer_step"]
        assert named["[Strategy]SingleDeviceStrategy.training_step"]["parent"] == opt["id"]
        assert named["[Strategy]SingleDeviceStrategy.backward"]["parent"] == opt["id"]
        assert opt["parent"] == batch["id"]
        assert (
            by_id[batch["parent"]]["name"]
            == by_id[wait["parent"]]["name"]
            == ("run_training_epoch")
        )
    validation = [s for s in spans if s["name"].endswith(".validation_step")]
    assert len(validation) == 3  # sanity check + one per epoch: between steps, in none
    for span in validation:
        assert not any(st["t0"] <= span["t0"] <= st["t1"] for st in steps)
    meta = _meta(run_dir)
    assert (meta["rank"], meta["world_size"], meta["rank_source"]) == (0, 1, "explicit")
    assert meta["lightning"] == {"version": L.__version__, "stage": "fit"}
    assert meta["dataloader"]["num_workers"] == 0 and meta["dataloader"]["batch_size"] == 2
    assert meta["closed_unix_ns"] is not None  # teardown closed the run


def test_summary_self_times_add_up_without_double_counting(fitted):
    actions, spans = fitted.actions, _spans(fitted.run_dir)
    assert actions["dataloader"].calls == 8
    assert actions["run_training_batch"].calls == 8
    for name, stats in actions.items():
        mine = [s for s in spans if s["name"] == name]
        assert stats.calls == len(mine)
        assert stats.total_ns == sum(s["t1"] - s["t0"] for s in mine)
        assert 0 <= stats.self_ns <= stats.total_ns
    # properly nested here: self = total minus the direct children's totals
    batch_ids = {s["id"] for s in spans if s["name"] == "run_training_batch"}
    children = sum(s["t1"] - s["t0"] for s in spans if s["parent"] in batch_ids)
    batch = actions["run_training_batch"]
    assert batch.self_ns == batch.total_ns - children
    # self times add up to the time covered by actions, each instant counted once
    covered, end = 0, None
    for s in sorted(spans, key=lambda s: s["t0"]):
        if end is None or s["t0"] >= end:
            covered, end = covered + s["t1"] - s["t0"], s["t1"]
        elif s["t1"] > end:
            covered, end = covered + s["t1"] - end, s["t1"]
    recorded = sum(s.self_ns for s in actions.values())
    assert recorded == covered
    # totals count nested time again: exactly the time of the spans that have a parent
    nested = sum(s["t1"] - s["t0"] for s in spans if s["parent"])
    assert sum(s.total_ns for s in actions.values()) - recorded == nested > 0
    text = fitted.summary
    assert f"run written to {fitted.run_dir}" in text
    assert "8 training steps" in text
    assert f"{recorded / 1e9:.6f}" in text.splitlines()[-3]  # the "Recorded" line
    row = next(line for line in text.splitlines() if line.startswith("run_training_batch "))
    assert row.split()[1:4] == ["8", f"{batch.total_ns / 1e9:.6f}", f"{batch.self_ns / 1e9:.6f}"]


def test_the_plugin_reads_the_run(fitted):
    client = PluginClient(fitted.logdir)
    runs = {r["name"]: r for r in client.json("runs")}
    assert runs["exp/version_0"]["status"] == "finished"
    summary = client.json("summary", run="exp/version_0")
    assert summary["steps"] == {"count": 8, "first": 0, "last": 7}
    rows = {row["name"]: row for row in summary["spans"]}
    assert BATCH_ACTIONS <= set(rows)
    for name, stats in fitted.actions.items():  # the same totals and self times
        assert (rows[name]["calls"], rows[name]["total_ns"]) == (stats.calls, stats.total_ns)
        assert rows[name]["self_ns"] == stats.self_ns
    findings = client.json("findings", run="exp/version_0")["findings"]
    loading = next(f for f in findings if f["kind"] == "data_loading")
    assert loading["evidence"]["source"]["value"] == "MyTimer data-loading spans"
    assert loading["evidence"]["num_workers"]["value"] == 0
    modules = client.json("modules", run="exp/version_0")
    rows = {row["path"]: row for row in modules["rows"]}
    assert {"net", "net.0", "net.1", "net.2"} <= set(rows)
    # training batches only: the sanity check's and validation's forwards are not counted
    assert rows["net.0"]["forward"]["calls"] == rows["net.0"]["backward"]["calls"] == 8


def test_a_second_stage_goes_to_a_sub_run(fitted):
    sub = fitted.run_dir / "validate-2"
    assert fitted.profiler.run_dir == sub
    meta = _meta(sub)
    assert meta["lightning"]["stage"] == "validate" and meta["closed_unix_ns"] is not None
    records = timer_records(sub)
    assert not [r for r in records if r["k"] == "step"]  # no training batches
    assert [r["name"] for r in records if r["name"].endswith(".validation_step")] == [
        "[Strategy]SingleDeviceStrategy.validation_step"
    ]


class Samples(torch.utils.data.IterableDataset):
    """No length: Lightning fetches one batch ahead, at each epoch's start too."""

    def __iter__(self):
        for i in range(6):
            yield torch.full((4,), float(i)), torch.ones(1)


class IterStep(Tiny):
    """`training_step(dataloader_iter)`: the data wait runs inside run_training_batch."""

    def training_step(self, dataloader_iter):
        (x, y), _, _ = next(dataloader_iter)
        return torch.nn.functional.mse_loss(self.net(x), y)


@pytest.mark.parametrize(
    ("model", "data", "batches"),
    [(Tiny, Samples, 6), (IterStep, SlowSamples, 8)],
    ids=["iterable_dataset", "dataloader_iter"],
)
def test_other_ways_lightning_fetches_keep_one_step_per_batch(tmp_path, model, data, batches):
    profiler = TbPerfProfiler(tmp_path / "run")
    fit = L.Trainer(
        accelerator="cpu",
        max_epochs=2,
        limit_val_batches=0,
        profiler=profiler,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit.fit(model(), DataLoader(data(), batch_size=2))
    records = timer_records(tmp_path / "run")
    steps = [r for r in records if r["k"] == "step"]
    assert [s["step"] for s in steps] == list(range(batches))
    batch_spans = [r for r in records if r.get("name") == "run_training_batch"]
    assert len(batch_spans) == batches
    for span in records:
        if span.get("name") == "dataloader":  # every wait is in a step
            assert any(s["t0"] <= span["t0"] and span["t1"] <= s["t1"] for s in steps)


def _direct(tmp_path, rank: int = 0, world_size: int = 1) -> TbPerfProfiler:
    """A profiler driven by hand, with a stand-in for the Trainer Lightning would hand it."""
    profiler = TbPerfProfiler(tmp_path / "run")
    trainer_stub = SimpleNamespace(global_rank=rank, world_size=world_size)
    profiler._lightning_module = SimpleNamespace(trainer=trainer_stub)
    profiler.setup("fit")
    return profiler


def test_interleaved_actions_keep_their_begin_and_end(tmp_path):
    profiler = _direct(tmp_path)
    for event, name in [
        ("start", "outer"),
        ("start", "A"),
        ("start", "B"),
        ("stop", "A"),
        ("stop", "B"),
        ("stop", "outer"),
    ]:  # A stops before B
        getattr(profiler, event)(name)
        time.sleep(0.002)
    profiler.start("C")
    profiler.start("D")
    profiler.stop("C")
    profiler.stop("D")
    actions = profiler.actions
    profiler.teardown("fit")
    spans = {s["name"]: s for s in _spans(tmp_path / "run")}
    a, b, outer = spans["A"], spans["B"], spans["outer"]
    assert outer["t0"] < a["t0"] < b["t0"] < a["t1"] < b["t1"] < outer["t1"]
    assert a["parent"] == b["parent"] == outer["id"]  # overlapping siblings, both inside outer
    assert spans["D"]["parent"] == 0  # its start-time parent C ended first
    assert actions["A"].self_ns == b["t0"] - a["t0"]  # until B started
    assert actions["B"].self_ns == b["t1"] - b["t0"]  # innermost from start to end
    assert actions["outer"].self_ns == (a["t0"] - outer["t0"]) + (outer["t1"] - b["t1"])
    assert sum(actions[n].self_ns for n in ("A", "B", "outer")) == outer["t1"] - outer["t0"]


def test_steps_and_rank_without_a_real_trainer(tmp_path):
    """Batch actions alone make the steps (counted when Lightning's loop is not there), the
    rank comes from the Trainer, and work between batches is in no step."""
    profiler = _direct(tmp_path, rank=1, world_size=2)
    for _ in range(3):
        for name in (FETCH, "run_training_batch", "[LightningModule]M.on_train_batch_end"):
            profiler.start(name)
            profiler.stop(name)
        profiler.start("[Strategy]S.validation_step")
        profiler.stop("[Strategy]S.validation_step")
    profiler.teardown("fit")
    assert not list((tmp_path / "run" / "plugins" / "tb_perf").glob("rank0.*"))
    records = timer_records(tmp_path / "run", rank=1)
    steps = [r for r in records if r["k"] == "step"]
    assert [s["step"] for s in steps] == [0, 1, 2]
    for span in records:
        if span["k"] == "span":
            inside = any(s["t0"] <= span["t0"] and span["t1"] <= s["t1"] for s in steps)
            assert inside == (span["name"] != "[Strategy]S.validation_step"), span
    assert _meta(tmp_path / "run")["world_size"] == 2


def test_stop_without_start_warns_once_and_teardown_closes_open_actions(tmp_path):
    profiler = _direct(tmp_path)
    with pytest.warns(RuntimeWarning, match=r"stop\('never'\) without a start") as caught:
        profiler.stop("never")
        profiler.stop("never")
    assert len(caught) == 1
    profiler.start("left open")
    profiler.start("inner")
    profiler.stop("inner")
    with pytest.warns(RuntimeWarning, match=r"still open at teardown were closed.*'left open'"):
        profiler.teardown("fit")
    assert profiler.timer is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        profiler.start("after teardown")  # not recorded, and its stop is not an error
        profiler.stop("after teardown")
        profiler.teardown("fit")  # twice (Lightning's __del__ does it again): nothing left
    spans = {s["name"]: s for s in _spans(tmp_path / "run")}
    assert set(spans) == {"left open", "inner"}
    assert spans["inner"]["parent"] == spans["left open"]["id"]
    meta = _meta(tmp_path / "run")
    assert spans["inner"]["t1"] <= spans["left open"]["t1"] <= meta["closed_unix_ns"]


def test_enable_timer_0_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ENABLE_TIMER", "0")
    profiler = _direct(tmp_path)
    profiler.start("a")
    profiler.stop("a")
    profiler.teardown("fit")
    assert not (tmp_path / "run").exists()
    assert "nothing recorded" in profiler.summary()
