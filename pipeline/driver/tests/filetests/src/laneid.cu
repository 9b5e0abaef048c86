extern "C" __global__ void laneid(unsigned* out) {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  out[threadIdx.x] = l;
}
