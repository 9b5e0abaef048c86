# Triton kernel: integer arithmetic (xor, shifts, floor division and modulo by a runtime scalar, min).
import triton
import triton.language as tl

@triton.jit
def int_ops(x_ptr, out_ptr, d, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = (x ^ (x >> 7)) * 0x2545F491
    r = tl.minimum(h // d, (h % d) << 3)
    tl.store(out_ptr + offs, r, mask=mask)

KERNEL = int_ops
SIGNATURE = {"x_ptr": "*i32", "out_ptr": "*i32", "d": "i32", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 128}
