extern "C" __global__ void select_pred(const int* a, const float* f, int* out, int lo, int hi) {
  int i = threadIdx.x;
  int x = a[i];
  bool in = (x >= lo) && (x < hi);
  bool pos = f[i] > 0.0f || f[i] != f[i];
  out[i] = in ? (pos ? 1 : 2) : x;
}
