"""The collectors' clock, its skew hook, and clock sync recovering an injected offset and drift
between two real processes (over gloo and over TCP)."""

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from collectors import ClockSkew, MyTimer, RunWriter
from collectors._clock import Clock
from collectors._clock_sync import ClockSample, _fit
from tests.helpers import timer_records

WORKER = Path(__file__).with_name("clock_sync_worker.py")
OFFSET_NS, DRIFT_PPM = 250_000_000, 40.0


def test_skew_hook_parses_and_refuses_garbage():
    assert ClockSkew.from_env({}) is None
    assert ClockSkew.from_env({"TB_PERF_CLOCK_SKEW": "250000000:40"}) == ClockSkew(250_000_000, 40)
    assert ClockSkew.from_env({"TB_PERF_CLOCK_SKEW": "-5"}) == ClockSkew(-5, 0.0)
    with pytest.raises(ValueError, match="not '<offset_ns>:<drift_ppm>'"):
        ClockSkew.from_env({"TB_PERF_CLOCK_SKEW": "fast"})


def test_skewed_clock_is_ahead_by_the_offset_and_runs_fast_by_the_drift():
    clock = Clock(ClockSkew(OFFSET_NS, DRIFT_PPM))
    assert abs(clock.unix_ns - time.time_ns() - OFFSET_NS) < 50_000_000
    one_second_later = clock.to_unix_ns(clock.monotonic_ns + 1_000_000_000)
    assert one_second_later - clock.unix_ns == 1_000_000_000 + 40_000
    plain = Clock()
    assert plain.to_unix_ns(plain.monotonic_ns + 7) == plain.unix_ns + 7


def test_skew_reaches_metadata_and_timer_timestamps(tmp_path, monkeypatch):
    monkeypatch.setenv("TB_PERF_CLOCK_SKEW", f"{OFFSET_NS}:{DRIFT_PPM}")
    before = time.time_ns()
    with MyTimer(tmp_path, gpu=False) as timer:
        with timer.range("work"):
            pass
        timer.step()
    after = time.time_ns()
    meta = json.loads(next((tmp_path / "plugins" / "tb_perf").glob("*.meta.json")).read_text())
    assert meta["clock"]["injected_skew"] == {"offset_ns": OFFSET_NS, "drift_ppm": DRIFT_PPM}
    (span,) = [r for r in timer_records(tmp_path) if r["k"] == "span"]
    for stamp in (meta["clock"]["unix_ns"], span["t0"], span["t1"], meta["closed_unix_ns"]):
        assert before + OFFSET_NS <= stamp <= after + OFFSET_NS + 1_000_000


def test_fit_bounds_the_error_at_every_sample():
    # rank 0 minus this rank: -1000 ns at t=0 growing by 50 ns/s, samples with ±rtt/2 errors
    truth = [(0, -1000), (10**9, -950), (2 * 10**9, -900)]
    samples = [
        ClockSample(t, off + err, rtt)
        for (t, off), err, rtt in zip(truth, (40, -30, 5), (80, 60, 10), strict=True)
    ]
    record = _fit(samples, "tcp", 8)
    assert record["measured_at_unix_ns"] == 2 * 10**9 and record["rounds"] == 8
    for t, off in truth:
        mapped = record["offset_ns"] + record["drift_ns_per_s"] * (t - 2 * 10**9) / 1e9
        assert abs(mapped - off) <= record["uncertainty_ns"]
    single = _fit(samples[:1], "tcp", 8)
    assert single["drift_ns_per_s"] is None
    assert single["offset_ns"] == -960 and single["uncertainty_ns"] >= 40


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_job(run_dir: Path, method: str, syncs: int, gap_s: float, traced_steps: int = 0) -> None:
    """Two ranks as torchrun would start them; rank 1's clock is skewed by the hook."""
    port = _free_port()
    method = method if method == "dist" else f"tcp:{_free_port()}"
    procs = []
    for rank in (0, 1):
        env = dict(
            os.environ,
            RANK=str(rank),
            WORLD_SIZE="2",
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(port),
            OMP_NUM_THREADS="1",
        )
        env.pop("TB_PERF_CLOCK_SKEW", None)
        if rank == 1:
            env["TB_PERF_CLOCK_SKEW"] = f"{OFFSET_NS}:{DRIFT_PPM}"
        cmd = [sys.executable, str(WORKER), str(run_dir), method, str(syncs), str(gap_s)]
        cmd += [str(traced_steps)] if traced_steps else []
        procs.append(subprocess.Popen(cmd, env=env))
    assert [p.wait(timeout=60) for p in procs] == [0, 0]


def metadata(run_dir: Path, rank: int) -> dict:
    (path,) = (run_dir / "plugins" / "tb_perf").glob(f"rank{rank}.*.meta.json")
    return json.loads(path.read_text())


def check_recovered(run_dir: Path, method: str, syncs: int) -> dict:
    """Rank 1's mapping onto rank 0's clock must be within the reported uncertainty of the
    truth, which the two anchors and the injected skew give exactly (both processes read the
    same system-wide perf_counter)."""
    meta0, meta1 = metadata(run_dir, 0), metadata(run_dir, 1)
    reference, sync = meta0["clock_sync"], meta1["clock_sync"]
    assert reference["method"] == sync["method"] == method
    assert (reference["offset_ns"], reference["uncertainty_ns"], reference["samples"]) == (0, 0, [])
    assert sync["reference_rank"] == 0 and len(sync["samples"]) == syncs
    assert set(sync) == {
        "method",
        "reference_rank",
        "offset_ns",
        "uncertainty_ns",
        "drift_ns_per_s",
        "measured_at_unix_ns",
        "rounds",
        "samples",
    }
    anchor0, anchor1 = meta0["clock"], meta1["clock"]
    rate = 1 + anchor1["injected_skew"]["drift_ppm"] * 1e-6

    def true_offset(t: float) -> float:  # rank 0's clock minus rank 1's at rank-1 time t
        monotonic = anchor1["monotonic_ns"] + (t - anchor1["unix_ns"]) / rate
        return anchor0["unix_ns"] + monotonic - anchor0["monotonic_ns"] - t

    def mapped_offset(t: float) -> float:
        drift = sync["drift_ns_per_s"] or 0.0
        return sync["offset_ns"] + drift * (t - sync["measured_at_unix_ns"]) / 1e9

    ats = [s["at_unix_ns"] for s in sync["samples"]]
    # the error is linear in t, so checking the ends of the measured span covers all of it
    for t in (ats[0], (ats[0] + ats[-1]) / 2, ats[-1]):
        assert abs(mapped_offset(t) - true_offset(t)) <= sync["uncertainty_ns"], (t, sync)
    assert abs(sync["offset_ns"] + OFFSET_NS) < 1_000_000  # about -250 ms, as injected
    if syncs > 1:
        true_drift = (1 / rate - 1) * 1e9  # -40 ppm = about -40000 ns/s
        drift_bound = 2 * sync["uncertainty_ns"] / ((ats[-1] - ats[0]) / 1e9)
        assert abs(sync["drift_ns_per_s"] - true_drift) <= drift_bound, (sync, drift_bound)
    return sync


def test_clock_sync_over_gloo_recovers_injected_offset_and_drift(tmp_path):
    pytest.importorskip("torch")
    run_job(tmp_path, "dist", syncs=2, gap_s=1.0)
    sync = check_recovered(tmp_path, "torch.distributed", syncs=2)
    assert sync["rounds"] == 32 and sync["drift_ns_per_s"] is not None
    # the timer's spans of the skewed rank are on the same (skewed) clock as its metadata
    spans = [r for r in timer_records(tmp_path, rank=1) if r.get("name") == "sync_clocks"]
    assert len(spans) == 2 and all(s["t0"] <= sync["measured_at_unix_ns"] for s in spans[:1])


def test_clock_sync_over_tcp_recovers_injected_offset_and_drift(tmp_path):
    run_job(tmp_path, "tcp", syncs=3, gap_s=1.0)
    sync = check_recovered(tmp_path, "tcp", syncs=3)
    assert sync["uncertainty_ns"] < 1_000_000


def test_sync_clocks_without_a_process_group_warns_what_to_do_and_records_nothing(tmp_path):
    pytest.importorskip("torch")
    from collectors import sync_clocks

    with RunWriter(tmp_path, rank=1, world_size=2) as writer:
        with pytest.warns(RuntimeWarning, match="not initialized; call sync_clocks after"):
            assert sync_clocks(writer) is None
        assert writer.metadata["clock_sync"] is None


def test_sync_clocks_in_a_single_process_is_its_own_reference(tmp_path, monkeypatch):
    from collectors import sync_clocks

    for variable in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK"):
        monkeypatch.delenv(variable, raising=False)
    with RunWriter(tmp_path) as writer:
        record = sync_clocks(writer)
        assert writer.world_size == 1
        assert writer.metadata["clock_sync"] == record
    assert (record["method"], record["offset_ns"], record["uncertainty_ns"]) == (
        "single process",
        0,
        0,
    )


def test_sync_clocks_on_a_disabled_writer_does_nothing(tmp_path):
    from collectors import sync_clocks

    assert sync_clocks(RunWriter(tmp_path / "run", rank=1, world_size=2, enabled=False)) is None
    assert not (tmp_path / "run").exists()
