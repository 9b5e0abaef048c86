// archs: sm_90a
// flags: -DNDEBUG
// CUTLASS 3.x GEMMs for Hopper as a release build (NDEBUG: no device asserts): fp8 e4m3 -> bf16
// warp-specialized cooperative and tf32 -> f32 ping-pong kernels, wgmma + TMA.
#include <cutlass/cutlass.h>
#include <cute/tensor.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>

using namespace cute;

template <class EA, class EB, class EC, class Tile, class Cluster, class MainSched, class EpiSched>
struct Hopper {
  using Epi = typename cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90,
      cutlass::arch::OpClassTensorOp, Tile, Cluster, cutlass::epilogue::collective::EpilogueTileAuto,
      float, float, EC, cutlass::layout::RowMajor, 16 / sizeof(EC), EC, cutlass::layout::RowMajor,
      16 / sizeof(EC), EpiSched>::CollectiveOp;
  using Main = typename cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::Sm90,
      cutlass::arch::OpClassTensorOp, EA, cutlass::layout::RowMajor, 16 / sizeof(EA), EB,
      cutlass::layout::ColumnMajor, 16 / sizeof(EB), float, Tile, Cluster,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epi::SharedStorage))>,
      MainSched>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Main, Epi>;
};

using Fp8 = Hopper<cutlass::float_e4m3_t, cutlass::float_e4m3_t, cutlass::bfloat16_t,
    Shape<_128, _128, _128>, Shape<_1, _2, _1>, cutlass::gemm::KernelTmaWarpSpecializedCooperative,
    cutlass::epilogue::TmaWarpSpecializedCooperative>;
using Tf32 = Hopper<float, float, float, Shape<_64, _128, _32>, Shape<_1, _1, _1>,
    cutlass::gemm::KernelTmaWarpSpecializedPingpong, cutlass::epilogue::TmaWarpSpecialized>;

void instantiate() {
  (void)&cutlass::device_kernel<Fp8::Kernel>;
  (void)&cutlass::device_kernel<Tf32::Kernel>;
}
