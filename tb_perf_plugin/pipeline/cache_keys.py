"""What the caches of derived results key on, without numpy or pandas (so `tb-perf analyze`
can look its answer up before importing them): the code that computed a result, and whether
the run version it was computed from is final."""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


@functools.cache
def code_fingerprint() -> str:
    """Changes with any of tb_perf_plugin's Python files and with the Python version: a result
    computed by other code is never served."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        st = path.stat()
        digest.update(f"{path.relative_to(_PACKAGE)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def entry_name(*identity: object) -> str:
    """A cache entry's folder name for a result of this identity (kind, run version, ...)
    computed by this code."""
    text = repr((identity, code_fingerprint()))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def still_written(signature: tuple) -> bool:
    """Whether a run version's signature names a file still being written (the last field of
    each of its files' entries, `Run.signature`): results of such a version are not stored."""
    return any(isinstance(e, tuple) and e and e[-1] is True for e in signature)
