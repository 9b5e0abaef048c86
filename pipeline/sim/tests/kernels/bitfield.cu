// bfe/bfi (32 and 64 bit, signed and unsigned), brev, popc, clz, bfind, shf.l/r wrap and clamp, lop3.
// Two entries: the bit-count instructions (popc, brev, clz) stand apart from the field ones.
// PTX: nvcc -ptx -arch=sm_80 bitfield.cu -o bitfield.ptx
extern "C" __global__ void bitfield(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], e = in[4 * t + 3];
    unsigned pos = c & 63, len = (c >> 8) & 63; // positions/lengths past 32 on purpose
    unsigned long long w = ((unsigned long long)b << 32) | a;
    unsigned *o = out + 16 * t;
    unsigned d; int s; unsigned long long dw; long long sw;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(pos), "r"(len)); o[0] = d;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(pos), "r"(len)); o[1] = s;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(dw) : "l"(w), "r"(pos), "r"(len)); o[2] = (unsigned)dw ^ (unsigned)(dw >> 32);
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(sw) : "l"(w), "r"(pos), "r"(len)); o[3] = (unsigned)sw ^ (unsigned)(sw >> 29);
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(pos), "r"(len)); o[4] = d;
    o[5] = a ^ (b << (c & 31));
    o[6] = (unsigned)(w >> (e & 63));
    o[7] = (unsigned)((long long)w >> (a & 63));
    asm("bfind.u32 %0, %1;" : "=r"(d) : "r"(e >> (a & 31))); o[8] = d;
    asm("bfind.s32 %0, %1;" : "=r"(d) : "r"((int)e >> (a & 31))); o[9] = d;
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(d) : "r"(a >> (b & 31))); o[10] = d;
    asm("bfind.s64 %0, %1;" : "=r"(d) : "l"((long long)w >> (e & 63))); o[11] = d;
    o[12] = __funnelshift_l(a, b, c) ^ __funnelshift_r(a, b, e);
    o[13] = __funnelshift_lc(a, b, c) ^ (__funnelshift_rc(a, b, e) << 1);
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); o[14] = d;
    unsigned x, y;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(x) : "r"(a), "r"(b), "r"(e));
    asm("lop3.b32 %0, %1, %2, %3, 0x1b;" : "=r"(y) : "r"(x), "r"(c), "r"(e));
    o[15] = x + y + (~a & b | c);
}

extern "C" __global__ void bitcount(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], e = in[4 * t + 3];
    unsigned long long w = ((unsigned long long)b << 32) | a;
    unsigned *o = out + 4 * t;
    o[0] = __brev(a) ^ (unsigned)__brevll(w);
    o[1] = __popc(a) + 64 * __popcll(w);
    o[2] = __clz(e >> (c & 31)) + 64 * __clzll(w >> (b & 63));
    o[3] = (unsigned)(__brevll(w) >> 32) + __popc(c & e) + __clz(0);
}
