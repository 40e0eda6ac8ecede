// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/convert_rows.cpp — bf16/f16 <-> f32 and u8/s8
// (de)quantization of rows (see convert_rows.hpp). Contiguous runs go 8
// values at a time (bf16: a 16-bit shift; f16: vcvtph2ps / vcvtps2ph with
// round-to-nearest-even; u8/s8: the scalar arithmetic's own operations);
// tails and strided runs use the scalar conversions, which give the same
// bits.
#include "backends/cpu/kernels/common/convert_rows.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace common {

namespace {

// 8 bf16/f16 values widened exactly.
__attribute__((target("avx2,f16c"))) inline __m256 widen8(
        __m128i h, data_type_t dt) {
    return dt == dnnl_f16 ? _mm256_cvtph_ps(h)
                          : _mm256_castsi256_ps(_mm256_slli_epi32(
                                    _mm256_cvtepu16_epi32(h), 16));
}

// Tails (and gathered strided values) go through the same vector
// conversions on a padded copy: one call per 8 values instead of an
// out-of-line scalar conversion per value, which made short rows (a
// pooling window's, a reduction's) cost more than their arithmetic.
__attribute__((target("avx2,f16c"))) void widen_run(
        const uint16_t *s, data_type_t dt, int64_t n, float *d) {
    int64_t c = 0;
    for (; c + 8 <= n; c += 8)
        _mm256_storeu_ps(d + c,
                widen8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(s + c)),
                        dt));
    if (c == n) return;
    alignas(16) uint16_t t[8] = {};
    alignas(32) float f[8];
    std::memcpy(t, s + c, static_cast<size_t>(n - c) * 2);
    _mm256_store_ps(f, widen8(_mm_load_si128(reinterpret_cast<const __m128i *>(t)), dt));
    std::memcpy(d + c, f, static_cast<size_t>(n - c) * 4);
}

// n values cs elements apart, gathered 8 at a time into a padded run.
__attribute__((target("avx2,f16c"))) void widen_strided(
        const uint16_t *s, data_type_t dt, int64_t n, int64_t cs, float *d) {
    alignas(16) uint16_t t[8] = {};
    alignas(32) float f[8];
    for (int64_t c = 0; c < n; c += 8) {
        const int64_t m = std::min<int64_t>(8, n - c);
        for (int64_t i = 0; i < m; ++i)
            t[i] = s[(c + i) * cs];
        const __m256 v = widen8(_mm_load_si128(reinterpret_cast<const __m128i *>(t)), dt);
        if (m == 8) {
            _mm256_storeu_ps(d + c, v);
        } else {
            _mm256_store_ps(f, v);
            std::memcpy(d + c, f, static_cast<size_t>(m) * 4);
        }
    }
}

__attribute__((target("avx2,f16c"))) void narrow_f16(
        const float *s, int64_t n, uint16_t *d) {
    int64_t c = 0;
    for (; c + 8 <= n; c += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i *>(d + c),
                _mm256_cvtps_ph(_mm256_loadu_ps(s + c), _MM_FROUND_TO_NEAREST_INT));
    if (c == n) return;
    alignas(32) float f[8] = {};
    alignas(16) uint16_t t[8];
    std::memcpy(f, s + c, static_cast<size_t>(n - c) * 4);
    _mm_store_si128(reinterpret_cast<__m128i *>(t),
            _mm256_cvtps_ph(_mm256_load_ps(f), _MM_FROUND_TO_NEAREST_INT));
    std::memcpy(d + c, t, static_cast<size_t>(n - c) * 2);
}

__attribute__((target("avx2,f16c"))) void round_f16(float *x, int64_t n) {
    int64_t c = 0;
    for (; c + 8 <= n; c += 8)
        _mm256_storeu_ps(x + c,
                _mm256_cvtph_ps(_mm256_cvtps_ph(
                        _mm256_loadu_ps(x + c), _MM_FROUND_TO_NEAREST_INT)));
    for (; c < n; ++c)
        x[c] = ir::f16_to_f32(ir::f32_to_f16(x[c]));
}

// 8 f32 values rounded to bf16 in the high half of each lane (low half
// zero): round half to even on the 16 dropped bits; NaN stays a quiet NaN.
__attribute__((target("avx2"))) inline __m256 bf16_rounded(__m256 v) {
    const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7fff);
    const __m256i hi = _mm256_set1_epi32(static_cast<int>(0xffff0000u));
    const __m256i quiet = _mm256_set1_epi32(0x00400000);
    const __m256i u = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), one);
    const __m256i r = _mm256_and_si256(
            _mm256_add_epi32(u, _mm256_add_epi32(bias, lsb)), hi);
    const __m256i q = _mm256_and_si256(_mm256_or_si256(u, quiet), hi);
    const __m256 nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
    return _mm256_blendv_ps(
            _mm256_castsi256_ps(r), _mm256_castsi256_ps(q), nan);
}

// 8 f32 values rounded to bf16 and packed into 8 words: high halves down,
// packed to 16 bits (no saturation: < 2^16), the two 128-bit lanes'
// results brought together.
__attribute__((target("avx2"))) inline __m128i bf16_packed(__m256 v) {
    const __m256i h = _mm256_srli_epi32(_mm256_castps_si256(bf16_rounded(v)), 16);
    return _mm256_castsi256_si128(
            _mm256_permute4x64_epi64(_mm256_packus_epi32(h, h), 0x08));
}

__attribute__((target("avx2"))) void round_bf16(float *x, int64_t n) {
    int64_t c = 0;
    for (; c + 8 <= n; c += 8)
        _mm256_storeu_ps(x + c, bf16_rounded(_mm256_loadu_ps(x + c)));
    for (; c < n; ++c)
        x[c] = ir::bf16_to_f32(ir::f32_to_bf16(x[c]));
}

__attribute__((target("avx2"))) void narrow_bf16(
        const float *s, int64_t n, uint16_t *d) {
    int64_t c = 0;
    for (; c + 8 <= n; c += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i *>(d + c),
                bf16_packed(_mm256_loadu_ps(s + c)));
    if (c == n) return;
    alignas(32) float f[8] = {};
    alignas(16) uint16_t t[8];
    std::memcpy(f, s + c, static_cast<size_t>(n - c) * 4);
    _mm_store_si128(reinterpret_cast<__m128i *>(t), bf16_packed(_mm256_load_ps(f)));
    std::memcpy(d + c, t, static_cast<size_t>(n - c) * 2);
}

} // namespace

void round_row(float *x, int64_t n, data_type_t dt) {
    if (dt == dnnl_f16) {
        round_f16(x, n);
    } else if (dt == dnnl_bf16) {
        round_bf16(x, n);
    }
}

void widen_matrix(const void *src, data_type_t dt, int64_t rows, int64_t cols,
        int64_t rs, int64_t cs, float *dst) {
    for (int64_t r = 0; r < rows; ++r) {
        float *d = dst + r * cols;
        if (dt == dnnl_f32) {
            const float *s = static_cast<const float *>(src) + r * rs;
            if (cs == 1) {
                std::memcpy(d, s, static_cast<size_t>(cols) * 4);
            } else {
                for (int64_t c = 0; c < cols; ++c)
                    d[c] = s[c * cs];
            }
            continue;
        }
        const uint16_t *s = static_cast<const uint16_t *>(src) + r * rs;
        if (cs == 1) {
            widen_run(s, dt, cols, d);
            continue;
        }
        widen_strided(s, dt, cols, cs, d);
    }
}

namespace {

// (q - zp) * scale for n contiguous u8/s8 values, 8 at a time (the same
// two roundings as the scalar tail: q - zp is exact).
__attribute__((target("avx2"))) void dequantize_run(const void *src,
        data_type_t dt, int64_t n, float scale, float zp, float *d) {
    const __m256 vs = _mm256_set1_ps(scale), vz = _mm256_set1_ps(zp);
    const bool u8 = dt == dnnl_u8;
    const uint8_t *su = static_cast<const uint8_t *>(src);
    const int8_t *ss = static_cast<const int8_t *>(src);
    int64_t c = 0;
    for (; c + 8 <= n; c += 8) {
        const __m128i b = _mm_loadl_epi64(
                reinterpret_cast<const __m128i *>(su + c));
        const __m256i w = u8 ? _mm256_cvtepu8_epi32(b) : _mm256_cvtepi8_epi32(b);
        _mm256_storeu_ps(d + c,
                _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(w), vz), vs));
    }
    for (; c < n; ++c)
        d[c] = (static_cast<float>(u8 ? su[c] : ss[c]) - zp) * scale;
}

// x * (1 / scale) + zp saturated to the type's range and rounded to
// nearest even, 8 at a time; NaN becomes 0 as the reference's integer
// store makes it.
__attribute__((target("avx2"))) void quantize_run(float *x, int64_t n,
        float inv, float zp, float lo, float hi) {
    const __m256 vi = _mm256_set1_ps(inv), vz = _mm256_set1_ps(zp);
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    int64_t c = 0;
    for (; c + 8 <= n; c += 8) {
        const __m256 y = _mm256_add_ps(
                _mm256_mul_ps(_mm256_loadu_ps(x + c), vi), vz);
        const __m256 nan = _mm256_cmp_ps(y, y, _CMP_UNORD_Q);
        const __m256 q = _mm256_round_ps(
                _mm256_min_ps(vhi, _mm256_max_ps(vlo, y)),
                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm256_storeu_ps(x + c, _mm256_andnot_ps(nan, q));
    }
    for (; c < n; ++c) {
        const float y = x[c] * inv + zp;
        x[c] = std::isnan(y) ? 0.f : std::nearbyint(std::min(hi, std::max(lo, y)));
    }
}

} // namespace

void dequantize_matrix(const void *src, data_type_t dt, int64_t rows,
        int64_t cols, int64_t rs, int64_t cs, float scale, float zp,
        float *dst) {
    for (int64_t r = 0; r < rows; ++r) {
        float *d = dst + r * cols;
        const char *row = static_cast<const char *>(src) + r * rs;
        if (cs == 1) {
            dequantize_run(row, dt, cols, scale, zp, d);
        } else if (dt == dnnl_u8) {
            const uint8_t *s = reinterpret_cast<const uint8_t *>(row);
            for (int64_t c = 0; c < cols; ++c)
                d[c] = (static_cast<float>(s[c * cs]) - zp) * scale;
        } else {
            const int8_t *s = reinterpret_cast<const int8_t *>(row);
            for (int64_t c = 0; c < cols; ++c)
                d[c] = (static_cast<float>(s[c * cs]) - zp) * scale;
        }
    }
}

void quantize_row(float *x, int64_t n, data_type_t dt, float scale, float zp) {
    quantize_run(x, n, 1.f / scale, zp, dt == dnnl_u8 ? 0.f : -128.f,
            dt == dnnl_u8 ? 255.f : 127.f);
}

void narrow_row(const float *src, int64_t n, void *dst, data_type_t dt) {
    if (dt == dnnl_u8 || dt == dnnl_s8) {
        for (int64_t c = 0; c < n; ++c) {
            if (dt == dnnl_u8)
                static_cast<uint8_t *>(dst)[c] = static_cast<uint8_t>(src[c]);
            else
                static_cast<int8_t *>(dst)[c] = static_cast<int8_t>(src[c]);
        }
    } else if (dt == dnnl_f32) {
        std::memcpy(dst, src, static_cast<size_t>(n) * 4);
    } else if (dt == dnnl_f16) {
        narrow_f16(src, n, static_cast<uint16_t *>(dst));
    } else {
        narrow_bf16(src, n, static_cast<uint16_t *>(dst));
    }
}

} // namespace common
} // namespace cpu
} // namespace llga
