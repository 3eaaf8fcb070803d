"""`tb-perf` manners: a reader that closes the pipe early (`| head -1`) ends the command quietly,
and findings' evidence reads in human units in text and md (json keeps the raw numbers)."""

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tb_perf_plugin.cli import main
from tb_perf_plugin.text import evidence_text

REPO = Path(__file__).resolve().parents[2]
SAMPLE_RUNS = REPO / "sample_runs"
SLOW, FAST = str(SAMPLE_RUNS / "ddp_slow_data"), str(SAMPLE_RUNS / "ddp_fast_data")
MANY_RANKS = str(REPO / "tests" / "fixtures" / "many_ranks" / "many_ranks")
TB_PERF = [sys.executable, "-m", "tb_perf_plugin.cli"]


def _into_closed_pipe(argv: list[str]) -> subprocess.CompletedProcess:
    """Run argv with stdout a pipe whose reader is gone before the first write, so that every
    write to stdout meets EPIPE (the worst case of `| head -1`, whatever the output's size)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(argv, stdout=write, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)


def test_the_closed_pipe_breaks_a_plain_python_print():
    """The harness really takes the EPIPE path: without the CLI's care, Python complains."""
    done = _into_closed_pipe([sys.executable, "-c", "print('x')"])
    assert done.returncode != 0 and "BrokenPipeError" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", SLOW],
        ["analyze", FAST],
        ["analyze", SLOW, "--format", "md"],
        ["analyze", FAST, "--format", "json"],
        ["diff", SLOW, FAST],
        ["diff", FAST, SLOW, "--format", "md"],
        ["diff", SLOW, FAST, "--format", "json"],
    ],
    ids=lambda args: " ".join(Path(a).name for a in args),
)
def test_a_closed_pipe_ends_quietly_with_exit_0(args):
    done = _into_closed_pipe([*TB_PERF, *args, "--executor", "inline"])
    assert (done.returncode, done.stderr) == (0, "")


def test_a_diff_gate_still_fails_into_a_closed_pipe():
    """The report is lost, the verdict is not: the slow candidate still exits 1."""
    gate = ["diff", FAST, SLOW, "--fail-on-regression", "0", "--executor", "inline"]
    done = _into_closed_pipe([*TB_PERF, *gate])
    assert done.returncode == 1
    assert done.stderr.startswith("tb-perf: regression: interval lower bound")
    assert "Error" not in done.stderr


@pytest.mark.parametrize("run", ["ddp_slow_data", "ddp_fast_data"])
def test_ingest_into_a_closed_pipe_ends_quietly(run):
    done = _into_closed_pipe([*TB_PERF, "ingest", str(SAMPLE_RUNS / run), "--executor", "inline"])
    assert done.returncode == 0
    assert all(line.startswith(("ingesting ", "warning: ")) for line in done.stderr.splitlines())


def test_import_into_a_closed_pipe_copies_every_file(tmp_path):
    """The pipe closes at the first line printed; both files are still imported."""
    events = REPO / "tests" / "fixtures" / "imported" / "events_example.csv"
    second = tmp_path / "rank1.events.csv"
    second.write_bytes(events.read_bytes())
    run = tmp_path / "run"
    done = _into_closed_pipe([*TB_PERF, "ingest", str(events), str(second), "--run", str(run)])
    assert (done.returncode, done.stderr) == (0, "")
    imported = run / "plugins" / "tb_perf" / "imported"
    assert sorted(p.name for p in imported.iterdir()) == ["events_example.csv", "rank1.events.csv"]


def test_head_reading_one_line_of_a_long_report():
    """`tb-perf analyze RUN --format json | head -1` on 256 ranks: the report is longer than
    the pipe holds plus the line read, so the writer is still writing when the reader closes."""
    argv = [*TB_PERF, "analyze", MANY_RANKS, "--format", "json", "--executor", "inline"]
    whole = subprocess.run(argv, capture_output=True, timeout=300)
    assert whole.returncode == 0
    head = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    assert head.stdout.readline() == b"{\n"  # unbuffered: reads these 2 bytes and no more
    assert len(whole.stdout) > fcntl.fcntl(head.stdout, fcntl.F_GETPIPE_SZ) + 2
    head.stdout.close()
    assert head.wait(timeout=300) == 0
    assert head.stderr.read() == b""
    head.stderr.close()


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (17022500, "ns", "17.02 ms"),
        (1_500_000_000, "ns", "1.50 s"),
        (1200, "ns", "1.20 µs"),
        (800, "ns", "800 ns"),
        (17022500, "ns/step", "17.02 ms/step"),  # any A/B: A's text per B
        (58791377, "bytes", "56.07 MiB"),
        (3 * 1024**3, "bytes", "3.00 GiB"),
        (512, "bytes", "512 B"),
        (1109271, "bytes/step", "1.06 MiB/step"),
        (0.6291, "fraction", "62.9%"),
        (0.0, "fraction", "0.0%"),
        (87.5, "%", "87.5%"),
        (20.0832, "x", "20.08×"),
        (14778368.0, "FLOP", "14.78 MFLOP"),
        (13, "step", "13"),
        (1234567, "step", "1234567"),
        # plain: counts, text, units without a format, values that are not numbers
        (6, "", "6"),
        (26.5591, "", "26.5591"),
        ("MyTimer data-loading spans", "", "MyTimer data-loading spans"),
        (252, "ranks", "252 ranks"),
        (0.0024, "TFLOP/s", "0.0024 TFLOP/s"),
        ("7.2e-27", "", "7.2e-27"),
        (None, "ns", "None ns"),
        (True, "fraction", "True fraction"),
    ],
)
def test_evidence_text_by_unit(value, unit, text):
    assert evidence_text({"value": value, "unit": unit}) == text


def _evidence_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("  evidence: ")]


@pytest.mark.parametrize("run", ["ddp_slow_data", "ddp_compiled", "ddp_leak"])
def test_text_and_md_evidence_in_human_units_json_raw(run, capsys):
    path = str(SAMPLE_RUNS / run)
    assert main(["analyze", path, "--format", "json"]) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    raw = {
        (name, item["value"])
        for f in findings
        for name, item in f["evidence"].items()
        if item["unit"].partition("/")[0] in ("ns", "bytes")
    }
    assert raw and all(isinstance(value, int) for _, value in raw)
    for fmt in ("text", "md"):
        assert main(["analyze", path, "--format", fmt]) == 0
        lines = _evidence_lines(capsys.readouterr().out)
        assert len(lines) == len(findings)
        for line, finding in zip(lines, findings, strict=True):
            shown = ", ".join(f"{n} {evidence_text(i)}" for n, i in finding["evidence"].items())
            assert line == f"  evidence: {shown}"
        evidence = "\n".join(lines)
        assert not [(n, v) for n, v in raw if f"{n} {v}" in evidence]


def test_slow_data_evidence_reads_as_the_docs_show(capsys):
    assert main(["analyze", SLOW, "--rank", "0"]) == 0
    lines = _evidence_lines(capsys.readouterr().out)
    assert lines == [
        "  evidence: median_share 62.9%, median_time 17.02 ms, source MyTimer data-loading spans, "
        "ranks_affected 2 ranks"
    ]
