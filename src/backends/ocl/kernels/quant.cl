// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/quant.cl — the quantization family, one work-item
// per element: Quantize/Dequantize (scales and zero points are build
// constants, per tensor or per channel) and DynamicQuantize /
// DynamicDequantize (scales SC and zero points ZP are tensors, each read as
// one value, per channel along AXIS, or per group of G_<d> elements along
// every dim d). q = x * (1/s) + z and x = (q - z) * s in f32 (no fused
// multiply-add, as the reference computes), stored with the destination's
// rounding and saturation.
#pragma OPENCL FP_CONTRACT OFF

constant long dims[] = {DIMS};
constant long src_strides[] = {SRC_STRIDES};
constant long dst_strides[] = {DST_STRIDES};
#ifdef STATIC_SCALES
constant float scales[] = {STATIC_SCALES};
#ifdef STATIC_ZPS
constant float zps[] = {STATIC_ZPS};
#endif
#endif
// Parameter tensor modes: 0 one value, 1 per channel (linear index = the
// channel, read through the tensor's own dims/strides), 2 per group.
#ifdef SC_MODE
constant long sc_dims[] = {SC_DIMS};
constant long sc_strides[] = {SC_STRIDES};
#endif
#ifdef ZP_MODE
constant long zp_dims[] = {ZP_DIMS};
constant long zp_strides[] = {ZP_STRIDES};
#endif
#if (defined(SC_MODE) && SC_MODE == 2) || (defined(ZP_MODE) && ZP_MODE == 2)
constant long group[] = {GROUP};
#endif
#ifndef AXIS
#define AXIS (-1)
#endif

kernel void quant(const global SRC_T *src, global DST_T *dst
#ifdef SC_MODE
        , const global SC_T *sc
#endif
#ifdef ZP_MODE
        , const global ZP_T *zp
#endif
) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    long r = i, so = 0, dof = 0, ch = 0, sg = 0, zg = 0;
    for (int d = ND - 1; d >= 0; --d) {
        const long c = r % dims[d];
        r /= dims[d];
        so += c * src_strides[d];
        dof += c * dst_strides[d];
        if (d == AXIS) ch = c;
#if defined(SC_MODE) && SC_MODE == 2
        sg += (c / group[d]) * sc_strides[d];
#endif
#if defined(ZP_MODE) && ZP_MODE == 2
        zg += (c / group[d]) * zp_strides[d];
#endif
    }
    const float x = LD(SRC, src, so);
#ifdef STATIC_SCALES
    const float s = scales[ch];
#ifdef STATIC_ZPS
    const float z = zps[ch];
#else
    const float z = 0.f;
#endif
#else
#if SC_MODE == 0
    const float s = LD(SC, sc, 0);
#elif SC_MODE == 1
    const float s = LD(SC, sc, offset_of(ch, SC_ND, sc_dims, sc_strides));
#else
    const float s = LD(SC, sc, sg);
#endif
#if !defined(ZP_MODE)
    const float z = 0.f;
#elif ZP_MODE == 0
    const float z = LD(ZP, zp, 0);
#elif ZP_MODE == 1
    const float z = LD(ZP, zp, offset_of(ch, ZP_ND, zp_dims, zp_strides));
#else
    const float z = LD(ZP, zp, zg);
#endif
#endif
#ifdef DEQUANT
    const float y = (x - z) * s;
#else
    const float y = x * (1.f / s) + z;
#endif
    ST(DST, dst, dof, y);
}
