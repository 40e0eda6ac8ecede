// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/rows.cl — reductions over "rows": the Reduce family
// (Sum, Mean, Max, Min, Prod, L1, L2), the normalisations (LayerNorm,
// BatchNormInference, BatchNormForwardTraining, GroupNorm) and the backward
// of LayerNorm and BatchNorm (BN_BWD, LN_BWD). One work-item per row; a
// row's first element sits at offset_of(r) over the outer dims ODIMS, and
// its RLEN elements are enumerated over RDIMS with each tensor's strides.

constant long odims[] = {ODIMS};
constant long s_ostrides[] = {S_OSTRIDES};
constant long d_ostrides[] = {D_OSTRIDES};
constant long rdims[] = {RDIMS};
constant long s_rstrides[] = {S_RSTRIDES};
constant long d_rstrides[] = {D_RSTRIDES};

// Neumaier-compensated addition: *s += t, collecting in *c the low-order
// part the f32 sum loses; total() adds it back. Rows can hold millions of
// elements (a global ReduceL2 over 1x512x56x56, BatchNorm statistics over
// 96x71x71 per channel), where plain f32 accumulation in order drifts by
// about n * 2^-24 relative.
inline void add_compensated(float *s, float *c, float t) {
    const float n = *s + t;
    if (isfinite(n)) *c += fabs(*s) >= fabs(t) ? (*s - n) + t : (t - n) + *s;
    *s = n;
}
inline float total(float s, float c) { return isfinite(s) ? s + c : s; }

#ifdef REDUCE
// Additive reductions (Sum, Mean, L1, L2) add the term R_TERM(x),
// compensated.
#if defined(R_SUM)
#define R_TERM(x) (x)
#elif defined(R_L1)
#define R_TERM(x) fabs(x)
#elif defined(R_L2)
#define R_TERM(x) ((x) * (x))
#elif defined(R_MAX)
#define R_INIT (-INFINITY)
#define R_OP(a, x) fmax(a, x)
#elif defined(R_MIN)
#define R_INIT INFINITY
#define R_OP(a, x) fmin(a, x)
#elif defined(R_PROD)
#define R_INIT 1.f
#define R_OP(a, x) ((a) * (x))
#endif
#ifdef R_TERM
#define R_INIT 0.f
#endif
kernel void reduce_rows(const global SRC_T *src, global DST_T *dst) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const long s0 = offset_of(r, OND, odims, s_ostrides);
    float acc = R_INIT;
    bool nan = false;
#ifdef R_TERM
    float comp = 0.f; // the low-order parts acc lost
#endif
    for (long j = 0; j < RLEN; ++j) {
        const float x = LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides));
        nan = nan || isnan(x);
#ifdef R_TERM
        add_compensated(&acc, &comp, R_TERM(x));
#else
        acc = R_OP(acc, x);
#endif
    }
#ifdef R_TERM
    acc = total(acc, comp);
#endif
#ifdef R_SQRT
    acc = sqrt(acc);
#endif
#ifdef R_MEAN
    acc /= (float)RLEN;
#endif
    if (nan) acc = NAN;
    ST(DST, dst, offset_of(r, OND, odims, d_ostrides), acc);
}
#endif

#ifdef NORM
#if defined(STATS_OUT)
constant long t_ostrides[] = {T_OSTRIDES};
// The variance output's strides, when they differ from the mean's.
#ifdef TV_OSTRIDES
constant long tv_ostrides[] = {TV_OSTRIDES};
#else
#define tv_ostrides t_ostrides
#endif
#endif
// Statistics per row (or given, STATS_IN: BatchNormInference), then
// y = (x - mu) / sqrt(v + eps), with gamma/beta (AFFINE; BN_AFFINE for
// BatchNorm's per-channel gamma * y + beta; GN_AFFINE for GroupNorm's, whose
// row is one (n, group) with the channel in the group at j / SP). LayerNorm's
// parameters go along the row (P_STRIDE per element), BatchNorm's per row.
// RUNNING: BatchNorm training's running stats from the mean/var inputs.
kernel void norm_rows(const global SRC_T *src, global DST_T *dst
#ifdef AFFINE
        , const global G_T *gamma, const global G_T *beta
#endif
#if defined(STATS_IN) || defined(RUNNING)
        , const global M_T *mean_in, const global M_T *var_in
#endif
#ifdef STATS_OUT
        , global T_T *mean_out, global T_T *var_out
#endif
#ifdef RUNNING
        , global T_T *run_mean, global T_T *run_var
#endif
) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const long s0 = offset_of(r, OND, odims, s_ostrides);
    const long d0 = offset_of(r, OND, odims, d_ostrides);
#ifdef STATS_IN
    const float mu = LD(M, mean_in, r * M_STRIDE);
    const float v = LD(M, var_in, r * M_STRIDE);
#else
    float sum = 0.f, sum_c = 0.f;
    for (long j = 0; j < RLEN; ++j)
        add_compensated(&sum, &sum_c,
                LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides)));
    const float mu = RLEN ? total(sum, sum_c) / (float)RLEN : 0.f;
    float sq = 0.f, sq_c = 0.f;
    for (long j = 0; j < RLEN; ++j) {
        const float t = LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides)) - mu;
        add_compensated(&sq, &sq_c, t * t);
    }
    const float v = RLEN ? total(sq, sq_c) / (float)RLEN : 0.f;
#endif
    const float inv = 1.f / sqrt(v + EPS);
    for (long j = 0; j < RLEN; ++j) {
        const float x = LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides));
        float y;
#if defined(AFFINE) && defined(BN_AFFINE)
        y = LD(G, gamma, r * P_STRIDE) * (x - mu) * inv + LD(G, beta, r * P_STRIDE);
#elif defined(AFFINE) && defined(GN_AFFINE)
        const long c = (r % GROUPS) * CG + j / SP;
        y = (x - mu) * inv * LD(G, gamma, c * P_STRIDE) + LD(G, beta, c * P_STRIDE);
#elif defined(AFFINE)
        y = (x - mu) * inv * LD(G, gamma, j * P_STRIDE) + LD(G, beta, j * P_STRIDE);
#elif defined(BN_AFFINE)
        y = (x - mu) * inv;
#else
        y = (x - mu) * inv;
#endif
        ST(DST, dst, d0 + offset_of(j, RND, rdims, d_rstrides), y);
    }
#ifdef STATS_OUT
    const long t0 = offset_of(r, OND, odims, t_ostrides);
    ST(T, mean_out, t0, mu);
    ST(T, var_out, offset_of(r, OND, odims, tv_ostrides), v);
#endif
#ifdef RUNNING
    ST(T, run_mean, t0, MOM * LD(M, mean_in, r * M_STRIDE) + (1.f - MOM) * mu);
    ST(T, run_var, t0, MOM * LD(M, var_in, r * M_STRIDE) + (1.f - MOM) * v);
#endif
}
#endif

#if defined(BN_BWD) || defined(LN_BWD)
constant long dd_ostrides[] = {DD_OSTRIDES};
constant long dd_rstrides[] = {DD_RSTRIDES};
#define SRC_AT(r, j) LD(SRC, src, offset_of(r, OND, odims, s_ostrides) \
        + offset_of(j, RND, rdims, s_rstrides))
#define DD_AT(r, j) LD(DD, dd, offset_of(r, OND, odims, dd_ostrides) \
        + offset_of(j, RND, rdims, dd_rstrides))
#endif

#ifdef BN_BWD
// BatchNormTrainingBackward; a row is one channel. bn_bwd_sums (one
// work-item per channel) writes sum(dy) and sum(dy * xhat) to the f32
// temporary `sums` (and diff_beta / diff_gamma when the op has them);
// bn_bwd_dsrc (one work-item per element) then forms
// diff_src = gamma * inv * (dy - sum(dy) / m - xhat * sum(dy * xhat) / m).
kernel void bn_bwd_sums(const global SRC_T *src, const global DD_T *dd,
        const global M_T *mean, const global M_T *var, global float *sums
#ifdef DIFF_GAMMA
        , global T_T *dgamma
#endif
#ifdef DIFF_BETA
        , global T_T *dbeta
#endif
) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const float mu = LD(M, mean, r * M_STRIDE);
    const float inv = 1.f / sqrt(LD(M, var, r * V_STRIDE) + EPS);
    float sdy = 0.f, sdyx = 0.f, sdy_c = 0.f, sdyx_c = 0.f;
    for (long j = 0; j < RLEN; ++j) {
        const float dy = DD_AT(r, j);
        add_compensated(&sdy, &sdy_c, dy);
        add_compensated(&sdyx, &sdyx_c, dy * (SRC_AT(r, j) - mu) * inv);
    }
    sdy = total(sdy, sdy_c);
    sdyx = total(sdyx, sdyx_c);
    sums[2 * r] = sdy;
    sums[2 * r + 1] = sdyx;
#ifdef DIFF_GAMMA
    ST(T, dgamma, r * DG_STRIDE, sdyx);
#endif
#ifdef DIFF_BETA
    ST(T, dbeta, r * DB_STRIDE, sdy);
#endif
}

kernel void bn_bwd_dsrc(const global SRC_T *src, const global DD_T *dd,
        const global M_T *mean, const global M_T *var, const global float *sums,
#ifdef HAS_GAMMA
        const global G_T *gamma,
#endif
        global DST_T *ds) {
    const long i = get_global_id(0);
    if (i >= NROWS * RLEN) return;
    const long r = i / RLEN, j = i - r * RLEN;
    const float mu = LD(M, mean, r * M_STRIDE);
    const float inv = 1.f / sqrt(LD(M, var, r * V_STRIDE) + EPS);
#ifdef HAS_GAMMA
    const float g = LD(G, gamma, r * P_STRIDE);
#else
    const float g = 1.f;
#endif
    const float m = (float)RLEN;
    const float xh = (SRC_AT(r, j) - mu) * inv;
    const float v = g * inv * (DD_AT(r, j) - sums[2 * r] / m - xh * sums[2 * r + 1] / m);
    ST(DST, ds, offset_of(r, OND, odims, d_ostrides) + offset_of(j, RND, rdims, d_rstrides), v);
}
#endif

#ifdef LN_BWD
// LayerNormBackward. mean/variance are read at the row's linear index
// (over their own dims M_DIMS, V_DIMS), gamma and diff_gamma/diff_beta at
// the element's linear index in the row (W_DIMS). ln_bwd_rows: one work-item per row for
// diff_src; ln_bwd_wgrad: one per normalised element, gathering over rows.
constant long m_dims[] = {M_DIMS};
constant long m_strides[] = {M_STRIDES};
constant long v_dims[] = {V_DIMS};
constant long v_strides[] = {V_STRIDES};
constant long w_dims[] = {W_DIMS};
#ifdef HAS_GAMMA
constant long g_strides[] = {G_STRIDES};
#define GAMMA_AT(j) LD(G, gamma, offset_of(j, W_ND, w_dims, g_strides))
#else
#define GAMMA_AT(j) 1.f
#endif
#define MEAN_AT(r) LD(M, mean, offset_of(r, M_ND, m_dims, m_strides))
#define INV_AT(r) (1.f / sqrt(LD(M, var, offset_of(r, V_ND, v_dims, v_strides)) + EPS))

kernel void ln_bwd_rows(const global SRC_T *src, const global DD_T *dd,
        const global M_T *mean, const global M_T *var,
#ifdef HAS_GAMMA
        const global G_T *gamma,
#endif
        global DST_T *ds) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const float mu = MEAN_AT(r), inv = INV_AT(r);
    float mg = 0.f, mgx = 0.f, mg_c = 0.f, mgx_c = 0.f;
    for (long j = 0; j < RLEN; ++j) {
        const float g = DD_AT(r, j) * GAMMA_AT(j);
        add_compensated(&mg, &mg_c, g);
        add_compensated(&mgx, &mgx_c, g * (SRC_AT(r, j) - mu) * inv);
    }
    mg = total(mg, mg_c);
    mgx = total(mgx, mgx_c);
    if (RLEN) {
        mg /= (float)RLEN;
        mgx /= (float)RLEN;
    }
    const long d0 = offset_of(r, OND, odims, d_ostrides);
    for (long j = 0; j < RLEN; ++j) {
        const float g = DD_AT(r, j) * GAMMA_AT(j);
        const float xh = (SRC_AT(r, j) - mu) * inv;
        ST(DST, ds, d0 + offset_of(j, RND, rdims, d_rstrides), (g - mg - xh * mgx) * inv);
    }
}

#ifdef WGRAD
constant long dg_strides[] = {DG_STRIDES};
constant long db_strides[] = {DB_STRIDES};
kernel void ln_bwd_wgrad(const global SRC_T *src, const global DD_T *dd,
        const global M_T *mean, const global M_T *var, global T_T *dgamma,
        global T_T *dbeta) {
    const long j = get_global_id(0);
    if (j >= RLEN) return;
    float sg = 0.f, sb = 0.f, sg_c = 0.f, sb_c = 0.f;
    for (long r = 0; r < NROWS; ++r) {
        const float dy = DD_AT(r, j);
        add_compensated(&sb, &sb_c, dy);
        add_compensated(&sg, &sg_c, dy * (SRC_AT(r, j) - MEAN_AT(r)) * INV_AT(r));
    }
    ST(T, dgamma, offset_of(j, W_ND, w_dims, dg_strides), total(sg, sg_c));
    ST(T, dbeta, offset_of(j, W_ND, w_dims, db_strides), total(sb, sb_c));
}
#endif
#endif
