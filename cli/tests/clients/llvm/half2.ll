; Half precision as clang writes __half/__half2 code for sm_53+: scalar f16 and <2 x half>
; arithmetic, conversions to and from f32.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
define void @half2(half* %x, <2 x half>* %v, float* %out, <2 x half>* %vout) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds half, half* %x, i64 %ie
  %h = load half, half* %px, align 2
  %h2 = fmul half %h, 0xH3E00
  %h3 = fadd half %h2, %h
  %f = fpext half %h3 to float
  %po = getelementptr inbounds float, float* %out, i64 %ie
  store float %f, float* %po, align 4
  %pv = getelementptr inbounds <2 x half>, <2 x half>* %v, i64 %ie
  %w = load <2 x half>, <2 x half>* %pv, align 4
  %w2 = fmul <2 x half> %w, %w
  %w3 = fsub <2 x half> %w2, <half 0xH3C00, half 0xH4000>
  %pvo = getelementptr inbounds <2 x half>, <2 x half>* %vout, i64 %ie
  store <2 x half> %w3, <2 x half>* %pvo, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (half*, <2 x half>*, float*, <2 x half>*)* @half2, !"kernel", i32 1}
