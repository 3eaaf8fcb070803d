import json
import subprocess
import sys
import threading
import types
from pathlib import Path

import pytest

from collectors import MyTimer, NvtxLabeler, _nvtx, create_labeler
from tests.helpers import timer_records

REPO = Path(__file__).resolve().parents[2]


class FakeBackend:
    """Records what a labeler asks of NVTX; handles are ("h", name), tokens 1, 2, ..."""

    name = "fake"

    def __init__(self):
        self.calls = []
        self.registered = []
        self._next_token = 0

    def register(self, name):
        self.registered.append(name)
        return ("h", name)

    def push(self, handle):
        self.calls.append(("push", handle[1]))

    def pop(self):
        self.calls.append(("pop",))

    def start(self, handle):
        self._next_token += 1
        self.calls.append(("start", handle[1], self._next_token))
        return self._next_token

    def end(self, token):
        self.calls.append(("end", token))

    def mark(self, handle):
        self.calls.append(("mark", handle[1]))


@pytest.fixture
def fake(monkeypatch):
    backend = FakeBackend()
    monkeypatch.setattr(_nvtx, "BACKENDS", [lambda domain: backend])
    monkeypatch.delenv("ENABLE_NVTX", raising=False)
    return backend


def test_timer_nvtx_mirror_emits_balanced_ranges_with_span_names(tmp_path, fake):
    timer = MyTimer(tmp_path, gpu=False, mirrors=("nvtx",))
    (labeler,) = timer.mirrors
    assert isinstance(labeler, NvtxLabeler) and labeler.backend == "fake"
    for _ in range(2):
        with timer.range("forward"):
            timer.start("attention")
            timer.stop("attention")
        timer.start("backward")
        timer.stop("backward")
        timer.step()
    timer.close()
    one_step = [
        ("push", "forward"),
        ("push", "attention"),
        ("pop",),
        ("pop",),
        ("push", "backward"),
        ("pop",),
    ]
    assert fake.calls == one_step * 2
    assert sorted(fake.registered) == ["attention", "backward", "forward"]  # once per name
    (meta_path,) = (tmp_path / "plugins" / "tb_perf").glob("rank0.*.meta.json")
    meta = json.loads(meta_path.read_text())
    assert meta["timer"]["mirrors"] == ["NvtxLabeler"]
    assert {r["name"] for r in timer_records(tmp_path) if r["k"] == "span"} == {
        "forward",
        "attention",
        "backward",
    }


def test_mirror_added_mid_span_ignores_the_unmatched_pop(tmp_path, fake):
    timer = MyTimer(tmp_path, gpu=False)
    timer.start("outer")
    labeler = create_labeler()
    timer.add_mirror(labeler)
    with timer.range("inner"):
        pass
    timer.stop("outer")  # the labeler never saw "outer" open
    timer.close()
    assert fake.calls == [("push", "inner"), ("pop",)]


def test_start_stop_tokens_interleave(fake):
    labeler = create_labeler()
    a = labeler.start("h2d copy")
    b = labeler.start("compute")
    labeler.stop(a)
    c = labeler.start("d2h copy")
    labeler.stop(b)
    labeler.stop(c)
    assert fake.calls == [
        ("start", "h2d copy", 1),
        ("start", "compute", 2),
        ("end", 1),
        ("start", "d2h copy", 3),
        ("end", 2),
        ("end", 3),
    ]


def test_labels_range_decorator_and_mark(fake):
    labeler = create_labeler()
    fwd = labeler.register_label("forward")
    assert labeler.register_label("forward") is fwd
    assert fake.registered == ["forward"]

    @labeler.range()
    def train_step(x):
        labeler.mark("inside")
        return x + 1

    @labeler.range(fwd)
    def forward():
        pass

    assert train_step(1) == 2
    forward()
    with labeler.range(fwd):
        labeler.push("nested")
        labeler.pop()
    labeler.pop()  # nothing pushed on this thread: ignored
    labeler.mark(fwd)
    qualname = "test_labels_range_decorator_and_mark.<locals>.train_step"
    assert fake.calls == [
        ("push", qualname),
        ("mark", "inside"),
        ("pop",),
        ("push", "forward"),
        ("pop",),
        ("push", "forward"),
        ("push", "nested"),
        ("pop",),
        ("pop",),
        ("mark", "forward"),
    ]
    assert fake.registered == ["forward", qualname, "inside", "nested"]
    with pytest.raises(TypeError, match="needs a name"):
        with labeler.range():
            pass


def test_explicit_backend_seam_skips_probing(monkeypatch):
    monkeypatch.setattr(_nvtx, "BACKENDS", [])  # probing would find nothing
    backend = FakeBackend()
    labeler = create_labeler(True, "mydomain", backend=backend)
    assert labeler.enabled and labeler.backend == "fake" and labeler.domain == "mydomain"
    labeler.mark("m")
    assert backend.calls == [("mark", "m")]
    assert create_labeler(True).backend == "off (no NVTX backend)"


@pytest.mark.parametrize(
    ("enabled", "env", "reason"),
    [
        (False, None, "off (disabled)"),
        (None, "0", "off (disabled by ENABLE_NVTX=0)"),
        (None, "False", "off (disabled by ENABLE_NVTX=False)"),
    ],
)
def test_disabled_labeler_does_nothing(monkeypatch, fake, enabled, env, reason):
    if env is not None:
        monkeypatch.setenv("ENABLE_NVTX", env)
    labeler = create_labeler(enabled)
    assert isinstance(labeler, NvtxLabeler)
    assert not labeler.enabled and labeler.backend == reason
    label = labeler.register_label("x")
    assert label.name == "x"
    assert labeler.start(label) is None
    labeler.stop(None)
    labeler.push("x")
    labeler.pop()
    labeler.pop()
    labeler.mark("x")
    with labeler.range("x"):
        pass

    def f():
        return 5

    assert labeler.range("x")(f) is f
    assert fake.calls == [] and fake.registered == []


def test_disabled_imports_neither_nvtx_nor_torch(tmp_path):
    code = (
        f"import sys; sys.path.insert(0, {str(REPO)!r})\n"
        "import collectors\n"
        "assert 'torch' not in sys.modules and 'nvtx' not in sys.modules\n"
        "labeler = collectors.create_labeler()\n"
        "with labeler.range('a'): labeler.stop(labeler.start('b'))\n"
        f"t = collectors.MyTimer({str(tmp_path)!r}, gpu=False, mirrors=('nvtx',))\n"
        "t.start('a'); t.stop('a'); t.step(); t.close()\n"
        "print(labeler.backend, 'torch' in sys.modules, 'nvtx' in sys.modules)"
    )
    env = {"ENABLE_NVTX": "off", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["off", "(disabled", "by", "ENABLE_NVTX=off)", "False", "False"]


def test_torch_cuda_nvtx_never_crashes_training(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.delenv("ENABLE_NVTX", raising=False)
    monkeypatch.setattr(_nvtx, "BACKENDS", [_nvtx._probe_torch])
    labeler = create_labeler()
    if labeler.enabled:  # a CUDA build: NVTX calls work even with no GPU or tool attached
        assert labeler.backend == "torch.cuda.nvtx"
    else:  # this CPU build: torch's stub raises, recorded as the reason
        assert labeler.backend.startswith("off (torch.cuda.nvtx: ")
        assert "RuntimeError" in labeler.backend or "AttributeError" in labeler.backend
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    timer = MyTimer(tmp_path, gpu=False, mirrors=(labeler,))
    for _ in range(2):
        with timer.range("forward"):
            loss = model(torch.ones(3, 4)).sum()
        with timer.range("backward"):
            loss.backward()
        opt.step()
        labeler.mark("step done")
        labeler.stop(labeler.start("token range"))
        timer.step()
    timer.close()
    assert len([r for r in timer_records(tmp_path) if r["k"] == "span"]) == 4


def test_nvtx_package_backend_uses_one_domain_and_cached_attributes(monkeypatch):
    calls = []

    class Domain:
        def get_event_attributes(self, message=None):
            calls.append(("attributes", message))
            return ("attrs", message)

        def push_range(self, attributes):
            calls.append(("push", attributes))

        def pop_range(self):
            calls.append(("pop",))

        def start_range(self, attributes):
            calls.append(("start", attributes))
            return 41

        def end_range(self, range_id):
            calls.append(("end", range_id))

        def mark(self, attributes):
            calls.append(("mark", attributes))

    fake_nvtx = types.ModuleType("nvtx")
    fake_nvtx.get_domain = lambda name: calls.append(("domain", name)) or Domain()
    monkeypatch.setitem(sys.modules, "nvtx", fake_nvtx)
    monkeypatch.delenv("ENABLE_NVTX", raising=False)
    labeler = create_labeler(default_domain="train")
    assert labeler.backend == "nvtx"
    with labeler.range("fwd"):
        labeler.mark("fwd")
    labeler.stop(labeler.start("fwd"))
    assert calls == [
        ("domain", "train"),
        ("attributes", "fwd"),
        ("push", ("attrs", "fwd")),
        ("mark", ("attrs", "fwd")),
        ("pop",),
        ("start", ("attrs", "fwd")),
        ("end", 41),
    ]


def test_broken_nvtx_package_falls_back_with_reasons(monkeypatch):
    def broken(name):
        raise OSError("libnvToolsExt missing")

    fake_nvtx = types.ModuleType("nvtx")
    fake_nvtx.get_domain = broken
    monkeypatch.setitem(sys.modules, "nvtx", fake_nvtx)

    def no_torch(domain):
        raise _nvtx.BackendUnavailable("torch.cuda.nvtx: no")

    monkeypatch.setattr(_nvtx, "BACKENDS", [_nvtx._probe_nvtx_package, no_torch])
    labeler = create_labeler(True)
    assert not labeler.enabled
    assert labeler.backend == "off (nvtx: OSError: libnvToolsExt missing; torch.cuda.nvtx: no)"


def test_push_pop_depth_is_per_thread(fake):
    labeler = create_labeler()
    labeler.push("main")

    def other_thread():
        labeler.pop()  # this thread pushed nothing: must not close "main"
        with labeler.range("worker"):
            pass

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    labeler.pop()
    labeler.pop()
    assert fake.calls == [("push", "main"), ("push", "worker"), ("pop",), ("pop",)]


def test_an_nvtx_mirror_that_is_off_keeps_the_timers_fast_path(tmp_path, monkeypatch):
    monkeypatch.setenv("ENABLE_NVTX", "0")
    timer = MyTimer(tmp_path, gpu=False, mirrors=("nvtx",))
    assert timer.mirrors == ()
    assert timer.start == timer._start_cpu  # the bound CPU-only variant, no mirror checks
    timer.close()
