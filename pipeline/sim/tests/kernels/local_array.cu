// Local arrays indexed by runtime values, which nvcc places in __local_depot: a per-thread table
// filled in a loop and read and updated at data-dependent indices (ld/st.local), bytes and 64-bit
// words of one, and a generic pointer into one (cvta.local: %SP) read and written through inline
// generic ld/st.
// PTX: nvcc -ptx -arch=sm_80 local_array.cu -o local_array.ptx
extern "C" __global__ void local_table(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned table[12];
#pragma unroll 1
    for (int k = 0; k < 12; ++k) table[k] = in[(t + 7 * k) & 1023] + k;
    unsigned i = in[t] % 12, j = in[t + 64] % 12;
    table[i] += table[j];
    out[2 * t] = table[j] ^ table[(i + 5) % 12];
    out[2 * t + 1] = table[in[t + 128] % 12];
}

extern "C" __global__ void local_bytes_wide(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned char bytes[16];
    unsigned long long wide[4];
#pragma unroll 1
    for (int k = 0; k < 16; ++k) bytes[k] = (unsigned char)(in[t + 32 * k] >> k);
#pragma unroll 1
    for (int k = 0; k < 4; ++k) wide[k] = ((unsigned long long)in[t + 96 * k] << 32) | in[t + 5 * k];
    unsigned i = in[t] & 15, j = in[t + 64] & 3;
    bytes[i] ^= 0x5a;
    wide[j] += wide[(j + 1) & 3];
    out[3 * t] = bytes[in[t + 128] & 15] | (bytes[i] << 8);
    out[3 * t + 1] = (unsigned)wide[in[t + 192] & 3];
    out[3 * t + 2] = (unsigned)(wide[j] >> 32);
}

extern "C" __global__ void local_generic(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned words[8];
#pragma unroll 1
    for (int k = 0; k < 8; ++k) words[k] = in[t + 64 * k];
    unsigned *p = &words[in[t] & 7];
    unsigned v;
    asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(p));
    asm volatile("st.u32 [%0], %1;" : : "l"(p + 0), "r"(v * 3 + 1));
    out[2 * t] = words[in[t + 32] & 7];
    out[2 * t + 1] = v;
}
