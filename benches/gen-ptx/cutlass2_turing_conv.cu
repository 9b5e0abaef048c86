// archs: sm_75
// CUTLASS 2.x on Turing: implicit-GEMM conv2d fprop (f16, m16n8k8; s8 interleaved NC32HW32,
// m8n8k16) and a SIMT f32 conv, at the Turing target.
#include <cutlass/conv/kernel/default_conv2d_fprop.h>
#include <cutlass/conv/device/implicit_gemm_convolution.h>
#include <cutlass/epilogue/thread/linear_combination_clamp.h>

using namespace cutlass;
using Nhwc = layout::TensorNHWC;

using FpropF16 = conv::kernel::DefaultConv2dFprop<half_t, Nhwc, half_t, Nhwc, float, Nhwc, float,
    arch::OpClassTensorOp, arch::Sm75, gemm::GemmShape<128, 128, 32>, gemm::GemmShape<64, 64, 32>,
    gemm::GemmShape<16, 8, 8>, epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2, arch::OpMultiplyAdd,
    conv::IteratorAlgorithm::kOptimized>::Kernel;

using FpropS8 = conv::kernel::DefaultConv2dFprop<int8_t, layout::TensorNCxHWx<32>, int8_t,
    layout::TensorCxRSKx<32>, int8_t, layout::TensorNCxHWx<32>, int32_t, arch::OpClassTensorOp,
    arch::Sm75, gemm::GemmShape<128, 128, 64>, gemm::GemmShape<64, 64, 64>,
    gemm::GemmShape<8, 8, 16>, epilogue::thread::LinearCombinationClamp<int8_t, 8, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2, arch::OpMultiplyAddSaturate,
    conv::IteratorAlgorithm::kOptimized>::Kernel;

using FpropSimt = conv::kernel::DefaultConv2dFprop<float, Nhwc, float, Nhwc, float, Nhwc, float,
    arch::OpClassSimt, arch::Sm75, gemm::GemmShape<128, 128, 8>, gemm::GemmShape<32, 64, 8>,
    gemm::GemmShape<1, 1, 1>, epilogue::thread::LinearCombination<float, 1, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2, arch::OpMultiplyAdd,
    conv::IteratorAlgorithm::kAnalytic>::Kernel;

void instantiate() {
  (void)&cutlass::Kernel<FpropF16>;
  (void)&cutlass::Kernel<FpropS8>;
  (void)&cutlass::Kernel<FpropSimt>;
}
