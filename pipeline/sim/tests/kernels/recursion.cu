// Recursive device functions (direct and mutual), which ptxforge keeps as CALL.REL.NOINC
// subroutines: fib with two calls per level (divergent depths across lanes), mutual recursion,
// 64-bit and several arguments, a recursive walk over global memory, a call under a branch.
// PTX: nvcc -ptx -arch=sm_80 recursion.cu -o recursion.ptx
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ bool is_odd(unsigned n);
__device__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

__device__ unsigned long long pow_mod(unsigned long long b, unsigned e, unsigned long long m) {
  if (e == 0) return 1 % m;
  unsigned long long h = pow_mod(b, e / 2, m);
  h = h * h % m;
  return (e & 1) ? h * (b % m) % m : h;
}

__device__ int tree_sum(const int *v, int at, int n) {
  if (at >= n) return 0;
  return v[at] + tree_sum(v, 2 * at + 1, n) + tree_sum(v, 2 * at + 2, n);
}

__device__ float depth_mix(float x, int d) {
  if (d <= 0) return x;
  float y = depth_mix(x * 0.5f + 1.0f, d - 1);
  return y * 0.75f + x;
}

extern "C" __global__ void rec_fib(int *out, const int *in) {
  int i = threadIdx.x;
  out[i] = fib(in[i] & 15);
  if (i & 1) out[64 + i] = fib(i & 7);
}

extern "C" __global__ void rec_mutual(unsigned *out, const unsigned *in) {
  int i = threadIdx.x;
  out[i] = is_even(in[i] & 63) + 2 * is_odd(i);
}

extern "C" __global__ void rec_wide(unsigned long long *out, const unsigned long long *in,
                                    const int *v) {
  int i = threadIdx.x;
  out[i] = pow_mod(in[i], i + 3, (in[i + 1] & 0xffffff) + 7);
  ((int *)out)[128 + i] = tree_sum(v, i & 15, 40 + (i & 31));
}

extern "C" __global__ void rec_float(float *out, const float *in) {
  int i = threadIdx.x;
  out[i] = depth_mix(in[i], i & 11);
}
