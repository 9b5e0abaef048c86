# Triton kernel: index of the largest fp32 value of each row (tl.argmax: a value-and-index reduction).
import triton
import triton.language as tl

@triton.jit
def argmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(out_ptr + row, tl.argmax(x, axis=0))

KERNEL = argmax
SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*i32", "n_cols": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 128}
