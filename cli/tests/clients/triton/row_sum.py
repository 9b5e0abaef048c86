# Triton kernel: one program per row sums a row of fp32 values (tl.sum reduction).
import triton
import triton.language as tl

@triton.jit
def row_sum(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))

KERNEL = row_sum
SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n_cols": "i32", "stride": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 256}
