// archs: sm_90a
// CUTLASS 3.x GEMMs for Hopper built by the CollectiveBuilder: wgmma + TMA, warp-specialized
// cooperative (bf16 -> f32) and ping-pong (f16 -> f16, cluster 2x1) kernels.
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

using Coop = Hopper<cutlass::bfloat16_t, cutlass::bfloat16_t, float, Shape<_128, _128, _64>,
    Shape<_1, _1, _1>, cutlass::gemm::KernelTmaWarpSpecializedCooperative,
    cutlass::epilogue::TmaWarpSpecializedCooperative>;
using PingPong = Hopper<cutlass::half_t, cutlass::half_t, cutlass::half_t, Shape<_64, _128, _64>,
    Shape<_2, _1, _1>, cutlass::gemm::KernelTmaWarpSpecializedPingpong,
    cutlass::epilogue::TmaWarpSpecialized>;

void instantiate() {
  (void)&cutlass::device_kernel<Coop::Kernel>;
  (void)&cutlass::device_kernel<PingPong::Kernel>;
}
