; atomicMax on floats the way CUDA code writes it: a compare-and-swap loop on the bit pattern
; (cmpxchg), so the result does not depend on the order the threads win.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
define void @cas_max(i32 %n, float* %x, float* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %start, label %done
start:
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds float, float* %x, i64 %ie
  %v = load float, float* %px, align 4
  %slot = bitcast float* %out to i32*
  %cur0 = load volatile i32, i32* %slot, align 4
  br label %try
try:
  %cur = phi i32 [ %cur0, %start ], [ %seen, %retry ]
  %curf = bitcast i32 %cur to float
  %bigger = fcmp ogt float %v, %curf
  br i1 %bigger, label %swap, label %done
swap:
  %vi = bitcast float %v to i32
  %pair = cmpxchg i32* %slot, i32 %cur, i32 %vi seq_cst seq_cst
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %done, label %retry
retry:
  br label %try
done:
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32, float*, float*)* @cas_max, !"kernel", i32 1}
