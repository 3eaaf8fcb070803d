"""Where tb-perf keeps what it derives from a logdir's files (parsed trace tables, a remote
logdir's copy, refused pstats files): never inside the logdir, which may be read-only or
remote."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """TB_PERF_CACHE_DIR, else the user cache directory (XDG_CACHE_HOME or ~/.cache)."""
    configured = os.environ.get("TB_PERF_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tb-perf"
