# Triton kernel: histogram with tl.atomic_add on int32 bins.
import triton
import triton.language as tl

@triton.jit
def atomic_hist(x_ptr, bins_ptr, n, n_bins, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(bins_ptr + (x % n_bins), 1, mask=mask)

KERNEL = atomic_hist
SIGNATURE = {"x_ptr": "*i32", "bins_ptr": "*i32", "n": "i32", "n_bins": "i32", "BLOCK": "constexpr"}
CONSTEXPRS = {"BLOCK": 128}
