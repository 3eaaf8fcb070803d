"""Where tb-perf keeps what it derives from a logdir's files (parsed trace tables, a remote
logdir's copy, refused pstats files): never inside the logdir, which may be read-only or
remote. A cache's location is a directory, or the URL of a store (`url_store`) backed by this
process' local cache directory."""

from __future__ import annotations

import functools
import logging
import os
import shutil
from pathlib import Path

from .url_store import UrlStore, is_url

logger = logging.getLogger(__name__)

STORE_ENV = "TB_PERF_STORE"


def shared_store() -> str | None:
    """TB_PERF_STORE: where the executor's workers (a Dask cluster's, on other hosts) and this
    process both read and write what they derive (docs/SCALE.md). Either a directory they
    mount at the same path (a shared file system: Lustre, GPFS, NFS; for a Dask LocalCluster,
    any directory), which is then the cache directory, or a URL of any fsspec filesystem
    (s3://, gs://, abfs://), which each process copies what it uses from into its own cache
    directory (`url_store`). None when unset or unusable: one warning says why, and the
    Dask executor refuses to start (`store_problem`)."""
    configured = os.environ.get(STORE_ENV, "").strip()
    if not configured:
        return None
    problem = store_problem(configured)
    if problem is not None:
        _warn_once(f"tb_perf: {problem}; the local cache directory is used")
        return None
    return configured


@functools.lru_cache(maxsize=8)
def _warn_once(message: str) -> None:
    logger.warning("%s", message)


@functools.lru_cache(maxsize=8)
def store_problem(configured: str) -> str | None:
    """Why TB_PERF_STORE=`configured` cannot be the store, or None."""
    if not is_url(configured):
        return None
    try:
        import fsspec

        fsspec.get_filesystem_class(configured.partition("://")[0])
    except ImportError as exc:
        return f"{STORE_ENV}={configured!r} needs fsspec and its driver ({exc})"
    except ValueError as exc:
        return f"{STORE_ENV}={configured!r}: {exc}"
    return None


def default_location() -> str:
    """Where a process's caches live unless told: the store (`shared_store`: a path or a URL),
    else the local cache directory."""
    return shared_store() or str(default_cache_dir())


def located(location: str | os.PathLike | None) -> tuple[str, Path, UrlStore | None]:
    """A cache's `location` (default: `default_location`), the local directory its entries
    are read from (the location itself, or this process' cache directory for a store at a
    URL) and that store."""
    location = str(location) if location is not None else default_location()
    if is_url(location):
        return location, default_cache_dir(), UrlStore.at(location)
    return location, Path(location), None


def default_cache_dir() -> Path:
    """The local cache directory: TB_PERF_STORE where it is a path (`shared_store`), else
    TB_PERF_CACHE_DIR, else the user cache directory (XDG_CACHE_HOME or ~/.cache)."""
    store = shared_store()
    if store is not None and not is_url(store):
        return Path(store)
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
