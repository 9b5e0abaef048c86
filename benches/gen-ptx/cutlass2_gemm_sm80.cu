// archs: sm_80 sm_86
// CUTLASS 2.x device GEMMs on Ampere tensor cores, tile shapes and element types the corpus lacks:
// f16 with f16 accumulators, bf16, tf32, s8 (satfinite), s4, f64 (DMMA), and a 3-stage/4-stage mix.
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/epilogue/thread/linear_combination_clamp.h>

using namespace cutlass;
using RowMajor = layout::RowMajor;
using ColMajor = layout::ColumnMajor;

template <typename G> void touch() { (void)&cutlass::Kernel<typename G::GemmKernel>; }

// f16 x f16 -> f16, f16 accumulate, 128x256x64 tile, m16n8k16, 3 stages.
using GemmF16F16 = gemm::device::Gemm<half_t, RowMajor, half_t, ColMajor, half_t, RowMajor, half_t,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 256, 64>, gemm::GemmShape<64, 64, 64>,
    gemm::GemmShape<16, 8, 16>, epilogue::thread::LinearCombination<half_t, 8, half_t, half_t>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

// bf16 x bf16 -> f32, column-major A, 64x128x32 tile, 4 stages.
using GemmBf16 = gemm::device::Gemm<bfloat16_t, ColMajor, bfloat16_t, RowMajor, float, RowMajor,
    float, arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<64, 128, 32>,
    gemm::GemmShape<32, 64, 32>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, 4>;

// tf32 (float storage) -> f32, 128x128x16 tile, m16n8k8.
using GemmTf32 = gemm::device::Gemm<float, RowMajor, float, RowMajor, float, RowMajor, float,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 16>, gemm::GemmShape<64, 64, 16>,
    gemm::GemmShape<16, 8, 8>, epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 4>;

// s8 x s8 -> s8 with clamp, s32 accumulate (mma ... .satfinite), 128x128x64 tile, m16n8k32.
using GemmS8 = gemm::device::Gemm<int8_t, RowMajor, int8_t, ColMajor, int8_t, RowMajor, int32_t,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 64>, gemm::GemmShape<64, 64, 64>,
    gemm::GemmShape<16, 8, 32>, epilogue::thread::LinearCombinationClamp<int8_t, 16, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

// u8 x u8 -> s32, 64x64x64 tile.
using GemmU8 = gemm::device::Gemm<uint8_t, RowMajor, uint8_t, ColMajor, int32_t, RowMajor, int32_t,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<64, 64, 64>, gemm::GemmShape<32, 32, 64>,
    gemm::GemmShape<16, 8, 32>, epilogue::thread::LinearCombination<int32_t, 4, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 4>;

// s4 x s4 -> s32, 128x128x128 tile, m16n8k64.
using GemmS4 = gemm::device::Gemm<int4b_t, RowMajor, int4b_t, ColMajor, int32_t, RowMajor, int32_t,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<128, 128, 128>,
    gemm::GemmShape<64, 64, 128>, gemm::GemmShape<16, 8, 64>,
    epilogue::thread::LinearCombination<int32_t, 4, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

// f64 DMMA m8n8k4, 32x32x16 tile.
using GemmF64 = gemm::device::Gemm<double, RowMajor, double, ColMajor, double, RowMajor, double,
    arch::OpClassTensorOp, arch::Sm80, gemm::GemmShape<32, 32, 16>, gemm::GemmShape<16, 16, 16>,
    gemm::GemmShape<8, 8, 4>, epilogue::thread::LinearCombination<double, 1, double, double>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 4>;

void instantiate() {
  touch<GemmF16F16>();
  touch<GemmBf16>();
  touch<GemmTf32>();
  touch<GemmS8>();
  touch<GemmU8>();
  touch<GemmS4>();
  touch<GemmF64>();
}
