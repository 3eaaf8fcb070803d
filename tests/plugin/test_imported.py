"""Files from other tools in runs: sniffing, the event CSV, discovery, run tables, the
`tb-perf ingest FILE... --run RUN` copy and the routes over a run that holds only such files."""

import cProfile
import csv
import gzip
import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

import numpy as np
import pytest

from tb_perf_plugin.cli import main
from tb_perf_plugin.discovery import discover_runs
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.executor import InlineExecutor
from tb_perf_plugin.ingest.cache import TraceCache, cache_key
from tb_perf_plugin.ingest.events_csv import read_events_csv
from tb_perf_plugin.ingest.readers import FileKind, read_timeline_file, sniff, sniff_bytes
from tb_perf_plugin.ingest.tables import Kind
from tb_perf_plugin.pipeline.analyze import step_breakdowns
from tb_perf_plugin.pipeline.read import read_run
from tests.conftest import write_training_run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SAMPLE_TRACE = (
    Path(__file__).resolve().parents[2]
    / "sample_runs/ddp_traced/plugins/tb_perf/rank0.vm.31213.steps7-11.pt.trace.json.gz"
)
NSYS = "nsys_sqlite/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
PROF = "cprofile/AugustEhl__MLOps_Amazon_review_project/train.prof"
KINETO = "traces/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/simple_add"
TRACE = {"traceEvents": [{"ph": "X", "name": "aten::add", "cat": "cpu_op", "ts": 1, "dur": 2}]}


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, newline="")
    else:
        path.write_bytes(data)
    return path


def _cprofile_dump(path: Path) -> Path:
    profile = cProfile.Profile()
    profile.enable()
    sorted(range(1000), key=lambda v: -v)
    profile.disable()
    path.parent.mkdir(parents=True, exist_ok=True)
    profile.dump_stats(str(path))
    return path


def _read(run, max_file_bytes: int = 64 << 20, cache_dir=None):
    return read_run(
        run,
        run.signature(),
        max_file_bytes=max_file_bytes,
        executor=InlineExecutor(),
        cache_dir=None if cache_dir is None else str(cache_dir),
        on_progress=lambda n: None,
    )


# --- sniffing --------------------------------------------------------------------------------


def test_real_files_sniff_as_their_kind(shared_data):
    assert sniff(str(shared_data / NSYS)).kind is FileKind.NSYS
    assert sniff(str(shared_data / PROF)).kind is FileKind.PSTATS
    for trace in (shared_data / KINETO).iterdir():
        assert sniff(str(trace)).kind is FileKind.KINETO, trace.name
    for ncu in (FIXTURES / "ncu").glob("*.csv"):  # real ncu output, one after program output
        assert sniff(str(ncu)).kind is FileKind.NCU, ncu.name
    assert sniff(str(FIXTURES / "imported" / "events_example.csv")).kind is FileKind.EVENTS


def test_content_decides_not_the_suffix(tmp_path):
    plain = _write(tmp_path / "w.pt.trace.json.gz", json.dumps(TRACE))  # "gzip" that is plain
    assert sniff(str(plain)).kind is FileKind.KINETO
    assert read_timeline_file(str(plain), 1 << 20).names == ["aten::add"]
    as_prof = _write(tmp_path / "trace.prof", gzip.compress(json.dumps(TRACE).encode()))
    assert sniff(str(as_prof)).kind is FileKind.KINETO
    dump = _cprofile_dump(tmp_path / "profile.out")  # no telling suffix at all
    assert sniff(str(dump)).kind is FileKind.PSTATS
    text = sniff(str(_write(tmp_path / "report.sqlite", "kernel,time\nk,1\n")))
    assert text.kind is None and "named .sqlite" in text.reason
    prof_text = sniff(str(_write(tmp_path / "fit-profiler.prof", "Profiler Report\n")))
    assert prof_text.kind is None and "no marshal data" in prof_text.reason


@pytest.mark.parametrize(
    ("head", "reason"),
    [
        (b"", "empty file"),
        (gzip.compress(b"hello, world", mtime=0), "gzip file that holds no JSON trace"),
        (b'{"name": "not a trace"}', "without `traceEvents`"),
        (b"[1, 2, 3]", "not of trace events"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "binary data"),
        (b"kernel,grid\nk,1\n", "no `name` column"),
        (b"name,start_us\nk,1\n", "exactly one of `dur_<unit>` and `end_<unit>`"),
        (b"name,start_fortnights,dur_us\n", "no start column"),
        (b"\xef\xbb\xbf \r\n\t\x0b\x0c\r\n  ", "no content"),  # a BOM, blank lines only
        (gzip.compress(b"\n\n   \n", mtime=0), "no content"),
    ],
)
def test_unknown_content_has_a_reason(head, reason):
    found = sniff_bytes(head, "file.bin")
    assert found.kind is None and reason in found.reason


def test_a_trace_is_told_without_splitting_its_head_into_lines(monkeypatch):
    """Discovery sniffs every unnamed JSON file's 64 KiB head: a trace is claimed from the
    head's text, and the line split only the CSV sniffers need is never made (it cost ~0.7 ms
    per trace, most of a cold discovery of 2,000 such files: benchmarks/discovery.py)."""
    from tb_perf_plugin.ingest import files

    split_lines = files.Head.__dict__["lines"].func
    splits = []
    monkeypatch.setattr(
        files.Head, "lines", property(lambda head: splits.append(1) or split_lines(head))
    )
    trace = SAMPLE_TRACE.read_bytes()
    assert sniff_bytes(trace[: files.HEAD_BYTES], SAMPLE_TRACE.name).kind is FileKind.KINETO
    assert splits == []
    assert sniff_bytes(b"name,start_us,dur_us\nk,1,2\n", "e.csv").kind is FileKind.EVENTS
    assert splits  # ... the CSV sniffers still see the lines


# --- the event CSV ---------------------------------------------------------------------------


def test_documented_example_reads_as_documented():
    tables = read_events_csv(str(FIXTURES / "imported" / "events_example.csv"), 1 << 20)
    names = [tables.names[i] for i in tables.slices["name"].tolist()]
    assert names[:4] == ["data", "ProfilerStep#0", "forward", "gemm_kernel<float, 128>"]
    kernel = names.index("gemm_kernel<float, 128>")
    assert int(tables.slices["start"][kernel]) == 1_700_000_000_001_800_500
    assert int(tables.slices["dur"][kernel]) == 900_125
    assert tables.slices["kind"][kernel] == Kind.KERNEL
    # device events: lanes are (device, stream); host events on their named thread
    assert (int(tables.slices["pid"][kernel]), int(tables.slices["tid"][kernel])) == (0, 7)
    assert tables.meta.thread_names == {"0/1": "main"}
    step0 = names.index("ProfilerStep#0")
    assert int(tables.slices["start"][step0]) == 1_700_000_000_000_000_000
    assert int(tables.slices["dur"][step0]) == 8_000_000  # to the end of step 0's backward


def test_units_bom_crlf_quotes_and_exact_times(tmp_path):
    text = (
        "\ufeffName , START_S,end_ms,category,pid,tid,extra\r\n"
        '"a, ""quoted""\nname",1700000000.123456789,1700000000123.5,cpu_op,7,3,x\r\n'
        "b,1.5e0,1500.000001,,,,\r\n"
        "\r\n"
    )
    tables = read_events_csv(str(_write(tmp_path / "e.csv", text.encode())), 1 << 20)
    by_name = {tables.names[n]: i for i, n in enumerate(tables.slices["name"].tolist())}
    first = by_name['a, "quoted"\nname']
    assert int(tables.slices["start"][first]) == 1_700_000_000_123_456_789
    assert int(tables.slices["dur"][first]) == 1_700_000_000_123_500_000 - 1_700_000_000_123_456_789
    assert (tables.slices["pid"][first], tables.slices["tid"][first]) == (7, 3)
    assert tables.slices["kind"][first] == Kind.CPU_OP
    second = by_name["b"]
    assert (int(tables.slices["start"][second]), int(tables.slices["dur"][second])) == (
        1_500_000_000,
        1,  # 1500.000001 ms - 1.5 s = 1 ns, exactly
    )
    assert tables.slices["kind"][second] == Kind.USER_ANNOTATION  # the default category
    assert tables.meta.problems == ["columns not read: extra (docs/IMPORT.md)"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty file"),
        ("name,start_ns,dur_ns\n", "a header and no events"),
        ("name,begin,dur_ns\nx,1,2\n", "line 1: not an event CSV header: no start column"),
        ("name,start_ns,dur_ns,start_us\nx,1,2,3\n", "two start_<unit> columns"),
        ("name,start_ns,dur_ns,Name\n", "repeats column(s) name"),
        ("name,start_ns,dur_ns\nx,1,2\ny,3\n", "line 3: 2 fields, the header has 3"),
        ("name,start_ns,dur_ns\nx,soon,2\n", "line 2: start 'soon' is not a number"),
        ("name,start_ns,dur_ns\nx,nan,2\n", "line 2: start 'nan' is not a finite number"),
        ("name,start_ns,dur_ns\nx,1,-2\n", "line 2: negative duration"),
        ("name,start_ns,end_ns\nx,5,4\n", "line 2: the end is before the start"),
        ("name,start_ns,dur_ns\n ,1,2\n", "line 2: empty name"),
        ("name,start_ns,dur_ns,category\nx,1,2,gpu\n", "line 2: unknown category 'gpu'"),
        ("name,start_ns,dur_ns,tid\nx,1,2,main\n", "line 2: tid 'main' is not an integer"),
        ('name,start_ns,dur_ns\n"x,1,2\n', "not a readable CSV"),
    ],
)
def test_bad_event_csvs_say_where_and_why(tmp_path, content, message):
    path = _write(tmp_path / "bad.csv", content)
    with pytest.raises(Unreadable) as raised:
        read_events_csv(str(path), 1 << 20)
    assert message in raised.value.message and raised.value.message.startswith("bad.csv")


def test_event_csv_limits(tmp_path):
    latin = _write(tmp_path / "latin.csv", "name,start_ns,dur_ns\ncaf\xe9,1,2\n".encode("latin-1"))
    with pytest.raises(Unreadable, match="not UTF-8 text"):
        read_events_csv(str(latin), 1 << 20)
    big = _write(tmp_path / "big.csv", "name,start_ns,dur_ns\n" + "x,1,2\n" * 100)
    with pytest.raises(Unreadable, match="over the 100 B limit"):
        read_events_csv(str(big), 100)


def _torch_loop_csv(path: Path, steps: int = 3) -> list[tuple[str, int, int, int]]:
    """Time a real torch training loop with the wall clock and write it as an event CSV
    (start in µs with exact fractional digits, duration in ns), as a user's own timer would."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    rows = []
    for step in range(steps):
        x = torch.randn(32, 64)
        t0 = time.time_ns()
        loss = model(x).pow(2).mean()
        t1 = time.time_ns()
        loss.backward()
        t2 = time.time_ns()
        optimizer.step()
        optimizer.zero_grad()
        t3 = time.time_ns()
        rows += [("forward", t0, t1 - t0, step), ("backward", t1, t2 - t1, step),
                 ("optimizer", t2, t3 - t2, step)]  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "start_us", "dur_ns", "thread", "step"])
        for name, start, dur, step in rows:
            writer.writerow([name, f"{start // 1000}.{start % 1000:03d}", dur, "train", step])
    return rows


def test_torch_loop_events_become_a_ranks_trace_with_steps(tmp_path):
    imported = tmp_path / "logs" / "job" / "plugins" / "tb_perf" / "imported"
    rows = _torch_loop_csv(imported / "rank2.loop.csv")
    run = discover_runs(str(tmp_path / "logs"))["job"]
    assert run.ranks == [2] and run.sources == ["events"]
    tables = _read(run)
    assert tables.ranks == [2] and tables.warnings == []
    (trace,) = tables.traces
    assert (trace.rank, trace.rank_source, trace.kind) == (2, "file name", FileKind.EVENTS)
    names = [trace.tables.names[i] for i in trace.tables.slices["name"].tolist()]
    timed = [(n, s, d) for n, s, d in zip(names, trace.tables.slices["start"].tolist(),
                                          trace.tables.slices["dur"].tolist(), strict=True)
             if not n.startswith("ProfilerStep#")]  # fmt: skip
    assert timed == [(name, start, dur) for name, start, dur, _ in rows]
    steps = step_breakdowns(tables)
    assert [b.step for b in steps] == [0, 1, 2]
    for b in steps:
        mine = [r for r in rows if r[3] == b.step]
        assert b.start_ns == mine[0][1]
        assert b.duration_ns == mine[-1][1] + mine[-1][2] - mine[0][1]


# --- discovery -------------------------------------------------------------------------------


def test_discovery_of_imported_and_dropped_files(tmp_path, shared_data):
    logdir = tmp_path / "logs"
    write_training_run(logdir / "exp", world_size=1, steps=1)
    folder = logdir / "exp" / "plugins" / "tb_perf" / "imported"
    _write(folder / "worker1.trace.json", json.dumps(TRACE))  # any name: content decides
    _write(folder / "notes.txt", "what we tried\n")
    _write(folder / ".rank0.x.prof.123.tmp", b"")  # a copy under way
    _cprofile_dump(logdir / "exp" / "rank3.fit.prof")
    _write(logdir / "exp" / "kernels.sqlite", "not a database")
    _write(logdir / "exp" / "spans.csv", "name,start_ns,dur_ns\nx,1,2\n")  # CSV: imported/ only
    outside = _write(tmp_path / "elsewhere.sqlite", (shared_data / NSYS).read_bytes())
    os.symlink(outside, logdir / "exp" / "linked.sqlite")  # a link out of the logdir
    run = discover_runs(str(logdir), follow_links=False)["exp"]
    found = {os.path.relpath(f.path, run.path): (f.kind, f.reason) for f in run.imported}
    assert found == {
        "kernels.sqlite": (None, found["kernels.sqlite"][1]),
        "plugins/tb_perf/imported/notes.txt": (None, "text of no known kind"),
        "plugins/tb_perf/imported/worker1.trace.json": (FileKind.KINETO, "JSON trace"),
        "rank3.fit.prof": (FileKind.PSTATS, "marshal'd cProfile statistics"),
    }
    assert run.traces == []  # a trace in imported/ is an imported file, not a second copy
    assert run.ranks == [0, 1, 3]
    assert run.sources == ["tfevents", "timer", "trace", "pstats"]
    tables = _read(run)
    assert sorted(w for w in tables.warnings if "not imported" in w) == [
        "kernels.sqlite: not imported: " + found["kernels.sqlite"][1] + " (docs/IMPORT.md)",
        "plugins/tb_perf/imported/notes.txt: not imported: text of no known kind (docs/IMPORT.md)",
    ]
    assert tables.ranks == [0, 1, 3]
    assert tables.python_profile_files[["rank", "file"]].values.tolist() == [[3, "rank3.fit.prof"]]
    assert tables.python_profiles["function"].str.contains("sorted").any()


def test_a_dropped_file_changes_the_signature(tmp_path):
    write_training_run(tmp_path / "r", world_size=1, steps=1)
    before = discover_runs(str(tmp_path))["r"].signature()
    _cprofile_dump(tmp_path / "r" / "late.pstats")
    after = discover_runs(str(tmp_path))["r"]
    assert after.signature() != before
    assert [f.kind for f in after.imported] == [FileKind.PSTATS]


# --- run tables: the real Nsight Systems export and Nsight Compute CSV ------------------------


def test_nsys_export_is_a_ranks_trace_with_kernels(tmp_path, shared_data):
    folder = tmp_path / "logs" / "gpu" / "plugins" / "tb_perf" / "imported"
    _write(folder / "rank1.saxpy.sqlite", (shared_data / NSYS).read_bytes())
    shutil.copy(FIXTURES / "ncu" / "paddle_metrics_raw.csv", folder / "rank1.ncu.csv")
    run = discover_runs(str(tmp_path / "logs"))["gpu"]
    assert run.sources == ["ncu", "nsys"]
    tables = _read(run, cache_dir=tmp_path / "cache")
    (trace,) = tables.traces
    assert (trace.rank, trace.kind, trace.rank_source) == (1, FileKind.NSYS, "file name")
    kinds = np.asarray(trace.tables.slices["kind"])
    assert (kinds == Kind.KERNEL).sum() > 0 and (kinds == Kind.RUNTIME).sum() > 0
    assert tables.ranks == [1]
    assert len(tables.kernel_metrics) == 2
    assert set(tables.kernel_metrics["file"]) == {"plugins/tb_perf/imported/rank1.ncu.csv"}
    assert (tables.kernel_metrics["rank"] == 1).all()
    warm = _read(run, cache_dir=tmp_path / "cache")  # from the cache, memory-mapped
    assert warm.traces[0].tables.mapping is not None
    assert np.array_equal(warm.traces[0].tables.slices["start"], trace.tables.slices["start"])


def test_an_unreadable_import_is_a_warning_naming_the_file(tmp_path):
    write_training_run(tmp_path / "r", world_size=1, steps=1)
    folder = tmp_path / "r" / "plugins" / "tb_perf" / "imported"
    _write(folder / "broken.csv", "name,start_ns,dur_ns\nx,1,2,3\n")
    with sqlite3.connect(folder / "other.sqlite") as db:  # SQLite, but no Nsight Systems export
        db.execute("CREATE TABLE notes (text TEXT)")
    db.close()
    old = time.time() - 60
    for path in folder.iterdir():
        os.utime(path, (old, old))  # not "still being written"
    tables = _read(discover_runs(str(tmp_path))["r"])
    assert any(w.startswith("broken.csv line 2: 4 fields") for w in tables.warnings)
    assert any(w.startswith("other.sqlite") for w in tables.warnings), tables.warnings
    assert tables.traces == [] and len(tables.spans)  # the collector files still read


def test_a_run_of_only_unreadable_imports_is_unreadable(tmp_path):
    folder = tmp_path / "r" / "plugins" / "tb_perf" / "imported"
    _write(folder / "broken.csv", "name,start_ns,dur_ns\nx,1,-2\n")
    os.utime(folder / "broken.csv", (1, 1))
    with pytest.raises(Unreadable, match="negative duration"):
        _read(discover_runs(str(tmp_path))["r"])


# --- tb-perf ingest FILE... --run RUN ------------------------------------------------------------


def test_ingest_copies_verbatim_and_never_replaces(tmp_path, shared_data, capsys):
    nsys = shared_data / NSYS
    events = FIXTURES / "imported" / "events_example.csv"
    run = tmp_path / "logs" / "new_run"  # created by the command
    assert main(["ingest", str(nsys), str(events), "--run", str(run)]) == 0
    out = capsys.readouterr().out
    assert "added" in out and "nsys" in out and "timeline and kernels" in out
    folder = run / "plugins" / "tb_perf" / "imported"
    assert (folder / nsys.name).read_bytes() == nsys.read_bytes()
    assert (folder / events.name).read_bytes() == events.read_bytes()
    assert sorted(p.name for p in folder.iterdir()) == sorted([nsys.name, events.name])
    # the same file again: nothing new; another file of the same name: a new name
    assert main(["ingest", str(events), "--run", str(run)]) == 0
    assert "already there, unchanged" in capsys.readouterr().out
    other = _write(tmp_path / "src" / events.name, "name,start_ns,dur_ns\nx,1,2\n")
    assert main(["ingest", str(other), "--run", str(run)]) == 0
    assert (folder / events.name).read_bytes() == events.read_bytes()
    assert (folder / "events_example-2.csv").read_bytes() == other.read_bytes()
    runs = discover_runs(str(tmp_path / "logs"))
    assert [f.kind for f in runs["new_run"].imported] == [
        FileKind.EVENTS, FileKind.EVENTS, FileKind.NSYS,
    ]  # fmt: skip
    # the parsed export was stored in the cache under the copy's name; `ingest RUN` finds it
    assert (TraceCache().traces_dir / cache_key(str(folder / nsys.name), FileKind.NSYS)).is_dir()
    assert main(["ingest", str(run)]) == 0
    assert "3 trace file(s)" in capsys.readouterr().out


def test_ingest_a_profile_by_run_name(tmp_path, capsys):
    write_training_run(tmp_path / "exp" / "a", world_size=1, steps=1)
    dump = _cprofile_dump(tmp_path / "rank0.prof")
    assert main(["ingest", str(dump), "--run", "exp/a", "--logdir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "pstats" in out and "python_hotspot" in out
    copy = tmp_path / "exp" / "a" / "plugins" / "tb_perf" / "imported" / "rank0.prof"
    assert copy.read_bytes() == dump.read_bytes()
    assert main(["analyze", "exp/a", "--logdir", str(tmp_path)]) == 0
    assert "imported files:\n* plugins/tb_perf/imported/rank0.prof: pstats, rank 0" in (
        capsys.readouterr().out
    )


def test_ingest_refusals(tmp_path, capsys):
    run = tmp_path / "run"
    good = _write(tmp_path / "good.csv", "name,start_ns,dur_ns\nx,1,2\n")
    notes = _write(tmp_path / "notes.prof", "Profiler Report\n")
    assert main(["ingest", str(good), str(notes), "--run", str(run)]) == 3
    assert "notes.prof: not importable: named like a cProfile file" in capsys.readouterr().err
    assert not run.exists()  # all or nothing: the good file was not copied either
    bad = _write(tmp_path / "bad.csv", "name,start_ns,dur_ns\nx,1,-2\n")
    assert main(["ingest", str(bad), "--run", str(run)]) == 3
    assert "line 2: negative duration" in capsys.readouterr().err
    assert main(["ingest", str(tmp_path / "missing.sqlite"), "--run", str(run)]) == 2
    assert main(["ingest", str(good), "--run", "../up", "--logdir", str(tmp_path)]) == 2
    assert "not a run name" in capsys.readouterr().err
    assert main(["ingest", str(good), str(good)]) == 2  # two RUNs without --run
    assert not run.exists()


# --- routes over a run that holds only imported files ----------------------------------------


def test_routes_answer_for_a_run_of_one_nsys_export(tmp_path, shared_data, make_client):
    _write(tmp_path / "gpu" / "plugins" / "tb_perf" / "imported" / "saxpy.sqlite",
           (shared_data / NSYS).read_bytes())  # fmt: skip
    client = make_client(tmp_path)
    (run,) = client.json("runs")
    assert (run["name"], run["ranks"], run["sources"]) == ("gpu", [0], ["nsys"])
    meta = client.json("timeline/meta", run="gpu")
    assert meta["events"] > 0 and [r["rank"] for r in meta["ranks"]] == [0]
    assert meta["ranks"][0]["lanes"]
    kernels = client.json("kernels", run="gpu")
    assert kernels["total_rows"] > 0 and kernels["rows"][0]["calls"] > 0
    tiles = client.json("timeline/tiles", run="gpu", start=0, end=meta["end"] + 1, width_px=800)
    assert sum(sum(lane["boxes"]["count"]) for lane in tiles["lanes"]) == meta["events"]
