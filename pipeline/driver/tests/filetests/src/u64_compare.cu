extern "C" __global__ void u64_compare(const unsigned long long* a, unsigned long long lim, int* out) {
  int i = threadIdx.x;
  out[i] = a[i] < lim ? (int)(a[i] & 0xffff) : (int)(a[i] >> 40);
}
