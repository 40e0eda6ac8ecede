// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/pool.cl — MaxPool and AvgPool forward (one work-item
// per output element (n, c, od, oh, ow)) and backward (one work-item per
// diff_src element, gathering the windows that cover it; no atomics).
// Spatial dims are padded to 3. Padding never participates; AvgPool divides
// by the in-bounds count (EXCLUDE_PAD) or by the window clipped to the
// padded extent. X = src / diff_src, Y = dst / diff_dst, S = MaxPool's src.

#ifdef AVG
// The average's divisor of output position (od, oh, ow), as
// ops::avg_divisor: the window [o*s - pb, o*s - pb + k) clipped to the
// in-bounds range (EXCLUDE_PAD) or to the padded extent.
inline float avg_div(long od, long oh, long ow) {
    float div = 1.f;
    const long o3[3] = {od, oh, ow};
    const long s3[3] = {SD, SH, SW}, k3[3] = {KD, KH, KW};
    const long pb3[3] = {PD, PH, PW}, pe3[3] = {PED, PEH, PEW};
    const long x3[3] = {ID, IH, IW};
    for (int d = 0; d < 3; ++d) {
        const long start = o3[d] * s3[d] - pb3[d];
#ifdef EXCLUDE_PAD
        const long lo = 0, hi = x3[d];
#else
        const long lo = -pb3[d], hi = x3[d] + pe3[d];
#endif
        const long b = start < lo ? lo : start;
        const long e = start + k3[d] > hi ? hi : start + k3[d];
        div *= e > b ? (float)(e - b) : 0.f;
    }
    return div;
}
#endif

#ifdef DST_DT
kernel void pool_fwd(const global SRC_T *src, global DST_T *dst) {
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    long n, c, od, oh, ow;
    split_index5(i, C, OD, OH, OW, &n, &c, &od, &oh, &ow);
#ifdef AVG
    float acc = 0.f;
#else
    float acc = LOWEST;
#endif
    for (long kd = 0; kd < KD; ++kd) {
        const long id = od * SD + kd * DD - PD;
        if (id < 0 || id >= ID) continue;
        for (long kh = 0; kh < KH; ++kh) {
            const long ih = oh * SH + kh * DH - PH;
            if (ih < 0 || ih >= IH) continue;
            for (long kw = 0; kw < KW; ++kw) {
                const long iw = ow * SW + kw * DW - PW;
                if (iw < 0 || iw >= IW) continue;
                const float v = LD(SRC, src,
                        NCSP_AT(X, n, c, id, ih, iw));
#ifdef AVG
                acc += v;
#else
                if (v > acc || isnan(v)) acc = v;
#endif
            }
        }
    }
#ifdef AVG
    const float div = avg_div(od, oh, ow);
    acc = div > 0.f ? acc / div : 0.f;
#endif
    ST(DST, dst, NCSP_AT(Y, n, c, od, oh, ow), acc);
}
#endif

#ifdef DX_DT
// Output index along one dim whose tap k lands on source index p
// (p = o * s + k * d - pb), or -1.
inline long tap_out(long p, long k, long s, long d, long pb, long osz) {
    const long num = p + pb - k * d;
    if (num < 0 || num % s != 0) return -1;
    const long o = num / s;
    return o < osz ? o : -1;
}

#ifndef AVG
// True when (pd, ph, pw) is the first maximum of window (od, oh, ow) of
// src in scan order, as the reference picks it: the first in-bounds tap,
// then strictly greater values (a NaN wins only as the first tap).
inline bool is_argmax(const global SRC_T *src, long n, long c, long od,
        long oh, long ow, long pd, long ph, long pw) {
    long best = -1;
    float best_val = 0.f;
    for (long kd = 0; kd < KD; ++kd) {
        const long id = od * SD + kd * DD - PD;
        if (id < 0 || id >= ID) continue;
        for (long kh = 0; kh < KH; ++kh) {
            const long ih = oh * SH + kh * DH - PH;
            if (ih < 0 || ih >= IH) continue;
            for (long kw = 0; kw < KW; ++kw) {
                const long iw = ow * SW + kw * DW - PW;
                if (iw < 0 || iw >= IW) continue;
                const float v = LD(SRC, src,
                        NCSP_AT(S, n, c, id, ih, iw));
                if (best < 0 || v > best_val) {
                    best = (id * IH + ih) * IW + iw;
                    best_val = v;
                }
            }
        }
    }
    return best == (pd * IH + ph) * IW + pw;
}
#endif

// diff_src[p] = sum over the windows o covering p of diff_dst[o] divided by
// the window's divisor (AVG), or of diff_dst[o] where p is the window's
// first maximum (max).
#ifdef AVG
kernel void pool_bwd_avg(const global DY_T *dy, global DX_T *dx) {
#else
kernel void pool_bwd_max(const global SRC_T *src, const global DY_T *dy,
        global DX_T *dx) {
#endif
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    long n, c, pd, ph, pw;
    split_index5(i, C, ID, IH, IW, &n, &c, &pd, &ph, &pw);
    float acc = 0.f;
    for (long kd = 0; kd < KD; ++kd) {
        const long od = tap_out(pd, kd, SD, DD, PD, OD);
        if (od < 0) continue;
        for (long kh = 0; kh < KH; ++kh) {
            const long oh = tap_out(ph, kh, SH, DH, PH, OH);
            if (oh < 0) continue;
            for (long kw = 0; kw < KW; ++kw) {
                const long ow = tap_out(pw, kw, SW, DW, PW, OW);
                if (ow < 0) continue;
                const long yoff = NCSP_AT(Y, n, c, od, oh, ow);
#ifdef AVG
                const float div = avg_div(od, oh, ow);
                if (div > 0.f) acc += LD(DY, dy, yoff) / div;
#else
                if (is_argmax(src, n, c, od, oh, ow, pd, ph, pw))
                    acc += LD(DY, dy, yoff);
#endif
            }
        }
    }
    ST(DX, dx, NCSP_AT(X, n, c, pd, ph, pw), acc);
}
#endif
