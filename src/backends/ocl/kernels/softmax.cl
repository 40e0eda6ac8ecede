// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/softmax.cl — SoftMax / LogSoftmax along one axis: one
// work-item per row, a row being the AXIS_LEN elements along the axis; rows
// are numbered over the other dims (ODIMS, with SRC/DST strides per dim).

constant long odims[] = {ODIMS};
constant long s_ostrides[] = {S_OSTRIDES};
constant long d_ostrides[] = {D_OSTRIDES};

kernel void softmax(const global SRC_T *src, global DST_T *dst) {
    const long r = get_global_id(0);
    if (r >= NROWS) return;
    const long s0 = offset_of(r, OND, odims, s_ostrides);
    const long d0 = offset_of(r, OND, odims, d_ostrides);
    float m = -INFINITY;
    for (long k = 0; k < AXIS_LEN; ++k)
        m = fmax(m, LD(SRC, src, s0 + k * S_AXIS));
    float sum = 0.f;
    for (long k = 0; k < AXIS_LEN; ++k)
        sum += exp(LD(SRC, src, s0 + k * S_AXIS) - m);
    for (long k = 0; k < AXIS_LEN; ++k) {
        const float x = LD(SRC, src, s0 + k * S_AXIS) - m;
#ifdef LOG_SOFTMAX
        ST(DST, dst, d0 + k * D_AXIS, x - log(sum));
#else
        ST(DST, dst, d0 + k * D_AXIS, exp(x) / sum);
#endif
    }
}
