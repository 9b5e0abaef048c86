// Kernels for the -lineinfo test (cli/tests/lineinfo.rs): nvcc -lineinfo -ptx writes
// kernels.sm_80.ptx from this file (see generate.sh).
__device__ float square(float x) { return x * x; }

__device__ float clamp01(float x) {
  if (x < 0.0f)
    return 0.0f;
  return x > 1.0f ? 1.0f : x;
}

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * square(x[i]) + y[i];
}

extern "C" __global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float part[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
    acc += in[i];
  part[t] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, part[0]);
}

extern "C" __global__ void scale_clamp(float *v, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = v[i] * k;
  v[i] = clamp01(x);
}
