// Vector loads and stores (.v2/.v4 of 32- and 64-bit elements) in global and shared memory, and
// 64-bit values packed from and unpacked into 32-bit halves (mov.b64 with vector operands).
union Split {
    long long whole;
    int2 halves;
};

extern "C" __global__ void vector_mem(const float4* __restrict__ in4, float4* out4, const longlong2* __restrict__ in2,
                                      longlong2* out2, int2* outi, long long* outp) {
    __shared__ int2 sh[64];
    int t = threadIdx.x;
    float4 v = in4[t];
    v.x += v.w;
    v.z -= v.y;
    out4[t] = v;
    longlong2 q = in2[t];
    q.x += q.y;
    out2[t] = q;
    Split s;
    s.whole = q.x;
    sh[t] = make_int2(s.halves.y + t, s.halves.x);
    __syncthreads();
    int2 r = sh[63 - t];
    outi[t] = make_int2(r.y, r.x);
    Split p;
    p.halves = make_int2(r.x ^ t, r.y);
    outp[t] = p.whole + t;
}
