; IEEE f32 operations LLVM maps one-to-one: sqrt.rn, div.rn, floor, conversions, min/max, fabs,
; copysign; the result mixes them so that each one shows.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.sqrt.f32(float)
declare float @llvm.floor.f32(float)
declare float @llvm.fabs.f32(float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.copysign.f32(float, float)

define void @math_f32(float* %x, float* %y, float* %out, i32* %iout) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds float, float* %x, i64 %ie
  %py = getelementptr inbounds float, float* %y, i64 %ie
  %a = load float, float* %px, align 4
  %b = load float, float* %py, align 4
  %ab = call float @llvm.fabs.f32(float %a)
  %s = call float @llvm.sqrt.f32(float %ab)
  %q = fdiv float %s, %b
  %f = call float @llvm.floor.f32(float %q)
  %lo = call float @llvm.minnum.f32(float %f, float %a)
  %hi = call float @llvm.maxnum.f32(float %lo, float -4.0)
  %cs = call float @llvm.copysign.f32(float %hi, float %b)
  %po = getelementptr inbounds float, float* %out, i64 %ie
  store float %cs, float* %po, align 4
  %scaled = fmul float %q, 1.000000e+03
  %qi = fptosi float %scaled to i32
  %back = sitofp i32 %i to float
  %bi = fptoui float %back to i32
  %mix = xor i32 %qi, %bi
  %pio = getelementptr inbounds i32, i32* %iout, i64 %ie
  store i32 %mix, i32* %pio, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (float*, float*, float*, i32*)* @math_f32, !"kernel", i32 1}
