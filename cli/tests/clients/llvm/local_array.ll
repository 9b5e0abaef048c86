; A per-thread array indexed by data (clang keeps it in local memory: LLVM's __local_depot,
; %SP/%SPL), filled in a loop, then read at data-dependent positions.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
define void @local_array(i32* %idx, i32* %out) {
entry:
  %arr = alloca [16 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  br label %fill
fill:
  %k = phi i32 [ 0, %entry ], [ %k1, %fill ]
  %sq = mul i32 %k, %k
  %val = add i32 %sq, %i
  %k64 = zext i32 %k to i64
  %slot = getelementptr inbounds [16 x i32], [16 x i32]* %arr, i64 0, i64 %k64
  store volatile i32 %val, i32* %slot, align 4
  %k1 = add nuw nsw i32 %k, 1
  %more = icmp ult i32 %k1, 16
  br i1 %more, label %fill, label %read
read:
  %ie = sext i32 %i to i64
  %pi = getelementptr inbounds i32, i32* %idx, i64 %ie
  %j = load i32, i32* %pi, align 4
  %j15 = and i32 %j, 15
  %j64 = zext i32 %j15 to i64
  %rslot = getelementptr inbounds [16 x i32], [16 x i32]* %arr, i64 0, i64 %j64
  %r = load volatile i32, i32* %rslot, align 4
  %j2 = lshr i32 %j, 4
  %j2m = and i32 %j2, 15
  %j2_64 = zext i32 %j2m to i64
  %rslot2 = getelementptr inbounds [16 x i32], [16 x i32]* %arr, i64 0, i64 %j2_64
  %r2 = load volatile i32, i32* %rslot2, align 4
  %sum = add i32 %r, %r2
  %po = getelementptr inbounds i32, i32* %out, i64 %ie
  store i32 %sum, i32* %po, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @local_array, !"kernel", i32 1}
