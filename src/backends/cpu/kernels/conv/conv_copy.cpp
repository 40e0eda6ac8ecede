// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_copy.cpp — im2col panels, NCX <-> dense NXC
// moves and the bias vector (see the header).
#include "backends/cpu/kernels/conv/conv_copy_p.hpp"

#include <algorithm>
#include <cstring>

#include <immintrin.h>

#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {
// Copies n bytes as 16-byte moves, the last one overlapping the one
// before: stacked rows are many runs of one pixel's channels (64 channels:
// 256 bytes), short enough that a library call per run would be a large
// part of each.
inline void copy_run(char *dst, const char *src, size_t n) {
    if (n < 16) {
        std::memcpy(dst, src, n);
        return;
    }
    size_t i = 0;
    for (; i + 16 < n; i += 16)
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i),
                _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + n - 16),
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + n - 16)));
}

// `count` runs of N bytes (a compile-time size: an inlined copy), the
// destinations `dstep` and the sources `sstep` bytes apart.
template <size_t N>
void copy_runs(char *o, const char *in, int64_t count, int64_t dstep,
        int64_t sstep) {
    for (int64_t i = 0; i < count; ++i, o += dstep, in += sstep)
        std::memcpy(o, in, N);
}
} // namespace

void im2col_nxc(const conv_desc_t &d, const nxc_view_t &src, int64_t n,
        int64_t g, int64_t p0, int64_t rows, char *panel, int64_t ldp) {
    const size_t es = d.bf16() ? 2 : 4;
    const size_t seg = static_cast<size_t>(d.ICg) * es; // one tap's channels
    const char *base = src.p + (n * src.s[0] + g * d.ICg) * static_cast<int64_t>(es);
    // Dense input rows with dilation 1: the taps of one kernel row are
    // consecutive in memory, so a row's valid taps are one copy.
    const bool row_copy = d.DW == 1 && src.s[4] == d.ICg;
    int64_t od = p0 / (d.OH * d.OW), oh = p0 / d.OW % d.OH, ow = p0 % d.OW;
    for (int64_t r = 0; r < rows; ++r) {
        char *row = panel + r * ldp * static_cast<int64_t>(es);
        for (int64_t kd = 0; kd < d.KD; ++kd) {
            const int64_t id = od * d.SD - d.PD + kd * d.DD;
            const bool dok = id >= 0 && id < d.ID;
            for (int64_t kh = 0; kh < d.KH; ++kh) {
                const int64_t ih = oh * d.SH - d.PH + kh * d.DH;
                const bool hok = dok && ih >= 0 && ih < d.IH;
                if (!hok) {
                    std::memset(row, 0, seg * d.KW);
                    row += seg * d.KW;
                    continue;
                }
                // Valid kernel columns [k0, k1): iw grows with kw.
                const int64_t iw0 = ow * d.SW - d.PW;
                int64_t k0 = 0, k1 = d.KW;
                while (k0 < k1 && iw0 + k0 * d.DW < 0)
                    ++k0;
                while (k1 > k0 && iw0 + (k1 - 1) * d.DW >= d.IW)
                    --k1;
                if (k0 > 0) std::memset(row, 0, seg * k0);
                const char *in = base
                        + (id * src.s[2] + ih * src.s[3]
                                  + (iw0 + k0 * d.DW) * src.s[4])
                                * static_cast<int64_t>(es);
                if (row_copy && k1 > k0) {
                    std::memcpy(row + seg * k0, in, seg * (k1 - k0));
                } else {
                    const int64_t step = d.DW * src.s[4] * static_cast<int64_t>(es);
                    for (int64_t kw = k0; kw < k1; ++kw, in += step)
                        std::memcpy(row + seg * kw, in, seg);
                }
                if (k1 < d.KW) std::memset(row + seg * k1, 0, seg * (d.KW - k1));
                row += seg * d.KW;
            }
        }
        if (++ow == d.OW) {
            ow = 0;
            if (++oh == d.OH) {
                oh = 0;
                ++od;
            }
        }
    }
}

void stacked_rows_nxc(const conv_desc_t &d, const nxc_view_t &src,
        int64_t n, int64_t g, int64_t oh, int64_t iwp, char *s) {
    const int64_t es = d.bf16() ? 2 : 4;
    const int64_t seg = d.ICg * es;        // one (column, kernel row)
    const int64_t col = d.KH * seg;        // one padded input column
    // Padded columns before and after the input.
    const int64_t left = std::min(d.PW, iwp);
    const int64_t right = std::max<int64_t>(0, iwp - d.PW - d.IW);
    std::memset(s, 0, static_cast<size_t>(left * col));
    std::memset(s + (iwp - right) * col, 0, static_cast<size_t>(right * col));
    const int64_t iw_end = std::min(d.IW, iwp - d.PW);
    const char *base = src.p + (n * src.s[0] + g * d.ICg) * es;
    for (int64_t kh = 0; kh < d.KH; ++kh) {
        const int64_t ih = oh * d.SH - d.PH + kh * d.DH;
        char *o = s + left * col + kh * seg;
        if (ih < 0 || ih >= d.IH) {
            for (int64_t iw = 0; iw < iw_end; ++iw, o += col)
                std::memset(o, 0, static_cast<size_t>(seg));
            continue;
        }
        const char *in = base + ih * src.s[3] * es;
        const int64_t step = src.s[4] * es;
        // Fixed-size copies for the common small channel counts (a library
        // call per run would cost more than the run).
        switch (seg) {
            case 4: copy_runs<4>(o, in, iw_end, col, step); break;
            case 8: copy_runs<8>(o, in, iw_end, col, step); break;
            case 12: copy_runs<12>(o, in, iw_end, col, step); break;
            case 16: copy_runs<16>(o, in, iw_end, col, step); break;
            default:
                for (int64_t iw = 0; iw < iw_end; ++iw, o += col, in += step)
                    copy_run(o, in, static_cast<size_t>(seg));
        }
    }
}

namespace {
// Channels per block of the NCX <-> NXC moves: a block's channel planes
// are read (or written) as that many streams while its pixels' channel
// runs stay contiguous on the other side.
constexpr int64_t k_cblock = 16;

// A 16 x 16 byte tile: d[c * ds + r] = s[r * ss + c] (SSE2, in four
// interleave stages of 8, 16, 32 and 64 bits): the byte moves of int8 data
// between NCX and NXC, which one element at a time cost more than the
// int8 GEMM itself.
void transpose16_u8(const uint8_t *s, int64_t ss, uint8_t *d, int64_t ds) {
    __m128i a[16], x[16], y[16], z[16];
    for (int r = 0; r < 16; ++r)
        a[r] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + r * ss));
    for (int i = 0; i < 8; ++i) { // rows 2i, 2i+1: columns 0-7, 8-15
        x[i] = _mm_unpacklo_epi8(a[2 * i], a[2 * i + 1]);
        x[i + 8] = _mm_unpackhi_epi8(a[2 * i], a[2 * i + 1]);
    }
    for (int h = 0; h < 2; ++h) // columns 8h.. : rows 4j..4j+3 per y
        for (int j = 0; j < 4; ++j) {
            const __m128i &l = x[8 * h + 2 * j], &r = x[8 * h + 2 * j + 1];
            y[8 * h + j] = _mm_unpacklo_epi16(l, r);     // columns 8h + 0..3
            y[8 * h + 4 + j] = _mm_unpackhi_epi16(l, r); // columns 8h + 4..7
        }
    for (int g = 0; g < 16; g += 4) { // one column quad: rows 0-7, 8-15
        z[g] = _mm_unpacklo_epi32(y[g], y[g + 1]);
        z[g + 1] = _mm_unpackhi_epi32(y[g], y[g + 1]);
        z[g + 2] = _mm_unpacklo_epi32(y[g + 2], y[g + 3]);
        z[g + 3] = _mm_unpackhi_epi32(y[g + 2], y[g + 3]);
        const __m128i c[4] = {_mm_unpacklo_epi64(z[g], z[g + 2]),
                _mm_unpackhi_epi64(z[g], z[g + 2]),
                _mm_unpacklo_epi64(z[g + 1], z[g + 3]),
                _mm_unpackhi_epi64(z[g + 1], z[g + 3])};
        for (int k = 0; k < 4; ++k)
            _mm_storeu_si128(reinterpret_cast<__m128i *>(d + (g + k) * ds), c[k]);
    }
}

// An 8 x 8 tile of 4-byte values: d[c * ds + r] = s[r * ss + c] (AVX2,
// movement's). One element at a time, moving an f32 conv result back to
// NCX took twice as long as the int8 GEMM computing it.
void transpose8(const uint32_t *s, int64_t ss, uint32_t *d, int64_t ds) {
    movement::transpose8x8_4b(s, ss, d, ds);
}

// An 8 x 8 tile of 2-byte values (SSE2: 16-, 32-, then 64-bit
// interleaves).
void transpose8(const uint16_t *s, int64_t ss, uint16_t *d, int64_t ds) {
    __m128i a[8], x[8], y[8];
    for (int k = 0; k < 8; ++k)
        a[k] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + k * ss));
    for (int k = 0; k < 4; ++k) { // rows 2k, 2k+1
        x[k] = _mm_unpacklo_epi16(a[2 * k], a[2 * k + 1]);     // columns 0-3
        x[k + 4] = _mm_unpackhi_epi16(a[2 * k], a[2 * k + 1]); // columns 4-7
    }
    for (int h = 0; h < 8; h += 4) { // column half h: rows 0-3, 4-7
        y[h] = _mm_unpacklo_epi32(x[h], x[h + 1]);
        y[h + 1] = _mm_unpackhi_epi32(x[h], x[h + 1]);
        y[h + 2] = _mm_unpacklo_epi32(x[h + 2], x[h + 3]);
        y[h + 3] = _mm_unpackhi_epi32(x[h + 2], x[h + 3]);
    }
    for (int h = 0; h < 8; h += 4)
        for (int k = 0; k < 2; ++k) {
            _mm_storeu_si128(reinterpret_cast<__m128i *>(d + (h + 2 * k) * ds),
                    _mm_unpacklo_epi64(y[h + k], y[h + k + 2]));
            _mm_storeu_si128(
                    reinterpret_cast<__m128i *>(d + (h + 2 * k + 1) * ds),
                    _mm_unpackhi_epi64(y[h + k], y[h + k + 2]));
        }
}

// One (n, d, h) row: o[w][c] = i[c * s1 + w * s4] for w < W, c < C.
template <typename T>
void row_to_nxc(const T *i, int64_t s1, int64_t s4, int64_t W, int64_t C,
        T *o) {
    for (int64_t c0 = 0; c0 < C; c0 += k_cblock) {
        const int64_t cn = std::min(k_cblock, C - c0);
        int64_t w = 0;
        if constexpr (sizeof(T) == 1) { // whole 16 x 16 tiles
            if (cn == 16 && s4 == 1)
                for (; w + 16 <= W; w += 16)
                    transpose16_u8(i + c0 * s1 + w, s1, o + w * C + c0, C);
        } else if (cn % 8 == 0 && s4 == 1) { // whole 8 x 8 tiles
            for (; w + 8 <= W; w += 8)
                for (int64_t c = c0; c < c0 + cn; c += 8)
                    transpose8(i + c * s1 + w, s1, o + w * C + c, C);
        }
        for (; w < W; ++w) {
            const T *ip = i + c0 * s1 + w * s4;
            T *op = o + w * C + c0;
            for (int64_t c = 0; c < cn; ++c)
                op[c] = ip[c * s1];
        }
    }
}

// Channels [c0, c0 + cn) of one image: dense [P][C] rows -> the strided
// planes (pixel p at d, h, w of extents D, H, W).
template <typename T>
void block_from_nxc(const T *i, int64_t C, int64_t cn, int64_t D, int64_t H,
        int64_t W, const int64_t s[5], T *o) {
    for (int64_t dd = 0; dd < D; ++dd)
        for (int64_t h = 0; h < H; ++h) {
            T *orow = o + dd * s[2] + h * s[3];
            int64_t w = 0;
            if constexpr (sizeof(T) == 1) { // whole 16 x 16 tiles
                if (cn == 16 && s[4] == 1)
                    for (; w + 16 <= W; w += 16, i += 16 * C)
                        transpose16_u8(i, C, orow + w, s[1]);
            } else if (cn % 8 == 0 && s[4] == 1) { // whole 8 x 8 tiles
                for (; w + 8 <= W; w += 8, i += 8 * C)
                    for (int64_t c = 0; c < cn; c += 8)
                        transpose8(i + c, C, orow + c * s[1] + w, s[1]);
            }
            for (; w < W; ++w, i += C)
                for (int64_t c = 0; c < cn; ++c)
                    orow[c * s[1] + w * s[4]] = i[c];
        }
}
} // namespace

void to_dense_nxc(const char *src, const int64_t s[5], int64_t N, int64_t C,
        int64_t D, int64_t H, int64_t W, size_t es, char *dst) {
    parallel_for(N * D * H, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t n = t / (D * H), dd = t / H % D, h = t % H;
            const int64_t in = n * s[0] + dd * s[2] + h * s[3], out = t * W * C;
            if (es == 4)
                row_to_nxc(reinterpret_cast<const uint32_t *>(src) + in, s[1],
                        s[4], W, C, reinterpret_cast<uint32_t *>(dst) + out);
            else if (es == 2)
                row_to_nxc(reinterpret_cast<const uint16_t *>(src) + in, s[1],
                        s[4], W, C, reinterpret_cast<uint16_t *>(dst) + out);
            else
                row_to_nxc(reinterpret_cast<const uint8_t *>(src) + in, s[1],
                        s[4], W, C, reinterpret_cast<uint8_t *>(dst) + out);
        }
    });
}

void from_dense_nxc(const char *src, int64_t N, int64_t C, int64_t D,
        int64_t H, int64_t W, size_t es, char *dst, const int64_t s[5]) {
    const int64_t P = D * H * W, nb = div_up(C, k_cblock);
    parallel_for(N * nb, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t n = t / nb, c0 = t % nb * k_cblock;
            const int64_t cn = std::min(k_cblock, C - c0);
            const int64_t in = n * P * C + c0, out = n * s[0] + c0 * s[1];
            if (es == 4)
                block_from_nxc(reinterpret_cast<const uint32_t *>(src) + in, C,
                        cn, D, H, W, s, reinterpret_cast<uint32_t *>(dst) + out);
            else if (es == 2)
                block_from_nxc(reinterpret_cast<const uint16_t *>(src) + in, C,
                        cn, D, H, W, s, reinterpret_cast<uint16_t *>(dst) + out);
            else
                block_from_nxc(reinterpret_cast<const uint8_t *>(src) + in, C,
                        cn, D, H, W, s, reinterpret_cast<uint8_t *>(dst) + out);
        }
    });
}

namespace {
template <typename T>
void gather_plane(const conv_desc_t &d, const T *in, T *out) {
    const int64_t sw = d.SW * d.ss[4];
    for (int64_t od = 0; od < d.OD; ++od)
        for (int64_t oh = 0; oh < d.OH; ++oh) {
            const T *row = in + od * d.SD * d.ss[2] + oh * d.SH * d.ss[3];
            for (int64_t ow = 0; ow < d.OW; ++ow)
                *out++ = row[ow * sw];
        }
}
} // namespace

void gather_1x1_ncx(const conv_desc_t &d, const char *src, size_t es,
        char *dst) {
    const int64_t P = d.opix(), C = d.IC();
    parallel_for(d.N * C, 16, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t off = t / C * d.ss[0] + t % C * d.ss[1];
            if (es == 4)
                gather_plane(d, reinterpret_cast<const uint32_t *>(src) + off,
                        reinterpret_cast<uint32_t *>(dst) + t * P);
            else
                gather_plane(d, reinterpret_cast<const uint16_t *>(src) + off,
                        reinterpret_cast<uint16_t *>(dst) + t * P);
        }
    });
}

std::vector<float> bias_f32(const conv_desc_t &d, const void *bias,
        int64_t pad) {
    std::vector<float> b(static_cast<size_t>(d.OC() + pad), 0.f);
    if (!d.has_bias) return b;
    for (int64_t c = 0; c < d.OC(); ++c) {
        const int64_t off = c * d.bias_stride;
        b[c] = d.bias_dt == dnnl_f32
                ? static_cast<const float *>(bias)[off]
                : ir::bf16_to_f32(static_cast<const uint16_t *>(bias)[off]);
    }
    return b;
}

} // namespace conv
} // namespace cpu
} // namespace llga
