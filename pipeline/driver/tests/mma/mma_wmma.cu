// The WMMA API: one 16x16x16 f16 product with an f32 accumulator per warp (nvcc writes the
// wmma.load/wmma.mma/wmma.store PTX instructions, not mma.sync).
// PTX: nvcc -ptx -arch=sm_80 mma_wmma.cu -o mma_wmma.ptx
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void mma_wmma(const __half *a, const __half *b, float *c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
