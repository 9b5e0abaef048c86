extern "C" __global__ void clamp_or_scale(float* v, float lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = v[i];
  if (x < lo) x = lo * 2.0f;
  else x = x * 0.5f - 1.0f;
  v[i] = x;
}
