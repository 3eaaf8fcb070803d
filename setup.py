"""tb-perf's build: what setup.cfg cannot say statically (docs/PACKAGING.md).

- the version, written once in collectors/_version.py (shared with tb-perf-collectors);
- the requirement on tb-perf-collectors at that same version;
- README.md as the long description, its relative links made absolute at the release's tag,
  so that they work on a package index page too;
- no bytecode caches in the sdist or the wheel, whatever the working tree holds (MANIFEST.in
  grafts whole folders; a `global-exclude` there would warn on a clean tree).
"""

from __future__ import annotations

import configparser
import os
import re
from pathlib import Path

from setuptools import setup
from setuptools.command.egg_info import egg_info

HERE = Path(__file__).resolve().parent

INSTALL_REQUIRES = [
    "tensorboard>=2.14",
    "werkzeug>=2.2",
    "numpy>=1.24",
    "pandas>=2.0",
    "protobuf>=3.20",
    "msgspec>=0.18",
    # inflates gzipped traces twice as fast as zlib (tb_perf_plugin/ingest/kineto.py falls back
    # to zlib without it); binary wheels exist for these machines, a source build elsewhere
    # would need a C toolchain and CMake
    "zlib-ng>=0.4; platform_machine == 'x86_64' or platform_machine == 'AMD64'"
    " or platform_machine == 'aarch64' or platform_machine == 'arm64'",
]

# [text](target) and [label]: target, with a target that is not absolute (scheme, //, #, /)
_RELATIVE = r"(?![a-z][a-z0-9+.-]*:|/|#)"
_INLINE_LINK = re.compile(rf"(!?\[[^\]\n]*\]\(){_RELATIVE}([^)\s]+)(\))", re.I)
_REFERENCE_LINK = re.compile(rf"^( {{0,3}}\[[^\]\n]+\]:[ \t]*){_RELATIVE}(\S+)", re.I | re.M)


_BYTECODE = r"(^|/)__pycache__/|\.py[cod]$"


class EggInfoWithoutBytecode(egg_info):
    """The file list (SOURCES.txt: the sdist's files, and the wheel's package data) without
    `__pycache__` folders and `.pyc` files."""

    def find_sources(self) -> None:
        super().find_sources()
        if self.filelist.exclude_pattern(_BYTECODE, is_regex=True):
            manifest = os.path.join(self.egg_info, "SOURCES.txt")
            self.write_file("SOURCES.txt", manifest, "\n".join(self.filelist.files) + "\n")


def read_version(root: Path) -> str:
    """The release number in `root`/collectors/_version.py, read without importing it."""
    text = (root / "collectors" / "_version.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"$', text, re.M)
    if match is None:
        raise RuntimeError('collectors/_version.py has no `__version__ = "..."` line')
    return match.group(1)


def absolute_links(markdown: str, base: str) -> str:
    """`markdown` with each relative link target made `base`/target."""
    base = base.rstrip("/")
    markdown = _INLINE_LINK.sub(lambda m: f"{m[1]}{base}/{m[2]}{m[3]}", markdown)
    return _REFERENCE_LINK.sub(lambda m: f"{m[1]}{base}/{m[2]}", markdown)


def long_description(root: Path, version: str) -> str:
    """README.md for a package index: links into the repository at the tag `v<version>`."""
    config = configparser.ConfigParser()
    config.read(root / "setup.cfg", encoding="utf-8")
    repository = config["metadata"]["url"]
    readme = (root / "README.md").read_text(encoding="utf-8")
    return absolute_links(readme, f"{repository}/blob/v{version}")


if __name__ == "__main__":
    VERSION = read_version(HERE)
    setup(
        version=VERSION,
        install_requires=[f"tb-perf-collectors=={VERSION}", *INSTALL_REQUIRES],
        long_description=long_description(HERE, VERSION),
        cmdclass={"egg_info": EggInfoWithoutBytecode},
    )
