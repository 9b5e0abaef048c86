; A grid-stride loop with a 64-bit running sum per thread and a data-dependent select inside.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
define void @grid_stride(i32 %n, i32* %x, i64* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %grid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %m = mul i32 %bid, %bdim
  %start = add nsw i32 %m, %tid
  %stride = mul i32 %grid, %bdim
  %any = icmp slt i32 %start, %n
  br i1 %any, label %loop, label %store
loop:
  %i = phi i32 [ %start, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %loop ]
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds i32, i32* %x, i64 %ie
  %v = load i32, i32* %px, align 4
  %neg = icmp slt i32 %v, 0
  %v64 = sext i32 %v to i64
  %sq = mul nsw i64 %v64, %v64
  %term = select i1 %neg, i64 %sq, i64 %v64
  %acc1 = add i64 %acc, %term
  %next = add nsw i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %store
store:
  %r = phi i64 [ 0, %entry ], [ %acc1, %loop ]
  %se = sext i32 %start to i64
  %po = getelementptr inbounds i64, i64* %out, i64 %se
  store i64 %r, i64* %po, align 8
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32, i32*, i64*)* @grid_stride, !"kernel", i32 1}
