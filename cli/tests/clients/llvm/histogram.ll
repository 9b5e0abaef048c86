; A 64-bin histogram of bytes: bins in shared memory cleared by the block, shared atomics, a
; barrier, then one global atomic per bin.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
@bins = internal addrspace(3) global [64 x i32] undef, align 4

define void @histogram(i32 %n, i8* %data, i32* %hist) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %clear = icmp ult i32 %tid, 64
  br i1 %clear, label %zero, label %zeroed
zero:
  %tz = zext i32 %tid to i64
  %zslot = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @bins, i64 0, i64 %tz
  store i32 0, i32 addrspace(3)* %zslot, align 4
  br label %zeroed
zeroed:
  call void @llvm.nvvm.barrier0()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %count, label %counted
count:
  %ie = sext i32 %i to i64
  %pd = getelementptr inbounds i8, i8* %data, i64 %ie
  %b = load i8, i8* %pd, align 1
  %bz = zext i8 %b to i64
  %bin = and i64 %bz, 63
  %slot = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @bins, i64 0, i64 %bin
  %o = atomicrmw add i32 addrspace(3)* %slot, i32 1 monotonic
  br label %counted
counted:
  call void @llvm.nvvm.barrier0()
  br i1 %clear, label %flush, label %done
flush:
  %tf = zext i32 %tid to i64
  %fslot = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @bins, i64 0, i64 %tf
  %c = load i32, i32 addrspace(3)* %fslot, align 4
  %ph = getelementptr inbounds i32, i32* %hist, i64 %tf
  %o2 = atomicrmw add i32* %ph, i32 %c monotonic
  br label %done
done:
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32, i8*, i32*)* @histogram, !"kernel", i32 1}
