"""Helpers shared by tests: reading run files the way a test can check them independently."""

from __future__ import annotations

import json
from pathlib import Path


def timer_records(run_dir: Path, rank: int | None = None) -> list[dict]:
    """Every record (not the header) of the timer files in a run, parsed with plain json."""
    records = []
    pattern = "rank*.timer.jsonl" if rank is None else f"rank{rank}.*.timer.jsonl"
    for path in sorted((Path(run_dir) / "plugins" / "tb_perf").glob(pattern)):
        lines = path.read_text().splitlines()
        assert json.loads(lines[0]) == {"schema": "tb_perf.timer", "version": 1}
        records += [json.loads(line) for line in lines[1:]]
    return records


def timer_file(run_dir: Path, rank: int = 0) -> Path:
    (path,) = (Path(run_dir) / "plugins" / "tb_perf").glob(f"rank{rank}.*.timer.jsonl")
    return path
