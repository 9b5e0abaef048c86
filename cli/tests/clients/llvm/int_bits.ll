; 32- and 64-bit integer operations: 64-bit division and remainder by a runtime value, high
; multiplies, population count, leading zeros, bit reversal, funnel shifts, byte swaps, min/max.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.nvvm.mulhi.i(i32, i32)

define void @int_bits(i32 %d, i32* %x, i64* %out64, i32* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add nsw i32 %m, %tid
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds i32, i32* %x, i64 %ie
  %a = load i32, i32* %px, align 4
  %a64 = zext i32 %a to i64
  %wide = mul i64 %a64, 2654435761
  %d64 = zext i32 %d to i64
  %d1 = or i64 %d64, 1
  %q = udiv i64 %wide, %d1
  %r = urem i64 %wide, %d1
  %qr = xor i64 %q, %r
  %po64 = getelementptr inbounds i64, i64* %out64, i64 %ie
  store i64 %qr, i64* %po64, align 8
  %pc = call i32 @llvm.ctpop.i32(i32 %a)
  %lz = call i32 @llvm.ctlz.i32(i32 %a, i1 false)
  %rv = call i32 @llvm.bitreverse.i32(i32 %a)
  %fs = call i32 @llvm.fshl.i32(i32 %a, i32 %rv, i32 %pc)
  %bs = call i32 @llvm.bswap.i32(i32 %fs)
  %mh = call i32 @llvm.nvvm.mulhi.i(i32 %a, i32 %bs)
  %mn = call i32 @llvm.umin.i32(i32 %mh, i32 %lz)
  %mx = call i32 @llvm.smax.i32(i32 %mn, i32 %a)
  %sd = sdiv i32 %mx, 7
  %t1 = add i32 %sd, %bs
  %po = getelementptr inbounds i32, i32* %out, i64 %ie
  store i32 %t1, i32* %po, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32, i32*, i64*, i32*)* @int_bits, !"kernel", i32 1}
