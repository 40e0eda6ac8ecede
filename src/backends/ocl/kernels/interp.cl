// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/interp.cl — Interpolate (one work-item per dst
// element, 2^3 corner taps) and InterpolateBackward (one work-item per
// diff_src element, gathering the diff_dst elements that read it; no
// atomics). Spatial dims are padded to 3 (padding dims have size 1 both
// sides). X = src / diff_src (sizes ID, IH, IW), Y = dst / diff_dst (OD,
// OH, OW). Options NEAREST (else linear) and ALIGN_CORNERS (else
// half_pixel).
//
// The source coordinate of output index o is s = num / den, exact in
// integers: half_pixel s = (o + 0.5) * in / out - 0.5, align_corners
// s = o * (in - 1) / (out - 1) (0 when out == 1). The taps and their
// rounding and clamping follow ops/interpolate.cpp (make_taps).

inline void coord(long o, long in, long out, long *num, long *den) {
#ifdef ALIGN_CORNERS
    *num = out == 1 ? 0 : o * (in - 1);
    *den = out == 1 ? 1 : out - 1;
#else
    *num = (2 * o + 1) * in - out;
    *den = 2 * out;
#endif
}

// Taps a, b of output index o and their weights wa, wb. Nearest: one tap,
// round half away from zero, clamped to [0, in). Linear: a = trunc(s),
// b = ceil(s) (0 for s < 0), both clamped; wb = |s - a|, wa = 1 - wb.
inline void taps(long o, long in, long out, long *a, long *b, float *wa,
        float *wb) {
    long num, den;
    coord(o, in, out, &num, &den);
#ifdef NEAREST
    const long r = num < 0 ? 0 : min((2 * num + den) / (2 * den), in - 1);
    *a = r;
    *b = r;
    *wa = 1.f;
    *wb = 0.f;
#else
    const long t = num < 0 ? 0 : min(num / den, in - 1);
    *a = t;
    *b = num < 0 ? 0 : min((num + den - 1) / den, in - 1);
    const long r = num - t * den; // (s - a) * den
    *wb = (float)(r < 0 ? -r : r) / (float)den;
    *wa = 1.f - *wb;
#endif
}

#ifdef DST_DT
kernel void interp_fwd(const global SRC_T *src, global DST_T *dst) {
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    long n, c, od, oh, ow;
    split_index5(i, C, OD, OH, OW, &n, &c, &od, &oh, &ow);
    long pd[2], ph[2], pw[2];
    float wd[2], wh[2], ww[2];
    taps(od, ID, OD, &pd[0], &pd[1], &wd[0], &wd[1]);
    taps(oh, IH, OH, &ph[0], &ph[1], &wh[0], &wh[1]);
    taps(ow, IW, OW, &pw[0], &pw[1], &ww[0], &ww[1]);
    const long base = n * XS_N + c * XS_C;
    float acc = 0.f;
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b)
            for (int e = 0; e < 2; ++e) {
                const float w = wd[a] * wh[b] * ww[e];
                if (w != 0.f)
                    acc += w * LD(SRC, src,
                            base + pd[a] * XS_D + ph[b] * XS_H + pw[e] * XS_W);
            }
    ST(DST, dst, NCSP_AT(Y, n, c, od, oh, ow), acc);
}
#endif

#ifdef DX_DT
inline long floordiv(long a, long b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// A range [lo, hi] of output indices that holds every o with p among its
// taps: s(o) within (p - 1, p + 1), widened by one each side; the first
// and last source index also take the clamped outputs at the ends.
inline void out_range(long p, long in, long out, long *lo, long *hi) {
#ifdef ALIGN_CORNERS
    long l = 0, h = out - 1;
    if (in > 1 && out > 1) {
        l = floordiv((p - 1) * (out - 1), in - 1) - 1;
        h = floordiv((p + 1) * (out - 1), in - 1) + 2;
    }
#else
    long l = floordiv((2 * p - 1) * out - in, 2 * in) - 1;
    long h = floordiv((2 * p + 3) * out - in, 2 * in) + 2;
#endif
    if (p == 0) l = 0;
    if (p == in - 1) h = out - 1;
    *lo = l < 0 ? 0 : l;
    *hi = h > out - 1 ? out - 1 : h;
}

// The weight with which output index o reads source index p along one
// dim (both taps may be p); false when neither tap is p.
inline bool weight_of(long o, long p, long in, long out, float *w) {
    long a, b;
    float wa, wb;
    taps(o, in, out, &a, &b, &wa, &wb);
    *w = (a == p ? wa : 0.f) + (b == p ? wb : 0.f);
    return a == p || b == p;
}

kernel void interp_bwd(const global DY_T *dy, global DX_T *dx) {
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    long n, c, pd, ph, pw;
    split_index5(i, C, ID, IH, IW, &n, &c, &pd, &ph, &pw);
    long d0, d1, h0, h1, w0, w1;
    out_range(pd, ID, OD, &d0, &d1);
    out_range(ph, IH, OH, &h0, &h1);
    out_range(pw, IW, OW, &w0, &w1);
    const long base = n * YS_N + c * YS_C;
    float acc = 0.f;
    for (long od = d0; od <= d1; ++od) {
        float wd;
        if (!weight_of(od, pd, ID, OD, &wd)) continue;
        for (long oh = h0; oh <= h1; ++oh) {
            float wh;
            if (!weight_of(oh, ph, IH, OH, &wh)) continue;
            for (long ow = w0; ow <= w1; ++ow) {
                float ww;
                if (!weight_of(ow, pw, IW, OW, &ww)) continue;
                acc += wd * wh * ww
                        * LD(DY, dy,
                                base + od * YS_D + oh * YS_H + ow * YS_W);
            }
        }
    }
    ST(DX, dx, NCSP_AT(X, n, c, pd, ph, pw), acc);
}
#endif
