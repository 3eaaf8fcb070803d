"""tb-perf's TensorBoard plugin, its trace post-processing service and CLI.

Never imports torch: everything here reads the files that `collectors` and torch.profiler wrote.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # One release number for both distributions, written once in collectors/_version.py
    # (tb-perf requires tb-perf-collectors of its own version); read on first use only, so
    # importing the plugin does not import the collectors.
    if name == "__version__":
        from collectors._version import __version__

        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
