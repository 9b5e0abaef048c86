; A 32x32 tile transpose through shared memory padded to 33 columns, blocks of 32x8 threads
; (each thread moves four elements), a barrier between the phases; width given at run time.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
@tile = internal addrspace(3) global [32 x [33 x float]] undef, align 4

define void @transpose(i32 %width, float* %in, float* %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %x0 = shl i32 %bx, 5
  %x = add i32 %x0, %tx
  %y0 = shl i32 %by, 5
  br label %load
load:
  %j = phi i32 [ 0, %entry ], [ %j1, %load ]
  %row = add i32 %ty, %j
  %y = add i32 %y0, %row
  %lin = mul i32 %y, %width
  %idx = add i32 %lin, %x
  %ie = zext i32 %idx to i64
  %pi = getelementptr inbounds float, float* %in, i64 %ie
  %v = load float, float* %pi, align 4
  %r64 = zext i32 %row to i64
  %c64 = zext i32 %tx to i64
  %slot = getelementptr inbounds [32 x [33 x float]], [32 x [33 x float]] addrspace(3)* @tile, i64 0, i64 %r64, i64 %c64
  store float %v, float addrspace(3)* %slot, align 4
  %j1 = add nuw nsw i32 %j, 8
  %more = icmp ult i32 %j1, 32
  br i1 %more, label %load, label %sync
sync:
  call void @llvm.nvvm.barrier0()
  %ox0 = shl i32 %by, 5
  %ox = add i32 %ox0, %tx
  %oy0 = shl i32 %bx, 5
  br label %store
store:
  %k = phi i32 [ 0, %sync ], [ %k1, %store ]
  %orow = add i32 %ty, %k
  %oy = add i32 %oy0, %orow
  %olin = mul i32 %oy, %width
  %oidx = add i32 %olin, %ox
  %oe = zext i32 %oidx to i64
  %tr = zext i32 %tx to i64
  %tc = zext i32 %orow to i64
  %tslot = getelementptr inbounds [32 x [33 x float]], [32 x [33 x float]] addrspace(3)* @tile, i64 0, i64 %tr, i64 %tc
  %w = load float, float addrspace(3)* %tslot, align 4
  %po = getelementptr inbounds float, float* %out, i64 %oe
  store float %w, float* %po, align 4
  %k1 = add nuw nsw i32 %k, 8
  %omore = icmp ult i32 %k1, 32
  br i1 %omore, label %store, label %done
done:
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32, float*, float*)* @transpose, !"kernel", i32 1}
