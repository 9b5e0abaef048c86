; float4 loads and stores (ld.global.v4.f32 / st.global.v4.f32) and a horizontal sum.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
define void @vec4_copy(<4 x float>* %in, <4 x float>* %out, float* %sums) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %ie = sext i32 %i to i64
  %pi = getelementptr inbounds <4 x float>, <4 x float>* %in, i64 %ie
  %v = load <4 x float>, <4 x float>* %pi, align 16
  %w = fmul <4 x float> %v, <float 2.0, float 0.5, float -1.0, float 3.0>
  %po = getelementptr inbounds <4 x float>, <4 x float>* %out, i64 %ie
  store <4 x float> %w, <4 x float>* %po, align 16
  %e0 = extractelement <4 x float> %v, i32 0
  %e1 = extractelement <4 x float> %v, i32 1
  %e2 = extractelement <4 x float> %v, i32 2
  %e3 = extractelement <4 x float> %v, i32 3
  %s01 = fadd float %e0, %e1
  %s23 = fadd float %e2, %e3
  %s = fadd float %s01, %s23
  %ps = getelementptr inbounds float, float* %sums, i64 %ie
  store float %s, float* %ps, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (<4 x float>*, <4 x float>*, float*)* @vec4_copy, !"kernel", i32 1}
