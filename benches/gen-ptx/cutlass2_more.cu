// archs: sm_80 sm_89
// More CUTLASS 2.x device operators: stream-K GemmUniversal, batched GEMM, a ReLU epilogue with
// serial split-K, complex<double> on DMMA (GemmComplex), and a leaky-ReLU f16 GEMM.
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/gemm/device/gemm_universal.h>
#include <cutlass/gemm/device/gemm_batched.h>
#include <cutlass/gemm/device/gemm_complex.h>
#include <cutlass/epilogue/thread/linear_combination_relu.h>
#include <cutlass/epilogue/thread/linear_combination_leaky_relu.h>
#include <cutlass/gemm/threadblock/threadblock_swizzle_streamk.h>

using namespace cutlass;
using RowMajor = layout::RowMajor;
using ColMajor = layout::ColumnMajor;

using StreamK = gemm::device::GemmUniversal<half_t, RowMajor, half_t, RowMajor, float, RowMajor,
    float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 32>,
    gemm::GemmShape<64, 64, 32>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::ThreadblockSwizzleStreamK, 4, 8, 8>;

using Batched = gemm::device::GemmBatched<float, ColMajor, float, ColMajor, float, ColMajor, float,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<64, 64, 16>, gemm::GemmShape<32, 32, 16>,
    gemm::GemmShape<16, 8, 8>, epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmBatchedIdentityThreadblockSwizzle, 4, 4, 4, arch::OpMultiplyAddFastF32>;

using ReluSplitK = gemm::device::Gemm<bfloat16_t, RowMajor, bfloat16_t, ColMajor, bfloat16_t,
    RowMajor, float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 64, 64>,
    gemm::GemmShape<64, 32, 64>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombinationRelu<bfloat16_t, 8, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3, 8, 8, true>;

using ComplexF64 = gemm::device::GemmComplex<complex<double>, ColMajor, complex<double>, RowMajor,
    complex<double>, RowMajor, complex<double>, arch::OpClassTensorOp, arch::Sm80,
    gemm::GemmShape<64, 64, 16>, gemm::GemmShape<32, 32, 16>, gemm::GemmShape<8, 8, 4>,
    epilogue::thread::LinearCombination<complex<double>, 1, complex<double>, complex<double>>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3, ComplexTransform::kConjugate,
    ComplexTransform::kNone, arch::OpMultiplyAddComplex>;

using LeakyF16 = gemm::device::Gemm<half_t, ColMajor, half_t, ColMajor, half_t, ColMajor, float,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<256, 128, 32>, gemm::GemmShape<64, 64, 32>,
    gemm::GemmShape<16, 8, 16>, epilogue::thread::LinearCombinationLeakyRelu<half_t, 8, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

void instantiate() {
  (void)&cutlass::Kernel2<StreamK::GemmKernel>;
  (void)&cutlass::Kernel<Batched::GemmKernel>;
  (void)&cutlass::Kernel<ReluSplitK::GemmKernel>;
  (void)&cutlass::Kernel<ComplexF64::GemmKernel>;
  (void)&cutlass::Kernel<LeakyF16::GemmKernel>;
}
