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
    long n, oc, od, oh, ow;
    split_index5(i, OC, OD, OH, OW, &n, &oc, &od, &oh, &ow);
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
                            NCSP_AT(X, n, ic, id, ih, iw));
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
    ST(DST, dst, NCSP_AT(Y, n, oc, od, oh, ow), acc);
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
    long n, ic, id, ih, iw;
    split_index5(i, IC, ID, IH, IW, &n, &ic, &id, &ih, &iw);
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
                    acc += LD(SRC, src, NCSP_AT(Y, n, oc, od, oh, ow))
                            * LD(WEI, wei, oc * WS_O + icg * WS_I + kd * WS_D
                                            + kh * WS_H + kw * WS_W);
                }
            }
        }
    }
#ifdef WITH_BIAS
    acc += LD(BIA, bia, ic * BIA_STRIDE);
#endif
    ST(DST, dst, NCSP_AT(X, n, ic, id, ih, iw), acc);
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
    long oc, icg, kd, kh, kw;
    split_index5(i, ICG, KD, KH, KW, &oc, &icg, &kd, &kh, &kw);
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
                    acc += LD(SRC, src, NCSP_AT(X, n, ic, id, ih, iw))
                            * LD(DD, dd, NCSP_AT(Y, n, oc, od, oh, ow));
                }
            }
        }
    ST(DST, dst, oc * WS_O + icg * WS_I + kd * WS_D + kh * WS_H + kw * WS_W, acc);
}
#endif
