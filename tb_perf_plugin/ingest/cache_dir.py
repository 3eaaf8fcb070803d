"""Where tb-perf keeps what it derives from a logdir's files (parsed trace tables, a remote
logdir's copy, refused pstats files): never inside the logdir, which may be read-only or
remote."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def default_cache_dir() -> Path:
    """TB_PERF_CACHE_DIR, else the user cache directory (XDG_CACHE_HOME or ~/.cache)."""
    configured = os.environ.get("TB_PERF_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tb-perf"


def evict_lru(folder: Path, max_bytes: int) -> list[int]:
    """Remove the least recently used entries (sub-folders; those starting with "." are
    being written) of `folder` until their files take at most `max_bytes`; the last-use times
    (ns since the epoch) of those removed."""
    try:
        entries = [
            (p.stat().st_mtime_ns, _dir_bytes(p), p)
            for p in folder.iterdir()
            if p.is_dir() and not p.name.startswith(".")
        ]
    except OSError:
        return []
    total = sum(size for _, size, _ in entries)
    removed = []
    for used, size, entry in sorted(entries):
        if total <= max_bytes:
            break
        shutil.rmtree(entry, ignore_errors=True)
        total -= size
        removed.append(used)
    return removed


def _dir_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file())
