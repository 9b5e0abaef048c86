# Triton kernel: RMS normalisation of bf16 rows with an fp32 reduction, rsqrt and a weight.
import triton
import triton.language as tl

@triton.jit
def rms_norm_bf16(x_ptr, w_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.math.rsqrt(tl.sum(x * x, axis=0) / n + eps)
    tl.store(y_ptr + row * n + cols, (x * r * w).to(tl.bfloat16), mask=mask)

KERNEL = rms_norm_bf16
SIGNATURE = {"x_ptr": "*bf16", "w_ptr": "*bf16", "y_ptr": "*bf16", "n": "i32", "eps": "fp32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 1024}
