// printf and assert: vprintf and __assertfail called through CALL.ABS.NOINC (the address from a
// .nv.constant4 slot, the return address from LEPC); a value live across each call.
#include <cassert>
#include <cstdio>

extern "C" __global__ void printf_assert(const int *in, int *out, int n) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    int a = in[t], b = in[t + n];
    if ((a & 15) == 3) printf("t=%d a=%d b=%u\n", t, a, b);
    assert((b & 31) != 9);
    out[t] = a + b;
}
