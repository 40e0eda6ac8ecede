// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/pool.cl — MaxPool and AvgPool forward: one work-item
// per output element (n, c, od, oh, ow), spatial dims padded to 3. Padding
// never participates; AvgPool divides by the in-bounds count (EXCLUDE_PAD)
// or by the window clipped to the padded extent.

kernel void pool_fwd(const global SRC_T *src, global DST_T *dst) {
    long i = get_global_id(0);
    if (i >= NELEMS) return;
    const long ow = i % OW; i /= OW;
    const long oh = i % OH; i /= OH;
    const long od = i % OD; i /= OD;
    const long c = i % C;
    const long n = i / C;
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
                        n * XS_N + c * XS_C + id * XS_D + ih * XS_H + iw * XS_W);
#ifdef AVG
                acc += v;
#else
                if (v > acc || isnan(v)) acc = v;
#endif
            }
        }
    }
#ifdef AVG
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
    acc = div > 0.f ? acc / div : 0.f;
#endif
    ST(DST, dst, n * YS_N + c * YS_C + od * YS_D + oh * YS_H + ow * YS_W, acc);
}
