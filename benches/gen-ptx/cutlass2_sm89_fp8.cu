// archs: sm_89
// CUTLASS 2.x GEMMs on Ada's fp8 tensor cores (mma m16n8k32 e4m3/e5m2) and a bf16 GEMM at sm_89.
#include <cutlass/gemm/device/gemm_universal.h>
#include <cutlass/gemm/device/gemm.h>

using namespace cutlass;
using RowMajor = layout::RowMajor;
using ColMajor = layout::ColumnMajor;

using FP8E4M3 = gemm::device::GemmUniversal<float_e4m3_t, RowMajor, float_e4m3_t, ColMajor,
    bfloat16_t, RowMajor, float, arch::OpClassTensorOp, arch::Sm89, gemm::GemmShape<128, 128, 64>,
    gemm::GemmShape<64, 64, 64>, gemm::GemmShape<16, 8, 32>,
    epilogue::thread::LinearCombination<bfloat16_t, 8, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3, 16, 16>;

using FP8E5M2 = gemm::device::GemmUniversal<float_e5m2_t, RowMajor, float_e4m3_t, ColMajor, float,
    RowMajor, float, arch::OpClassTensorOp, arch::Sm89, gemm::GemmShape<64, 128, 64>,
    gemm::GemmShape<32, 64, 64>, gemm::GemmShape<16, 8, 32>,
    epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 4, 16, 16>;

using Bf16 = gemm::device::Gemm<bfloat16_t, RowMajor, bfloat16_t, RowMajor, bfloat16_t, ColMajor,
    float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 64, 32>,
    gemm::GemmShape<64, 32, 32>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombination<bfloat16_t, 8, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 5>;

void instantiate() {
  (void)&cutlass::Kernel2<FP8E4M3::GemmKernel>;
  (void)&cutlass::Kernel2<FP8E5M2::GemmKernel>;
  (void)&cutlass::Kernel<Bf16::GemmKernel>;
}
