// archs: sm_80 sm_86
// CUTLASS 2.x implicit-GEMM convolutions (fprop f16 optimized, dgrad bf16, wgrad tf32, fprop s8
// interleaved-free NHWC) and structured-sparse GEMMs (mma.sp: f16, bf16, s8, tf32).
#include <cutlass/gemm/device/gemm_sparse.h>
#include <cutlass/conv/kernel/default_conv2d_fprop.h>
#include <cutlass/conv/kernel/default_conv2d_dgrad.h>
#include <cutlass/conv/kernel/default_conv2d_wgrad.h>
#include <cutlass/epilogue/thread/linear_combination_clamp.h>

using namespace cutlass;
using RowMajor = layout::RowMajor;
using ColMajor = layout::ColumnMajor;
using Nhwc = layout::TensorNHWC;

using FpropF16 = conv::kernel::DefaultConv2dFprop<half_t, Nhwc, half_t, Nhwc, half_t, Nhwc, float,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 64>, gemm::GemmShape<64, 64, 64>,
    gemm::GemmShape<16, 8, 16>, epilogue::thread::LinearCombination<half_t, 8, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3, arch::OpMultiplyAdd,
    conv::IteratorAlgorithm::kOptimized>::Kernel;

using DgradBf16 = conv::kernel::DefaultConv2dDgrad<bfloat16_t, Nhwc, bfloat16_t, Nhwc, float, Nhwc,
    float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<64, 128, 32>,
    gemm::GemmShape<32, 64, 32>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombination<float, 4, float, float>,
    conv::threadblock::StridedDgradIdentityThreadblockSwizzle<1>, 4, arch::OpMultiplyAdd,
    conv::IteratorAlgorithm::kAnalytic, conv::StrideSupport::kStrided>::Kernel;

using WgradTf32 = conv::kernel::DefaultConv2dWgrad<tfloat32_t, Nhwc, tfloat32_t, Nhwc, float, Nhwc,
    float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 16>,
    gemm::GemmShape<64, 64, 16>, gemm::GemmShape<16, 8, 8>,
    epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3, arch::OpMultiplyAdd,
    conv::IteratorAlgorithm::kOptimized>::Kernel;

using FpropS8 = conv::kernel::DefaultConv2dFprop<int8_t, Nhwc, int8_t, Nhwc, int8_t, Nhwc, int32_t,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 64>, gemm::GemmShape<64, 64, 64>,
    gemm::GemmShape<16, 8, 32>, epilogue::thread::LinearCombinationClamp<int8_t, 16, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3, arch::OpMultiplyAddSaturate,
    conv::IteratorAlgorithm::kOptimized>::Kernel;

using SparseF16 = gemm::device::SparseGemm<half_t, RowMajor, half_t, ColMajor, float, RowMajor, float,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 64>, gemm::GemmShape<64, 64, 64>,
    gemm::GemmShape<16, 8, 32>, epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

using SparseBf16 = gemm::device::SparseGemm<bfloat16_t, RowMajor, bfloat16_t, ColMajor, bfloat16_t,
    RowMajor, float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<64, 128, 64>,
    gemm::GemmShape<32, 64, 64>, gemm::GemmShape<16, 8, 32>,
    epilogue::thread::LinearCombination<bfloat16_t, 8, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 4>;

using SparseS8 = gemm::device::SparseGemm<int8_t, RowMajor, int8_t, ColMajor, int32_t, RowMajor,
    int32_t, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 128>,
    gemm::GemmShape<64, 64, 128>, gemm::GemmShape<16, 8, 64>,
    epilogue::thread::LinearCombination<int32_t, 4, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

using SparseTf32 = gemm::device::SparseGemm<tfloat32_t, RowMajor, tfloat32_t, ColMajor, float,
    RowMajor, float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 64, 32>,
    gemm::GemmShape<64, 32, 32>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

void instantiate() {
  (void)&cutlass::Kernel<FpropF16>;
  (void)&cutlass::Kernel<DgradBf16>;
  (void)&cutlass::Kernel<WgradTf32>;
  (void)&cutlass::Kernel<FpropS8>;
  (void)&cutlass::Kernel<SparseF16::GemmKernel>;
  (void)&cutlass::Kernel<SparseBf16::GemmKernel>;
  (void)&cutlass::Kernel<SparseS8::GemmKernel>;
  (void)&cutlass::Kernel<SparseTf32::GemmKernel>;
}
