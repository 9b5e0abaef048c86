# Triton kernel: fp16 elementwise a * s + b, computed in fp32 and stored as fp16.
import triton
import triton.language as tl

@triton.jit
def scale_f16(a_ptr, b_ptr, out_ptr, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (a * s + b).to(tl.float16), mask=mask)

KERNEL = scale_f16
SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "out_ptr": "*fp16", "s": "fp32", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 256}
