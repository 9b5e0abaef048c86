// archs: sm_80 sm_86
// CUTLASS 2.x SIMT GEMMs (no tensor cores): sgemm, dgemm, igemm with dp4a, hgemm, complex<float>,
// and split-K parallel reduction.
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/gemm/device/gemm_complex.h>
#include <cutlass/gemm/device/gemm_splitk_parallel.h>

using namespace cutlass;
using RowMajor = layout::RowMajor;
using ColMajor = layout::ColumnMajor;

template <typename G> void touch() { (void)&cutlass::Kernel<typename G::GemmKernel>; }

using Sgemm = gemm::device::Gemm<float, ColMajor, float, RowMajor, float, ColMajor, float,
    arch::OpClassSimt, arch::Sm80, gemm::GemmShape<128, 64, 8>, gemm::GemmShape<32, 64, 8>,
    gemm::GemmShape<1, 1, 1>, epilogue::thread::LinearCombination<float, 1, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

using Dgemm = gemm::device::Gemm<double, RowMajor, double, ColMajor, double, RowMajor, double,
    arch::OpClassSimt, arch::Sm80, gemm::GemmShape<64, 64, 8>, gemm::GemmShape<32, 32, 8>,
    gemm::GemmShape<1, 1, 1>, epilogue::thread::LinearCombination<double, 1, double, double>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using Igemm = gemm::device::Gemm<int8_t, RowMajor, int8_t, ColMajor, int32_t, RowMajor, int32_t,
    arch::OpClassSimt, arch::Sm80, gemm::GemmShape<128, 128, 32>, gemm::GemmShape<32, 64, 32>,
    gemm::GemmShape<1, 1, 4>, epilogue::thread::LinearCombination<int32_t, 1, int32_t, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using Hgemm = gemm::device::Gemm<half_t, RowMajor, half_t, RowMajor, half_t, RowMajor, half_t,
    arch::OpClassSimt, arch::Sm80, gemm::GemmShape<128, 128, 8>, gemm::GemmShape<64, 32, 8>,
    gemm::GemmShape<1, 1, 1>, epilogue::thread::LinearCombination<half_t, 1, half_t, half_t>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using Cgemm = gemm::device::GemmComplex<complex<float>, ColMajor, complex<float>, RowMajor,
    complex<float>, RowMajor, complex<float>, arch::OpClassSimt, arch::Sm80,
    gemm::GemmShape<64, 64, 8>, gemm::GemmShape<32, 32, 8>, gemm::GemmShape<1, 1, 1>,
    epilogue::thread::LinearCombination<complex<float>, 1, complex<float>, complex<float>>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2>;

using SplitK = gemm::device::GemmSplitKParallel<float, RowMajor, float, ColMajor, float, RowMajor,
    float, arch::OpClassSimt, arch::Sm80>;

void instantiate() {
  touch<Sgemm>();
  touch<Dgemm>();
  touch<Igemm>();
  touch<Hgemm>();
  touch<Cgemm>();
  (void)&cutlass::Kernel<SplitK::GemmKernel>;
  (void)&cutlass::Kernel<SplitK::ReductionKernel>;
}
