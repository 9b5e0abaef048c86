; Block sum of 32-bit integers: warp shuffles, one partial per warp in shared memory, a barrier,
; then thread 0 adds the block's total into out[0] atomically.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()

declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
@partial = internal addrspace(3) global [4 x i32] undef, align 4

define void @reduce_sum(i32 %n, i32* %x, i32* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %load, label %reduce
load:
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds i32, i32* %x, i64 %ie
  %vx = load i32, i32* %px, align 4
  br label %reduce
reduce:
  %v0 = phi i32 [ 0, %entry ], [ %vx, %load ]
  %s16 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v0, i32 16, i32 31)
  %v1 = add i32 %v0, %s16
  %s8 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v1, i32 8, i32 31)
  %v2 = add i32 %v1, %s8
  %s4 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v2, i32 4, i32 31)
  %v3 = add i32 %v2, %s4
  %s2 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v3, i32 2, i32 31)
  %v4 = add i32 %v3, %s2
  %s1 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v4, i32 1, i32 31)
  %v5 = add i32 %v4, %s1
  %lane = and i32 %tid, 31
  %warp = lshr i32 %tid, 5
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %keep, label %sync
keep:
  %wi = zext i32 %warp to i64
  %slot = getelementptr inbounds [4 x i32], [4 x i32] addrspace(3)* @partial, i64 0, i64 %wi
  store i32 %v5, i32 addrspace(3)* %slot, align 4
  br label %sync
sync:
  call void @llvm.nvvm.barrier0()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %total, label %done
total:
  %p0 = load i32, i32 addrspace(3)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(3)* @partial, i64 0, i64 0), align 4
  %p1 = load i32, i32 addrspace(3)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(3)* @partial, i64 0, i64 1), align 4
  %p2 = load i32, i32 addrspace(3)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(3)* @partial, i64 0, i64 2), align 4
  %p3 = load i32, i32 addrspace(3)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(3)* @partial, i64 0, i64 3), align 4
  %a01 = add i32 %p0, %p1
  %a23 = add i32 %p2, %p3
  %sum = add i32 %a01, %a23
  %old = atomicrmw add i32* %out, i32 %sum seq_cst
  br label %done
done:
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{void (i32, i32*, i32*)* @reduce_sum, !"kernel", i32 1}
!1 = !{void (i32, i32*, i32*)* @reduce_sum, !"maxntidx", i32 128}
