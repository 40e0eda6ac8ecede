// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_pack.cpp — the panel packing loops. Each has a
// fast path for the contiguous direction (rows copied whole, or columns
// walked along their contiguous k) and a generic strided path; the compiler
// vectorises the contiguous copies.
#include "backends/cpu/kernels/gemm/gemm_pack.hpp"

#include <algorithm>
#include <cstring>

#include <emmintrin.h> // SSE2: baseline on x86-64
#include <immintrin.h> // AVX-512 pair interleave (runtime-checked)
#include <xmmintrin.h> // _MM_TRANSPOSE4_PS

#include "backends/cpu/isa.hpp"

namespace llga {
namespace cpu {
namespace gemm {

namespace {
// Four runs of 4 floats, `ss` apart, written transposed as four runs `ds`
// apart: 4 loads and 4 stores per 16 values instead of 16 scalar moves.
inline void transpose4x4(const float *s, int64_t ss, float *d, int64_t ds) {
    __m128 x0 = _mm_loadu_ps(s), x1 = _mm_loadu_ps(s + ss),
           x2 = _mm_loadu_ps(s + 2 * ss), x3 = _mm_loadu_ps(s + 3 * ss);
    _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
    _mm_storeu_ps(d, x0);
    _mm_storeu_ps(d + ds, x1);
    _mm_storeu_ps(d + 2 * ds, x2);
    _mm_storeu_ps(d + 3 * ds, x3);
}

// Rows ahead to prefetch when B rows are far apart: each row of a weight
// matrix sits on its own pages, where the hardware prefetcher restarts, so
// the next rows are requested while this one is copied.
constexpr int64_t k_prefetch_rows = 8;

// `pairs` pair-rows of 32 bf16 columns (rows r and r + sbk from `src`)
// interleaved into 32 pairs each, 64 elements per pair-row at `out`: two
// loads, two cross-lane permutes and two stores per 64 values (the SSE
// loop needs 8 of each). Only called when AVX-512 is available.
__attribute__((target("avx512f,avx512bw"))) void interleave_pairs32(
        const uint16_t *src, int64_t sbk, int64_t pairs, uint16_t *out) {
    const __m512i lo = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43,
            11, 42, 10, 41, 9, 40, 8, 39, 7, 38, 6, 37, 5, 36, 4, 35, 3, 34, 2,
            33, 1, 32, 0);
    const __m512i hi = _mm512_add_epi16(lo, _mm512_set1_epi16(16));
    for (int64_t p = 0; p < pairs; ++p) {
        const uint16_t *r0 = src + 2 * p * sbk;
        const __m512i x0 = _mm512_loadu_si512(r0);
        const __m512i x1 = _mm512_loadu_si512(r0 + sbk);
        _mm512_storeu_si512(out + p * 64, _mm512_permutex2var_epi16(x0, lo, x1));
        _mm512_storeu_si512(
                out + p * 64 + 32, _mm512_permutex2var_epi16(x0, hi, x1));
    }
}

void prefetch_row(const void *p, int64_t bytes) {
    const char *c = static_cast<const char *>(p);
    for (int64_t off = 0; off < bytes; off += 64)
        __builtin_prefetch(c + off, 0, 0);
}
} // namespace

void pack_a_f32(const float *a, int64_t sam, int64_t sak, int m, int64_t kc,
        int mr, float *out) {
    if (sam == 1) {
        // Transposed A: every k step is m contiguous values. Whole panels
        // of the usual heights copy a fixed size the compiler inlines: a
        // library memcpy call per 24 bytes cost more than the products of
        // a narrow GEMM (conv backward weights, N = 64: 53 -> 80 GFLOP/s).
        if (m == 6 && mr == 6) {
            for (int64_t k = 0; k < kc; ++k)
                std::memcpy(out + k * 6, a + k * sak, sizeof(float) * 6);
        } else if (m == 12 && mr == 12) {
            for (int64_t k = 0; k < kc; ++k)
                std::memcpy(out + k * 12, a + k * sak, sizeof(float) * 12);
        } else {
            for (int64_t k = 0; k < kc; ++k)
                for (int i = 0; i < m; ++i)
                    out[k * mr + i] = a[k * sak + i];
        }
        return;
    }
    int i0 = 0;
    if (sak == 1) {
        // Groups of 4 rows x 4 k transposed in SSE registers.
        for (; i0 + 4 <= m; i0 += 4) {
            const float *r0 = a + i0 * sam, *r1 = r0 + sam, *r2 = r1 + sam,
                        *r3 = r2 + sam;
            int64_t k = 0;
            for (; k + 4 <= kc; k += 4)
                transpose4x4(r0 + k, sam, out + k * mr + i0, mr);
            for (; k < kc; ++k) {
                float *o = out + k * mr + i0;
                o[0] = r0[k];
                o[1] = r1[k];
                o[2] = r2[k];
                o[3] = r3[k];
            }
        }
    }
    // Row by row keeps the reads sequential; the writes stride by mr and
    // stay within a few cache lines per k block.
    for (int i = i0; i < m; ++i) {
        const float *row = a + i * sam;
        float *o = out + i;
        if (sak == 1)
            for (int64_t k = 0; k < kc; ++k)
                o[k * mr] = row[k];
        else
            for (int64_t k = 0; k < kc; ++k)
                o[k * mr] = row[k * sak];
    }
}

void pack_a_bf16_to_f32(const uint16_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, float *out) {
    for (int i = 0; i < m; ++i) {
        const uint16_t *row = a + i * sam;
        for (int64_t k = 0; k < kc; ++k) {
            const uint32_t bits = static_cast<uint32_t>(row[k * sak]) << 16;
            std::memcpy(out + k * mr + i, &bits, 4);
        }
    }
}

void pack_a_bf16(const uint16_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, uint16_t *out) {
    const int64_t pairs = (kc + 1) / 2;
    for (int i = 0; i < m; ++i) {
        const uint16_t *row = a + i * sam;
        uint16_t *o = out + 2 * i;
        for (int64_t p = 0; p < pairs; ++p) {
            const int64_t k = 2 * p;
            o[p * 2 * mr] = row[k * sak];
            o[p * 2 * mr + 1] = k + 1 < kc ? row[(k + 1) * sak] : 0;
        }
    }
}

namespace {
__attribute__((target("avx2,f16c"))) inline __m256 widen8(
        const uint16_t *s, bool f16) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
    return f16 ? _mm256_cvtph_ps(h)
               : _mm256_castsi256_ps(
                       _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

// Rows r[0..7] of an 8 x 8 block become its columns.
__attribute__((target("avx2"))) inline void transpose8x8(__m256 r[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);
    const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);
    const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]);
    const __m256 t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]);
    const __m256 t7 = _mm256_unpackhi_ps(r[6], r[7]);
    // u_c: column c of rows 0-3 | column c + 4 of rows 0-3 (rows 4-7 for
    // u_{c+4}).
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

__attribute__((target("avx2,f16c"))) inline float widen1(
        uint16_t v, bool f16) {
    if (f16) return _cvtsh_ss(v);
    const uint32_t u = uint32_t(v) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
} // namespace

__attribute__((target("avx2,f16c"))) void widen_16(
        const uint16_t *s, bool f16, int64_t n, float *d) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(d + i, widen8(s + i, f16));
    for (; i < n; ++i)
        d[i] = widen1(s[i], f16);
}

__attribute__((target("avx2,f16c"))) void pack_b_16(const uint16_t *b,
        int64_t sbk, int64_t sbn, int n, int64_t kc, int nr, bool f16,
        float *out, float *tmp) {
    if (sbn != 1 && sbk == 1 && nr % 8 == 0) {
        // k contiguous (B^T rows, e.g. K read as Kᵀ): whole strips go 8
        // columns x 8 k at a time, widened as loaded and transposed in
        // registers, each step writing 8 whole packed rows; no f32 copy.
        const int strips = (n + nr - 1) / nr;
        const int64_t sstride = kc * nr;
        const int whole = n / nr * nr;
        for (int c0 = 0; c0 < whole; c0 += nr) {
            float *o = out + (c0 / nr) * sstride;
            int64_t k = 0;
            for (; k + 8 <= kc; k += 8)
                for (int j = 0; j < nr; j += 8) {
                    __m256 r[8];
                    for (int i = 0; i < 8; ++i)
                        r[i] = widen8(b + (c0 + j + i) * sbn + k, f16);
                    transpose8x8(r);
                    for (int i = 0; i < 8; ++i)
                        _mm256_storeu_ps(o + (k + i) * nr + j, r[i]);
                }
            for (; k < kc; ++k)
                for (int j = 0; j < nr; ++j)
                    o[k * nr + j] = widen1(b[(c0 + j) * sbn + k], f16);
        }
        // The last, partial strip column by column; zeros past n.
        for (int c = whole; c < strips * nr; ++c) {
            float *o = out + (c / nr) * sstride + c % nr;
            for (int64_t k = 0; k < kc; ++k)
                o[k * nr] = c < n ? widen1(b[c * sbn + k], f16) : 0.f;
        }
        return;
    }
    if (sbn != 1) {
        // Columns strided along k too: widened into n rows of kc floats,
        // then packed as f32 B^T (4 x 4 transposes).
        for (int c = 0; c < n; ++c) {
            const uint16_t *col = b + c * sbn;
            float *t = tmp + c * kc;
            if (sbk == 1)
                widen_16(col, f16, kc, t);
            else
                for (int64_t k = 0; k < kc; ++k)
                    t[k] = widen1(col[k * sbk], f16);
        }
        pack_b_f32(tmp, 1, kc, n, kc, nr, out);
        return;
    }
    // Row-major B: pack_b_f32's walk (groups of rows, strip by strip),
    // widening 8 values per load; half the bytes come from memory.
    const int strips = (n + nr - 1) / nr;
    const int64_t sstride = kc * nr;
    constexpr int64_t k_group = 8;
    for (int64_t k0 = 0; k0 < kc; k0 += k_group) {
        const int64_t k1 = std::min(kc, k0 + k_group);
        for (int64_t k = k0; k < k1; ++k)
            if (k + k_prefetch_rows < kc)
                prefetch_row(b + (k + k_prefetch_rows) * sbk, 2 * int64_t(n));
        for (int s = 0; s < strips; ++s) {
            const int cols = std::min(nr, n - s * nr);
            for (int64_t k = k0; k < k1; ++k) {
                const uint16_t *src = b + k * sbk + s * nr;
                float *o = out + s * sstride + k * nr;
                int j = 0;
                for (; j + 8 <= cols; j += 8)
                    _mm256_storeu_ps(o + j, widen8(src + j, f16));
                for (; j < cols; ++j)
                    o[j] = widen1(src[j], f16);
                for (; j < nr; ++j)
                    o[j] = 0.f;
            }
        }
    }
}

void pack_b_f32(const float *b, int64_t sbk, int64_t sbn, int n, int64_t kc,
        int nr, float *out) {
    const int strips = (n + nr - 1) / nr;
    const int64_t sstride = kc * nr;
    if (sbn == 1) {
        // Groups of rows, strip by strip: the strips are kc * nr floats
        // apart (a power of two), so writing one row into every strip would
        // put all the written lines into the same L1 set; a group writes
        // k_group consecutive rows (contiguous) per strip instead, while
        // the group's source rows stay in L1.
        constexpr int64_t k_group = 8;
        for (int64_t k0 = 0; k0 < kc; k0 += k_group) {
            const int64_t k1 = std::min(kc, k0 + k_group);
            for (int64_t k = k0; k < k1; ++k)
                if (k + k_prefetch_rows < kc)
                    prefetch_row(b + (k + k_prefetch_rows) * sbk,
                            4 * int64_t(n));
            int s = 0;
            // Whole strips of the usual widths: a fixed-size copy the
            // compiler inlines (a library memcpy call per 64 or 128 bytes
            // cost more than the copy itself).
            if (nr == 32)
                for (; (s + 1) * 32 <= n; ++s)
                    for (int64_t k = k0; k < k1; ++k)
                        std::memcpy(out + s * sstride + k * 32,
                                b + k * sbk + s * 32, 128);
            else if (nr == 16)
                for (; (s + 1) * 16 <= n; ++s)
                    for (int64_t k = k0; k < k1; ++k)
                        std::memcpy(out + s * sstride + k * 16,
                                b + k * sbk + s * 16, 64);
            for (; s < strips; ++s) {
                const int cols = n - s * nr < nr ? n - s * nr : nr;
                for (int64_t k = k0; k < k1; ++k) {
                    float *o = out + s * sstride + k * nr;
                    std::memcpy(o, b + k * sbk + s * nr, sizeof(float) * cols);
                    for (int j = cols; j < nr; ++j)
                        o[j] = 0.f;
                }
            }
        }
        return;
    }
    // Transposed B: walk each column along its (contiguous) k. With k
    // contiguous, whole strips go 4 columns x 4 k at a time through an
    // SSE transpose, each step writing 4 whole packed rows: the
    // one-float-at-a-time walk stored single floats 64 bytes apart and
    // cost as much as the products (conv backward data with XIO weights,
    // 49 x 4608 x 512: about 1 ms of 3.5).
    int c_done = 0;
    if (sbk == 1 && nr % 4 == 0) {
        const int whole = n / nr * nr;
        for (int c0 = 0; c0 < whole; c0 += nr) {
            float *o = out + (c0 / nr) * sstride;
            int64_t k = 0;
            for (; k + 4 <= kc; k += 4)
                for (int j = 0; j < nr; j += 4)
                    transpose4x4(b + (c0 + j) * sbn + k, sbn, o + k * nr + j, nr);
            for (; k < kc; ++k)
                for (int j = 0; j < nr; ++j)
                    o[k * nr + j] = b[(c0 + j) * sbn + k];
        }
        c_done = whole;
    }
    for (int c = c_done; c < n; ++c) {
        const float *col = b + c * sbn;
        float *o = out + (c / nr) * sstride + c % nr;
        if (sbk == 1)
            for (int64_t k = 0; k < kc; ++k)
                o[k * nr] = col[k];
        else
            for (int64_t k = 0; k < kc; ++k)
                o[k * nr] = col[k * sbk];
    }
    for (int c = n; c < strips * nr; ++c) {
        float *o = out + (c / nr) * sstride + c % nr;
        for (int64_t k = 0; k < kc; ++k)
            o[k * nr] = 0.f;
    }
}

void pack_b_bf16(const uint16_t *b, int64_t sbk, int64_t sbn, int n,
        int64_t kc, int nr, uint16_t *out, int64_t kc_pad) {
    const int strips = (n + nr - 1) / nr;
    const int64_t pairs = (kc + 1) / 2;
    const int64_t pairs_pad = std::max(pairs, (kc_pad + 1) / 2);
    const int64_t sstride = pairs_pad * nr * 2;
    for (int s = 0; s < strips && pairs_pad > pairs; ++s)
        std::memset(out + s * sstride + pairs * nr * 2, 0,
                sizeof(uint16_t) * (pairs_pad - pairs) * nr * 2);
    if (sbn == 1) {
        // Groups of pair-rows, strip by strip (see pack_b_f32: strips a
        // power of two apart would put one pair-row's writes into one L1
        // set).
        constexpr int64_t k_group = 8;
        const bool zmm = nr == 32 && isa_available(isa_t::avx512_core);
        for (int64_t p0 = 0; p0 < pairs; p0 += k_group) {
            const int64_t p1 = std::min(pairs, p0 + k_group);
            // Whole strips and whole pairs: the AVX-512 interleave.
            const bool fast = zmm && 2 * p1 <= kc;
            for (int64_t p = p0; p < p1; ++p)
                if (2 * p + k_prefetch_rows + 1 < kc) {
                    const uint16_t *r0 = b + 2 * p * sbk;
                    prefetch_row(r0 + k_prefetch_rows * sbk, 2 * int64_t(n));
                    prefetch_row(
                            r0 + (k_prefetch_rows + 1) * sbk, 2 * int64_t(n));
                }
            for (int s = 0; s < strips; ++s) {
                const int cols = n - s * nr < nr ? n - s * nr : nr;
                const int c0 = s * nr;
                if (fast && cols == 32) {
                    interleave_pairs32(b + 2 * p0 * sbk + c0, sbk, p1 - p0,
                            out + s * sstride + p0 * 64);
                    continue;
                }
                for (int64_t p = p0; p < p1; ++p) {
                    const uint16_t *r0 = b + 2 * p * sbk;
                    const uint16_t *r1 = 2 * p + 1 < kc ? r0 + sbk : nullptr;
                    uint16_t *o = out + s * sstride + p * 2 * nr;
                    if (r1) {
                        // Interleave 8 columns of the two rows per step:
                        // the scalar loop is what limits packing for
                        // small M.
                        int j = 0;
                        for (; j + 8 <= cols; j += 8) {
                            const __m128i x0 = _mm_loadu_si128(
                                    reinterpret_cast<const __m128i *>(
                                            r0 + c0 + j));
                            const __m128i x1 = _mm_loadu_si128(
                                    reinterpret_cast<const __m128i *>(
                                            r1 + c0 + j));
                            _mm_storeu_si128(
                                    reinterpret_cast<__m128i *>(o + 2 * j),
                                    _mm_unpacklo_epi16(x0, x1));
                            _mm_storeu_si128(
                                    reinterpret_cast<__m128i *>(o + 2 * j + 8),
                                    _mm_unpackhi_epi16(x0, x1));
                        }
                        for (; j < cols; ++j) {
                            o[2 * j] = r0[c0 + j];
                            o[2 * j + 1] = r1[c0 + j];
                        }
                    } else
                        for (int j = 0; j < cols; ++j) {
                            o[2 * j] = r0[c0 + j];
                            o[2 * j + 1] = 0;
                        }
                    for (int j = cols; j < nr; ++j)
                        o[2 * j] = o[2 * j + 1] = 0;
                }
            }
        }
        return;
    }
    for (int c = 0; c < strips * nr; ++c) {
        uint16_t *o = out + (c / nr) * sstride + (c % nr) * 2;
        if (c >= n) {
            for (int64_t p = 0; p < pairs; ++p)
                o[p * nr * 2] = o[p * nr * 2 + 1] = 0;
            continue;
        }
        const uint16_t *col = b + c * sbn;
        for (int64_t p = 0; p < pairs; ++p) {
            const int64_t k = 2 * p;
            o[p * nr * 2] = col[k * sbk];
            o[p * nr * 2 + 1] = k + 1 < kc ? col[(k + 1) * sbk] : 0;
        }
    }
}

void pack_a_amx(const uint16_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, uint16_t *out, int rows) {
    const int64_t chunks = (kc + 31) / 32, cstride = rows * 32;
    for (int r = 0; r < rows; ++r) {
        uint16_t *orow = out + r * 32;
        if (r >= m) {
            for (int64_t c = 0; c < chunks; ++c)
                std::memset(orow + c * cstride, 0, 64);
            continue;
        }
        const uint16_t *row = a + r * sam;
        for (int64_t c = 0; c < chunks; ++c) {
            uint16_t *o = orow + c * cstride;
            const int64_t k0 = c * 32, n = std::min<int64_t>(32, kc - k0);
            if (sak == 1 && n == 32) {
                std::memcpy(o, row + k0, 64);
                continue;
            }
            for (int64_t k = 0; k < n; ++k)
                o[k] = row[(k0 + k) * sak];
            for (int64_t k = n; k < 32; ++k)
                o[k] = 0;
        }
    }
}

} // namespace gemm
} // namespace cpu
} // namespace llga
