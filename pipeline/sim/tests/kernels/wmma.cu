// The WMMA API (nvcuda::wmma) on sm_75+: f16 tiles of every shape with f16 or f32 accumulators,
// s8/u8 tiles (one with .satfinite), s4 m8n8k32 and b1 m8n8k128 .xor.popc; row and column
// layouts, strides wider than the tile, fragments from shared, global and generic memory, and
// fragment elements changed one by one (acc.x[i] += i: only agrees where the interpreter's
// fragment layout is ptxas's). f16 inputs are small integers, so every sum is exact.
// wmma_mixed: accumulators of two types (f16 C with f32 D and f32 C with f16 D).
// PTX: nvcc -ptx -arch=sm_80 wmma.cu -o wmma.ptx
#include <mma.h>
using namespace nvcuda;

__device__ half small_half(unsigned r) { return __int2half_rn((int)(r & 7) - 4); }

extern "C" __global__ void wmma_f16(const unsigned *in, half *hs, float *fs, float *out, half *hout) {
    __shared__ __align__(32) half sa[1024];
    unsigned t = threadIdx.x;
    for (int i = t; i < 1024; i += 32) {
        sa[i] = small_half(in[i]);
        hs[i] = small_half(in[i] >> 8);
        hs[1024 + i] = small_half(in[i] >> 16);
        fs[i] = (float)((int)(in[i] >> 24) - 128);
    }
    __syncwarp();
    // m16n16k16: A row (shared, stride 24), B col (global), C and D f32 row.
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
        wmma::load_matrix_sync(a, sa, 24);
        wmma::load_matrix_sync(b, hs, 16);
        wmma::load_matrix_sync(c, fs, 16, wmma::mem_row_major);
        wmma::mma_sync(c, a, b, c);
        for (int i = 0; i < c.num_elements; i++) c.x[i] += i;
        wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
    }
    // m32n8k16: A col (shared, stride 40), B row (global, stride 16), C and D f32 col.
    {
        wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> a;
        wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
        wmma::load_matrix_sync(a, sa + 256, 40);
        wmma::load_matrix_sync(b, hs + 512, 16);
        wmma::load_matrix_sync(c, fs + 512, 32, wmma::mem_col_major);
        wmma::mma_sync(c, a, b, c);
        wmma::store_matrix_sync(out + 256, c, 32, wmma::mem_col_major);
    }
    // m8n32k16: A row and B row through generic pointers, C and D f16 (D stored column-major).
    {
        const half *pa = (in[0] & 1) ? hs + 1024 : sa;
        const half *pb = (in[0] & 1) ? sa : hs + 1024;
        wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 8, 32, 16, half> c;
        wmma::load_matrix_sync(a, pa, 16);
        wmma::load_matrix_sync(b, pb, 32);
        wmma::load_matrix_sync(c, hs + 1536, 32, wmma::mem_row_major);
        wmma::mma_sync(c, a, b, c);
        for (int i = 0; i < c.num_elements; i++) c.x[i] += __int2half_rn(i);
        wmma::store_matrix_sync(hout, c, 8, wmma::mem_col_major);
    }
    // m16n16k16 with f16 C and D, column-major; m32n8k16 f16 accumulator in shared memory.
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 16, half> c;
        wmma::load_matrix_sync(a, hs + 256, 16);
        wmma::load_matrix_sync(b, sa + 512, 16);
        wmma::load_matrix_sync(c, hs + 768, 16, wmma::mem_col_major);
        wmma::mma_sync(c, a, b, c);
        wmma::store_matrix_sync(hout + 512, c, 16, wmma::mem_col_major);
        wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a2;
        wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> b2;
        wmma::fragment<wmma::accumulator, 32, 8, 16, half> c2;
        wmma::load_matrix_sync(a2, hs, 16);
        wmma::load_matrix_sync(b2, sa + 768, 16);
        wmma::load_matrix_sync(c2, sa, 8, wmma::mem_row_major);
        wmma::mma_sync(c2, a2, b2, c2);
        __syncwarp();
        wmma::store_matrix_sync(sa + 512, c2, 8, wmma::mem_row_major);
        __syncwarp();
        for (int i = t; i < 256; i += 32) hout[256 + i] = sa[512 + i];
    }
}

extern "C" __global__ void wmma_int8(const signed char *a, const unsigned char *ua, const int *c, int *out) {
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
        wmma::load_matrix_sync(fa, a, 32);
        wmma::load_matrix_sync(fb, a + 512, 16);
        wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
        wmma::mma_sync(fc, fa, fb, fc, true);
        for (int i = 0; i < fc.num_elements; i++) fc.x[i] += i;
        wmma::store_matrix_sync(out, fc, 16, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::col_major> fa;
        wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> fb;
        wmma::fragment<wmma::accumulator, 32, 8, 16, int> fc;
        wmma::load_matrix_sync(fa, ua, 32);
        wmma::load_matrix_sync(fb, ua + 1024, 16);
        wmma::load_matrix_sync(fc, c + 256, 32, wmma::mem_col_major);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(out + 256, fc, 8, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::row_major> fb;
        wmma::fragment<wmma::accumulator, 8, 32, 16, int> fc;
        wmma::load_matrix_sync(fa, a + 2048, 16);
        wmma::load_matrix_sync(fb, a + 3072, 32);
        wmma::load_matrix_sync(fc, c + 512, 32, wmma::mem_row_major);
        wmma::mma_sync(fc, fa, fb, fc);
        for (int i = 0; i < fc.num_elements; i++) fc.x[i] += i * (int)threadIdx.x;
        wmma::store_matrix_sync(out + 512, fc, 8, wmma::mem_col_major);
    }
}

extern "C" __global__ void wmma_subbyte(const void *a, const int *c, int *out) {
    using namespace wmma::experimental;
    const char *p = (const char *)a;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fa, p, 64);
    wmma::load_matrix_sync(fb, p + 512, 32);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(out, fc, 8, wmma::mem_col_major);
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::u4, wmma::row_major> ua;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::u4, wmma::col_major> ub;
    wmma::load_matrix_sync(ua, p + 1024, 32);
    wmma::load_matrix_sync(ub, p + 1536, 32);
    wmma::load_matrix_sync(fc, c + 64, 16, wmma::mem_col_major);
    wmma::mma_sync(fc, ua, ub, fc);
    wmma::store_matrix_sync(out + 64, fc, 8, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> ba;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> bb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> bc;
    wmma::load_matrix_sync(ba, p + 2048, 256);
    wmma::load_matrix_sync(bb, p + 3072, 128);
    wmma::load_matrix_sync(bc, c + 128, 8, wmma::mem_row_major);
    wmma::bmma_sync(bc, ba, bb, bc);
    for (int i = 0; i < bc.num_elements; i++) bc.x[i] += i;
    wmma::store_matrix_sync(out + 128, bc, 8, wmma::mem_row_major);
}

// Accumulators of two types: an f16 C into an f32 D, an f32 C into an f16 D.
extern "C" __global__ void wmma_mixed(const unsigned *in, half *hs, float *fs, float *out, half *hout) {
    unsigned t = threadIdx.x;
    for (int i = t; i < 1024; i += 32) {
        hs[i] = small_half(in[i]);
        hs[1024 + i] = small_half(in[i] >> 8);
        fs[i] = (float)((int)(in[i] >> 24) - 128);
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> ch;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
    wmma::load_matrix_sync(a, hs, 16);
    wmma::load_matrix_sync(b, hs + 256, 16);
    wmma::load_matrix_sync(ch, hs + 1024, 16, wmma::mem_row_major);
    wmma::mma_sync(cf, a, b, ch);
    wmma::store_matrix_sync(out, cf, 16, wmma::mem_row_major);
    wmma::load_matrix_sync(cf, fs, 16, wmma::mem_col_major);
    wmma::mma_sync(ch, a, b, cf);
    wmma::store_matrix_sync(hout, ch, 16, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> a2;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> b2;
    wmma::fragment<wmma::accumulator, 8, 32, 16, half> ch2;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> cf2;
    wmma::load_matrix_sync(a2, hs + 512, 16);
    wmma::load_matrix_sync(b2, hs + 1536, 32);
    wmma::load_matrix_sync(ch2, hs + 1024, 32, wmma::mem_col_major);
    wmma::mma_sync(cf2, a2, b2, ch2);
    wmma::store_matrix_sync(out + 256, cf2, 32, wmma::mem_row_major);
}
