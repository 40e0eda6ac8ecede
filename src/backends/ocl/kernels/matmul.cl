// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/matmul.cl — MatMul (batched, broadcast batch dims,
// transposes folded into strides, optional bias with broadcast) as one
// work-item per output element with an f32 accumulator. dims[] are the
// output's: batch..., M, N; K is a separate macro.

constant long dims[] = {DIMS};
constant long a_strides[] = {A_STRIDES}; // per output dim (N's is 0)
constant long b_strides[] = {B_STRIDES}; // per output dim (M's is 0)
constant long dst_strides[] = {DST_STRIDES};
#ifdef WITH_BIAS
constant long c_strides[] = {C_STRIDES};
#endif

kernel void matmul(const global A_T *a, const global B_T *b,
#ifdef WITH_BIAS
        const global C_T *c,
#endif
        global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    const long a0 = offset_of(i, ND, dims, a_strides);
    const long b0 = offset_of(i, ND, dims, b_strides);
    float acc = 0.f;
    for (long k = 0; k < K; ++k)
        acc += LD(A, a, a0 + k * A_KSTRIDE) * LD(B, b, b0 + k * B_KSTRIDE);
#ifdef WITH_BIAS
    acc += LD(C, c, offset_of(i, ND, dims, c_strides));
#endif
    ST(DST, dst, offset_of(i, ND, dims, dst_strides), acc);
}
