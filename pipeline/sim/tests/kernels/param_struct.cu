// Struct parameters read through a runtime offset: ptxas indexes constant bank 0 with a register
// (LDC R, c[0x0][Rn+imm]); the words, halves, bytes and 64-bit elements of arrays inside the struct.
// PTX: nvcc -ptx -arch=sm_80 param_struct.cu -o param_struct.ptx

struct Table {
    int n;
    float scale;
    int words[16];
    unsigned short halves[8];
    signed char bytes[8];
    long long wide[4];
    unsigned *out;
    const unsigned *in;
};

extern "C" __global__ void param_struct_indexed(Table p) {
    unsigned t = threadIdx.x;
    unsigned k = t & 15;
    unsigned v = p.words[k] + p.words[(k * 7) & 15] * 3u;
    v += p.halves[t & 7] + (unsigned)(int)p.bytes[(t >> 1) & 7];
    unsigned long long w = (unsigned long long)p.wide[t & 3];
    v ^= (unsigned)(w >> 17) + (unsigned)w;
    p.out[t] = p.in[t] * (unsigned)p.n + v + __float_as_uint(p.scale);
}

// A pointer walked over the array in a loop that is not unrolled.
extern "C" __global__ void param_struct_loop(Table p) {
    unsigned t = threadIdx.x;
    unsigned s = 0;
    unsigned count = (t & 15) + 1;
#pragma unroll 1
    for (unsigned i = 0; i < count; ++i) {
        s = s * 31u + (unsigned)p.words[i];
    }
    p.out[t] = s + p.in[t];
}
