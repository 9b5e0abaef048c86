// prmt in every mode (default with a random selector, f4e, b4e, rc8, ecl, ecr, rc16).
// PTX: nvcc -ptx -arch=sm_80 prmt.cu -o prmt.ptx
#define PRMT(mode, d, a, b, c) asm("prmt.b32" mode " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))

extern "C" __global__ void prmt_modes(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    unsigned *o = out + 8 * t;
    unsigned d;
    PRMT("", d, a, b, c); o[0] = d;
    PRMT(".f4e", d, a, b, c); o[1] = d;
    PRMT(".b4e", d, a, b, c); o[2] = d;
    PRMT(".rc8", d, a, b, c); o[3] = d;
    PRMT(".ecl", d, a, b, c); o[4] = d;
    PRMT(".ecr", d, a, b, c); o[5] = d;
    PRMT(".rc16", d, a, b, c); o[6] = d;
    o[7] = __byte_perm(a, b, 0x3715) ^ __byte_perm(a, b, t * 0x1111u);
}
