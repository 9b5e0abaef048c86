// archs: sm_75 sm_80 sm_86 sm_90
// CUB block- and warp-level primitives in user kernels: radix sort, loads and stores by several
// algorithms, histograms, adjacent differences, run-length decoding, warp merge sort and exchange.
#include <cub/cub.cuh>
#include <cuda/functional>
#include <cuda/std/functional>

template <int THREADS, int ITEMS, typename Key, typename Value>
__global__ void block_radix_sort_pairs(Key* keys, Value* values) {
  using Sort = cub::BlockRadixSort<Key, THREADS, ITEMS, Value>;
  using Load = cub::BlockLoad<Key, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
  using LoadV = cub::BlockLoad<Value, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<Key, THREADS, ITEMS, cub::BLOCK_STORE_VECTORIZE>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Load::TempStorage load;
    typename LoadV::TempStorage loadv;
    typename Store::TempStorage store;
  } tmp;
  Key k[ITEMS];
  Value v[ITEMS];
  int base = blockIdx.x * THREADS * ITEMS;
  Load(tmp.load).Load(keys + base, k);
  __syncthreads();
  LoadV(tmp.loadv).Load(values + base, v);
  __syncthreads();
  Sort(tmp.sort).SortDescendingBlockedToStriped(k, v);
  __syncthreads();
  Store(tmp.store).Store(keys + base, k);
  for (int i = 0; i < ITEMS; ++i) values[base + i * THREADS + threadIdx.x] = v[i];
}
template __global__ void block_radix_sort_pairs<128, 4, unsigned, float>(unsigned*, float*);
template __global__ void block_radix_sort_pairs<256, 2, long long, short>(long long*, short*);
template __global__ void block_radix_sort_pairs<64, 8, float, int>(float*, int*);
template __global__ void block_radix_sort_pairs<128, 3, double, char>(double*, char*);

template <int THREADS, int BINS, int ITEMS>
__global__ void block_histogram(const unsigned char* in, unsigned* hist, int n) {
  using Hist = cub::BlockHistogram<unsigned char, THREADS, ITEMS, BINS, cub::BLOCK_HISTO_SORT>;
  using HistA = cub::BlockHistogram<unsigned char, THREADS, ITEMS, BINS, cub::BLOCK_HISTO_ATOMIC>;
  __shared__ typename Hist::TempStorage tmp;
  __shared__ unsigned smem[BINS];
  unsigned char items[ITEMS];
  cub::LoadDirectStriped<THREADS>(threadIdx.x, in + blockIdx.x * THREADS * ITEMS, items, n, (unsigned char)0);
  Hist(tmp).Histogram(items, smem);
  __syncthreads();
  HistA().Composite(items, smem);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += THREADS) atomicAdd(hist + b, smem[b]);
}
template __global__ void block_histogram<256, 256, 4>(const unsigned char*, unsigned*, int);
template __global__ void block_histogram<128, 64, 8>(const unsigned char*, unsigned*, int);

struct Diff {
  __device__ int operator()(int a, int b) const { return a - b; }
};
template <int THREADS, int ITEMS>
__global__ void block_adjacent_and_runs(const int* in, int* out, const int* run_values, const int* run_lengths) {
  using Adj = cub::BlockAdjacentDifference<int, THREADS>;
  using Flag = cub::BlockDiscontinuity<int, THREADS>;
  using Rld = cub::BlockRunLengthDecode<int, THREADS, 2, ITEMS>;
  __shared__ union {
    typename Adj::TempStorage adj;
    typename Flag::TempStorage flag;
    typename Rld::TempStorage rld;
  } tmp;
  int items[ITEMS], flags[ITEMS];
  cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * THREADS * ITEMS, items);
  Adj(tmp.adj).SubtractLeft(items, items, Diff());
  __syncthreads();
  Flag(tmp.flag).FlagHeads(flags, items, cuda::std::not_equal_to<int>());
  __syncthreads();
  int rv[2] = {run_values[2 * threadIdx.x], run_values[2 * threadIdx.x + 1]};
  int rl[2] = {run_lengths[2 * threadIdx.x] & 3, run_lengths[2 * threadIdx.x + 1] & 3};
  int total;
  Rld rld(tmp.rld, rv, rl, total);
  int decoded[ITEMS];
  rld.RunLengthDecode(decoded, 0);
  for (int i = 0; i < ITEMS; ++i)
    out[(blockIdx.x * THREADS + threadIdx.x) * ITEMS + i] = items[i] * flags[i] + decoded[i] + total;
}
template __global__ void block_adjacent_and_runs<128, 4>(const int*, int*, const int*, const int*);

template <int WARP_THREADS, int ITEMS, typename T>
__global__ void warp_sort_exchange(T* data) {
  constexpr int WARPS = 4;
  using Sort = cub::WarpMergeSort<T, ITEMS, WARP_THREADS>;
  using Exch = cub::WarpExchange<T, ITEMS, WARP_THREADS>;
  __shared__ typename Sort::TempStorage sort[WARPS];
  __shared__ typename Exch::TempStorage exch[WARPS];
  int warp = threadIdx.x / WARP_THREADS, lane = threadIdx.x % WARP_THREADS;
  T items[ITEMS];
  T* base = data + (blockIdx.x * blockDim.x + warp * WARP_THREADS) * ITEMS;
  for (int i = 0; i < ITEMS; ++i) items[i] = base[lane * ITEMS + i];
  Sort(sort[warp]).Sort(items, cuda::std::less<T>());
  Exch(exch[warp]).BlockedToStriped(items, items);
  for (int i = 0; i < ITEMS; ++i) base[i * WARP_THREADS + lane] = items[i];
}
template __global__ void warp_sort_exchange<32, 4, float>(float*);
template __global__ void warp_sort_exchange<16, 8, int>(int*);
template __global__ void warp_sort_exchange<8, 2, unsigned long long>(unsigned long long*);

template <typename T>
__global__ void warp_scan_reduce(const T* in, T* out) {
  using Scan = cub::WarpScan<T>;
  using Reduce = cub::WarpReduce<T, 16>;
  __shared__ typename Scan::TempStorage scan[8];
  __shared__ typename Reduce::TempStorage red[16];
  T x = in[blockIdx.x * blockDim.x + threadIdx.x], inc, exc, agg;
  Scan(scan[threadIdx.x / 32]).InclusiveSum(x, inc, agg);
  Scan(scan[threadIdx.x / 32]).ExclusiveScan(x, exc, cuda::maximum<>());
  T r = Reduce(red[threadIdx.x / 16]).HeadSegmentedSum(x, (threadIdx.x & 3) == 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = inc + exc + agg + r;
}
template __global__ void warp_scan_reduce<int>(const int*, int*);
template __global__ void warp_scan_reduce<double>(const double*, double*);
template __global__ void warp_scan_reduce<unsigned short>(const unsigned short*, unsigned short*);
