// Barriers with reductions, memory fences, sleeps, lane masks and vote.uni.
extern "C" __global__ void sync_ops(const unsigned* a, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned x = a[t];
  __nanosleep(x & 7);
  __nanosleep(100);
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
  out[4 * t + 0] = any | (all << 1) | (uni << 2) | (cnt << 8);
  out[4 * t + 1] = eq ^ lt;
  out[4 * t + 2] = le ^ (gt << 1);
  out[4 * t + 3] = ge + x;
}
