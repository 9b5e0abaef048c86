# Triton kernel: one 64x64 tile of C = A @ B (fp16 in, fp32 acc), shaped so that on sm_90a Triton
# uses Hopper's warpgroup MMA (wgmma) and on sm_80 mma.sync.
import triton
import triton.language as tl

@triton.jit
def matmul_wgmma(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))

KERNEL = matmul_wgmma
SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
CONSTEXPRS = {"BM": 64, "BN": 64, "BK": 32}
