// The SIMD video intrinsics (__vadd2, __vabsdiffu4, __vcmpeq4, __vsads2, ...) and the DPX-style
// __vi* min/max functions, each once per thread; as sm_80 PTX nvcc writes vabsdiff2/vabsdiff4 for
// the sad/absdiff forms and integer code (with setp on 16-bit registers) for the rest.
// Odd threads take random words; even threads a second word that differs from the first only in
// the low bit of some bytes (equal and adjacent lanes).
// PTX: nvcc -ptx -arch=sm_80 simd_video.cu -o simd_video.ptx
#define LOAD unsigned t = threadIdx.x, a = in[2 * t], r = in[2 * t + 1]; \
    unsigned b = (t & 1) ? r : a ^ (r & 0x01010101u); int k = 0
#define BIN(f) out[16 * k++ + t] = f(a, b);
#define UN(f) out[16 * k++ + t] = f(a);
#define TRI(f) out[16 * k++ + t] = f(a, b, a ^ r);
#define PAIR(e) { unsigned v = e; out[16 * k++ + t] = v + p + 2 * q; }
#define ONE(e) { unsigned v = e; out[16 * k++ + t] = v + p; }
#define TRI_S(f) out[16 * k++ + t] = (unsigned)f((int)a, (int)b, (int)(a ^ r));

extern "C" __global__ void simd_halves(const unsigned *in, unsigned *out) {
    LOAD;
    BIN(__vabsdiffs2) BIN(__vabsdiffu2) BIN(__vadd2) BIN(__vaddss2) BIN(__vaddus2) BIN(__vavgs2)
    BIN(__vavgu2) BIN(__vcmpeq2) BIN(__vcmpges2) BIN(__vcmpgeu2) BIN(__vcmpgts2) BIN(__vcmpgtu2)
    BIN(__vcmples2) BIN(__vcmpleu2) BIN(__vcmplts2) BIN(__vcmpltu2) BIN(__vcmpne2) BIN(__vhaddu2)
    BIN(__vmaxs2) BIN(__vmaxu2) BIN(__vmins2) BIN(__vminu2) BIN(__vsads2) BIN(__vsadu2)
    BIN(__vseteq2) BIN(__vsetges2) BIN(__vsetgeu2) BIN(__vsetgts2) BIN(__vsetgtu2) BIN(__vsetles2)
    BIN(__vsetleu2) BIN(__vsetlts2) BIN(__vsetltu2) BIN(__vsetne2) BIN(__vsub2) BIN(__vsubss2)
    BIN(__vsubus2)
    UN(__vabs2) UN(__vabsss2) UN(__vneg2) UN(__vnegss2)
}

extern "C" __global__ void simd_bytes(const unsigned *in, unsigned *out) {
    LOAD;
    BIN(__vabsdiffs4) BIN(__vabsdiffu4) BIN(__vadd4) BIN(__vaddss4) BIN(__vaddus4) BIN(__vavgs4)
    BIN(__vavgu4) BIN(__vcmpeq4) BIN(__vcmpges4) BIN(__vcmpgeu4) BIN(__vcmpgts4) BIN(__vcmpgtu4)
    BIN(__vcmples4) BIN(__vcmpleu4) BIN(__vcmplts4) BIN(__vcmpltu4) BIN(__vcmpne4) BIN(__vhaddu4)
    BIN(__vmaxs4) BIN(__vmaxu4) BIN(__vmins4) BIN(__vminu4) BIN(__vsads4) BIN(__vsadu4)
    BIN(__vseteq4) BIN(__vsetges4) BIN(__vsetgeu4) BIN(__vsetgts4) BIN(__vsetgtu4) BIN(__vsetles4)
    BIN(__vsetleu4) BIN(__vsetlts4) BIN(__vsetltu4) BIN(__vsetne4) BIN(__vsub4) BIN(__vsubss4)
    BIN(__vsubus4)
    UN(__vabs4) UN(__vabsss4) UN(__vneg4) UN(__vnegss4)
}

extern "C" __global__ void dpx_minmax(const unsigned *in, unsigned *out) {
    LOAD;
    bool p, q;
    TRI(__viaddmax_s16x2) TRI(__viaddmax_s16x2_relu) TRI_S(__viaddmax_s32)
    TRI_S(__viaddmax_s32_relu) TRI(__viaddmax_u16x2) TRI(__viaddmax_u32) TRI(__viaddmin_s16x2)
    TRI(__viaddmin_s16x2_relu) TRI_S(__viaddmin_s32) TRI_S(__viaddmin_s32_relu)
    TRI(__viaddmin_u16x2) TRI(__viaddmin_u32) TRI(__vimax3_s16x2) TRI(__vimax3_s16x2_relu)
    TRI_S(__vimax3_s32) TRI_S(__vimax3_s32_relu) TRI(__vimax3_u16x2) TRI(__vimax3_u32)
    TRI(__vimin3_s16x2) TRI(__vimin3_s16x2_relu) TRI_S(__vimin3_s32) TRI_S(__vimin3_s32_relu)
    TRI(__vimin3_u16x2) TRI(__vimin3_u32)
    out[16 * k++ + t] = __vimax_s16x2_relu(a, b);
    out[16 * k++ + t] = (unsigned)__vimax_s32_relu((int)a, (int)b);
    out[16 * k++ + t] = __vimin_s16x2_relu(a, b);
    out[16 * k++ + t] = (unsigned)__vimin_s32_relu((int)a, (int)b);
    PAIR(__vibmax_s16x2(a, b, &p, &q))
    ONE((unsigned)__vibmax_s32((int)a, (int)b, &p))
    PAIR(__vibmax_u16x2(a, b, &p, &q))
    ONE(__vibmax_u32(a, b, &p))
    PAIR(__vibmin_s16x2(a, b, &p, &q))
    ONE((unsigned)__vibmin_s32((int)a, (int)b, &p))
    PAIR(__vibmin_u16x2(a, b, &p, &q))
    ONE(__vibmin_u32(a, b, &p))
}
