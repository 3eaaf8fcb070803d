"""The checks of benchmarks/gpu_check.py, one module per collector family it runs on the
GPU (docs/GPU_CHECK.md); `common` what they share, `report` the run and its report."""
