// archs: sm_75 sm_80 sm_86 sm_89 sm_90
// The WMMA API (nvcuda::wmma) for every element type the target has: f16, bf16, tf32, f64, s8/u8, s4, b1.
#include <mma.h>
using namespace nvcuda;

template <typename TA, typename TC, int M, int N, int K, typename LA, typename LB>
__device__ void one_tile(const TA* a, const TA* b, const TC* c, TC* d, wmma::layout_t lc) {
  wmma::fragment<wmma::matrix_a, M, N, K, TA, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TA, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, N, lc);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, N, lc);
}

__global__ void wmma_f16(const half* a, const half* b, const float* c, float* d, const half* hc, half* hd) {
  one_tile<half, float, 16, 16, 16, wmma::row_major, wmma::col_major>(a, b, c, d, wmma::mem_row_major);
  one_tile<half, float, 32, 8, 16, wmma::col_major, wmma::row_major>(a, b, c, d, wmma::mem_col_major);
  one_tile<half, half, 8, 32, 16, wmma::row_major, wmma::row_major>(a, b, hc, hd, wmma::mem_row_major);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.5f);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= 2.f;
  wmma::store_matrix_sync(d + 512, acc, 16, wmma::mem_row_major);
}

__global__ void wmma_int(const signed char* a, const signed char* b, const int* c, int* d,
                         const unsigned char* ua, const unsigned char* ub) {
  one_tile<signed char, int, 16, 16, 16, wmma::row_major, wmma::col_major>(a, b, c, d, wmma::mem_row_major);
  one_tile<unsigned char, int, 8, 32, 16, wmma::row_major, wmma::col_major>(ua, ub, c, d, wmma::mem_col_major);
}

__global__ void wmma_subbyte(const void* a, const void* b, const int* c, int* d) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 32);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> ba;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> bb;
  wmma::load_matrix_sync(ba, a, 128);
  wmma::load_matrix_sync(bb, b, 128);
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> bc;
  wmma::load_matrix_sync(bc, c, 8, wmma::mem_col_major);
  wmma::bmma_sync(bc, ba, bb, bc);
  wmma::store_matrix_sync(d + 64, bc, 8, wmma::mem_row_major);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__global__ void wmma_ampere(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* ta, const float* tb,
                            const double* da, const double* db, const float* c, float* d, const double* dc, double* dd) {
  one_tile<__nv_bfloat16, float, 16, 16, 16, wmma::row_major, wmma::col_major>(a, b, c, d, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, ta, 8);
  wmma::load_matrix_sync(fb, tb, 8);
  for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  wmma::fill_fragment(fc, 0.f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + 256, fc, 16, wmma::mem_row_major);
  one_tile<double, double, 8, 8, 4, wmma::row_major, wmma::col_major>(da, db, dc, dd, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> ba;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> bb;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> ic;
  wmma::fill_fragment(ic, 0);
  wmma::load_matrix_sync(ba, a, 128);
  wmma::load_matrix_sync(bb, b, 128);
  wmma::bmma_sync(ic, ba, bb, ic, wmma::experimental::bmmaBitOpAND);
  wmma::store_matrix_sync((int*)d + 1024, ic, 8, wmma::mem_row_major);
}
#endif
