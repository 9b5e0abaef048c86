// Device functions kept by nvcc as .func (__noinline__): called from several sites, nested,
// PTX: nvcc -ptx -arch=sm_80 device_calls.cu -o device_calls.ptx
// under divergence, with struct (.b8 array) parameters and results, char parameters and a loop.
struct Vec3 { float x, y, z; int tag; };
struct Pair { double d; int i; char c; };

__device__ __noinline__ float poly(float a, int b) { return a * a + b; }

__device__ __noinline__ Vec3 scale(float s, Vec3 v) {
  Vec3 r;
  r.x = v.x * s; r.y = v.y - s; r.z = v.z + s * v.y; r.tag = v.tag * 3 + 1;
  return r;
}

__device__ __noinline__ int nested(int a) {
  int r = (int)poly((float)(a & 15), a >> 2);
  return r + (int)poly(1.5f, a);
}

__device__ __noinline__ unsigned sum_to(unsigned n, unsigned step) {
  unsigned s = 0;
  for (unsigned k = 0; k < n; k += step) s += k * k ^ n;
  return s;
}

__device__ __noinline__ Pair mix(char c, short h, double d, Pair p) {
  Pair r;
  r.d = d * p.d + c; r.i = p.i + h * c; r.c = (char)(p.c + c);
  return r;
}

extern "C" __global__ void calls_basic(float *out, const int *in) {
  int i = threadIdx.x;
  float v = poly((float)in[i], i);
  if (i & 1) v += poly(v, 3);          // a call under divergence
  Vec3 q = {v, 1.0f + i, 2.0f, in[i]};
  Vec3 r = scale(0.5f * (i & 7), q);
  out[i] = r.x + r.y + r.z;
  ((int *)out)[64 + i] = r.tag + nested(in[i]);
}

extern "C" __global__ void calls_loop(unsigned *out, const unsigned *in, const double *dv) {
  int i = threadIdx.x;
  unsigned n = in[i] & 31;
  unsigned s = 0;
  if (i % 3 == 0) s = sum_to(n, 1 + (i & 3));
  else if (i % 3 == 1) s = sum_to(n + 5, 2);
  Pair p = {dv[i], (int)in[i + 1], (char)in[i + 2]};
  Pair m = mix((char)(in[i] >> 3), (short)(in[i] >> 7), dv[i + 1], p);
  out[i] = s + m.i + m.c;
  ((double *)out)[64 + i] = m.d;
}

__device__ __noinline__ Vec3 step(Vec3 v, int k) {
  Vec3 s = scale(0.25f * k, v);        // three levels: step -> scale, step -> nested -> poly
  s.tag += nested(k + v.tag);
  return s;
}

extern "C" __global__ void calls_deep(float *out, const int *in) {
  int i = threadIdx.x;
  Vec3 v = {(float)in[i] * 1e-6f, 0.5f, -1.0f, i};
  for (int k = 0; k < (i & 3) + 1; ++k) {  // calls in a loop whose trip count varies by lane
    v = step(v, k);
    if (v.tag & 4) break;
  }
  out[i] = v.x + v.y * v.z;
  ((int *)out)[64 + i] = v.tag;
}

struct Big { int v[6]; };

__device__ __noinline__ int pick(Big b, unsigned k, const int *p) {
  int local[8];                        // a local array indexed by a lane value: a frame per copy
  for (int j = 0; j < 8; ++j) local[j] = p[j] ^ b.v[j % 6];
  return local[k & 7] + b.v[(k >> 3) % 6];
}

extern "C" __global__ void calls_local(int *out, const int *in) {
  int i = threadIdx.x;
  Big b;
  for (int j = 0; j < 6; ++j) b.v[j] = in[i + j] * (j + 1);
  int r = pick(b, in[i], in + (i & 15));
  if (i & 2) r += pick(b, i, in + 32);
  out[i] = r;
}
