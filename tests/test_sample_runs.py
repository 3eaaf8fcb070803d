"""The committed demo logdir: small, in the current format, and showing its slow phase."""

import json
from pathlib import Path

from tb_perf_plugin.service import RunService

SAMPLE_RUNS = Path(__file__).resolve().parents[1] / "sample_runs"
MAX_BYTES = 5 * 1024 * 1024


def test_size_under_5_mb():
    total = sum(p.stat().st_size for p in SAMPLE_RUNS.rglob("*") if p.is_file())
    assert total < MAX_BYTES


def test_every_collector_file_is_format_v1():
    files = list(SAMPLE_RUNS.rglob("plugins/tb_perf/*"))
    assert files
    for path in files:
        first = path.read_text().splitlines()[0]
        doc = json.loads(first) if path.suffix == ".jsonl" else json.loads(path.read_text())
        assert doc["schema"].startswith("tb_perf.") and doc["version"] == 1, path


def test_slow_data_run_shows_data_loading_dominating():
    service = RunService(str(SAMPLE_RUNS))
    summary = service.summary("ddp_slow_data", wait_s=None)
    assert [r["rank"] for r in summary["ranks"]] == [0, 1]
    assert all(r["status"] == "finished" and r["steps"] == 40 for r in summary["ranks"])
    top = summary["spans"][0]
    assert top["name"] == "data" and top["pct_of_step"] > 50
    assert summary["warnings"] == []
