"""Short kernel names (analysis/kernel_names.py) on real names from the shared traces: ATen
template launchers, CUTLASS and cuDNN kernels (demangled and mangled), cuBLAS, ROCm (Tensile,
Composable Kernel), NCCL and Triton; and that they hold on every kernel of those traces."""

import gzip
import json

import pytest

from tb_perf_plugin.analysis.kernel_names import short_kernel_name

HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"

# (full name as the trace has it, truncated where marked; its short name)
REAL_NAMES = [
    (  # backward_thread.json
        "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>",
        "Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>",
    ),
    (  # nccl_data.json.gz (A100)
        "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>"
        "(cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4::Params)",
        "Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>",
    ),
    (  # nccl_data.json.gz: a mangled cuDNN CUTLASS kernel (first 200 characters)
        "_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11thread"
        "block22ImplicitGemmMultistageINS_4gemm9GemmShapeILi64ELi128ELi32EEENS4_52Conv2dWgradOut"
        "putGradientTileAccessIteratorOptimizedINS_11MatrixShapeILi64ELi32EEE",
        "Kernel<ImplicitGemmConvolution>",
    ),
    (  # critical_path/simple_add: an anonymous namespace and template arguments
        "void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned "
        "int, 1, 4, bool>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::"
        "TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<bool, unsigned int>, "
        "unsigned int, float, at::PhiloxCudaState)",
        "fused_dropout_kernel_vec",
    ),
    (  # resnet50 (2021 schema): a launcher of a lambda in an anonymous namespace
        "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
        "clamp_min_scalar_kernel_impl(at::TensorIterator&, c10::Scalar)::{lambda()#1}::operator()"
        "() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, "
        "2> >(int, at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl(at::Tensor"
        "Iterator&, c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() "
        "const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
        "vectorized_elementwise_kernel<clamp_min_scalar_kernel_impl>",
    ),
    (  # df_index_resolver: launchers nested in launchers, down to the functor
        "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::"
        "BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >"
        "(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::"
        "binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_"
        "kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal"
        "::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float"
        ", float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})",
        "elementwise_kernel<MulFunctor>",
    ),
    (  # b200: a reduction, through ReduceOp and func_wrapper_t
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_"
        "wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::Tensor"
        "Iterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp"
        "<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::"
        "operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>)",
        "reduce_kernel<sum_functor>",
    ),
    (  # mi300 (ROCm): a mangled Composable Kernel kernel in an anonymous namespace
        "_ZN2ck16tensor_operation6device12_GLOBAL__N_139kernel_grouped_conv_fwd_xdl_cshuffle_v3"
        "INS_28GridwiseGemm_xdl_cshuffle_v3INS_13tensor_layout4gemm8RowMajorE",
        "kernel_grouped_conv_fwd_xdl_cshuffle_v3",
    ),
    (  # mi300 (ROCm): Tensile names are plain identifiers and stay as they are
        "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1",
        "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1",
    ),
    (  # sampled_rank-0: NCCL, parameters dropped
        "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
        "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t",
    ),
    ("triton_poi_fused_add_cos_sin_0", "triton_poi_fused_add_cos_sin_0"),  # triton_example
    ("volta_sgemm_128x64_nn", "volta_sgemm_128x64_nn"),  # resnet50: cuBLAS
    (  # b200: the return type is an enable_if expression
        "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, "
        "float, float, false, true, true, false, 7, false, cublasGemvParamsEx<int, cublasGemv"
        "TensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, "
        "cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParamsEx<int, cublasGemv"
        "TensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, "
        "cublasGemvTensorStridedBatched<float>, float>)",
        "kernel<cublasGemvParamsEx>",
    ),
]


@pytest.mark.parametrize(("name", "short"), REAL_NAMES, ids=lambda v: v[:40])
def test_short_names_of_real_kernels(name, short):
    assert short_kernel_name(name) == short


@pytest.mark.parametrize("name", ["   ", "<<<", "void (", "_Z", "_ZN3", "a::(b", "}{", "_ZN3abcI"])
def test_a_name_it_cannot_read_still_gets_a_name(name):
    """Malformed names (a trace can hold anything) never raise and never shorten to nothing."""
    short = short_kernel_name(name)
    assert short == name.strip() or (short and short in name)


@pytest.mark.parametrize(
    "relative",
    [
        f"{HTA}/nccl_parser_config/nccl_data.json.gz",
        f"{HTA}/trace_filter/sampled_rank-0.json.gz",
        "traces/AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz",
        "traces/AMD-AGI__TraceLens/tests/traces/mi300/resnet_act_checkpoint.json.gz",
    ],
    ids=lambda p: p.rsplit("/", 1)[-1],
)
def test_every_kernel_of_the_shared_traces_gets_a_short_one_line_name(shared_data, relative):
    with gzip.open(shared_data / relative, "rt") as handle:
        events = json.load(handle)["traceEvents"]
    names = {e["name"] for e in events if e.get("cat") in ("kernel", "Kernel")}
    assert names
    for name in names:
        short = short_kernel_name(name)
        assert short and "(" not in short and " " not in short, (name, short)
        # a plain identifier stays whole; everything else gets shorter
        assert short == name or len(short) < len(name)
