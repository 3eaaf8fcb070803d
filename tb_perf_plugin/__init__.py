"""tb-perf's TensorBoard plugin, its trace post-processing service and CLI.

Never imports torch: everything here reads the files that `collectors` and torch.profiler wrote.
"""

__version__ = "0.1.0"
