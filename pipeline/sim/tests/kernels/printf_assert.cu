// printf and assert: calls of vprintf and __assertfail (CALL.ABS through .nv.constant4), whose
// arguments the interpreter and the emulator record; values live across the calls.
// PTX: nvcc -ptx -arch=sm_80 printf_assert.cu -o printf_assert.ptx
#include <cassert>
#include <cstdio>

extern "C" __global__ void printf_args(const int *in, int *out) {
    int t = threadIdx.x;
    int a = in[t], b = in[t + 64];
    long long c = (long long)a * b;
    if (t % 8 == 3) printf("t=%d a=%d c=%lld h=%x\n", t, a, c, (unsigned)b);
    out[t] = a + b + (int)c;
    if (t % 16 == 5) printf("%s %d %c|\n", "tag", a ^ b, 'x' + (t & 3));
    out[t + 64] = a - b;
}

extern "C" __global__ void printf_loop(const int *in, int *out) {
    int t = threadIdx.x;
    int s = 0;
    for (int i = 0; i < 3; i++) {
        s += in[t + i];
        if (t == i * 5) printf("i=%d s=%d\n", i, s);
    }
    out[t] = s;
}

extern "C" __global__ void printf_double(const float *in, float *out) {
    int t = threadIdx.x;
    float x = in[t] * 0.5f;
    if (t < 4) printf("x=%f 2x=%e\n", (double)x, (double)(x * 2.0f));
    out[t] = x * 3.0f;
}

extern "C" __global__ void assert_args(const int *in, int *out) {
    int t = threadIdx.x;
    int v = in[t] & 15;
    assert(v != 7);
    out[t] = v * 2;
}
