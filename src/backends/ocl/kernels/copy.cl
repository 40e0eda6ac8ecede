// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/copy.cl — element copies with conversion: Reorder,
// TypeCast, StaticReshape, StaticTranspose and Concat (one launch per
// input, writing at that input's offset). Element i of the logical
// order is read from SRC (own dims/strides) and written to DST.

constant long src_dims[] = {SRC_DIMS};
constant long src_strides[] = {SRC_STRIDES};
constant long dst_dims[] = {DST_DIMS};
constant long dst_strides[] = {DST_STRIDES};
#ifndef DST_OFF
#define DST_OFF 0
#endif

kernel void copy(const global SRC_T *src, global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    const float v = LD(SRC, src, offset_of(i, SRC_ND, src_dims, src_strides));
    ST(DST, dst, DST_OFF + offset_of(i, DST_ND, dst_dims, dst_strides), v);
}
