extern "C" __global__ void ldg_nc(const float* __restrict__ a, float* __restrict__ b) {
  int i = threadIdx.x;
  b[i] = a[i] + a[i + 32];
}
