// Atomics on global and shared memory: add, min, max, and, or, xor, cas, exch, inc, dec.
// Commutative ones share addresses (only the final value is stored); order-dependent ones
// (cas, exch, inc, dec, and every returned old value) use one address per thread.
// Three entries: contended global atomics, per-thread global atomics, shared-memory atomics.
// PTX: nvcc -ptx -arch=sm_80 atomics.cu -o atomics.ptx
extern "C" __global__ void atomics_contended(const unsigned *in, unsigned *acc) {
    unsigned t = threadIdx.x;
    unsigned v = in[t], w = in[t + 128];
    atomicAdd(&acc[0], v);
    atomicMin(&acc[1], v);
    atomicMax((int *)&acc[2], (int)v);
    atomicAnd(&acc[3], v | 0x0f0f0f0fu);
    atomicOr(&acc[4], v & 0x01010101u);
    atomicXor(&acc[5], v);
    atomicAdd((unsigned long long *)&acc[6], (unsigned long long)v * w);
    atomicMin((int *)&acc[8], (int)w);
    atomicSub(&acc[9], v);
    atomicAdd(&acc[16 + (v & 7)], w);
    atomicMax(&acc[32 + (w & 7)], v);
}

extern "C" __global__ void atomics_private(const unsigned *in, unsigned *acc, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned v = in[t], w = in[t + 128];
    unsigned *o = out + 4 * t;
    o[0] = atomicCAS(&acc[64 + t], w, v) ^ atomicCAS(&acc[64 + t], v, w);
    o[1] = atomicExch(&acc[192 + t], v);
    o[2] = atomicInc(&acc[320 + t], w & 0xff);
    o[3] = atomicDec(&acc[448 + t], w & 0xff) + atomicAdd(&acc[576 + t], v) + atomicOr(&acc[704 + t], w);
    unsigned eq = acc[832 + t];
    atomicCAS(&acc[832 + t], eq, v); // succeeds
}

extern "C" __global__ void atomics_shared(const unsigned *in, unsigned *out) {
    __shared__ unsigned sh[8];
    __shared__ unsigned own[128];
    unsigned t = threadIdx.x;
    unsigned v = in[t], w = in[t + 128];
    if (t < 8) sh[t] = in[256 + t];
    own[t] = in[300 + t];
    __syncthreads();
    atomicAdd(&sh[t & 7], v);
    atomicMax(&sh[(t + 1) & 7], w);
    atomicMin((int *)&sh[(t + 3) & 7], (int)w);
    atomicXor(&sh[(t + 5) & 7], v ^ w);
    unsigned *o = out + 4 * t;
    o[0] = atomicInc(&own[t], v & 3) + atomicDec(&own[(t + 64) & 127], 0);
    o[1] = atomicCAS(&own[t], own[t], w);
    __syncthreads();
    o[2] = atomicExch(&own[t], v) + sh[t & 7];
    o[3] = own[t];
}
