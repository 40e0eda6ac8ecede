// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/rows.cl — reductions over "rows": the Reduce family
// (Sum, Mean, Max, Min, Prod, L1, L2) and the normalisations (LayerNorm,
// BatchNormInference, BatchNormForwardTraining). One work-item per row; a
// row's first element sits at offset_of(r) over the outer dims ODIMS, and
// its RLEN elements are enumerated over RDIMS with each tensor's strides.

constant long odims[] = {ODIMS};
constant long s_ostrides[] = {S_OSTRIDES};
constant long d_ostrides[] = {D_OSTRIDES};
constant long rdims[] = {RDIMS};
constant long s_rstrides[] = {S_RSTRIDES};
constant long d_rstrides[] = {D_RSTRIDES};

#ifdef REDUCE
#if defined(R_SUM)
#define R_INIT 0.f
#define R_OP(a, x) ((a) + (x))
#elif defined(R_MAX)
#define R_INIT (-INFINITY)
#define R_OP(a, x) fmax(a, x)
#elif defined(R_MIN)
#define R_INIT INFINITY
#define R_OP(a, x) fmin(a, x)
#elif defined(R_PROD)
#define R_INIT 1.f
#define R_OP(a, x) ((a) * (x))
#elif defined(R_L1)
#define R_INIT 0.f
#define R_OP(a, x) ((a) + fabs(x))
#elif defined(R_L2)
#define R_INIT 0.f
#define R_OP(a, x) ((a) + (x) * (x))
#endif
kernel void reduce_rows(const global SRC_T *src, global DST_T *dst) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const long s0 = offset_of(r, OND, odims, s_ostrides);
    float acc = R_INIT;
    bool nan = false;
    for (long j = 0; j < RLEN; ++j) {
        const float x = LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides));
        nan = nan || isnan(x);
        acc = R_OP(acc, x);
    }
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
#endif
// Statistics per row (or given, STATS_IN: BatchNormInference), then
// y = (x - mu) / sqrt(v + eps), with gamma/beta (AFFINE; BN_AFFINE for
// BatchNorm's per-channel gamma * y + beta). LayerNorm's parameters go
// along the row (P_STRIDE per element), BatchNorm's per row (channel).
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
    float sum = 0.f;
    for (long j = 0; j < RLEN; ++j)
        sum += LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides));
    const float mu = RLEN ? sum / (float)RLEN : 0.f;
    float sq = 0.f;
    for (long j = 0; j < RLEN; ++j) {
        const float t = LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides)) - mu;
        sq += t * t;
    }
    const float v = RLEN ? sq / (float)RLEN : 0.f;
#endif
    const float inv = 1.f / sqrt(v + EPS);
    for (long j = 0; j < RLEN; ++j) {
        const float x = LD(SRC, src, s0 + offset_of(j, RND, rdims, s_rstrides));
        float y;
#if defined(AFFINE) && defined(BN_AFFINE)
        y = LD(G, gamma, r * P_STRIDE) * (x - mu) * inv + LD(G, beta, r * P_STRIDE);
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
    ST(T, var_out, t0, v);
#endif
#ifdef RUNNING
    ST(T, run_mean, t0, MOM * LD(M, mean_in, r * M_STRIDE) + (1.f - MOM) * mu);
    ST(T, run_var, t0, MOM * LD(M, var_in, r * M_STRIDE) + (1.f - MOM) * v);
#endif
}
#endif
