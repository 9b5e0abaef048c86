// archs: sm_75
// CUTLASS 2.x device GEMMs on Turing tensor cores: f16 (m16n8k8) with f16 and f32 accumulators,
// s8/u8 (m8n8k16), s4 (m8n8k32), b1 XOR-popc (m8n8k128), and an interleaved s8 layout.
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/epilogue/thread/linear_combination_clamp.h>

using namespace cutlass;
using RowMajor = layout::RowMajor;
using ColMajor = layout::ColumnMajor;

template <typename G> void touch() { (void)&cutlass::Kernel<typename G::GemmKernel>; }

using GemmF16 = gemm::device::Gemm<half_t, ColMajor, half_t, RowMajor, float, ColMajor, float,
    arch::OpClassTensorOp, arch::Sm75, gemm::GemmShape<128, 256, 32>, gemm::GemmShape<64, 64, 32>,
    gemm::GemmShape<16, 8, 8>, epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using GemmF16Acc16 = gemm::device::Gemm<half_t, RowMajor, half_t, ColMajor, half_t, RowMajor, half_t,
    arch::OpClassTensorOp, arch::Sm75, gemm::GemmShape<64, 64, 32>, gemm::GemmShape<32, 32, 32>,
    gemm::GemmShape<16, 8, 8>, epilogue::thread::LinearCombination<half_t, 8, half_t, half_t>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using GemmS8 = gemm::device::Gemm<int8_t, RowMajor, int8_t, ColMajor, int8_t, RowMajor, int32_t,
    arch::OpClassTensorOp, arch::Sm75, gemm::GemmShape<128, 128, 64>, gemm::GemmShape<64, 64, 64>,
    gemm::GemmShape<8, 8, 16>, epilogue::thread::LinearCombinationClamp<int8_t, 8, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using GemmS4 = gemm::device::Gemm<int4b_t, RowMajor, int4b_t, ColMajor, int32_t, RowMajor, int32_t,
    arch::OpClassTensorOp, arch::Sm75, gemm::GemmShape<128, 128, 128>, gemm::GemmShape<64, 64, 128>,
    gemm::GemmShape<8, 8, 32>, epilogue::thread::LinearCombination<int32_t, 4, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using GemmB1 = gemm::device::Gemm<uint1b_t, RowMajor, uint1b_t, ColMajor, int32_t, RowMajor, int32_t,
    arch::OpClassTensorOp, arch::Sm75, gemm::GemmShape<128, 128, 512>, gemm::GemmShape<64, 64, 512>,
    gemm::GemmShape<8, 8, 128>, epilogue::thread::LinearCombination<int32_t, 4, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2, 128, 128, false, arch::OpXorPopc>;

void instantiate() {
  touch<GemmF16>();
  touch<GemmF16Acc16>();
  touch<GemmS8>();
  touch<GemmS4>();
  touch<GemmB1>();
}
