# Triton kernel: one block of flash attention's forward pass (Q K^T, online softmax with exp2,
# P V), fp16 inputs and fp32 accumulators, two tl.dot chained through a rescaled accumulator.
import triton
import triton.language as tl

@triton.jit
def attention(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    m_i = tl.zeros((BM,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BM,), dtype=tl.float32)
    acc = tl.zeros((BM, D), dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start in range(0, n_ctx, BN):
        rn = start + tl.arange(0, BN)
        k = tl.load(k_ptr + rn[None, :] * D + rd[:, None])
        qk = tl.dot(q, k) * qk_scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
        acc += tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], acc.to(tl.float16))

KERNEL = attention
SIGNATURE = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "n_ctx": "i32", "sm_scale": "fp32", "BM": "constexpr", "BN": "constexpr", "D": "constexpr"}
CONSTEXPRS = {"BM": 64, "BN": 32, "D": 64}
