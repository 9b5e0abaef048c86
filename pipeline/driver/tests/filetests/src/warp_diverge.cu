// Warp collectives after divergent control flow: a data-dependent loop and an if/else split the
// warp before __shfl_xor_sync, __ballot_sync, __any_sync and __syncwarp, which need it whole again.
extern "C" __global__ void warp_diverge(const unsigned* a, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = a[t];
  unsigned n = v % 5;
  for (unsigned k = 0; k < n; ++k) v = v * 3 + k;
  if (t & 1) v ^= 0x5555; else v += t;
  v += __shfl_xor_sync(0xffffffffu, v, 2);
  v += __shfl_down_sync(0xffffffffu, v, 3);
  v += __shfl_up_sync(0xffffffffu, v, 1, 16);
  v += __shfl_sync(0xffffffffu, v, (v >> 3) & 31);
  if (v & 2) v = v * 7 + 1;
  __syncwarp();
  unsigned b = __ballot_sync(0xffffffffu, v & 1);
  int any = __any_sync(0xffffffffu, v > 0x80000000u);
  int all = __all_sync(0xffffffffu, v != 0);
  out[t] = v + b + (any ? 2u : 0u) + (all ? 4u : 0u);
}
