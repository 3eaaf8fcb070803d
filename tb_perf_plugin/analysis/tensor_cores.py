"""Tensor Cores, guessed from names: which kernels use them, and which operators could
(docs/ANALYSIS.md, Tensor Cores). Traces do not say; names are what torch-tb-profiler read too.
"""

from __future__ import annotations

import re

# PyProf's list (NVIDIA/PyProf prof/tc.py), plus later NVIDIA names (CUTLASS `tensorop`, but
# not MIOpen's elementwise `SubTensorOp*`; Hopper `gmma`, cuBLASLt `nvjet`) and AMD's matrix
# cores (ROCm traces on MI250/MI300): `mfma`, Tensile/hipBLASLt `Cijk_*_MI<m>x<n>x<k>`, MIOpen
# implicit GEMM `igemm_{fwd,bwd,wrw}_gtc*`, Composable Kernel `*xdl*` (`wmma` on RDNA).
_TENSOR_CORE_KERNEL = re.compile(
    r"h884|s884|h1688|s1688|hmma|i8816|16816|c1688|dgrad_1x1_stride_2x2|"
    r"first_layer_wgrad_kernel|conv1x1|conv2d_c1_k1|direct_group|xmma|(?<!sub)tensorop|gmma|"
    r"nvjet|mfma|_MI\d+x\d+x\d+|igemm_(?:fwd|bwd|wrw)_gtc|xdl|wmma",
    re.IGNORECASE,
)
# The ops autocast runs in lower precision (ATen's autocast_mode.cpp: convolutions, matmuls,
# linear, RNN cells, attention), their in-place and backward forms (autograd node names, with
# or without the engine's "evaluate_function: " prefix and a version suffix).
_ELIGIBLE_OP = re.compile(
    r"^(?:autograd::engine::evaluate_function: )?(?:"
    r"aten::(?:_?convolution\w*|conv\w+|cudnn_convolution\w*|addmm_?|addmv_?|addr_?|matmul|mm|"
    r"mv|linear|addbmm_?|baddbmm_?|bmm|chain_matmul|linalg_multi_dot|prelu|_scaled_mm|"
    r"_thnn_fused_(?:lstm|gru)_cell|lstm_cell|gru_cell|rnn_(?:tanh|relu)_cell|"
    r"_scaled_dot_product_\w+|scaled_dot_product_attention|_flash_attention\w*|"
    r"_efficient_attention\w*)"
    r"|(?:CudnnConvolution\w*|Convolution\w*|Mm|Bmm|Addmm|Addmv|Mv|Addbmm|Baddbmm|Linear|"
    r"ScaledDotProduct\w*)Backward\d*"
    r")$"
)


def uses_tensor_cores(kernel: str) -> bool:
    """Whether the kernel's name is one of a Tensor-Core kernel."""
    return bool(_TENSOR_CORE_KERNEL.search(kernel))


def tensor_core_eligible(operator: str) -> bool:
    """Whether the operator is of the family that can run on Tensor Cores (matmul, conv,
    attention: what autocast runs in lower precision)."""
    return bool(_ELIGIBLE_OP.match(operator))
