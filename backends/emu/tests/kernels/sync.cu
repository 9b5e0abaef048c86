// Kernels that make ptxas emit synchronisation SASS: NANOSLEEP, PMTRIG (pmevent), BAR.RED with B2R.RESULT, MEMBAR
// with ERRBAR/CGAERRBAR and CCTL.IVALL, S2R of the lane masks, VOTE.EQ.
// sync.ptx is generated from this file: nvcc -ptx -arch=compute_75 sync.cu -o sync.ptx
extern "C" __global__ void sync_ops(const unsigned* a, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned x = a[t];
  __nanosleep(x & 7);
  __nanosleep(100);
  __prof_trigger(3);
  unsigned any = __syncthreads_or(x & 1);
  unsigned all = __syncthreads_and(x != 0);
  unsigned cnt = __syncthreads_count(x & 2);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  unsigned eq, lt, le, gt, ge, uni;
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.uni.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
               : "=r"(uni) : "r"(x & 0x80000000u));
  out[8 * t + 0] = any | (all << 1) | (uni << 2);
  out[8 * t + 1] = cnt;
  out[8 * t + 2] = eq;
  out[8 * t + 3] = lt;
  out[8 * t + 4] = le;
  out[8 * t + 5] = gt;
  out[8 * t + 6] = ge;
  out[8 * t + 7] = x;
}

// __syncwarp on both sides of a divergent branch: ptxas's sm_75 code tests convergence (BRA.CONV)
// and otherwise calls a WARPSYNC R0 subroutine.
extern "C" __global__ void syncwarp_diverged(const unsigned* a, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  unsigned x = a[t];
  if (x & 1) {
    s[t] = x * 3;
    __syncwarp();
    out[t] = s[t ^ 1];
  } else {
    s[t] = x + 1;
    __syncwarp();
    out[t] = s[t ^ 1] ^ 5;
  }
}

// The `diverge` kernel of warp.cu on its own: a shuffle after a data-dependent loop and an
// if/else (ptxforge must make the warp converge before the SHFL).
extern "C" __global__ void shfl_diverged(const unsigned* a, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = a[t];
  unsigned n = v % 37;
  for (unsigned k = 0; k < n; ++k) v = v * 3 + k;
  if (t & 1) v ^= 0x5555; else v += t;
  v += __shfl_xor_sync(0xffffffffu, v, 2);
  out[t] = v;
}
