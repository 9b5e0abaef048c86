// archs: sm_80
// Thrust algorithms (CUDA back end) on types and functors the corpus's Thrust module lacks.
#include <thrust/device_ptr.h>
#include <thrust/tuple.h>
#include <thrust/transform.h>
#include <thrust/count.h>
#include <thrust/extrema.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
#include <thrust/copy.h>
#include <thrust/functional.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/counting_iterator.h>

struct Square {
  __host__ __device__ double operator()(float x) const { return (double)x * x; }
};
struct Positive {
  __host__ __device__ bool operator()(int x) const { return x > 0; }
};
struct Dist {
  __host__ __device__ float operator()(const thrust::tuple<float, float>& t) const {
    float a = thrust::get<0>(t), b = thrust::get<1>(t);
    return sqrtf(a * a + b * b);
  }
};

void instantiate(double* d, float* f, float* g, int* k, int* v, long long* l, int n) {
  auto pol = thrust::device;
  thrust::sort_by_key(pol, d, d + n, k);
  thrust::stable_sort(pol, l, l + n, thrust::greater<long long>());
  thrust::transform_reduce(pol, f, f + n, Square(), 0.0, thrust::plus<double>());
  thrust::inclusive_scan_by_key(pol, k, k + n, f, g);
  thrust::exclusive_scan(pol, v, v + n, l, 0LL);
  thrust::unique(pol, k, k + n);
  thrust::copy_if(pol, v, v + n, k, Positive());
  thrust::reduce_by_key(pol, k, k + n, d, v, d);
  auto z = thrust::make_zip_iterator(thrust::make_tuple(f, g));
  thrust::transform(pol, z, z + n, f, Dist());
  thrust::count_if(pol, v, v + n, Positive());
  thrust::max_element(pol, d, d + n);
}
