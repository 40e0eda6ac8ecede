// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/conv.cl — forward Convolution (groups, strides,
// dilations, padding, optional bias), any data/weights format through
// strides: one work-item per output element (n, oc, od, oh, ow), spatial
// dims padded to 3 with size-1 dims. Accumulates in f32.

#ifdef CONV_FWD
kernel void conv_fwd(const global SRC_T *src, const global WEI_T *wei,
#ifdef WITH_BIAS
        const global BIA_T *bia,
#endif
        global DST_T *dst) {
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    const long ow = i % OW; i /= OW;
    const long oh = i % OH; i /= OH;
    const long od = i % OD; i /= OD;
    const long oc = i % OC; i /= OC;
    const long n = i;
    const long g = oc / OCG;
    float acc = 0.f;
    for (long icg = 0; icg < ICG; ++icg) {
        const long ic = g * ICG + icg;
        for (long kd = 0; kd < KD; ++kd) {
            const long id = od * SD - PD + kd * DD;
            if (id < 0 || id >= ID) continue;
            for (long kh = 0; kh < KH; ++kh) {
                const long ih = oh * SH - PH + kh * DH;
                if (ih < 0 || ih >= IH) continue;
                for (long kw = 0; kw < KW; ++kw) {
                    const long iw = ow * SW - PW + kw * DW;
                    if (iw < 0 || iw >= IW) continue;
                    const float x = LD(SRC, src,
                            n * XS_N + ic * XS_C + id * XS_D + ih * XS_H + iw * XS_W);
                    const float w = LD(WEI, wei,
                            oc * WS_O + icg * WS_I + kd * WS_D + kh * WS_H + kw * WS_W);
                    acc += x * w;
                }
            }
        }
    }
#ifdef WITH_BIAS
    acc += LD(BIA, bia, oc * BIA_STRIDE);
#endif
    ST(DST, dst, n * YS_N + oc * YS_C + od * YS_D + oh * YS_H + ow * YS_W, acc);
}

#endif

// Backward data and ConvTranspose (the same relation read the other way):
// X[n, cx, i] = bias[cx] + sum over cy of the group and k with
// i = o * S + k * D - P for an integer o in range: Y[n, cy, o] * W[cy, xi, k].
// One work-item per X element; the SRC tensor is Y, DST is X.
#ifdef CONV_BWD_DATA
kernel void conv_bwd_data(const global SRC_T *src, const global WEI_T *wei,
#ifdef WITH_BIAS
        const global BIA_T *bia,
#endif
        global DST_T *dst) {
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    const long iw = i % IW; i /= IW;
    const long ih = i % IH; i /= IH;
    const long id = i % ID; i /= ID;
    const long ic = i % IC; i /= IC;
    const long n = i;
    const long g = ic / ICG, icg = ic % ICG;
    float acc = 0.f;
    for (long kd = 0; kd < KD; ++kd) {
        const long td = id + PD - kd * DD;
        if (td < 0 || td % SD) continue;
        const long od = td / SD;
        if (od >= OD) continue;
        for (long kh = 0; kh < KH; ++kh) {
            const long th = ih + PH - kh * DH;
            if (th < 0 || th % SH) continue;
            const long oh = th / SH;
            if (oh >= OH) continue;
            for (long kw = 0; kw < KW; ++kw) {
                const long tw = iw + PW - kw * DW;
                if (tw < 0 || tw % SW) continue;
                const long ow = tw / SW;
                if (ow >= OW) continue;
                for (long ocg = 0; ocg < OCG; ++ocg) {
                    const long oc = g * OCG + ocg;
                    acc += LD(SRC, src, n * YS_N + oc * YS_C + od * YS_D
                                   + oh * YS_H + ow * YS_W)
                            * LD(WEI, wei, oc * WS_O + icg * WS_I + kd * WS_D
                                            + kh * WS_H + kw * WS_W);
                }
            }
        }
    }
#ifdef WITH_BIAS
    acc += LD(BIA, bia, ic * BIA_STRIDE);
#endif
    ST(DST, dst, n * XS_N + ic * XS_C + id * XS_D + ih * XS_H + iw * XS_W, acc);
}

#endif

// Backward weights: W[cy, xi, k] = sum over n and o of
// X[n, g * ICG + xi, o * S + k * D - P] * Y[n, cy, o]. One work-item per
// weight element; SRC is X, DD is Y, DST is W.
#ifdef CONV_BWD_W
kernel void conv_bwd_w(const global SRC_T *src, const global DD_T *dd,
        global DST_T *dst) {
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    const long kw = i % KW; i /= KW;
    const long kh = i % KH; i /= KH;
    const long kd = i % KD; i /= KD;
    const long icg = i % ICG; i /= ICG;
    const long oc = i;
    const long ic = (oc / OCG) * ICG + icg;
    float acc = 0.f;
    for (long n = 0; n < MB; ++n)
        for (long od = 0; od < OD; ++od) {
            const long id = od * SD + kd * DD - PD;
            if (id < 0 || id >= ID) continue;
            for (long oh = 0; oh < OH; ++oh) {
                const long ih = oh * SH + kh * DH - PH;
                if (ih < 0 || ih >= IH) continue;
                for (long ow = 0; ow < OW; ++ow) {
                    const long iw = ow * SW + kw * DW - PW;
                    if (iw < 0 || iw >= IW) continue;
                    acc += LD(SRC, src, n * XS_N + ic * XS_C + id * XS_D
                                   + ih * XS_H + iw * XS_W)
                            * LD(DD, dd, n * YS_N + oc * YS_C + od * YS_D
                                          + oh * YS_H + ow * YS_W);
                }
            }
        }
    ST(DST, dst, oc * WS_O + icg * WS_I + kd * WS_D + kh * WS_H + kw * WS_W, acc);
}
#endif
