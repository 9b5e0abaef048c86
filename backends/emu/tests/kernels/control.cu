// Kernels that make ptxas emit control flow beyond a guarded BRA: a BRA with a predicate input
// (sm_90: "@!P0 BRA P1, target" closing a loop with two exit conditions), and a call of a
// function kept out of line (CALL.REL.NOINC, RET.REL.NODEC), and a recursive one (its subroutine
// saves and restores registers and its convergence barrier: STL/LDL, BMOV.32).
// control.ptx is generated from this file: nvcc -ptx -arch=compute_75 control.cu -o control.ptx
extern "C" __global__ void window_sum(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned tile;
    unsigned t = threadIdx.x;
    if (t == 0) tile = in[t + 1000];
    __syncthreads();
    unsigned base = tile * 0x40u;
    unsigned end = base + 0x40u;
    unsigned acc = 0;
    for (unsigned i = base; i < end && i < n; i += 32)
        acc += in[i + t];
    out[t] = acc;
}

__device__ __noinline__ unsigned mix(unsigned x, unsigned y)
{
    return (x * 2654435761u) ^ (y >> 3);
}

extern "C" __global__ void calls(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned a = mix(in[t], t);
    out[t] = mix(a, in[t + 64]) + a;
}

__device__ unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void fib_calls(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x;
    out[t] = fib(in[t] & 7);
}
