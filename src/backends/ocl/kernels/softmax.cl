// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/softmax.cl — SoftMax / LogSoftmax along one axis
// (optional stats output m + log(sum), inf_as_zero mode) and their
// backward ops: one work-item per row, a row being the AXIS_LEN elements
// along the axis; rows are numbered over the other dims (ODIMS, with each
// tensor's strides per dim).

constant long odims[] = {ODIMS};
constant long s_ostrides[] = {S_OSTRIDES};
constant long d_ostrides[] = {D_OSTRIDES};
#if defined(WITH_STATS) || defined(BACKWARD)
constant long t_ostrides[] = {T_OSTRIDES};
#endif

#ifndef BACKWARD
kernel void softmax(const global SRC_T *src, global DST_T *dst
#ifdef WITH_STATS
        , global T_T *stats
#endif
) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const long s0 = offset_of(r, OND, odims, s_ostrides);
    const long d0 = offset_of(r, OND, odims, d_ostrides);
    float m = -INFINITY;
    bool nan = false;
    for (long k = 0; k < AXIS_LEN; ++k) {
        const float x = LD(SRC, src, s0 + k * S_AXIS);
        nan = nan || isnan(x);
        m = x > m ? x : m;
    }
    if (nan) m = NAN;
#ifdef INF_AS_ZERO
    if (isinf(m) && m < 0) {
        for (long k = 0; k < AXIS_LEN; ++k)
            ST(DST, dst, d0 + k * D_AXIS, 0.f);
#ifdef WITH_STATS
        ST(T, stats, offset_of(r, OND, odims, t_ostrides), m);
#endif
        return;
    }
#endif
    float sum = 0.f;
    for (long k = 0; k < AXIS_LEN; ++k)
        sum += exp(LD(SRC, src, s0 + k * S_AXIS) - m);
    const float lse = log(sum);
    for (long k = 0; k < AXIS_LEN; ++k) {
        const float x = LD(SRC, src, s0 + k * S_AXIS);
#ifdef LOG_SOFTMAX
        ST(DST, dst, d0 + k * D_AXIS, x - m - lse);
#else
        ST(DST, dst, d0 + k * D_AXIS, exp(x - m) / sum);
#endif
    }
#ifdef WITH_STATS
    ST(T, stats, offset_of(r, OND, odims, t_ostrides), m + lse);
#endif
}
#else
// src = diff_dst, t = the forward dst, dst = diff_src.
kernel void softmax_bwd(const global SRC_T *dd, const global T_T *y,
        global DST_T *ds) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const long a0 = offset_of(r, OND, odims, s_ostrides);
    const long y0 = offset_of(r, OND, odims, t_ostrides);
    const long d0 = offset_of(r, OND, odims, d_ostrides);
    float acc = 0.f;
    for (long k = 0; k < AXIS_LEN; ++k) {
        const float g = LD(SRC, dd, a0 + k * S_AXIS);
#ifdef LOG_SOFTMAX
        acc += g;
#else
        acc += g * LD(T, y, y0 + k * T_AXIS);
#endif
    }
    for (long k = 0; k < AXIS_LEN; ++k) {
        const float g = LD(SRC, dd, a0 + k * S_AXIS);
        const float yv = LD(T, y, y0 + k * T_AXIS);
#ifdef LOG_SOFTMAX
        ST(DST, ds, d0 + k * D_AXIS, g - exp(yv) * acc);
#else
        ST(DST, ds, d0 + k * D_AXIS, yv * (g - acc));
#endif
    }
}
#endif
