// Integer and f64 tensor-core tiles through inline mma.sync, one warp each, as a CUDA GEMM writes
// them: fragments gathered from row-major A and column-major B by the PTX ISA's lane formulas,
// two K steps accumulated (the second mma reads the first's D), then D stored row-major.
// int8: A 16x64 and B 64x8 s8 from the input bytes, C from input words pushed toward the s32
// limits for some rows, m16n8k32 with .satfinite. f64: A 8x8, B 8x8 from (w & 63) - 32 over 8,
// m8n8k4 twice. b1: A 8x256, B 256x8 bits, m8n8k128 .xor.popc twice.
// PTX: nvcc -ptx -arch=sm_80 mma_asm.cu -o mma_asm.ptx
#include <stdint.h>

extern "C" __global__ void imma_tile(const uint32_t *in, int32_t *out) {
    unsigned lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const int8_t *a = (const int8_t *)in;          // A[r][k] at a[64 r + k]
    const int8_t *b = (const int8_t *)(in + 256);  // B[k][c] at b[64 c + k]
    const uint32_t *cw = in + 512;
    int32_t d[4];
    for (int i = 0; i < 4; i++) {
        unsigned r = g + 8 * (i >> 1), c = 2 * t + (i & 1);
        uint32_t w = cw[8 * r + c];
        d[i] = (w & 3) == 0 ? 0x7fffffff - (int32_t)(w >> 12) : (w & 3) == 1 ? (int32_t)(0x80000000u + (w >> 12)) : (int32_t)w;
    }
    for (int ks = 0; ks < 64; ks += 32) {
        uint32_t fa[4], fb[2];
        for (int j = 0; j < 4; j++) {
            unsigned r = g + 8 * (j & 1), k = ks + 4 * t + 16 * (j >> 1);
            fa[j] = *(const uint32_t *)(a + 64 * r + k);
        }
        for (int j = 0; j < 2; j++) {
            unsigned k = ks + 4 * t + 16 * j;
            fb[j] = *(const uint32_t *)(b + 64 * g + k);
        }
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
            : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
    }
    for (int i = 0; i < 4; i++) out[8 * (g + 8 * (i >> 1)) + 2 * t + (i & 1)] = d[i];
}

extern "C" __global__ void dmma_tile(const uint32_t *in, double *out) {
    unsigned lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    auto val = [](uint32_t w) { return (double)((int)(w & 63) - 32) * 0.125; };
    double d0 = val(in[512 + 8 * g + 2 * t]), d1 = val(in[512 + 8 * g + 2 * t + 1]);
    for (int ks = 0; ks < 8; ks += 4) {
        double fa = val(in[8 * g + ks + t]);         // A[g][ks + t], row-major 8x8
        double fb = val(in[256 + 8 * g + ks + t]);   // B[ks + t][g], column-major
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                     : "+d"(d0), "+d"(d1)
                     : "d"(fa), "d"(fb));
    }
    out[8 * g + 2 * t] = d0;
    out[8 * g + 2 * t + 1] = d1;
}

extern "C" __global__ void bmma_tile(const uint32_t *in, int32_t *out) {
    unsigned lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int32_t d0 = (int32_t)in[512 + lane], d1 = -(int32_t)(in[544 + lane] & 0xffff);
    for (int ks = 0; ks < 8; ks += 4) {
        uint32_t fa = in[8 * g + ks + t];            // A row g, bits 32 (ks + t) ..
        uint32_t fb = in[256 + 8 * g + ks + t];      // B column g
        asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1}, {%2}, {%3}, {%0, %1};"
                     : "+r"(d0), "+r"(d1)
                     : "r"(fa), "r"(fb));
    }
    out[8 * g + 2 * t] = d0;
    out[8 * g + 2 * t + 1] = d1;
}
