// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/conv.cl — forward Convolution (groups, strides,
// dilations, padding, optional bias), any data/weights format through
// strides: one work-item per output element (n, oc, od, oh, ow), spatial
// dims padded to 3 with size-1 dims. Accumulates in f32.

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
