# Triton kernel: exact GELU through libdevice's erf (CUDA libdevice linked into Triton's LLVM IR).
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

@triton.jit
def gelu_libdevice(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, 0.5 * x * (1 + libdevice.erf(x * 0.7071067811865476)), mask=mask)

KERNEL = gelu_libdevice
SIGNATURE = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 256}
