# Triton kernel: tl.device_print, which Triton lowers to a call of CUDA's vprintf (an .extern .func).
import triton
import triton.language as tl

@triton.jit
def device_print(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.device_print("x", tl.load(x_ptr + offs))

KERNEL = device_print
SIGNATURE = {"x_ptr": "*i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 32}
