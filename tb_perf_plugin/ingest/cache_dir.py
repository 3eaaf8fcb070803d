"""Where tb-perf keeps what it derives from a logdir's files (parsed trace tables, a remote
logdir's copy, refused pstats files): never inside the logdir, which may be read-only or
remote."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

STORE_ENV = "TB_PERF_STORE"


def shared_store() -> Path | None:
    """TB_PERF_STORE: a directory that the executor's workers (a Dask cluster's, on other hosts)
    read and write at the same path as this process: a shared file system (Lustre, GPFS, NFS;
    for a Dask LocalCluster, any directory). It is then the cache directory, and the Dask
    workers write their parsed traces, the ranks' summaries and the run's merged analysis
    there as local workers do (docs/SCALE.md). None when unset or not a path (a URL: the
    executor refuses it, `store_problem`)."""
    configured = os.environ.get(STORE_ENV, "").strip()
    return Path(configured) if configured and store_problem(configured) is None else None


def store_problem(configured: str) -> str | None:
    """Why TB_PERF_STORE=`configured` cannot be the store, or None."""
    if "://" in configured:
        return (
            f"{STORE_ENV}={configured!r}: the store must be a directory path that the workers "
            "mount at the same path (a shared file system); object stores (s3://, gs://) are "
            "not supported: the store's tables are memory-mapped"
        )
    return None


def default_cache_dir() -> Path:
    """TB_PERF_STORE (`shared_store`), else TB_PERF_CACHE_DIR, else the user cache directory
    (XDG_CACHE_HOME or ~/.cache)."""
    store = shared_store()
    if store is not None:
        return store
    configured = os.environ.get("TB_PERF_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tb-perf"


def evict_lru(folder: Path, max_bytes: int, keep_used_since_ns: int = 0) -> int:
    """Remove the least recently used entries (sub-folders; those starting with "." are
    being written) of `folder` until their files take at most `max_bytes`, never one used
    since `keep_used_since_ns` (ns since the epoch: the runs being read are not evicted under
    themselves, which would parse or build them again at every use); the bytes left."""
    try:
        entries = [
            (p.stat().st_mtime_ns, _dir_bytes(p), p)
            for p in folder.iterdir()
            if p.is_dir() and not p.name.startswith(".")
        ]
    except OSError:
        return 0
    total = sum(size for _, size, _ in entries)
    for used, size, entry in sorted(entries):
        if total <= max_bytes or used >= keep_used_since_ns:
            break
        shutil.rmtree(entry, ignore_errors=True)
        total -= size
    return total


def _dir_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file())
