extern "C" __global__ void mul_wide(const int* a, const unsigned* b, long long* w, int* h, unsigned* hu) {
  int i = threadIdx.x;
  w[i] = (long long)a[i] * 12345 + (long long)a[i] * a[i + 1];
  h[i] = __mulhi(a[i], a[i + 1]);
  hu[i] = __umulhi(b[i], b[i + 1]) + b[i] * 7u + 3u;
}
