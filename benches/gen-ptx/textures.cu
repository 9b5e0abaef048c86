// archs: sm_75 sm_80 sm_90
// Texture and surface objects (bindless, handle-based) as users write them: tex1Dfetch with integer
// coordinates, tex1D/2D/3D with float coordinates, explicit LOD and gradients, gathers, layered and
// cube textures, texture queries, and surface reads and writes with each boundary mode.
#include <cuda_runtime.h>

__global__ void tex1d_fetch(cudaTextureObject_t t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

__global__ void tex1d_fetch_int4(cudaTextureObject_t t, int4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int4>(t, i);
}

__global__ void tex1d_fetch_uint(cudaTextureObject_t t, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<unsigned>(t, i) * 3u;
}

__global__ void tex1d_float(cudaTextureObject_t t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, i + 0.5f);
}

__global__ void tex2d_float(cudaTextureObject_t t, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void tex2d_float4(cudaTextureObject_t t, float4* out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = tex2D<float4>(t, x + 0.5f, 0.5f);
}

__global__ void tex3d_float(cudaTextureObject_t t, float* out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = tex3D<float>(t, x + 0.5f, 0.5f, 1.5f);
}

__global__ void tex2d_lod(cudaTextureObject_t t, float* out, float lod) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = tex2DLod<float>(t, x + 0.5f, 0.5f, lod);
}

__global__ void tex2d_grad(cudaTextureObject_t t, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float2 dx = make_float2(1.f, 0.f), dy = make_float2(0.f, 1.f);
  out[x] = tex2DGrad<float>(t, x + 0.5f, 0.5f, dx, dy);
}

__global__ void tex2d_gather(cudaTextureObject_t t, float4* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = tex2Dgather<float4>(t, x + 0.5f, 0.5f, 0);
  out[x + blockDim.x] = tex2Dgather<float4>(t, x + 0.5f, 0.5f, 2);
}

__global__ void tex_layered(cudaTextureObject_t t1, cudaTextureObject_t t2, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = tex1DLayered<float>(t1, x + 0.5f, 1) + tex2DLayered<float>(t2, x + 0.5f, 0.5f, 2);
}

__global__ void tex_cube(cudaTextureObject_t t, cudaTextureObject_t tl, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float u = x * 0.01f;
  out[x] = texCubemap<float>(t, 1.f, u, -u) + texCubemapLayered<float>(tl, u, 1.f, 0.5f, 3);
}

__global__ void surf1d_read(cudaSurfaceObject_t s, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = surf1Dread<float>(s, x * 4, cudaBoundaryModeTrap);
}

__global__ void surf2d_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float v;
    surf2Dread(&v, src, x * 4, y);
    surf2Dwrite(v * 2.f + 1.f, dst, x * 4, y);
  }
}

__global__ void surf2d_modes(cudaSurfaceObject_t s, int* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int a = surf2Dread<int>(s, x * 4, 0, cudaBoundaryModeClamp);
  int b = surf2Dread<int>(s, x * 4, 1, cudaBoundaryModeZero);
  out[x] = a + b;
  surf2Dwrite(a - b, s, x * 4, 2, cudaBoundaryModeClamp);
  surf2Dwrite(a * b, s, x * 4, 3, cudaBoundaryModeZero);
}

__global__ void surf2d_vec(cudaSurfaceObject_t s, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = surf2Dread<float4>(s, x * 16, 0);
  uchar4 c = surf2Dread<uchar4>(s, x * 4, 1);
  v.x += c.x; v.w -= c.w;
  surf2Dwrite(v, s, x * 16, 2);
  surf2Dwrite(make_ushort2(c.y, c.z), s, x * 4, 3);
}

__global__ void surf3d_read(cudaSurfaceObject_t s, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = surf3Dread<float>(s, x * 4, 1, 2);
  surf3Dwrite(out[x] + 1.f, s, x * 4, 0, 1);
}

__global__ void surf_layered(cudaSurfaceObject_t s, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = surf2DLayeredread<float>(s, x * 4, 0, 1);
  surf1DLayeredwrite(out[x], s, x * 4, 2);
}
