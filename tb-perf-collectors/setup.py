"""tb-perf-collectors' build: the repository's collectors/ as a distribution of its own
(docs/PACKAGING.md). Metadata is in setup.cfg; here is what is computed.

In the repository the package's source is ../collectors. An sdist carries a copy of it at
collectors/ (an unpacked sdist is told by its PKG-INFO), so the wheel built from the sdist
needs nothing outside it. The version is collectors/_version.py's, as tb-perf's; README.md's
relative links (into the repository) become absolute at the release's tag.
"""

from __future__ import annotations

import configparser
import os
import posixpath
import re
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
IN_SDIST = (HERE / "PKG-INFO").is_file()
PACKAGE_DIR = "collectors" if IN_SDIST else "../collectors"  # relative to HERE, as setuptools asks
SOURCE = (HERE / PACKAGE_DIR).resolve()

# [text](target) and [label]: target, with a target that is not absolute (scheme, //, #, /)
_RELATIVE = r"(?![a-z][a-z0-9+.-]*:|/|#)"
_INLINE_LINK = re.compile(rf"(!?\[[^\]\n]*\]\(){_RELATIVE}([^)\s]+)(\))", re.I)
_REFERENCE_LINK = re.compile(rf"^( {{0,3}}\[[^\]\n]+\]:[ \t]*){_RELATIVE}(\S+)", re.I | re.M)


def read_version() -> str:
    text = (SOURCE / "_version.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"$', text, re.M)
    if match is None:
        raise RuntimeError('collectors/_version.py has no `__version__ = "..."` line')
    return match.group(1)


def long_description(version: str) -> str:
    """README.md with its links, relative to this folder of the repository, made absolute."""
    config = configparser.ConfigParser()
    config.read(HERE / "setup.cfg", encoding="utf-8")
    base = f"{config['metadata']['url'].rstrip('/')}/blob/v{version}"

    def absolute(target: str) -> str:
        return f"{base}/{posixpath.normpath(posixpath.join(HERE.name, target))}"

    readme = (HERE / "README.md").read_text(encoding="utf-8")
    readme = _INLINE_LINK.sub(lambda m: f"{m[1]}{absolute(m[2])}{m[3]}", readme)
    return _REFERENCE_LINK.sub(lambda m: f"{m[1]}{absolute(m[2])}", readme)


class SdistWithSource(sdist):
    """sdist that puts the package's modules, listed as ../collectors/..., at collectors/."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        # setuptools would copy a listed ../x to base_dir/../x: outside the archive
        outside = [f for f in files if Path(f).parts[0] == os.pardir]
        super().make_release_tree(base_dir, [f for f in files if f not in outside])
        for source in outside:
            path = (HERE / source).resolve()
            target = Path(base_dir, "collectors", path.relative_to(SOURCE))
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


if __name__ == "__main__":
    VERSION = read_version()
    setup(
        version=VERSION,
        long_description=long_description(VERSION),
        packages=["collectors"],
        package_dir={"collectors": PACKAGE_DIR},
        cmdclass={"sdist": SdistWithSource},
    )
