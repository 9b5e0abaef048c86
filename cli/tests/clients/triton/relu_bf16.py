# Triton kernel: bf16 elementwise max(x, 0) * y in bf16 arithmetic.
import triton
import triton.language as tl

@triton.jit
def relu_bf16(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0).to(tl.bfloat16) * y, mask=mask)

KERNEL = relu_bf16
SIGNATURE = {"x_ptr": "*bf16", "y_ptr": "*bf16", "out_ptr": "*bf16", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 256}
