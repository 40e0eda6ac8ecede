// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/binary.cl — binary ops with numpy broadcast (Add ...
// GreaterEqual, BiasAdd, PReLU), the ternary Select and PReLUBackward.
// Inputs read the output's index through their own strides (0 on broadcast
// dims).

constant long dims[] = {DIMS};
constant long a_strides[] = {A_STRIDES};
constant long b_strides[] = {B_STRIDES};
constant long dst_strides[] = {DST_STRIDES};
#ifdef OP_SELECT
constant long c_strides[] = {C_STRIDES};
#endif

inline float op(float a, float b) {
#if defined(OP_ADD)
    return a + b;
#elif defined(OP_SUB)
    return a - b;
#elif defined(OP_MUL)
    return a * b;
#elif defined(OP_DIV)
    return a / b;
#elif defined(OP_MAX)
    return (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b);
#elif defined(OP_MIN)
    return (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b);
#elif defined(OP_SQDIFF)
    return (a - b) * (a - b);
#elif defined(OP_GE)
    return a >= b ? 1.f : 0.f;
#elif defined(OP_PRELU)
    return a >= 0 ? a : a * b;
#else
    return 0.f;
#endif
}

// A host-scalar operand arrives by value (s32).
#ifdef A_SCALAR
#define A_PARAM const int a_s
#define LOAD_A(i) ((float)a_s)
#else
#define A_PARAM const global A_T *a
#define LOAD_A(i) LD(A, a, offset_of(i, ND, dims, a_strides))
#endif
#ifdef B_SCALAR
#define B_PARAM const int b_s
#define LOAD_B(i) ((float)b_s)
#else
#define B_PARAM const global B_T *b
#define LOAD_B(i) LD(B, b, offset_of(i, ND, dims, b_strides))
#endif

#if defined(GEN_INDEX)
kernel void gen_index(global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    long r = i;
    for (int d = ND - 1; d > AXIS; --d) r /= dims[d];
    ST(DST, dst, offset_of(i, ND, dims, dst_strides), (float)(r % dims[AXIS]));
}
#elif defined(PRELU_BWD)
// PReLUBackward. prelu_bwd_src: one work-item per element, the slope read
// through its broadcast strides (B_STRIDES). prelu_bwd_slope: one work-item
// per slope element k, summing x * dy where x <= 0 over the src positions
// that share it: the kept dims (KDIMS, the slope's own) give k's base, the
// broadcast dims (BDIMS) are enumerated.
constant long dd_strides[] = {DD_STRIDES};
constant long kdims[] = {KDIMS};
constant long s_kstrides[] = {S_KSTRIDES};
constant long dd_kstrides[] = {DD_KSTRIDES};
constant long ds_kstrides[] = {DS_KSTRIDES};
constant long bdims[] = {BDIMS};
constant long s_bstrides[] = {S_BSTRIDES};
constant long dd_bstrides[] = {DD_BSTRIDES};
kernel void prelu_bwd_src(const global A_T *src, const global B_T *slope,
        const global DD_T *dd, global DST_T *ds) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    const float x = LD(A, src, offset_of(i, ND, dims, a_strides));
    const float dy = LD(DD, dd, offset_of(i, ND, dims, dd_strides));
    const float s = LD(B, slope, offset_of(i, ND, dims, b_strides));
    ST(DST, ds, offset_of(i, ND, dims, dst_strides), x > 0 ? dy : s * dy);
}
kernel void prelu_bwd_slope(const global A_T *src, const global DD_T *dd,
        global DS_T *dslope) {
    const long k = get_global_id(0);
    if (k >= KLEN) return;
    const long s0 = offset_of(k, KND, kdims, s_kstrides);
    const long d0 = offset_of(k, KND, kdims, dd_kstrides);
    float acc = 0.f;
    for (long b = 0; b < BLEN; ++b) {
        const float x = LD(A, src, s0 + offset_of(b, BND, bdims, s_bstrides));
        if (x > 0) continue;
        acc += x * LD(DD, dd, d0 + offset_of(b, BND, bdims, dd_bstrides));
    }
    ST(DS, dslope, offset_of(k, KND, kdims, ds_kstrides), acc);
}
#elif !defined(OP_SELECT)
kernel void binary(A_PARAM, B_PARAM, global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    const float va = LOAD_A(i);
    const float vb = LOAD_B(i);
    ST(DST, dst, offset_of(i, ND, dims, dst_strides), op(va, vb));
}
#else
kernel void select_op(const global C_T *c, const global A_T *a, const global B_T *b,
        global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    const float vc = LD(C, c, offset_of(i, ND, dims, c_strides));
    const float v = vc != 0.f ? LD(A, a, offset_of(i, ND, dims, a_strides))
                              : LD(B, b, offset_of(i, ND, dims, b_strides));
    ST(DST, dst, offset_of(i, ND, dims, dst_strides), v);
}
#endif
