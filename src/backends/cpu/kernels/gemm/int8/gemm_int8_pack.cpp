// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8_pack.cpp — int8 packing loops (see
// gemm_int8_pack.hpp). Contiguous sources get dedicated loops the compiler
// vectorises; anything else goes through the general strided walk.
#include "backends/cpu/kernels/gemm/int8/gemm_int8_pack_p.hpp"

#include <algorithm>
#include <cstring>

#include <emmintrin.h>

namespace llga {
namespace cpu {
namespace gemm_int8 {

void pack_a_vnni(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, bool shift, uint8_t *out) {
    const uint8_t x = shift ? 0x80 : 0;
    const int64_t kq = (kc + 3) / 4;
    for (int i = 0; i < m; ++i) {
        const uint8_t *row = a + i * sam;
        if (sak == 1) {
            const int64_t full = kc / 4;
            for (int64_t q = 0; q < full; ++q) {
                uint32_t w;
                std::memcpy(&w, row + 4 * q, 4);
                if (shift) w ^= 0x80808080u;
                std::memcpy(out + (q * mr + i) * 4, &w, 4);
            }
            for (int64_t q = full; q < kq; ++q)
                for (int t = 0; t < 4; ++t) {
                    const int64_t k = 4 * q + t;
                    out[(q * mr + i) * 4 + t]
                            = k < kc ? static_cast<uint8_t>(row[k] ^ x) : 0;
                }
        } else {
            for (int64_t q = 0; q < kq; ++q)
                for (int t = 0; t < 4; ++t) {
                    const int64_t k = 4 * q + t;
                    out[(q * mr + i) * 4 + t] = k < kc
                            ? static_cast<uint8_t>(row[k * sak] ^ x)
                            : 0;
                }
        }
    }
}

void pack_a_words(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, bool shift, uint16_t *out) {
    const uint8_t x = shift ? 0x80 : 0;
    const int64_t kq = (kc + 3) / 4;
    static constexpr int order[4] = {0, 2, 1, 3};
    for (int i = 0; i < m; ++i) {
        const uint8_t *row = a + i * sam;
        for (int64_t q = 0; q < kq; ++q) {
            uint16_t *o = out + (q * mr + i) * 4;
            for (int t = 0; t < 4; ++t) {
                const int64_t k = 4 * q + order[t];
                o[t] = k < kc ? static_cast<uint8_t>(row[k * sak] ^ x) : 0;
            }
        }
    }
}

bool bytes_below_128(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc) {
    uint8_t any = 0;
    for (int i = 0; i < m; ++i) {
        const uint8_t *row = a + i * sam;
        if (sak == 1) {
            for (int64_t k = 0; k < kc; ++k) // vectorised by the compiler
                any |= row[k];
        } else {
            for (int64_t k = 0; k < kc; ++k)
                any |= row[k * sak];
        }
        if (any & 0x80) return false;
    }
    return true;
}

void pack_a_amx(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int64_t kpad, int64_t ld, uint8_t *out) {
    for (int r = 0; r < 32; ++r) {
        uint8_t *o = out + r * ld;
        if (r >= m) {
            std::memset(o, 0, kpad);
            continue;
        }
        const uint8_t *row = a + r * sam;
        if (sak == 1) {
            std::memcpy(o, row, kc);
        } else {
            for (int64_t k = 0; k < kc; ++k)
                o[k] = row[k * sak];
        }
        std::memset(o + kc, 0, kpad - kc);
    }
}

void pack_b_int8(const int8_t *b, int64_t sbk, int64_t sbn, int n,
        int64_t kc, int nr, int64_t kpad, int8_t *out, int32_t *colsum,
        uint8_t flip) {
    const int64_t kq = kpad / 4;
    const __m128i vflip = _mm_set1_epi8(static_cast<char>(flip));
    const uint32_t wflip = flip * 0x01010101u;
    // Column j of quad q lands at its strip's row q, group j % nr.
    auto at = [&](int64_t q, int j) {
        return out + ((j / nr) * kq + q) * nr * 4 + (j % nr) * 4;
    };
    // Quads outer: each group of 4 B rows is read once, left to right, so
    // the walk over B is sequential (strips outer would touch every row's
    // page once per strip and miss the TLB on wide B).
    for (int64_t q = 0; q < kq; ++q) {
        const int64_t k0 = 4 * q;
        int j = 0;
        if (sbn == 1 && k0 + 4 <= kc) {
            const int8_t *r0 = b + k0 * sbk, *r1 = r0 + sbk, *r2 = r1 + sbk,
                         *r3 = r2 + sbk;
            // 16 columns of 4 rows -> 64 bytes of 4-k groups: bytes of rows
            // 0/1 and 2/3 paired, then the pairs paired (SSE2, so every
            // x86-64 host runs it). nr is a multiple of 16, so the 16
            // columns stay in one strip.
            for (; j + 16 <= n; j += 16) {
                const __m128i a0 = _mm_xor_si128(vflip, _mm_loadu_si128(
                        reinterpret_cast<const __m128i *>(r0 + j)));
                const __m128i a1 = _mm_xor_si128(vflip, _mm_loadu_si128(
                        reinterpret_cast<const __m128i *>(r1 + j)));
                const __m128i a2 = _mm_xor_si128(vflip, _mm_loadu_si128(
                        reinterpret_cast<const __m128i *>(r2 + j)));
                const __m128i a3 = _mm_xor_si128(vflip, _mm_loadu_si128(
                        reinterpret_cast<const __m128i *>(r3 + j)));
                const __m128i l01 = _mm_unpacklo_epi8(a0, a1),
                              h01 = _mm_unpackhi_epi8(a0, a1),
                              l23 = _mm_unpacklo_epi8(a2, a3),
                              h23 = _mm_unpackhi_epi8(a2, a3);
                __m128i *o = reinterpret_cast<__m128i *>(at(q, j));
                _mm_storeu_si128(o + 0, _mm_unpacklo_epi16(l01, l23));
                _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(l01, l23));
                _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(h01, h23));
                _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(h01, h23));
            }
        }
        if (sbk == 1 && k0 + 4 <= kc) {
            // B's columns are contiguous along k (a transposed operand,
            // such as Kᵀ read from K's rows): each 4-k group is one word,
            // stored strip by strip (one at() per strip: it divides).
            while (j < n) {
                const int e = std::min(n, (j / nr + 1) * nr);
                int8_t *o = at(q, j);
                for (; j < e; ++j, o += 4) {
                    uint32_t w;
                    std::memcpy(&w, b + k0 + j * sbn, 4);
                    w ^= wflip;
                    std::memcpy(o, &w, 4);
                }
            }
        }
        for (; j < n; ++j) {
            int8_t *o = at(q, j);
            for (int t = 0; t < 4; ++t)
                o[t] = k0 + t < kc ? static_cast<int8_t>(
                               b[(k0 + t) * sbk + j * sbn] ^ flip)
                                   : 0;
        }
        // Columns past n in the last strip are zero.
        if (n % nr != 0) {
            int8_t *o = at(q, n);
            std::memset(o, 0, static_cast<size_t>(4 * (nr - n % nr)));
        }
    }
    if (colsum) colsum_b(b, sbk, sbn, n, kc, colsum, flip);
}

void colsum_b(const int8_t *b, int64_t sbk, int64_t sbn, int n, int64_t k,
        int32_t *colsum, uint8_t flip) {
    // Flipped bytes sum to the unflipped ones' sum - 128 k (u8 - 128).
    const auto val = [flip](int8_t x) {
        return static_cast<int32_t>(static_cast<int8_t>(x ^ flip));
    };
    if (sbn == 1) {
        for (int64_t kk = 0; kk < k; ++kk) {
            const int8_t *r = b + kk * sbk;
            for (int j = 0; j < n; ++j)
                colsum[j] += val(r[j]);
        }
        return;
    }
    for (int j = 0; j < n; ++j) {
        int32_t s = 0;
        for (int64_t kk = 0; kk < k; ++kk)
            s += val(b[kk * sbk + j * sbn]);
        colsum[j] += s;
    }
}

void rowsum_a(const void *a, bool a_signed, int64_t sam, int64_t sak, int m,
        int64_t K, int32_t *out) {
    for (int i = 0; i < m; ++i) {
        int32_t s = 0;
        if (a_signed) {
            const int8_t *r = static_cast<const int8_t *>(a) + i * sam;
            for (int64_t k = 0; k < K; ++k)
                s += r[k * sak];
        } else {
            const uint8_t *r = static_cast<const uint8_t *>(a) + i * sam;
            for (int64_t k = 0; k < K; ++k)
                s += r[k * sak];
        }
        out[i] = s;
    }
}

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
