// div/rem signed and unsigned, 32 and 64 bit, including division by zero and INT_MIN / -1.
// PTX: nvcc -ptx -arch=sm_80 divrem.cu -o divrem.ptx
extern "C" __global__ void divrem(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], e = in[4 * t + 3];
    switch (t & 7) { // special divisors and dividends on some lanes
    case 0: b = 0; e = 0; break;
    case 1: a = 0x80000000u; b = 0xffffffffu; c = 0; e = 0x80000000u; break;
    case 2: b >>= (c & 31); break;
    case 3: b = 1 + (b & 15); e = 0; c = 0; break;
    default: break;
    }
    unsigned long long x = ((unsigned long long)c << 32) | a, y = ((unsigned long long)e << 32) | b;
    unsigned *o = out + 12 * t;
    unsigned d; int s; unsigned long long dw; long long sw;
    asm("div.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); o[0] = d;
    asm("rem.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); o[1] = d;
    asm("div.s32 %0, %1, %2;" : "=r"(s) : "r"(a), "r"(b)); o[2] = s;
    asm("rem.s32 %0, %1, %2;" : "=r"(s) : "r"(a), "r"(b)); o[3] = s;
    asm("div.u64 %0, %1, %2;" : "=l"(dw) : "l"(x), "l"(y)); o[4] = (unsigned)dw; o[5] = (unsigned)(dw >> 32);
    asm("rem.u64 %0, %1, %2;" : "=l"(dw) : "l"(x), "l"(y)); o[6] = (unsigned)dw; o[7] = (unsigned)(dw >> 32);
    asm("div.s64 %0, %1, %2;" : "=l"(sw) : "l"(x), "l"(y)); o[8] = (unsigned)sw; o[9] = (unsigned)(sw >> 32);
    asm("rem.s64 %0, %1, %2;" : "=l"(sw) : "l"(x), "l"(y)); o[10] = (unsigned)sw; o[11] = (unsigned)(sw >> 32);
}
