"""Windowed capture on a real torch loop: exactly the configured windows fire, per trigger, rank
and role; every misconfiguration is refused at load time; the CUDA backend falls back cleanly."""

import json
import logging
import sys
from pathlib import Path

import pytest

from collectors import MyTimer, RunWriter
from collectors._capture import (
    CaptureConfigError,
    CudaProfilerBackend,
    capture_forward,
    create_capture,
    load_capture_config,
)
from collectors._null import _NULL_RANGE
from collectors._schedule import Phase, Windows, WindowScheduler

torch = pytest.importorskip("torch")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "capture"


class RecordingBackend:
    """A CaptureBackend that only records the calls it gets; one per capture (label)."""

    def __init__(self, made: dict, label: str) -> None:
        self.calls: list[tuple] = []
        made[label] = self

    def prepare(self):
        self.calls.append(("prepare",))

    def start(self, step):
        self.calls.append(("start", step))

    def step(self, step):
        self.calls.append(("step", step))

    def stop(self, first_step, last_step):
        self.calls.append(("stop", first_step, last_step))

    def cancel(self):
        self.calls.append(("cancel",))

    def close(self):
        self.calls.append(("close",))

    def windows(self) -> list[tuple[int, int]]:
        return [call[1:] for call in self.calls if call[0] == "stop"]


def test_windows_policy_phases_with_warmup():
    policy = Windows([(2, 4), (6, 7)], warmup=1)
    phases = "".join(policy.phase(i)[0].name[0] for i in range(9))
    assert phases == "NWAANWADD"
    assert [policy.phase(i)[1] for i in (2, 3, 6)] == [0, 0, 1]
    assert policy.phase(100) == (Phase.DONE, 2)
    for windows, warmup, message in (
        ([], 0, "at least one"),
        ([(3, 3)], 0, "stop must be greater than start"),
        ([(-1, 3)], 0, "start must be >= 0"),
        ([(0, 3), (2, 5)], 0, "overlaps"),
        ([(0, 3), (3, 5)], 1, "overlaps"),  # the second window's warm-up is in the first
        ([(0, 3)], -1, "warmup must be >= 0"),
    ):
        with pytest.raises(ValueError, match=message):
            Windows(windows, warmup)


def test_scheduler_end_step_stops_a_window_at_its_last_step():
    made: dict = {}
    backend = RecordingBackend(made, "points")
    scheduler = WindowScheduler(backend, Windows([(1, 3), (3, 4), (6, 7)], warmup=0), origin=0)
    for hit in range(5):
        scheduler.begin_step(hit)
        scheduler.end_step(hit)
    assert not scheduler.done
    scheduler.begin_step(6)
    scheduler.end_step(6)
    assert scheduler.done  # the last window ended: nothing follows
    scheduler.close()
    assert backend.calls == [
        ("prepare",), ("start", 1), ("step", 2), ("stop", 1, 2),
        ("prepare",), ("start", 3), ("stop", 3, 3),
        ("prepare",), ("start", 6), ("stop", 6, 6),
        ("close",),
    ]  # fmt: skip


def recording(made: dict):
    return lambda label: RecordingBackend(made, label)


def meta(run: Path) -> dict:
    return json.loads(next((run / "plugins" / "tb_perf").glob("*.meta.json")).read_text())


PIPELINE = {
    "roles": ["dit", "vae"],
    "captures": [
        {"trigger": "step", "windows": [{"start": 2, "stop": 4}, {"start": 7, "stop": 8}]},
        # two micro-batches a step: micro-batches 10, 11 are step 5's
        {"trigger": "micro_batch", "windows": [{"start": 10, "stop": 12}]},
        # three denoising iterations a step: hits 27-28 are in step 9
        {"trigger": "point", "name": "denoise", "windows": [{"start": 27, "stop": 29}]},
        # one hit each: a window is open from its first hit's start to its last hit's end
        {"trigger": "point", "name": "vae", "windows": [{"start": 0, "stop": 1}], "ranks": [1]},
        {"trigger": "point", "name": "text", "windows": [{"start": 1, "stop": 2}],
         "roles": ["vae"]},
    ],
}  # fmt: skip


def train(capture, timer, steps=range(10)) -> None:
    """A real loop: a small model, two micro-batches and three denoising iterations a step."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in steps:
        timer.set_step(step)
        for _ in range(2):
            with capture.region("micro_batch"):
                loss = model(torch.randn(4, 16)).square().mean()
                loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        with torch.no_grad():
            latent = torch.randn(2, 16)
            for _ in range(3):
                capture.begin("denoise")
                latent = latent - 0.1 * model[0](latent)
                capture.end("denoise")
            with capture.region("text"):
                model(latent)
            with capture.region("vae"):
                model(latent)


def test_exactly_the_configured_windows_fire_in_a_real_loop(tmp_path):
    made: dict = {}
    timer = MyTimer(tmp_path / "run", gpu=False)
    capture = create_capture(PIPELINE, timer=timer, role="dit", backend=recording(made))
    train(capture, timer)
    capture.close()
    timer.close()
    # rank 0, role dit: the 'vae' point (rank 1) and 'text' point (role vae) are not set up
    assert sorted(made) == ["micro_batch", "point-denoise", "step"]
    assert made["step"].calls == [
        ("prepare",), ("start", 2), ("step", 3), ("stop", 2, 3),
        ("prepare",), ("start", 7), ("stop", 7, 7),
        ("close",),
    ]  # fmt: skip
    # point windows stop at the end of their last hit, not at the next hit's start
    assert made["micro_batch"].calls == [
        ("prepare",), ("start", 10), ("step", 11), ("stop", 10, 11), ("close",)
    ]  # fmt: skip
    assert made["point-denoise"].windows() == [(27, 28)]
    assert capture.region("vae") is _NULL_RANGE  # a name no capture uses here costs a lookup

    info = meta(tmp_path / "run")["capture"]
    assert info["enabled"] and info["role"] == "dit" and info["rank"] == 0
    assert info["backend_status"] == "custom"
    assert info["config"]["captures"][4]["roles"] == ["vae"]
    fired = [(w["name"], w["first"], w["last"]) for w in info["windows"]]
    assert fired == [
        ("step", 2, 3),
        ("micro_batch", 10, 11),
        ("step", 7, 7),
        ("denoise", 27, 28),
    ]
    started = meta(tmp_path / "run")["started_unix_ns"]
    for window in info["windows"]:
        assert started <= window["start_unix_ns"] <= window["stop_unix_ns"]


@pytest.mark.parametrize(
    ("rank", "role", "expected"),
    [
        (0, "dit", ["micro_batch", "point-denoise", "step"]),
        (1, "dit", ["micro_batch", "point-denoise", "point-vae", "step"]),
        (1, "vae", ["micro_batch", "point-denoise", "point-text", "point-vae", "step"]),
        (0, None, ["micro_batch", "point-denoise", "step"]),
    ],
)
def test_ranks_and_roles_select_captures(tmp_path, rank, role, expected):
    made: dict = {}
    writer = RunWriter(tmp_path / "run", rank=rank, world_size=2)
    capture = create_capture(PIPELINE, writer=writer, role=role, backend=recording(made))
    for step in range(10):
        capture.set_step(step)
        for name in ("vae", "text"):
            with capture.region(name):
                pass
    capture.close()
    writer.close()
    assert sorted(made) == expected
    for name, window in (("point-vae", (0, 0)), ("point-text", (1, 1))):
        if name in made:
            assert made[name].windows() == [window]


def test_role_comes_from_the_environment(tmp_path, monkeypatch):
    made: dict = {}
    monkeypatch.setenv("TB_PERF_ROLE", "vae")
    capture = create_capture(PIPELINE, rank=0, backend=recording(made))
    assert capture.role == "vae" and "point-text" in made
    capture.close()


def test_nothing_selected_or_disabled_gives_a_no_op(tmp_path, monkeypatch):
    only_rank_3 = {"captures": [{"trigger": "step", "windows": [{"start": 0, "stop": 1}],
                                 "ranks": [3]}]}  # fmt: skip
    writer = RunWriter(tmp_path / "run")
    capture = create_capture(only_rank_3, writer=writer)
    assert not capture.enabled and "rank 0" in capture.reason
    assert meta(tmp_path / "run")["capture"] == {"enabled": False, "reason": capture.reason}
    monkeypatch.setenv("ENABLE_CAPTURE", "0")
    off = create_capture(PIPELINE, writer=writer)
    assert not off.enabled and off.reason == "disabled by ENABLE_CAPTURE=0"
    assert off.region("denoise") is _NULL_RANGE
    off.begin("denoise"), off.end("denoise"), off.set_step(3), off.close()
    assert off.windows == []
    writer.close()


def bad(**changes):
    config = {"captures": [{"trigger": "step", "windows": [{"start": 1, "stop": 3}]}]}
    config.update(changes)
    return config


def capture_with(**fields):
    return bad(captures=[{"trigger": "step", "windows": [{"start": 1, "stop": 3}], **fields}])


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (capture_with(windows=[{"start": 5, "stop": 3}]), r"stop \(3\) must be after start \(5\)"),
        (capture_with(windows=[{"start": 4, "stop": 4}]), r"stop \(4\) must be after start"),
        (capture_with(windows=[{"start": 0, "stop": 4}, {"start": 3, "stop": 6}]), "overlaps"),
        (
            bad(
                captures=[
                    {"trigger": "point", "name": "x", "windows": [{"start": 0, "stop": 4}]},
                    {
                        "trigger": "point",
                        "name": "x",
                        "windows": [{"start": 2, "stop": 3}],
                        "ranks": [0],
                    },
                ]
            ),  # fmt: skip
            r"captures\[0\] and \[1\].*overlap",
        ),
        (capture_with(roles=["dit"]), r"unknown role\(s\) dit.*not declared"),
        (
            bad(
                roles=["vae"],
                captures=[
                    {"trigger": "step", "windows": [{"start": 0, "stop": 1}], "roles": ["dti"]}
                ],
            ),
            r"unknown role\(s\) dti",
        ),  # fmt: skip
        (bad(backnd="cuda_profiler"), r"config: unknown key\(s\) backnd"),
        (capture_with(window=[]), r"captures\[0\]: unknown key\(s\) window"),
        (capture_with(windows=[{"start": 0, "end": 2}]), r"unknown key\(s\) end"),
        (bad(options={"nvtx": True, "record_shapes": True}), r"unknown key\(s\) record_shapes"),
        (bad(options={"nvtx": "yes"}), r"options.nvtx: unexpected value"),
        (capture_with(trigger="epoch"), r"trigger: unknown value 'epoch'"),
        (bad(backend="nsight"), r"backend: unknown value 'nsight'"),
        (capture_with(windows=[{"start": -2, "stop": 3}]), r"start: must be >= 0, not -2"),
        (capture_with(warmup=-1), r"warmup: must be >= 0"),
        (capture_with(ranks=[-1]), r"ranks: must be >= 0"),
        (capture_with(windows=[{"start": 1.5, "stop": 3}]), r"expected an integer"),
        (bad(captures=[{"trigger": "point", "windows": [{"start": 0, "stop": 1}]}]), "needs a"),
        (capture_with(name="x"), "only 'point' triggers take a name"),
        (bad(captures=[]), "non-empty list"),
        (capture_with(windows=[]), "non-empty list"),
    ],
)
def test_misconfiguration_is_a_clear_error_at_load_time(config, message):
    with pytest.raises(CaptureConfigError, match=message):
        load_capture_config(config)


def test_a_role_the_config_does_not_declare_is_refused(tmp_path):
    with pytest.raises(CaptureConfigError, match=r"role 'text' .* not one of .*\['dit', 'vae'\]"):
        create_capture(PIPELINE, rank=0, role="text", enabled=False)


def test_config_files_json_and_toml_load_alike():
    configs = [load_capture_config(FIXTURES / f"pipeline.{ext}") for ext in ("json", "toml")]
    configs.append(load_capture_config(str(FIXTURES / "pipeline.json")))
    expected = configs[0].to_dict()
    assert expected["captures"][1] == {
        "trigger": "point", "name": "denoise", "windows": [{"start": 3, "stop": 5}],
        "warmup": 0, "ranks": None, "roles": ["dit"],
    }  # fmt: skip
    assert expected["options"] == {"nvtx": True} and expected["roles"] == ["dit", "vae"]
    assert all(config.to_dict() == expected for config in configs)


def test_yaml_config_loads_like_json():
    pytest.importorskip("yaml", reason="PyYAML not installed: YAML configs are optional")
    yaml_config = load_capture_config(FIXTURES / "pipeline.yaml")
    assert yaml_config.to_dict() == load_capture_config(FIXTURES / "pipeline.json").to_dict()


def test_bad_files_are_clear_errors(tmp_path, monkeypatch):
    (tmp_path / "c.ini").write_text("[x]")
    with pytest.raises(CaptureConfigError, match="unknown config format '.ini'"):
        load_capture_config(tmp_path / "c.ini")
    (tmp_path / "c.json").write_text("{not json")
    with pytest.raises(CaptureConfigError, match="c.json: not valid JSON"):
        load_capture_config(tmp_path / "c.json")
    (tmp_path / "c.toml").write_text("captures = [")
    with pytest.raises(CaptureConfigError, match="c.toml: not valid TOML"):
        load_capture_config(tmp_path / "c.toml")
    with pytest.raises(CaptureConfigError, match="cannot read"):
        load_capture_config(tmp_path / "missing.json")
    monkeypatch.setitem(sys.modules, "yaml", None)  # as if PyYAML were not installed
    with pytest.raises(CaptureConfigError, match=r"needs PyYAML \(pip install pyyaml\)"):
        load_capture_config(FIXTURES / "pipeline.yaml")


class FakeCudaProfiler:
    """Stands in for torch.cuda.profiler.start/stop (cudaProfilerStart/Stop) on a CPU build."""

    def __init__(self):
        self.calls: list[str] = []

    def start(self):
        self.calls.append("cudaProfilerStart")

    def stop(self):
        self.calls.append("cudaProfilerStop")


def test_forward_hook_form_with_the_cuda_profiler_backend(tmp_path, monkeypatch):
    fake = FakeCudaProfiler()
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda.profiler, "start", fake.start)
    monkeypatch.setattr(torch.cuda.profiler, "stop", fake.stop)
    model = torch.nn.Linear(8, 8)
    calls_seen = []
    model.register_forward_hook(lambda m, a, o: calls_seen.append(list(fake.calls)))
    writer = RunWriter(tmp_path / "run")
    with capture_forward(model, start_iter=2, stop_iter=4, rank_only=0, writer=writer) as capture:
        assert capture.backend_status == "on"
        for _ in range(6):
            model(torch.randn(2, 8))
    assert len(model._forward_pre_hooks) == 0 and len(model._forward_hooks) == 1  # ours removed
    # started as call 2 began, stopped as call 3 ended: calls 2 and 3 ran inside the range
    assert (
        calls_seen
        == [[], [], ["cudaProfilerStart"], ["cudaProfilerStart"]]
        + [["cudaProfilerStart", "cudaProfilerStop"]] * 2
    )
    windows = meta(tmp_path / "run")["capture"]["windows"]
    assert [(w["name"], w["first"], w["last"]) for w in windows] == [("forward", 2, 3)]

    other = capture_forward(model, 0, 1, rank_only=1, writer=writer)  # not this rank
    assert not other.enabled and len(model._forward_pre_hooks) == 0
    writer.close()


def test_cuda_backend_falls_back_cleanly_without_cuda(tmp_path, caplog):
    assert not torch.cuda.is_available()  # this machine: a CPU build
    timer = MyTimer(tmp_path / "run", gpu=False)
    config = {"captures": [{"trigger": "step", "windows": [{"start": 1, "stop": 3}]}]}
    with caplog.at_level(logging.WARNING, logger="collectors._capture"):
        capture = create_capture(config, timer=timer)
        train(capture, timer, range(5))
        capture.close()
    timer.close()
    warnings = [r for r in caplog.records if "not recorded here" in r.getMessage()]
    assert len(warnings) == 1  # said once
    info = meta(tmp_path / "run")["capture"]
    assert info["backend_status"].startswith("off (") and "is_available" in info["backend_status"]
    assert [(w["first"], w["last"]) for w in info["windows"]] == [(1, 2)]


def test_cuda_backend_wraps_each_window_in_an_nvtx_range():
    fake = FakeCudaProfiler()

    class Labeler:
        enabled = True

        def start(self, name):
            fake.calls.append(f"push {name}")
            return name

        def stop(self, token):
            fake.calls.append(f"pop {token}")

    backend = CudaProfilerBackend("denoise", api=fake, status="on", labeler=Labeler())
    backend.start(3)
    backend.stop(3, 4)
    backend.cancel()  # nothing open: nothing to do
    assert fake.calls == [
        "cudaProfilerStart", "push tb_perf denoise 3", "pop tb_perf denoise 3", "cudaProfilerStop"
    ]  # fmt: skip


def test_torch_profiler_backend_from_the_config_writes_readable_traces(tmp_path):
    read_trace = pytest.importorskip("tb_perf_plugin.ingest.kineto").read_trace
    timer = MyTimer(tmp_path / "run", gpu=False)
    config = {
        "backend": "torch_profiler",
        "options": {"record_shapes": True},
        "captures": [
            {"trigger": "step", "windows": [{"start": 1, "stop": 2}]},
            {"trigger": "point", "name": "denoise", "windows": [{"start": 13, "stop": 14}]},
        ],
    }
    capture = create_capture(config, timer=timer)
    train(capture, timer, range(6))
    capture.close()
    timer.close()
    data = tmp_path / "run" / "plugins" / "tb_perf"
    names = sorted(p.name.split(".", 4)[4] for p in data.glob("*.pt.trace.json.gz"))
    assert names == ["point-denoise.13-13.pt.trace.json.gz", "steps1-1.pt.trace.json.gz"]
    point_trace = read_trace(str(next(data.glob("*.point-denoise.13-13.pt.trace.json.gz"))))
    tb_perf = point_trace.meta.tb_perf
    assert tb_perf["window"] == {"label": "point-denoise", "first": 13, "last": 13}
    assert tb_perf["capture"] == {"trigger": "point", "name": "denoise"}
    assert "first_step" not in tb_perf  # hit numbers are not steps
    assert "point-denoise#13" in point_trace.names and "aten::linear" in point_trace.names
    info = meta(tmp_path / "run")["capture"]
    assert sorted(t["file"].split(".", 4)[4] for t in info["traces"]) == names


def test_overlapping_windows_of_two_triggers_stop_the_later_one_with_a_warning(tmp_path, caplog):
    made: dict = {}
    config = {
        "captures": [
            {"trigger": "step", "windows": [{"start": 1, "stop": 3}]},
            {"trigger": "micro_batch", "windows": [{"start": 3, "stop": 4}]},  # in step 1
        ]
    }
    timer = MyTimer(tmp_path / "run", gpu=False)
    capture = create_capture(config, timer=timer, backend=recording(made))
    with caplog.at_level(logging.WARNING, logger="collectors._schedule"):
        train(capture, timer, range(5))
    capture.close()
    timer.close()
    assert made["step"].windows() == [(1, 2)]
    assert made["micro_batch"].windows() == []
    refusals = [str(r.exc_info[1]) for r in caplog.records if r.exc_info]
    assert refusals == [
        "capture 'micro_batch' would open a window while 'step' has one open: windows of "
        "different triggers must not overlap in time"
    ]
