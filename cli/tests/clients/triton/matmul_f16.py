# Triton kernel: one 32x32 tile of C = A @ B with tl.dot, fp16 inputs and an fp32 accumulator.
import triton
import triton.language as tl

@triton.jit
def matmul_f16(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)

KERNEL = matmul_f16
SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
CONSTEXPRS = {"BM": 32, "BN": 32, "BK": 32}
