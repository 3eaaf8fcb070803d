"""Importing a file from another tool into a run (`tb-perf ingest`, docs/IMPORT.md): a
byte-for-byte copy in the run's imported folder. What each kind of file is, and how it is
read, is `readers.py`'s.
"""

from __future__ import annotations

import contextlib
import errno
import filecmp
import os
import secrets
import shutil

IMPORTED_FOLDER = ("plugins", "tb_perf", "imported")


def add_to_run(source: str, run_dir: str) -> tuple[str, bool]:
    """Copy `source` byte for byte into the run's imported folder: (its path there, whether it
    was copied). A file of the same name and content already there is kept (not copied); one
    of the same name and other content is never replaced: the copy gets the first free name
    of `name-2.ext`, `name-3.ext`, ... The copy is written under a hidden temporary name and
    linked into place, so discovery never sees half a file."""
    folder = os.path.join(run_dir, *IMPORTED_FOLDER)
    os.makedirs(folder, exist_ok=True)
    base = os.path.basename(source).lstrip(".") or "imported"
    temp = os.path.join(folder, f".{base}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask's permissions
    try:
        with os.fdopen(fd, "wb") as out, open(source, "rb") as handle:
            shutil.copyfileobj(handle, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
        stem, dot, suffixes = base.partition(".")
        for n in range(1, 1000):
            final = os.path.join(folder, base if n == 1 else f"{stem}-{n}{dot}{suffixes}")
            if os.path.exists(final) and filecmp.cmp(final, temp, shallow=False):
                return final, False
            if _place(temp, final):
                return final, True
        raise FileExistsError(errno.EEXIST, "no free name for the copy", base)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def _place(temp: str, final: str) -> bool:
    """Give `temp` the name `final` unless that name is taken; False when it is."""
    try:
        os.link(temp, final)  # fails on an existing name, where a rename would replace it
        return True
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: check, then rename
        if os.path.lexists(final):
            return False
        os.replace(temp, final)
        return True
