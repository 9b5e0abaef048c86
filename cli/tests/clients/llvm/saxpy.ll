; y[i] = a * x[i] + y[i], as clang writes a CUDA kernel: generic pointers, a bounds check.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()

define void @saxpy(i32 %n, float %a, float* %x, float* %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds float, float* %x, i64 %ie
  %py = getelementptr inbounds float, float* %y, i64 %ie
  %vx = load float, float* %px, align 4
  %vy = load float, float* %py, align 4
  %mul = fmul contract float %a, %vx
  %r = fadd contract float %mul, %vy
  store float %r, float* %py, align 4
  br label %done
done:
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32, float, float*, float*)* @saxpy, !"kernel", i32 1}
