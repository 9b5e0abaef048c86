; A __noinline__ device function (LLVM writes a .func with .param arguments and a return value,
; called with call.uni) used from two call sites, one of them under a branch.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
define internal i32 @mix(i32 %a, i32 %b) noinline {
entry:
  %m = mul i32 %a, 2654435761
  %x = xor i32 %m, %b
  %r = lshr i32 %x, 7
  %s = add i32 %r, %a
  ret i32 %s
}

define void @device_call(i32* %x, i32* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds i32, i32* %x, i64 %ie
  %a = load i32, i32* %px, align 4
  %h = call i32 @mix(i32 %a, i32 %i)
  %odd = and i32 %a, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %again, label %done
again:
  %h2 = call i32 @mix(i32 %h, i32 %a)
  br label %done
done:
  %r = phi i32 [ %h, %entry ], [ %h2, %again ]
  %po = getelementptr inbounds i32, i32* %out, i64 %ie
  store i32 %r, i32* %po, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @device_call, !"kernel", i32 1}
