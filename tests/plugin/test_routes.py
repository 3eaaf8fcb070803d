import json
import shutil
import threading
from collections import defaultdict

import numpy as np
import pytest

from tb_perf_plugin.pipeline import read as run_reading
from tests.helpers import timer_file, timer_records


def _expected_spans(run_dir, rank=None):
    """The span table computed independently from the raw records with plain Python."""
    durations, child_time = defaultdict(list), defaultdict(int)
    records = []
    for r in (0, 1) if rank is None else (rank,):
        records += [(r, rec) for rec in timer_records(run_dir, r) if rec["k"] == "span"]
    for r, rec in records:
        child_time[(r, rec["parent"])] += rec["t1"] - rec["t0"]
    self_time = defaultdict(int)
    for r, rec in records:
        durations[rec["name"]].append(rec["t1"] - rec["t0"])
        self_time[rec["name"]] += rec["t1"] - rec["t0"] - child_time[(r, rec["id"])]
    return durations, self_time


def test_runs_lists_nested_run_with_ranks_and_sources(training_logdir, make_client):
    runs = make_client(training_logdir).json("runs")
    assert [r["name"] for r in runs] == ["exp/a"]
    assert runs[0]["ranks"] == [0, 1]
    assert runs[0]["sources"] == ["tfevents", "timer"]
    assert runs[0]["status"] == "finished"
    assert runs[0]["updated_ns"] > 1.6e18


def test_summary_span_rows_equal_the_raw_records(training_logdir, make_client):
    run_dir = training_logdir / "exp" / "a"
    summary = make_client(training_logdir).json("summary", run="exp/a")
    durations, self_time = _expected_spans(run_dir)
    rows = {row["name"]: row for row in summary["spans"]}
    assert set(rows) == {"data", "train", "forward", "backward"}
    steps = [r for rank in (0, 1) for r in timer_records(run_dir, rank) if r["k"] == "step"]
    step_total = sum(s["t1"] - s["t0"] for s in steps)
    for name, row in rows.items():
        values = np.array(durations[name])
        assert row["calls"] == len(values) == 12
        assert row["total_ns"] == values.sum()
        assert row["self_ns"] == self_time[name]
        assert row["mean_ns"] == values.sum() // len(values)
        assert row["p50_ns"] == np.percentile(values, 50, method="inverted_cdf")
        assert row["p95_ns"] == np.percentile(values, 95, method="inverted_cdf")
        assert row["pct_of_step"] == pytest.approx(100 * values.sum() / step_total, abs=1e-3)
        assert row["gpu_total_ns"] is None
    assert rows["train"]["self_ns"] < rows["train"]["total_ns"]  # its children are subtracted
    assert [row["total_ns"] for row in summary["spans"]] == sorted(
        (row["total_ns"] for row in summary["spans"]), reverse=True
    )


def test_summary_steps_per_rank(training_logdir, make_client):
    summary = make_client(training_logdir).json("summary", run="exp/a")
    assert summary["steps"] == {"count": 6, "first": 0, "last": 5}
    for rank_row, series in zip(summary["ranks"], summary["step_series"], strict=True):
        raw = [
            r
            for r in timer_records(training_logdir / "exp/a", rank_row["rank"])
            if r["k"] == "step"
        ]
        times = [r["t1"] - r["t0"] for r in raw]
        assert series == {
            "rank": rank_row["rank"],
            "steps": list(range(6)),
            "time_ns": times,
            "bucket": 1,
        }
        assert rank_row["steps"] == 6
        assert rank_row["step_time_ns"]["max"] == max(times)
        assert rank_row["step_time_ns"]["total"] == sum(times)
        assert rank_row["status"] == "finished" and rank_row["world_size"] == 2


def test_rank_parameter_selects_one_rank(training_logdir, make_client):
    summary = make_client(training_logdir).json("summary", run="exp/a", rank="1")
    durations, _ = _expected_spans(training_logdir / "exp/a", rank=1)
    assert summary["rank"] == 1
    assert [s["rank"] for s in summary["step_series"]] == [1]
    assert len(summary["ranks"]) == 2  # every rank stays listed for the selector
    data = next(row for row in summary["spans"] if row["name"] == "data")
    assert (data["calls"], data["total_ns"]) == (6, sum(durations["data"]))


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({}, 400, "invalid_argument"),
        ({"run": "nope"}, 404, "not_found"),
        ({"run": "exp/a", "rank": "7"}, 400, "invalid_argument"),
        ({"run": "exp/a", "rank": "one"}, 400, "invalid_argument"),
        ({"run": ".."}, 404, "not_found"),
        ({"run": "../outside"}, 404, "not_found"),
        ({"run": "%2e%2e/outside"}, 404, "not_found"),
        ({"run": "exp/../../outside"}, 404, "not_found"),
        ({"run": "/etc"}, 404, "not_found"),
        ({"run": "exp/a/"}, 404, "not_found"),
    ],
)
def test_bad_parameters_get_json_errors_and_nothing_outside_is_read(
    training_logdir, make_client, params, status, code
):
    write_outside = training_logdir.parent / "outside"
    from tests.conftest import write_training_run

    if not write_outside.exists():
        write_training_run(write_outside, world_size=1, steps=1)
    response = make_client(training_logdir).get("summary", **params)
    assert response.status_code == status
    body = response.get_json()
    assert body["error"]["code"] == code
    assert str(training_logdir.parent) not in body["error"]["message"]


def test_static_files_only_those_shipped(training_logdir, make_client):
    client = make_client(training_logdir)
    assert client.get("static/index.js").status_code == 200
    for name in ("../plugin.py", "..%2fplugin.py", "/etc/passwd", "nope.js"):
        response = client.get(f"static/{name}")
        assert response.status_code == 404, name


def test_truncated_last_line_is_ignored_with_a_warning(training_logdir, make_client):
    path = timer_file(training_logdir / "exp/a", rank=1)
    with open(path, "a") as handle:
        handle.write('{"k":"span","id":999,"parent":0,"name":"data","st')
    summary = make_client(training_logdir).json("summary", run="exp/a")
    assert any("truncated" in w and "rank 1" in w for w in summary["warnings"])
    assert next(r for r in summary["spans"] if r["name"] == "data")["calls"] == 12


def test_malformed_and_unknown_records(training_logdir, make_client):
    path = timer_file(training_logdir / "exp/a", rank=0)
    with open(path, "a") as handle:
        handle.write('{"k":"span","id":"not a number"}\n')  # a known kind, wrong fields
        handle.write("not json at all\n")
        handle.write('{"k":"from_the_future","x":1}\n')  # a newer writer's kind: skipped quietly
    summary = make_client(training_logdir).json("summary", run="exp/a")
    assert "rank 0 (" in summary["warnings"][0]
    assert "2 malformed line(s) skipped" in summary["warnings"][0]
    assert len(summary["warnings"]) == 1
    assert next(r for r in summary["spans"] if r["name"] == "data")["calls"] == 12


def _set_version(path, version):
    lines = path.read_text().splitlines(keepends=True)
    lines[0] = json.dumps({"schema": "tb_perf.timer", "version": version}) + "\n"
    path.write_text("".join(lines))


def test_unknown_schema_version(training_logdir, make_client):
    run_dir = training_logdir / "exp/a"
    _set_version(timer_file(run_dir, rank=1), 2)
    client = make_client(training_logdir)
    summary = client.json("summary", run="exp/a")  # rank 0 still readable
    assert any("version 2 is not supported" in w and "rank 1" in w for w in summary["warnings"])
    assert summary["step_series"][0]["rank"] == 0 and len(summary["step_series"]) == 1
    _set_version(timer_file(run_dir, rank=0), 2)
    body = client.json("summary", expect=404, run="exp/a")
    assert body["error"]["code"] == "unreadable"
    assert "upgrade tb-perf" in body["error"]["message"]


def test_run_removed_while_serving(training_logdir, make_client):
    client = make_client(training_logdir)
    client.json("summary", run="exp/a")
    shutil.rmtree(training_logdir / "exp")
    assert client.json("summary", expect=404, run="exp/a")["error"]["code"] == "not_found"
    assert client.json("runs") == []


def test_missing_logdir_is_an_empty_list_and_inactive(tmp_path, make_client):
    client = make_client(tmp_path / "does-not-exist")
    assert client.json("runs") == []
    assert client.plugin.is_active() is False


def test_plugin_metadata(training_logdir, make_client):
    plugin = make_client(training_logdir).plugin
    assert plugin.is_active() is True
    assert plugin.frontend_metadata().tab_name == "PERF"
    assert plugin.frontend_metadata().es_module_path == "/static/index.js"


def test_slow_ingest_answers_202_with_progress_then_200(training_logdir, make_client, monkeypatch):
    release = threading.Event()
    real_reader = run_reading.read_timer_file

    def slow_reader(path, max_bytes, on_progress=None, previous=None):
        tables = real_reader(path, max_bytes, on_progress, previous)
        release.wait(timeout=30)
        return tables

    monkeypatch.setattr(run_reading, "read_timer_file", slow_reader)
    client = make_client(training_logdir)
    client.plugin._store.inline_wait_s = 0.05
    response = client.get("summary", run="exp/a")
    assert response.status_code == 202
    progress = response.get_json()["progress"]
    assert progress["total_bytes"] > 0 and 0 <= progress["fraction"] <= 1
    release.set()
    client.plugin._store.inline_wait_s = 10
    assert client.get("summary", run="exp/a").status_code == 200


def test_file_over_the_size_limit_is_refused_clearly(training_logdir, make_client):
    client = make_client(training_logdir)
    client.plugin._store.max_file_bytes = 100
    body = client.json("summary", expect=404, run="exp/a")
    assert body["error"]["code"] == "unreadable"
    assert (
        "over the 100 B limit for one file (TB_PERF_MAX_FILE_MB raises it)"
        in (body["error"]["message"])
    )
