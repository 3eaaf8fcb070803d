"""The release number of both distributions, tb-perf and tb-perf-collectors (docs/PACKAGING.md).

The one place it is written: both setup scripts read it, `collectors.__version__` and
`tb_perf_plugin.__version__` are it, and tb-perf pins tb-perf-collectors to it.
"""

__version__ = "0.1.0"
