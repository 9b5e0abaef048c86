// archs: sm_75 sm_80 sm_89 sm_90
// CUB device algorithms with key/value types and operators the corpus's CCCL module lacks.
#include <cub/cub.cuh>
#include <cuda/functional>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

struct AbsMax {
  __device__ __forceinline__ double operator()(double a, double b) const { return fabs(a) > fabs(b) ? a : b; }
};
struct IsOdd {
  __device__ __forceinline__ bool operator()(const long long& x) const { return x & 1; }
};
struct Pair {
  float x;
  short y;
};
struct PairSum {
  __device__ __forceinline__ Pair operator()(const Pair& a, const Pair& b) const { return {a.x + b.x, (short)(a.y + b.y)}; }
};

void instantiate(void* tmp, size_t bytes, cudaStream_t s, int n) {
  cub::DeviceReduce::Reduce(tmp, bytes, (double*)0, (double*)0, n, AbsMax(), 0.0, s);
  cub::DeviceReduce::Sum(tmp, bytes, (const float*)0, (double*)0, n, s);
  cub::DeviceReduce::Max(tmp, bytes, (__nv_bfloat16*)0, (__nv_bfloat16*)0, n, s);
  cub::DeviceReduce::ArgMin(tmp, bytes, (const unsigned char*)0, (unsigned char*)0, (int*)0, n, s);
  cub::DeviceReduce::Reduce(tmp, bytes, (Pair*)0, (Pair*)0, n, PairSum(), Pair{0.f, 0}, s);
  cub::DeviceScan::InclusiveSum(tmp, bytes, (double*)0, (double*)0, n, s);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, (short*)0, (int*)0, cuda::maximum<>(), (int)0, n, s);
  cub::DeviceScan::InclusiveSumByKey(tmp, bytes, (int*)0, (float*)0, (float*)0, n, cuda::std::equal_to<int>(), s);
  cub::DeviceRadixSort::SortPairs(tmp, bytes, (const unsigned long long*)0, (unsigned long long*)0, (const float*)0, (float*)0, n, 0, 64, s);
  cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, (const __half*)0, (__half*)0, n, 0, 16, s);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, (const double*)0, (double*)0, n, 0, 64, s);
  cub::DeviceSegmentedRadixSort::SortPairs(tmp, bytes, (const int*)0, (int*)0, (const short*)0, (short*)0, n, 4, (int*)0, (int*)0 + 1, 0, 32, s);
  cub::DeviceHistogram::HistogramEven(tmp, bytes, (const float*)0, (int*)0, 65, 0.f, 1.f, n, s);
  cub::DeviceHistogram::HistogramRange(tmp, bytes, (const unsigned short*)0, (unsigned*)0, 33, (const unsigned short*)0, n, s);
  cub::DeviceSelect::If(tmp, bytes, (const long long*)0, (long long*)0, (int*)0, n, IsOdd(), s);
  cub::DeviceSelect::Unique(tmp, bytes, (const float*)0, (float*)0, (long long*)0, n, s);
  cub::DeviceSelect::Flagged(tmp, bytes, (const double*)0, (const char*)0, (double*)0, (int*)0, n, s);
  cub::DevicePartition::If(tmp, bytes, (const long long*)0, (long long*)0, (int*)0, n, IsOdd(), s);
  cub::DeviceRunLengthEncode::Encode(tmp, bytes, (const int*)0, (int*)0, (int*)0, (int*)0, n, s);
  cub::DeviceSegmentedReduce::Sum(tmp, bytes, (const float*)0, (double*)0, 8, (const int*)0, (const int*)0 + 1, s);
  cub::DeviceReduce::ReduceByKey(tmp, bytes, (const short*)0, (short*)0, (const double*)0, (double*)0, (int*)0, cuda::std::plus<>(), n, s);
  cub::DeviceMergeSort::SortKeys(tmp, bytes, (long long*)0, n, cuda::std::less<long long>(), s);
}
