// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/common.cl — prepended to every kernel family: typed
// loads and stores (f16/bf16 stored, f32 computed; no fp16 arithmetic is
// needed, so OpenCL C 1.2 devices without cl_khr_fp16 work), index helpers.
// A tensor X is described by build options X_T (storage type) and X_DT
// (f32, f16, bf16, s8, u8, s32, bool, f8_e4m3, f8_e5m2, s4, u4). f8 values
// convert bit-exactly like ir/dtype.cpp (through f16, half to even, e4m3
// saturating to 448 up to 464 and NaN beyond). s4/u4 are packed two per
// byte, element i in nibble i%2 (even = low) of byte i/2: offsets stay in
// elements; they have loads only (no kernel writes them: a nibble store by
// independent work-items would race on the shared byte).

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

// f8: the f16 bit pattern of an f32 (round half to even; NaN made quiet
// keeping the top of its payload), as ir::f32_to_f16.
inline uint f16_bits_rte(float v) {
    const uint u = as_uint(v);
    const uint sign = (u >> 16) & 0x8000u;
    const uint a = u & 0x7fffffffu;
    if (a >= 0x7f800000u)
        return sign | (a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu) : 0x7c00u);
    if (a >= 0x477ff000u) return sign | 0x7c00u;
    if (a < 0x38800000u) // subnormal f16: m * 2^-24 (the product is exact)
        return sign | (uint)rint(as_float(a) * 16777216.0f);
    uint r = a - 0x38000000u;
    r += 0xfffu + ((r >> 13) & 1u);
    return sign | (r >> 13);
}
inline float f16_bits_to_f32(uint h) {
    const uint sign = (h & 0x8000u) << 16;
    const uint e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0) return as_float(sign | as_uint((float)m * (1.0f / 16777216.0f)));
    if (e == 31) return as_float(sign | 0x7f800000u | (m << 13));
    return as_float(sign | ((e + 112u) << 23) | (m << 13));
}
inline float load_f8_e5m2(const global uchar *p, long i) {
    return f16_bits_to_f32((uint)p[i] << 8);
}
inline float load_f8_e4m3(const global uchar *p, long i) {
    const uint b = p[i];
    const uint sign = (b & 0x80u) << 24;
    const uint e = (b >> 3) & 0xfu, m = b & 0x7u;
    if (e == 0xfu && m == 0x7u) return as_float(sign | 0x7fc00000u);
    if (e == 0) return as_float(sign | as_uint((float)m * (1.0f / 512.0f)));
    return as_float(sign | ((e + 120u) << 23) | (m << 20));
}
inline float load_s4(const global uchar *p, long i) {
    const int b = p[i >> 1];
    const int n = (i & 1) ? (b >> 4) : (b & 0xf);
    return (float)(n >= 8 ? n - 16 : n);
}
inline float load_u4(const global uchar *p, long i) {
    const int b = p[i >> 1];
    return (float)((i & 1) ? (b >> 4) : (b & 0xf));
}

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
inline void store_f8_e5m2(global uchar *p, long i, float v) {
    const uint h = f16_bits_rte(v);
    if ((h & 0x7fffu) > 0x7c00u) {
        p[i] = (uchar)((h >> 8) | 0x02u);
        return;
    }
    if ((h & 0x7fffu) == 0x7c00u) {
        p[i] = (uchar)(h >> 8);
        return;
    }
    p[i] = (uchar)((h + 0x7fu + ((h >> 8) & 1u)) >> 8); // may carry to inf
}
inline void store_f8_e4m3(global uchar *p, long i, float v) {
    const float h = f16_bits_to_f32(f16_bits_rte(v)); // through f16
    const uint sign = (as_uint(h) >> 24) & 0x80u;
    const float a = fabs(h);
    uint r;
    if (isnan(h) || a > 464.0f) r = 0x7fu; // NaN: no infinity in e4m3
    else if (a >= 448.0f) r = 0x7eu;
    else if (a < 0.015625f) r = (uint)rint(a * 512.0f); // subnormal m * 2^-9
    else {
        uint u = as_uint(a);
        u += 0x7ffffu + ((u >> 20) & 1u); // 3 mantissa bits, half to even
        r = ((((u >> 23) - 120u) << 3) | ((u >> 20) & 0x7u));
    }
    p[i] = (uchar)(sign | r);
}

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
