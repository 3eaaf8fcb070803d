"""The job pool's care of the serving process' memory (tb_perf_plugin/jobs.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tb_perf_plugin import jobs

# In a fresh interpreter: no other thread (a test's job pool, say) frees or trims meanwhile.
_FREED_HEAP = """
import os
from tb_perf_plugin import jobs

def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

freed = [bytes(1000) for _ in range(100_000)]  # ~100 MB of small blocks, in the heap
held = [bytes(1000) for _ in range(100)]  # above them: the heap's top cannot shrink
del freed
before = rss()
jobs.return_freed_memory()
print(before - rss(), len(held))
"""


@pytest.mark.skipif(jobs._malloc_trim() is None, reason="glibc's malloc_trim only (Linux)")
def test_the_freed_heap_goes_back_to_the_system():
    """What a job freed in the middle of the heap (below what is still held) stays in the
    process' RSS until it is handed back."""
    out = subprocess.run(
        [sys.executable, "-c", _FREED_HEAP], check=True, capture_output=True, text=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout.split()  # fmt: skip
    assert int(out[0]) > 50 << 20 and out[1] == "100", out


def test_a_finished_job_hands_the_freed_heap_back(monkeypatch):
    returned = threading.Event()  # set by the job's done callback, after its result
    monkeypatch.setattr(jobs, "return_freed_memory", returned.set)
    pool = jobs.JobPool(on_executor_lost=lambda: None)
    try:
        assert pool.result(("run", "kind"), ("v1",), 1, lambda job: 42, None) == 42
        assert returned.wait(timeout=30)
    finally:
        pool.close()
