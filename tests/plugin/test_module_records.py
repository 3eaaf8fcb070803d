"""Module view from ModuleProfiler records: hand-written files with known numbers (reader
robustness, the per-phase statistics, rank combination, aggregated blocks, late device times)
and the `modules` / `module_steps` routes over them."""

from __future__ import annotations

import concurrent.futures
import json

import numpy as np
import pytest

from tb_perf_plugin.analysis.modules import module_step_series, module_view
from tb_perf_plugin.discovery import discover_runs
from tb_perf_plugin.ingest.modules import read_modules_file
from tb_perf_plugin.pipeline import analyze as run_analysis
from tb_perf_plugin.pipeline import read as run_reading
from tests.helpers import timer_records
from tests.plugin.module_fixtures import (
    COMPILED_NOTE,
    HEADER,
    RANK0,
    RANK0_SETTINGS,
    RANK0_STEPS,
    RANK1,
    RANK1_SETTINGS,
    RANK1_STEPS,
    lines,
    module,
    write_module_run,
    write_rank,
)

RUN = "net"


@pytest.fixture
def module_logdir(tmp_path):
    write_module_run(tmp_path / RUN)
    return tmp_path


def read(logdir, name=RUN) -> run_reading.RunTables:
    run = discover_runs(str(logdir))[name]
    with concurrent.futures.ThreadPoolExecutor(1) as executor:
        return run_reading.read_run(
            run, run.signature(), max_file_bytes=1 << 30, executor=executor, cache_dir=None,
            on_progress=lambda _: None,
        )  # fmt: skip


def rows_by_path(view: dict) -> dict[str, dict]:
    return {row["path"]: row for row in view["rows"]}


def test_reader_skips_what_it_cannot_use_and_says_so(module_logdir):
    tables = read(module_logdir)
    warnings = "\n".join(tables.module_warnings)
    assert "1 module entries with an undeclared id skipped" in warnings
    assert "1 malformed line(s) skipped" in warnings
    assert "last line of rank0.node0.100.modules.jsonl is truncated (ignored)" in warnings
    assert "future_kind" not in warnings  # unknown kinds are skipped silently
    assert set(tables.module_warnings) <= set(tables.warnings)  # the Overview lists them too
    records = tables.modules
    assert len(records.blocks) == 3  # rank 0: steps 0 and 1..3; rank 1: step 0
    assert 9 not in set(records.calls["id"])


def test_tree_from_declarations_over_both_ranks(module_logdir):
    data = run_analysis.module_data(read(module_logdir))
    assert data.source == "collector" and not data.class_names
    tree = data.tree
    assert tree["path"].tolist() == ["", "encoder", "encoder.0", "head"]
    assert tree["parent"].tolist() == [None, "", "encoder", ""]
    assert tree["depth"].tolist() == [0, 1, 2, 1]
    assert tree["params"].tolist() == [100, 60, 30, 40]
    assert tree["type"].tolist() == ["Net", "Encoder", "Linear", "Linear"]
    assert data.shapes[2] == {"inputs": [[8, 16]], "output": [8, 16]}


def test_statistics_of_one_rank_with_an_aggregated_block(module_logdir):
    view = module_view(run_analysis.module_data(read(module_logdir)), rank=0)
    # steps 0..3 are covered (step 4 is not): mean step time (1000+1000+2000+2000)/4 = 1500
    assert view["steps"] == [{"rank": 0, "steps": 4, "step_time_ns": 1500}]
    assert view["device"] is True
    model = rows_by_path(view)[""]
    assert model["forward"] == {
        "calls": 4, "total_ns": 2100, "self_ns": 400, "mean_ns": 525,
        # samples 500, 450, 550, 600: nearest-rank median and p95, population std
        "median_ns": 500, "p95_ns": 600, "std_ns": 56,
        "pct_of_step": 35.0,  # 2100 / (4 steps x 1500)
        "gpu_total_ns": 450, "gpu_mean_ns": 450,  # device times of step 0 only (1 call)
    }  # fmt: skip
    assert model["backward"] == {
        "calls": 4, "total_ns": 1300, "self_ns": 200, "mean_ns": 325, "median_ns": 300,
        "p95_ns": 400, "std_ns": 43, "pct_of_step": 21.667, "gpu_total_ns": 380,
        "gpu_mean_ns": 380,
    }  # fmt: skip
    assert model["total"] == {
        "calls": 4, "total_ns": 3400, "self_ns": 600, "mean_ns": 850, "median_ns": None,
        "p95_ns": None, "std_ns": None, "pct_of_step": 56.667, "gpu_total_ns": 830,
        "gpu_mean_ns": 830,
    }  # fmt: skip
    linear = rows_by_path(view)["encoder.0"]
    assert (linear["depth"], linear["parent"], linear["params"]) == (2, "encoder", 30)
    assert linear["forward"]["calls"] == 8 and linear["forward"]["total_ns"] == 400
    assert (linear["forward"]["median_ns"], linear["forward"]["p95_ns"]) == (50, 60)
    assert linear["forward"]["std_ns"] == 5
    assert linear["forward"]["gpu_total_ns"] is None  # no device time recorded for it
    head = rows_by_path(view)["head"]
    assert head["backward"] is None  # never called in backward
    assert head["total"]["total_ns"] == head["forward"]["total_ns"] == 500


def test_all_ranks_combined(module_logdir):
    view = module_view(run_analysis.module_data(read(module_logdir)))
    assert view["steps"] == [
        {"rank": 0, "steps": 4, "step_time_ns": 1500},
        {"rank": 1, "steps": 1, "step_time_ns": 2000},
    ]
    forward = rows_by_path(view)[""]["forward"]
    assert forward["calls"] == 5 and forward["total_ns"] == 3100 and forward["self_ns"] == 600
    assert forward["mean_ns"] == 620
    # pooled samples 450, 500, 550, 600, 1000
    assert (forward["median_ns"], forward["p95_ns"], forward["std_ns"]) == (550, 1000, 196)
    assert forward["pct_of_step"] == 38.75  # 3100 / (4 x 1500 + 1 x 2000)
    assert forward["gpu_total_ns"] == 450 and forward["gpu_mean_ns"] == 450
    # rank 1 declared its modules in another order: joined by path
    assert rows_by_path(view)["head"]["forward"]["total_ns"] == 500 + 300


def test_per_step_times_spread_aggregated_blocks(module_logdir):
    data = run_analysis.module_data(read(module_logdir))
    (series,) = module_step_series(data, data.node(""), "forward", 0, 2000)
    assert series == {
        "rank": 0, "steps": [0, 1, 2, 3], "host_ns": [500, 533, 533, 533],
        "device_ns": [450, None, None, None], "bucket": 1,
    }  # fmt: skip
    (series,) = module_step_series(data, data.node(""), "total", 0, 2000)
    assert series["host_ns"] == [900, 833, 833, 833]
    assert series["device_ns"] == [830, None, None, None]
    (series,) = module_step_series(data, data.node("head"), "backward", 0, 2000)
    assert series["host_ns"] == [0, 0, 0, 0]  # covered steps without a call
    both = module_step_series(data, data.node("encoder"), "forward", None, 2000)
    assert [(s["rank"], s["host_ns"], s["device_ns"]) for s in both] == [
        (0, [300, 300, 300, 300], [280, None, None, None]),
        (1, [500], None),  # rank 1 has no device times at all
    ]
    (bucketed,) = module_step_series(data, data.node(""), "forward", 0, 2)
    assert bucketed["steps"] == [0, 2] and bucketed["bucket"] == 2
    assert bucketed["host_ns"] == [516, 533] and bucketed["device_ns"] == [450, None]


def test_appended_lines_are_read_from_where_the_last_read_ended(tmp_path):
    path = write_rank(tmp_path / RUN, 0, RANK0_STEPS, RANK0[:5])
    first = read_modules_file(str(path), 1 << 30)
    with open(path, "a") as handle:
        handle.write(lines(RANK0[5:]))
    tailed = read_modules_file(str(path), 1 << 30, previous=first)
    fresh = read_modules_file(str(path), 1 << 30)
    assert tailed.bytes_read == fresh.bytes_read > first.bytes_read
    assert tailed.problems == fresh.problems == ["1 module entries with an undeclared id skipped"]
    for name, table in fresh.tables.items():
        assert tailed.tables[name].equals(table), name


def test_a_file_of_another_version_is_refused_with_a_warning(tmp_path, make_client):
    write_rank(tmp_path / RUN, 0, RANK0_STEPS, RANK0)
    write_rank(tmp_path / RUN, 1, [1000], RANK0, header={**HEADER, "version": 2})
    answer = make_client(tmp_path).json("modules", run=RUN)
    assert answer["source"] == "collector"
    assert any("version 2 is not supported" in w for w in answer["warnings"])
    assert answer["steps"] == [{"rank": 0, "steps": 4, "step_time_ns": 1500}]


def test_modules_route(module_logdir, make_client):
    client = make_client(module_logdir)
    answer = client.json("modules", run=RUN)
    assert answer["source"] == "collector" and answer["class_names"] is False
    assert answer["phases"] == ["forward", "backward", "total"]
    assert answer["device"] is True and answer["rank"] is None
    assert answer["total_rows"] == 4
    assert [r["path"] for r in answer["rows"]] == ["", "encoder", "encoder.0", "head"]
    assert answer["rows"][0]["forward"]["total_ns"] == 3100
    assert any("undeclared id" in w for w in answer["warnings"])
    one = client.json("modules", run=RUN, rank="1")
    assert one["rank"] == 1 and one["device"] is False
    assert one["rows"][0]["backward"] is None and one["rows"][0]["forward"]["total_ns"] == 1000
    assert "modules" in client.json("runs")[0]["sources"]


def test_modules_route_says_how_the_profiler_ran(module_logdir, make_client):
    """Each rank's ModuleProfiler metadata, the options a reader needs, once per setting."""
    client = make_client(module_logdir)
    reader = ("backward", "every_n_steps", "aggregate_steps", "gpu", "compiled", "max_depth",
              "include", "exclude")  # fmt: skip
    rank0 = {"ranks": [0], **{name: RANK0_SETTINGS[name] for name in reader}}
    rank1 = {"ranks": [1], **{name: RANK1_SETTINGS[name] for name in reader}}
    assert rank1["compiled"] == COMPILED_NOTE and rank1["gpu"].startswith("off (")
    assert client.json("modules", run=RUN)["settings"] == [rank0, rank1]
    assert client.json("modules", run=RUN, rank="1")["settings"] == [rank1]


def test_ranks_with_the_same_settings_are_shown_once(tmp_path, make_client):
    write_rank(tmp_path / RUN, 0, RANK0_STEPS, RANK0, settings=RANK1_SETTINGS)
    write_rank(tmp_path / RUN, 1, RANK1_STEPS, RANK1, settings={**RANK1_SETTINGS, "modules": 9})
    (settings,) = make_client(tmp_path).json("modules", run=RUN)["settings"]
    assert settings["ranks"] == [0, 1] and settings["compiled"] == COMPILED_NOTE


def test_settings_missing_or_partial_in_the_metadata(tmp_path, make_client):
    """A rank without `modules` metadata is left out; missing options read as the profiler's
    defaults and unknown ones are ignored."""
    write_rank(tmp_path / RUN, 0, RANK0_STEPS, RANK0, settings={"gpu": "cuda", "newer": [1]})
    write_rank(tmp_path / RUN, 1, RANK1_STEPS, RANK1)
    answer = make_client(tmp_path).json("modules", run=RUN)
    assert answer["settings"] == [
        {"ranks": [0], "backward": True, "every_n_steps": 1, "aggregate_steps": 1, "gpu": "cuda",
         "compiled": None, "max_depth": None, "include": [], "exclude": []},
    ]  # fmt: skip


def test_module_steps_route(module_logdir, make_client):
    client = make_client(module_logdir)
    answer = client.json("module_steps", run=RUN, rank="0", path="encoder.0", phase="forward")
    assert answer["source"] == "collector" and answer["shapes"] == {
        "inputs": [[8, 16]],
        "output": [8, 16],
    }
    assert answer["series"] == [
        {"rank": 0, "steps": [0, 1, 2, 3], "host_ns": [100, 100, 100, 100],
         "device_ns": [0, None, None, None], "bucket": 1},
    ]  # fmt: skip
    root = client.json("module_steps", run=RUN, path="", phase="total")
    assert [s["rank"] for s in root["series"]] == [0, 1] and root["shapes"] is None


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"phase": "forward"}, 400, "invalid_argument"),  # no path
        ({"path": "decoder", "phase": "forward"}, 404, "not_found"),
        ({"path": "head", "phase": "sideways"}, 400, "invalid_argument"),
        ({"path": "head", "phase": "forward", "rank": "7"}, 400, "invalid_argument"),
    ],
)
def test_module_steps_route_refuses_bad_parameters(
    module_logdir, make_client, params, status, code
):
    answer = make_client(module_logdir).json("module_steps", expect=status, run=RUN, **params)
    assert answer["error"]["code"] == code


def test_records_beat_traces(module_logdir, make_client):
    """A run with both: the records are the better source (paths, backward)."""
    trace = {"traceEvents": [{"ph": "X", "cat": "python_function", "name": "nn.Module: Net_0",
                              "pid": 1, "tid": 1, "ts": 1, "dur": 2}]}  # fmt: skip
    (module_logdir / RUN / "worker0.1.pt.trace.json").write_text(json.dumps(trace))
    answer = make_client(module_logdir).json("modules", run=RUN)
    assert answer["source"] == "collector" and answer["rows"][0]["path"] == ""


REAL_STEPS = 6


def test_a_real_training_loop_profiled_with_module_profiler(tmp_path, make_client):
    """A small residual model with a submodule shared by its blocks, trained with
    ModuleProfiler + MyTimer (blocks of two steps, shapes recorded): both routes answer what the
    records say."""
    torch = pytest.importorskip("torch")
    from torch import nn

    from collectors import ModuleProfiler, MyTimer

    class Block(nn.Module):
        def __init__(self, shared: nn.Module) -> None:
            super().__init__()
            self.ff = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))
            self.shared = shared

        def forward(self, x):
            return x + self.ff(x) + self.shared(x)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Linear(8, 16)
            self.shared = nn.Linear(16, 16)
            self.blocks = nn.ModuleList([Block(self.shared) for _ in range(3)])
            self.head = nn.Linear(16, 1)

        def forward(self, x):
            x = self.embed(x)
            for block in self.blocks:
                x = block(x)
            return self.head(x)

    torch.manual_seed(0)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(4, 8)
    timer = MyTimer(tmp_path / "real", gpu=False)
    profiler = ModuleProfiler(
        model, timer, gpu=False, aggregate_steps=2, backward_every_n_steps=1, record_shapes=True
    )
    with profiler:
        for _ in range(REAL_STEPS):
            with timer.range("train"):  # a span: the first step has a start
                model(x).square().mean().backward()
            optimizer.step()
            optimizer.zero_grad()
            timer.step()
    timer.close()

    client = make_client(tmp_path)
    answer = client.json("modules", run="real")
    assert answer["source"] == "collector" and answer["warnings"] == []
    assert answer["phases"] == ["forward", "backward", "total"] and answer["device"] is False
    steps = [r["t1"] - r["t0"] for r in timer_records(tmp_path / "real") if r["k"] == "step"]
    assert len(steps) == REAL_STEPS
    assert answer["steps"] == [
        {"rank": 0, "steps": REAL_STEPS, "step_time_ns": sum(steps) // REAL_STEPS}
    ]
    rows = {row["path"]: row for row in answer["rows"]}
    assert set(rows) == {path for path, _ in model.named_modules()}
    order = [row["path"] for row in answer["rows"]]
    assert all(order.index(r["parent"]) < order.index(r["path"]) for r in answer["rows"][1:])
    assert (rows["blocks.1.ff.2"]["parent"], rows["blocks.1.ff.2"]["depth"]) == ("blocks.1.ff", 4)
    assert rows["blocks"]["forward"] is None  # a ModuleList is never called
    assert rows["shared"]["forward"]["calls"] == 3 * REAL_STEPS  # once per block and step
    assert rows["head"]["params"] == 17
    model_total = rows[""]["total"]
    assert model_total["calls"] == REAL_STEPS
    assert 0 < model_total["pct_of_step"] <= 100  # forward and backward run inside the steps
    for row in answer["rows"]:
        for phase in ("forward", "backward"):
            s = row[phase]
            if s is not None:
                assert 0 <= s["self_ns"] <= s["total_ns"]
                assert s["median_ns"] <= s["p95_ns"]
    series = client.json("module_steps", run="real", path="blocks.0", phase="total")
    (only,) = series["series"]
    assert only["steps"] == list(range(REAL_STEPS))
    # blocks of two steps, each spread evenly: the per-step times add up to the total
    total = rows["blocks.0"]["total"]["total_ns"]
    assert total - REAL_STEPS // 2 <= sum(only["host_ns"]) <= total
    assert only["host_ns"][0] == only["host_ns"][1]
    embed = client.json("module_steps", run="real", path="embed", phase="forward")
    assert embed["shapes"] == {"inputs": [[4, 8]], "output": [4, 16]}


def test_a_compiled_model_profiled_for_real(tmp_path, make_client):
    """torch.compile (eager backend, CPU) hides the model's insides from the hooks: the route
    has the collector's note saying so, and the one row it can time."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from torch import nn

    from collectors import ModuleProfiler, MyTimer

    model = torch.compile(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)),
                          backend="eager")  # fmt: skip
    x = torch.randn(4, 8)
    timer = MyTimer(tmp_path / "compiled", gpu=False)
    with ModuleProfiler(model, timer, gpu=False):
        for _ in range(2):
            with timer.range("train"):
                model(x).sum().backward()
            timer.step()
    timer.close()

    answer = make_client(tmp_path).json("modules", run="compiled")
    (settings,) = answer["settings"]
    assert settings["ranks"] == [0] and "torch.compile'd" in settings["compiled"]
    assert (settings["gpu"], settings["backward"]) == ("off", True)
    assert [(r["path"], r["type"]) for r in answer["rows"]] == [("", "Sequential")]
    assert answer["rows"][0]["forward"]["calls"] == 2


@pytest.mark.parametrize("scale", [1, 1 << 60], ids=["one sort", "lexsort"])
def test_samples_sorted_by_module_then_value(scale):
    from tb_perf_plugin.analysis.modules import _sorted_by_group

    keys = np.array([3, 0, 3, 1, 0], dtype=np.int64)
    values = np.array([5, 7, 1, 2, 3], dtype=np.int64) * scale
    assert _sorted_by_group(keys, values).tolist() == [v * scale for v in (3, 7, 2, 1, 5)]


def test_numbered_siblings_in_numeric_order(tmp_path):
    """Declarations sorted by path text put `layers.10` before `layers.2`; the tree does not."""
    paths = ["", "layers", "layers.0", "layers.1", "layers.10", "layers.10.fc", "layers.2"]
    parents = {"": 0, "layers": 1, "layers.10.fc": 5}
    records = [module(i + 1, path, "M", parents.get(path, 2), 1) for i, path in enumerate(paths)]
    write_rank(tmp_path / RUN, 0, [1000], records)
    tree = run_analysis.module_data(read(tmp_path)).tree
    assert tree["path"].tolist() == [
        "", "layers", "layers.0", "layers.1", "layers.2", "layers.10", "layers.10.fc",
    ]  # fmt: skip


def _fwd(net: int, encoder: int, head: int) -> list:
    return [[1, 1, net, net - encoder - head, [net]], [2, 1, encoder, encoder, [encoder]],
            [3, 1, head, head, [head]]]  # fmt: skip


def _bwd(net: int, encoder: int) -> list:
    return [[1, 1, net, net - encoder, [net]], [2, 1, encoder, encoder, [encoder]]]


SAMPLED_MODULES = [module(1, "", "Net", 0, 100), module(2, "encoder", "Encoder", 1, 60),
                   module(3, "head", "Linear", 1, 40)]  # fmt: skip
# Rank 0: six one-step blocks, backward timed on steps 1 and 4 only (backward_every_n_steps=3);
# "head" runs in forward only.
SAMPLED_RANK0 = [
    *SAMPLED_MODULES,
    *({"k": "calls", "step": step, "last_step": step, "fwd": _fwd(500, 300, 100),
       "bwd": _bwd(*{1: (400, 300), 4: (600, 300)}[step]) if step in (1, 4) else [],
       "bwd_steps": [step] if step in (1, 4) else []} for step in range(6)),
]  # fmt: skip
# Rank 1: one block of steps 0..3 (aggregate_steps=4) whose backward was timed on 1 and 3
# (7 is not a step of the block: ignored).
SAMPLED_RANK1 = [
    *SAMPLED_MODULES,
    {"k": "calls", "step": 0, "last_step": 3,
     "fwd": [[1, 4, 2000, 800, [500] * 4], [2, 4, 800, 800, [200] * 4],
             [3, 4, 400, 400, [100] * 4]],
     "bwd": [[1, 2, 1000, 200, [500, 500]], [2, 2, 800, 800, [400, 400]]],
     "bwd_steps": [3, 1, 7]},
]  # fmt: skip


@pytest.fixture
def sampled_logdir(tmp_path):
    write_rank(tmp_path / RUN, 0, [1000] * 6, SAMPLED_RANK0)
    write_rank(tmp_path / RUN, 1, [2000] * 4, SAMPLED_RANK1)
    return tmp_path


def test_backward_timed_on_some_steps_is_scaled_to_all_of_them(sampled_logdir):
    """Backward measured on 2 of 6 steps: its per-step mean, per-call mean and share of the
    step are those of the 2 steps measured, not diluted by the 4 others."""
    data = run_analysis.module_data(read(sampled_logdir))
    view = module_view(data, rank=0)
    assert view["backward_steps"] == [{"rank": 0, "timed": 2, "steps": 6}]
    assert view["steps"] == [{"rank": 0, "steps": 6, "step_time_ns": 1000}]
    model = rows_by_path(view)[""]
    measured_per_step = (400 + 600) // 2
    assert model["backward"] == {
        "calls": 6, "total_ns": 6 * measured_per_step, "self_ns": 6 * 200, "mean_ns": 500,
        "median_ns": 400, "p95_ns": 600, "std_ns": 100,
        "pct_of_step": 50.0,  # 500 ns of each 1000 ns step, as on the steps measured
        "gpu_total_ns": None, "gpu_mean_ns": None,
    }  # fmt: skip
    assert model["forward"]["total_ns"] == 6 * 500 and model["forward"]["pct_of_step"] == 50.0
    assert model["total"]["total_ns"] == 6 * (500 + 500) and model["total"]["mean_ns"] == 1000
    assert model["total"]["pct_of_step"] == 100.0
    encoder = rows_by_path(view)["encoder"]["backward"]
    assert (encoder["calls"], encoder["total_ns"], encoder["pct_of_step"]) == (6, 1800, 30.0)
    assert rows_by_path(view)["head"]["backward"] is None

    # an aggregated block, backward timed on 2 of its 4 steps
    one = module_view(data, rank=1)
    assert one["backward_steps"] == [{"rank": 1, "timed": 2, "steps": 4}]
    backward = rows_by_path(one)[""]["backward"]
    assert (backward["calls"], backward["total_ns"], backward["mean_ns"]) == (4, 2000, 500)
    assert backward["pct_of_step"] == 25.0  # 500 of 2000 ns a step

    both = module_view(data)  # each rank scaled by its own share, then summed
    assert both["backward_steps"] == view["backward_steps"] + one["backward_steps"]
    backward = rows_by_path(both)[""]["backward"]
    assert (backward["calls"], backward["total_ns"]) == (6 + 4, 3000 + 2000)


def test_records_timing_backward_on_every_step_are_not_scaled(module_logdir):
    view = module_view(run_analysis.module_data(read(module_logdir)))
    assert view["backward_steps"] == []


def test_per_step_backward_only_on_the_steps_that_timed_it(sampled_logdir):
    data = run_analysis.module_data(read(sampled_logdir))
    model, head = data.node(""), data.node("head")

    def host(node: int, phase: str, rank: int) -> list:
        (series,) = module_step_series(data, node, phase, rank, 2000)
        return series["host_ns"]

    assert host(model, "forward", 0) == [500] * 6
    assert host(model, "backward", 0) == [None, 400, None, None, 600, None]
    assert host(model, "total", 0) == [None, 900, None, None, 1100, None]
    assert host(head, "total", 0) == [100] * 6  # never called in backward: its forward
    assert host(head, "backward", 0) == [None, 0, None, None, 0, None]
    assert host(model, "forward", 1) == [500] * 4  # the block spread over its steps
    assert host(model, "backward", 1) == [None, 500, None, 500]  # over its timed steps
    assert host(model, "total", 1) == [None, 1000, None, 1000]
    (bucketed,) = module_step_series(data, model, "backward", 0, 3)
    assert bucketed["host_ns"] == [400, None, 600]  # steps without backward left out


def test_modules_route_says_which_steps_timed_backward(sampled_logdir, make_client):
    client = make_client(sampled_logdir)
    answer = client.json("modules", run=RUN)
    assert answer["backward_steps"] == [
        {"rank": 0, "timed": 2, "steps": 6},
        {"rank": 1, "timed": 2, "steps": 4},
    ]
    assert client.json("modules", run=RUN, rank="1")["backward_steps"] == [
        {"rank": 1, "timed": 2, "steps": 4}
    ]
    steps = client.json("module_steps", run=RUN, rank="0", path="", phase="backward")
    assert steps["series"][0]["host_ns"] == [None, 400, None, None, 600, None]


def test_default_module_profiler_run_reads_with_backward_scaled(tmp_path, make_client):
    """Collector to route with the default options: backward timed on steps 1 and 11 of 12,
    counted as one backward call of each module per step, like forward."""
    torch = pytest.importorskip("torch")
    from torch import nn

    from collectors import ModuleProfiler, MyTimer

    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    timer = MyTimer(tmp_path / "sampled", gpu=False)
    with ModuleProfiler(model, timer, gpu=False):
        for _ in range(12):
            model(torch.randn(4, 8)).square().mean().backward()
            timer.step()
    timer.close()
    answer = make_client(tmp_path).json("modules", run="sampled")
    assert answer["backward_steps"] == [{"rank": 0, "timed": 2, "steps": 12}]
    rows = {row["path"]: row for row in answer["rows"]}
    assert rows[""]["forward"]["calls"] == rows[""]["backward"]["calls"] == 12
    assert rows["0"]["backward"]["calls"] == rows["0"]["total"]["calls"] == 12
