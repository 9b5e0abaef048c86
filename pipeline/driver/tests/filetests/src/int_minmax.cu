extern "C" __global__ void int_minmax(const int* a, const int* b, int* out) {
  int i = threadIdx.x;
  int x = a[i], y = b[i];
  out[4 * i + 0] = min(x, y);
  out[4 * i + 1] = max(x, y);
  out[4 * i + 2] = abs(x) - y;
  out[4 * i + 3] = -x + (int)min((unsigned)x, (unsigned)y);
}
