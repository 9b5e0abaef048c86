extern "C" __global__ void bitops(const unsigned* a, unsigned* out, int sh) {
  unsigned i = threadIdx.x;
  unsigned x = a[i];
  out[i] = ((x & 0xff00u) | (x << 3)) ^ ~(x >> sh) ^ (unsigned)((int)x >> 5);
}
