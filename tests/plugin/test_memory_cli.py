"""`tb-perf analyze` on test_memory_routes' run: memory findings among the findings, one memory
line per rank (text, md), the memory route's per-rank numbers without series (json)."""

from __future__ import annotations

import json

from tb_perf_plugin.cli import main
from tb_perf_plugin.text import _memory_text
from tests.plugin.test_memory_routes import memory_logdir  # noqa: F401 (fixture)


def test_analyze_reports_memory(memory_logdir, make_client, capsys):  # noqa: F811
    run = memory_logdir / "mem"
    assert main(["analyze", str(run)]) == 0
    text = capsys.readouterr().out
    assert "* [warning] memory_leak: Rank 0's allocated CUDA memory grows by 2.00 MiB" in text
    assert "* [warning] fragmentation: Rank 1's CUDA allocator reserves 7.00 GiB (70%)" in text
    memory = text[text.index("\nmemory:\n") + 1 :].split("\n\n")[0].splitlines()[1:]
    assert memory == [
        "* rank 0 (cuda:0), peak allocated 4.17 GiB at step 39 = 26% of 16.00 GiB, "
        "RSS 3.00 GiB -> 3.00 GiB, allocated trend 2.00 MiB/step (memory_leak), "
        "reserved above peak 412.00 MiB",
        "* rank 1 (cuda:0), peak allocated 3.00 GiB at step 0, RSS 3.00 GiB -> 3.00 GiB, "
        "allocated trend 0 B/step, reserved above peak 7.00 GiB",
    ]
    assert main(["analyze", str(run), "--rank", "1", "--format", "md"]) == 0
    markdown = capsys.readouterr().out
    assert "## Memory\n- rank 1 (cuda:0)" in markdown and "rank 0 (cuda:0)" not in markdown
    assert main(["analyze", str(run), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    route = make_client(memory_logdir).json("memory", run="mem")["ranks"]
    for got, ranks in zip(report["memory"], route, strict=True):
        assert got["trend"] == ranks["trend"] and got["max_peak"] == ranks["max_peak"]
        assert got["rss_first"] == ranks["rss"][0] and got["rss_last"] == ranks["rss"][-1]
        assert "allocated" not in got and "steps" not in got
    assert {"memory_leak:rank0", "fragmentation:rank1"} <= {f["key"] for f in report["findings"]}


def test_analyze_without_memory_records(training_logdir, capsys):
    assert main(["analyze", str(training_logdir / "exp" / "a")]) == 0
    assert "memory:" not in capsys.readouterr().out
    assert main(["analyze", str(training_logdir / "exp" / "a"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["memory"] == []


def test_memory_of_many_ranks_lists_the_highest_lowest_and_named():
    """Past 16 ranks one line per rank would bury the report: the highest and lowest peaks
    (the last RSS where there is no CUDA) and the ranks a finding names."""
    memory = [
        {"rank": r, "device": "cpu", "source": "MemorySampler", "max_peak": None,
         "rss_first": 10**8, "rss_last": 10**8 + r, "trend": None, "fragmentation": None}
        for r in range(40)
    ]  # fmt: skip
    leak = {"kind": "memory_leak", "ranks": [20]}
    collapsed = {"kind": "variability", "ranks": list(range(30))}
    text = _memory_text(memory, [leak, collapsed], "text")
    shown = [int(line.split()[2]) for line in text.splitlines() if line.startswith("* rank")]
    assert shown == [0, 1, 2, 20, 35, 36, 37, 38, 39]
    assert text.splitlines()[-1].startswith("(9 of 40 ranks: the 5 highest and 3 lowest")
    few = _memory_text(memory[:16], [], "text")
    assert len(few.splitlines()) == 17 and "ranks:" not in few
