// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/copy.cl — element copies with conversion: Reorder,
// TypeCast, StaticReshape, StaticTranspose, the Quantize/Dequantize family
// (per-tensor or per-channel scales and zero points) and Concat (one launch
// per input, writing at that input's offset). Element i of the logical
// order is read from SRC (own dims/strides) and written to DST.

constant long src_dims[] = {SRC_DIMS};
constant long src_strides[] = {SRC_STRIDES};
constant long dst_dims[] = {DST_DIMS};
constant long dst_strides[] = {DST_STRIDES};
#ifndef DST_OFF
#define DST_OFF 0
#endif
#ifdef QUANT
constant float scales[] = {SCALES};
#ifdef ZPS
constant float zps[] = {ZPS};
#endif
#endif

kernel void copy(const global SRC_T *src, global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    float v = LD(SRC, src, offset_of(i, SRC_ND, src_dims, src_strides));
#ifdef QUANT
#ifdef PER_CHANNEL
    // channel index along AXIS of the destination's logical index
    long r = i;
    for (int d = DST_ND - 1; d > AXIS; --d) r /= dst_dims[d];
    const long ch = r % dst_dims[AXIS];
#else
    const long ch = 0;
#endif
    const float s = scales[ch];
#ifdef ZPS
    const float z = zps[ch];
#else
    const float z = 0.f;
#endif
#ifdef DEQUANT
    v = (v - z) * s;
#else
    v = v * (1.f / s) + z;
#endif
#endif
    ST(DST, dst, DST_OFF + offset_of(i, DST_ND, dst_dims, dst_strides), v);
}
