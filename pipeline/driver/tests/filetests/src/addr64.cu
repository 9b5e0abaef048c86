extern "C" __global__ void gather64(const long long* src, long long* dst, const long long* idx, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[idx[i]] + i;
}
