// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/lowp.cl — loads and stores of the sub-f16 types:
// f8_e4m3, f8_e5m2 and the packed s4/u4. Prepended (after common.cl) only to
// programs whose options use one of them, so the source text of every other
// program, and with it the drivers' binary caches (PoCL's POCL_CACHE_DIR),
// does not change when these helpers do.
// f8 values convert bit-exactly like ir/dtype.cpp (through f16, half to
// even, e4m3 saturating to 448 up to 464 and NaN beyond). s4/u4 are packed
// two per byte, element i in nibble i%2 (even = low) of byte i/2: offsets
// stay in elements; they have loads only (no kernel writes them: a nibble
// store by independent work-items would race on the shared byte).

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
