# Triton kernel: inclusive prefix sum of one row (tl.cumsum: a warp-shuffle scan).
import triton
import triton.language as tl

@triton.jit
def cumsum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=0))

KERNEL = cumsum
SIGNATURE = {"x_ptr": "*i32", "out_ptr": "*i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 256}
