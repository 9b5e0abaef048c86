# Triton kernel: fused multiply-add with masks and tl.where (negatives clamped to zero).
import triton
import triton.language as tl

@triton.jit
def fma_where(a_ptr, b_ptr, c_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    c = tl.load(c_ptr + offs, mask=mask, other=0.0)
    r = tl.fma(a, b, c)
    r = tl.where(r > 0, r, 0.0)
    tl.store(out_ptr + offs, r, mask=mask)

KERNEL = fma_where
SIGNATURE = {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 256}
