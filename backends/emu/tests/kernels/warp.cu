// Kernels that make ptxas emit warp-level, atomic, divergent and indexed-constant SASS
// (SHFL, VOTE, POPC, FLO, BREV, ATOMS/ATOMG/RED, BSSY/BSYNC, LDC with a register index, CS2R,
// uniform datapath ops).
// warp.ptx is generated from this file: nvcc -ptx -arch=compute_75 warp.cu -o warp.ptx
extern "C" __global__ void warp_ops(const unsigned* a, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned x = a[t];
  out[8 * t + 0] = __popc(x) | (__clz(x) << 8) | ((unsigned)__ffs(x) << 16);
  out[8 * t + 1] = __brev(x);
  out[8 * t + 2] = __shfl_xor_sync(0xffffffffu, x, 1);
  out[8 * t + 3] = __shfl_down_sync(0xffffffffu, x, 3);
  out[8 * t + 4] = __shfl_up_sync(0xffffffffu, x, 5);
  out[8 * t + 5] = __shfl_sync(0xffffffffu, x, x & 31);
  out[8 * t + 6] = __ballot_sync(0xffffffffu, x & 1);
  out[8 * t + 7] = __any_sync(0xffffffffu, x > 0xf0000000u) | (__all_sync(0xffffffffu, x != 0) << 1);
}

extern "C" __global__ void atomics(int* g, unsigned* hist, const unsigned* a, int* old) {
  __shared__ unsigned sh[16];
  unsigned t = threadIdx.x;
  if (t < 16) sh[t] = 0;
  __syncthreads();
  atomicAdd(&sh[a[t] & 15], 1u);
  atomicAdd(&g[0], (int)a[t]);
  atomicMax(&g[1], (int)a[t]);
  old[t] = atomicAdd(&g[2], 1);
  atomicExch(&g[3], 7);
  __syncthreads();
  if (t < 16) hist[t] = sh[t];
}

extern "C" __global__ void diverge(const unsigned* a, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = a[t];
  unsigned n = v % 37;
  for (unsigned k = 0; k < n; ++k) v = v * 3 + k;
  if (t & 1) v ^= 0x5555; else v += t;
  v += __shfl_xor_sync(0xffffffffu, v, 2);
  out[t] = v;
}

struct Table { int v[16]; };
extern "C" __global__ void param_index(Table p, int* out) { out[threadIdx.x] = p.v[threadIdx.x & 15]; }

extern "C" __global__ void uniform_ops(long long* out, long long base, int shift) {
  long long cta = (long long)blockIdx.x * blockDim.x * 12345ll + base;
  long long s = cta << (shift & 31);
  unsigned m = ((unsigned)blockIdx.x ^ 0xffu) & (unsigned)shift;
  long long acc = 0;
  for (int k = 0; k < (int)(threadIdx.x & 3); ++k) acc += s + m + k;
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + cta;
}

extern "C" __global__ void uniform_addr(const int* in, int* out, int n, int ld) {
  const int* row = in + (size_t)blockIdx.x * ld;
  int* orow = out + (size_t)blockIdx.x * 32;
  int s = 0;
  for (int j = threadIdx.x; j < n; j += 32) s += row[j];
  orow[threadIdx.x] = s + (ld >> 3) + (int)(((unsigned long long)ld << 35) >> 40);
}
