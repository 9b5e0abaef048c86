extern "C" __global__ void row_sum(const int* m, int* out, int cols) {
  int row = blockIdx.x;
  int s = 0;
  for (int j = 0; j < cols; ++j) s += m[row * cols + j];
  out[row] = s;
}
