"""read_python_profile: the totals equal pstats' own on a real cProfile of a PyTorch training and
on real Lightning AdvancedProfiler `.prof` files; hostile input (not marshal, the wrong types,
over the size limit, a declared-huge object, too slow) is refused with a clear Unreadable and
never crashes or unmarshals in this process."""

import cProfile
import marshal
import pstats
import sys
from pathlib import Path

import pandas as pd
import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.python_profile import (
    COLUMNS,
    function_label,
    is_python_profile_name,
    read_python_profile,
)

SHARED_PROFILE = "cprofile/AugustEhl__MLOps_Amazon_review_project/train.prof"
LIMIT = 100 << 20


def _assert_matches_pstats(path: Path) -> None:
    profile = read_python_profile(str(path), LIMIT)
    stats = pstats.Stats(str(path))
    assert profile.total_ns == round(stats.total_tt * 1e9)
    assert profile.calls == stats.total_calls
    assert profile.primitive_calls == stats.prim_calls
    table = profile.functions
    assert list(table.columns) == list(COLUMNS)
    assert len(table) == len(stats.stats)
    by_function = {key: value[:4] for key, value in stats.stats.items()}
    for row in table.itertuples(index=False):
        cc, nc, tt, ct = by_function[(row.filename, row.line, row.name)]
        assert (row.primitive_calls, row.calls) == (cc, nc)
        assert (row.self_ns, row.cumulative_ns) == (round(tt * 1e9), round(ct * 1e9))
        assert row.function == pstats.func_std_string((row.filename, row.line, row.name))


def test_shared_training_profile_matches_pstats(shared_data):
    path = shared_data / SHARED_PROFILE
    if not path.is_file():
        pytest.skip(f"{SHARED_PROFILE} is not in the shared data")
    _assert_matches_pstats(path)
    # the service's default limit (4 GB) bounds the file, not what the child allocates
    assert read_python_profile(str(path), 4096 * 10**6).calls == pstats.Stats(str(path)).total_calls
    profile = read_python_profile(str(path), LIMIT)
    top = profile.functions.sort_values("self_ns").iloc[-1]
    assert top["function"] == "{method 'run_backward' of 'torch._C._EngineBase' objects}"


@pytest.fixture(scope="module")
def lightning_profiles(tmp_path_factory) -> list[Path]:
    """The `.prof` files of a real Trainer.fit under AdvancedProfiler(dump_stats=True)."""
    L = pytest.importorskip("lightning", reason="Lightning profiles need lightning (test extra)")
    torch = pytest.importorskip("torch", reason="Lightning runs need torch")
    from lightning.pytorch.profilers import AdvancedProfiler

    class Tiny(L.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.net = torch.nn.Linear(4, 1)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.mse_loss(self.net(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.01)

    out = tmp_path_factory.mktemp("lightning")
    data = torch.utils.data.TensorDataset(torch.randn(16, 4), torch.randn(16, 1))
    trainer = L.Trainer(
        max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False,
        enable_progress_bar=False, enable_model_summary=False,
        profiler=AdvancedProfiler(dirpath=out, filename="perf", dump_stats=True),
    )  # fmt: skip
    trainer.fit(Tiny(), torch.utils.data.DataLoader(data, batch_size=4))
    files = sorted(out.glob("*.prof"))
    assert files, f"AdvancedProfiler wrote no .prof file into {out}: {list(out.iterdir())}"
    return files


def test_lightning_advanced_profiler_files_match_pstats(lightning_profiles):
    names = [p.name for p in lightning_profiles]
    assert any("training_step" in n for n in names), names
    assert all(n.startswith("fit-perf-") and is_python_profile_name(n) for n in names), names
    for path in lightning_profiles:
        _assert_matches_pstats(path)


def test_profile_of_a_torch_loop_names_its_own_function(tmp_path):
    torch = pytest.importorskip("torch", reason="a real training loop needs torch")
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(x):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(20):
        train_step(torch.randn(8, 16))
    profiler.disable()
    path = tmp_path / "loop.prof"
    profiler.dump_stats(path)
    _assert_matches_pstats(path)
    table = read_python_profile(str(path), LIMIT).functions
    (row,) = table[table["name"] == "train_step"].itertuples()
    assert row.calls == 20 and row.filename == __file__
    assert row.cumulative_ns >= row.self_ns > 0


def test_function_label_is_pstats_own():
    for key in [("~", 0, "<built-in method time.sleep>"), ("~", 0, "len"), ("a.py", 3, "f")]:
        assert function_label(*key) == pstats.func_std_string(key)


def _write(tmp_path: Path, data: bytes, name: str = "bad.prof") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not marshal data"),
        (b"\x00garbage that is not marshal", "not marshal data"),
        (b'{"json": 1}', "not marshal data"),
        (marshal.dumps([1, 2, 3]), "the top level is a list"),
        (marshal.dumps({}), "no profiled functions"),
        (marshal.dumps({"f": (1, 1, 0.1, 0.1, {})}), "not (file, line, name)"),
        (marshal.dumps({("a.py", "1", "f"): (1, 1, 0.1, 0.1, {})}), "line of a function"),
        (marshal.dumps({("a.py", 1, "f"): (1, 1, 0.1, 0.1)}), "not (cc, nc, tt, ct, callers)"),
        (marshal.dumps({("a.py", 1, "f"): (1, -1, 0.1, 0.1, {})}), "not a count"),
        (marshal.dumps({("a.py", 1, "f"): (1, 1, float("nan"), 0.1, {})}), "not a time"),
        (marshal.dumps({("a.py", 1, "f"): (1, 1, 0.1, 1e300, {})}), "not a time"),
        (marshal.dumps({("a.py", 1, "f"): (1, 1, 0.1, 0.1, [])}), "callers are a list"),
        (marshal.dumps({("a.py", 1, "f"): (1, 1, 0.1, 0.1, {("b", 2, "g"): "x"})}), "not a count"),
        (marshal.dumps({("a.py", 1, "f"): (True, 1, 0.1, 0.1, {})}), "not a count"),
    ],
)
def test_wrong_input_is_unreadable_with_the_reason(tmp_path, data, message):
    with pytest.raises(Unreadable, match="not a cProfile/pstats file") as caught:
        read_python_profile(_write(tmp_path, data), LIMIT)
    assert message in caught.value.message and "bad.prof" in caught.value.message


def test_pure_python_profile_module_files_are_read(tmp_path):
    """`profile` (not cProfile) maps callers to counts, not tuples; pstats reads both."""
    import profile

    path = tmp_path / "pure.prof"
    profile.runctx("sorted(range(1000), key=str)", {}, {}, str(path))
    _assert_matches_pstats(path)


def test_over_the_size_limit_is_refused_before_parsing(tmp_path):
    path = _write(tmp_path, b"\x00" * 4096)
    with pytest.raises(Unreadable, match=r"over the .* limit for one Python profile"):
        read_python_profile(path, 1024)


def test_declared_huge_object_is_refused_before_anything_is_allocated(tmp_path):
    # a marshal list header claiming 2**31 - 1 items: refused by its shape at its first byte
    # (the memory limit for valid-shaped profiles: tests/plugin/test_pstats_hostile.py)
    huge = b"[" + (2**31 - 1).to_bytes(4, "little") + marshal.dumps(1)
    with pytest.raises(
        Unreadable, match=r"bad.prof: not a cProfile/pstats file .*the top level is a list"
    ):
        read_python_profile(_write(tmp_path, huge), LIMIT, memory_bytes=256 << 20)


@pytest.mark.skipif(sys.platform == "win32", reason="no resource limits on Windows")
def test_slow_parse_is_stopped_by_the_timeout(tmp_path, shared_data):
    path = shared_data / SHARED_PROFILE
    if not path.is_file():
        pytest.skip(f"{SHARED_PROFILE} is not in the shared data")
    with pytest.raises(Unreadable, match=r"train.prof: parsing took longer than 0.01 s; stopped"):
        read_python_profile(str(path), LIMIT, timeout_s=0.01)


def test_missing_file_is_unreadable(tmp_path):
    with pytest.raises(Unreadable, match="missing.prof: cannot be read"):
        read_python_profile(str(tmp_path / "missing.prof"), LIMIT)


def test_function_table_sums_profiles_and_keeps_shares(shared_data):
    from tb_perf_plugin.analysis.python_profile import function_table

    path = shared_data / SHARED_PROFILE
    if not path.is_file():
        pytest.skip(f"{SHARED_PROFILE} is not in the shared data")
    profile = read_python_profile(str(path), LIMIT)
    one = function_table(profile.functions.assign(rank=0, file="a"), profile.total_ns)
    two = function_table(
        pd.concat([profile.functions.assign(rank=r, file="a") for r in (0, 1)]),
        2 * profile.total_ns,
    )
    assert len(one) == len(two) == len(profile.functions)
    assert (two["calls"] == 2 * one["calls"]).all() and (two["profiles"] == 2).all()
    assert (two["self_share"] - one["self_share"]).abs().max() < 1e-12
    assert one["self_share"].sum() == pytest.approx(1.0, abs=1e-6)
    top = one.iloc[0]
    stats = pstats.Stats(str(path))
    cc, nc, tt, ct, _ = stats.stats[(top["filename"], top["line"], top["name"])]
    assert top["self_per_call_ns"] == pytest.approx(round(tt * 1e9) / nc)
    assert top["cumulative_per_call_ns"] == pytest.approx(round(ct * 1e9) / cc)
    assert bool(top["builtin"]) and not one[one["filename"] != "~"]["builtin"].any()


def test_python_hotspot_is_quiet_on_a_profile_of_torch_c_code(shared_data):
    from tb_perf_plugin.analysis.findings import DEFAULT_THRESHOLDS, AnalysisInputs
    from tb_perf_plugin.analysis.python_profile import python_hotspot

    path = shared_data / SHARED_PROFILE
    if not path.is_file():
        pytest.skip(f"{SHARED_PROFILE} is not in the shared data")
    rows = read_python_profile(str(path), LIMIT).functions.assign(rank=0, file="train.prof")
    inputs = AnalysisInputs(python_profiles=rows)
    # backward and linear (C builtins) take most of it; the top Python function has 0.1 %
    assert python_hotspot(inputs, DEFAULT_THRESHOLDS) == []
    assert python_hotspot(AnalysisInputs(), DEFAULT_THRESHOLDS) == []
