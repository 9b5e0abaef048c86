// The WMMA API's sm_80 element types: bf16 tiles of every shape, tf32 m16n16k8 (inputs through
// __float_to_tf32), f64 m8n8k4 in both layouts and b1 m8n8k128 .and.popc. Inputs are small
// integers, so every sum is exact.
// PTX: nvcc -ptx -arch=sm_80 wmma80.cu -o wmma80.ptx
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_bf16_tf32(const unsigned *in, __nv_bfloat16 *bs, float *fs, float *out, float *out2) {
    unsigned t = threadIdx.x;
    for (int i = t; i < 1024; i += 32) {
        bs[i] = __int2bfloat16_rn((int)(in[i] & 7) - 4);
        bs[1024 + i] = __int2bfloat16_rn((int)((in[i] >> 8) & 7) - 4);
        fs[i] = (float)((int)((in[i] >> 16) & 15) - 8);
    }
    __syncwarp();
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
        wmma::load_matrix_sync(a, bs, 24);
        wmma::load_matrix_sync(b, bs + 512, 16);
        wmma::load_matrix_sync(c, fs, 16, wmma::mem_row_major);
        wmma::mma_sync(c, a, b, c);
        for (int i = 0; i < c.num_elements; i++) c.x[i] += i;
        wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::col_major> a;
        wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
        wmma::load_matrix_sync(a, bs + 1024, 32);
        wmma::load_matrix_sync(b, bs + 1536, 8);
        wmma::load_matrix_sync(c, fs + 256, 32, wmma::mem_col_major);
        wmma::mma_sync(c, a, b, c);
        wmma::store_matrix_sync(out + 256, c, 32, wmma::mem_col_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::col_major> b;
        wmma::fragment<wmma::accumulator, 8, 32, 16, float> c;
        wmma::load_matrix_sync(a, bs + 1792, 16);
        wmma::load_matrix_sync(b, bs + 256, 16);
        wmma::load_matrix_sync(c, fs + 512, 32, wmma::mem_row_major);
        wmma::mma_sync(c, a, b, c);
        for (int i = 0; i < c.num_elements; i++) c.x[i] -= i;
        wmma::store_matrix_sync(out + 512, c, 8, wmma::mem_col_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
        wmma::load_matrix_sync(a, fs + 768, 8);
        wmma::load_matrix_sync(b, fs + 640, 16);
        for (int i = 0; i < a.num_elements; i++) a.x[i] = wmma::__float_to_tf32(a.x[i] + i);
        for (int i = 0; i < b.num_elements; i++) b.x[i] = wmma::__float_to_tf32(b.x[i]);
        wmma::fill_fragment(c, 0.5f);
        wmma::mma_sync(c, a, b, c);
        wmma::store_matrix_sync(out2, c, 16, wmma::mem_col_major);
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::col_major> a2;
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b2;
        wmma::load_matrix_sync(a2, fs + 128, 16);
        wmma::load_matrix_sync(b2, fs + 384, 24);
        wmma::load_matrix_sync(c, fs, 16, wmma::mem_row_major);
        wmma::mma_sync(c, a2, b2, c);
        wmma::store_matrix_sync(out2 + 256, c, 16, wmma::mem_row_major);
    }
}

extern "C" __global__ void wmma_f64_b1(const unsigned *in, double *ds, const unsigned *bits, const int *c, double *out, int *iout) {
    unsigned t = threadIdx.x;
    for (int i = t; i < 512; i += 32) ds[i] = (double)((int)(in[i] & 15) - 8);
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
    wmma::load_matrix_sync(a, ds, 4);
    wmma::load_matrix_sync(b, ds + 64, 8);
    wmma::load_matrix_sync(acc, ds + 128, 8, wmma::mem_row_major);
    wmma::mma_sync(acc, a, b, acc);
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] += i;
    wmma::store_matrix_sync(out, acc, 8, wmma::mem_col_major);
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> a2;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b2;
    wmma::load_matrix_sync(a2, ds + 256, 8);
    wmma::load_matrix_sync(b2, ds + 320, 16);
    wmma::load_matrix_sync(acc, ds + 448, 8, wmma::mem_col_major);
    wmma::mma_sync(acc, a2, b2, acc);
    wmma::store_matrix_sync(out + 64, acc, 8, wmma::mem_row_major);
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> ba;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> bb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> bc;
    wmma::load_matrix_sync(ba, bits, 128);
    wmma::load_matrix_sync(bb, bits + 64, 256);
    wmma::load_matrix_sync(bc, c, 8, wmma::mem_row_major);
    wmma::bmma_sync(bc, ba, bb, bc, bmmaBitOpAND);
    wmma::store_matrix_sync(iout, bc, 8, wmma::mem_row_major);
    wmma::bmma_sync(bc, ba, bb, bc, bmmaBitOpXOR);
    wmma::store_matrix_sync(iout + 64, bc, 16, wmma::mem_col_major);
}
