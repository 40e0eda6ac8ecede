// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/common.cl — prepended to every kernel family: typed
// loads and stores (f16/bf16 stored, f32 computed; no fp16 arithmetic is
// needed, so OpenCL C 1.2 devices without cl_khr_fp16 work), index helpers.
// A tensor X is described by build options X_T (storage type) and X_DT
// (f32, f16, bf16, s8, u8, s32, bool).

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define LD(X, p, i) CAT(load_, X##_DT)(p, i)
#define ST(X, p, i, v) CAT(store_, X##_DT)(p, i, v)

inline float load_f32(const global float *p, long i) { return p[i]; }
inline float load_f16(const global half *p, long i) { return vload_half(i, p); }
inline float load_bf16(const global ushort *p, long i) {
    return as_float(((uint)p[i]) << 16);
}
inline float load_s8(const global char *p, long i) { return (float)p[i]; }
inline float load_u8(const global uchar *p, long i) { return (float)p[i]; }
inline float load_s32(const global int *p, long i) { return (float)p[i]; }
inline float load_bool(const global uchar *p, long i) { return p[i] ? 1.f : 0.f; }

inline void store_f32(global float *p, long i, float v) { p[i] = v; }
inline void store_f16(global half *p, long i, float v) { vstore_half_rte(v, i, p); }
inline void store_bf16(global ushort *p, long i, float v) {
    uint u = as_uint(v);
    if (isnan(v)) {
        p[i] = (ushort)((u >> 16) | 0x40);
        return;
    }
    u += 0x7fff + ((u >> 16) & 1);
    p[i] = (ushort)(u >> 16);
}
inline void store_s8(global char *p, long i, float v) { p[i] = convert_char_sat_rte(v); }
inline void store_u8(global uchar *p, long i, float v) { p[i] = convert_uchar_sat_rte(v); }
inline void store_s32(global int *p, long i, float v) { p[i] = convert_int_sat_rte(v); }
inline void store_bool(global uchar *p, long i, float v) { p[i] = v != 0.f; }

// Splits linear index `i` of a five-dim iteration space (x0, d1, d2, d3,
// d4), the last dim fastest: (n, c, d, h, w) of an output element, or
// (o, i, kd, kh, kw) of a weight.
inline void split_index5(long i, long d1, long d2, long d3, long d4,
        long *x0, long *x1, long *x2, long *x3, long *x4) {
    *x4 = i % d4; i /= d4;
    *x3 = i % d3; i /= d3;
    *x2 = i % d2; i /= d2;
    *x1 = i % d1;
    *x0 = i / d1;
}
// Offset of element (n, c, d, h, w) of tensor P, whose strides are the
// options PS_N .. PS_W (kernel_desc.hpp: nc_spatial_stride_options).
#define NCSP_AT(P, n, c, d, h, w) \
    ((n) * P##S_N + (c) * P##S_C + (d) * P##S_D + (h) * P##S_H + (w) * P##S_W)

// Offset of linear index `i` of a tensor with `nd` dims `dims` and `strides`.
inline long offset_of(long i, int nd, constant long *dims, constant long *strides) {
    long off = 0;
    for (int d = nd - 1; d >= 0; --d) {
        const long c = i % dims[d];
        i /= dims[d];
        off += c * strides[d];
    }
    return off;
}
