// printf and assert (vprintf and __assertfail through CALL.ABS.NOINC, LEPC for the return
// address): the odd threads print, the threads whose word is 5 mod 8 fail the assert; values
// stay live across the calls.
// PTX: nvcc -ptx -arch=sm_75 syscalls.cu -o syscalls.ptx
#include <cassert>
#include <cstdio>

extern "C" __global__ void printf_calls(const int *in, int *out) {
    int t = threadIdx.x;
    int a = in[t], b = in[t + 32];
    if (t & 1) printf("%d %x\n", a, b);
    out[t] = a * 3 + b;
}

extern "C" __global__ void assert_calls(const int *in, int *out) {
    int t = threadIdx.x;
    int v = in[t];
    assert((v & 7) != 5);
    out[t] = v + t;
}
