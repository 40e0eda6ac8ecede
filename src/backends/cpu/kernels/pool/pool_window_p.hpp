// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool_window_p.hpp — what the pooling kernels
// (pool.cpp, pool_bwd.cpp, pool_int8.cpp) share: one window's taps along one
// dim clipped to the source, so no tap is tested against the bounds, the
// geometry on three spatial dims, and (pool.cpp, pool_bwd.cpp) the f32 view of
// a run of an f32, bf16 or f16 tensor: read or written in place for f32,
// widened into / narrowed from a small f32 buffer for 16 bits.
#pragma once

#include <algorithm>
#include <cstdint>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "ops/pool_geom.hpp"

namespace llga {
namespace cpu {
namespace pool {

// Taps of a window along one dim that fall inside the source: the first
// and one past the last tap index, and the source index of the first.
struct taps_t {
    int64_t k0, k1, p0;
};

// Output position o, stride s, dilation d, begin pad pb, kernel k, source
// size x.
inline taps_t clip(int64_t o, int64_t s, int64_t d, int64_t pb, int64_t k,
        int64_t x) {
    const int64_t start = o * s - pb;
    if (d == 1) { // no divisions on the common path
        const int64_t k0 = std::max<int64_t>(0, -start);
        const int64_t k1 = std::max(k0, std::min(k, x - start));
        return {k0, k1, start + k0};
    }
    int64_t k0 = start < 0 ? (-start + d - 1) / d : 0;
    int64_t k1 = start + (k - 1) * d < x ? k : (x - 1 - start) / d + 1;
    if (start > x - 1) k1 = 0;
    k1 = std::max(k0, std::min(k, k1));
    return {k0, k1, start + k0 * d};
}

// A pooling geometry on three spatial dims, the op's own last (missing
// outer ones have extent 1, kernel 1, stride 1): images, channels, and per
// dim the pooled side x's and the other side y's extents and element
// strides, the kernel, stride, dilation and begin pad.
struct geom3_t {
    int64_t n = 0, c = 0;
    int64_t xsp[3] = {}, ysp[3] = {}, k[3] = {}, s[3] = {}, d[3] = {},
            pb[3] = {};
    int64_t xs_n = 0, xs_c = 0, xs[3] = {}, ys_n = 0, ys_c = 0, ys[3] = {};
};

// The reference's geometry `g` with the strides (xst, yst: one per dim of
// the rank-`rank` tensors, NCX or NXC as g says) of the two sides.
inline geom3_t normalize3(const ops::pool_geom_t &g, const int64_t *xst,
        const int64_t *yst, int rank) {
    geom3_t o;
    o.n = g.n;
    o.c = g.c;
    const int cd = g.channel_last ? rank - 1 : 1; // channel dim
    o.xs_n = xst[0];
    o.ys_n = yst[0];
    o.xs_c = xst[cd];
    o.ys_c = yst[cd];
    for (int i = 0; i < 3; ++i) {
        const int j = i - (3 - g.nsp); // index into the op's spatial dims
        const bool real = j >= 0;
        const int dim = real ? (g.channel_last ? 1 + j : 2 + j) : 0;
        o.xsp[i] = real ? g.xsp[j] : 1;
        o.ysp[i] = real ? g.ysp[j] : 1;
        o.k[i] = real ? g.k[j] : 1;
        o.s[i] = real ? g.s[j] : 1;
        o.d[i] = real ? g.d[j] : 1;
        o.pb[i] = real ? g.pb[j] : 0;
        o.xs[i] = real ? xst[dim] : 0;
        o.ys[i] = real ? yst[dim] : 0;
    }
    return o;
}

// n values `stride` elements apart, from p on, as f32. An f32 tensor is
// read in place (stride kept); a bf16/f16 one is widened into buf (n
// floats) and stride becomes 1. The overloads let one loop body, templated
// on the element type, serve both.
inline const float *f32_run(const float *p, data_type_t, int64_t,
        int64_t &stride, float *) {
    return p;
}
inline const float *f32_run(const uint16_t *p, data_type_t dt, int64_t n,
        int64_t &stride, float *buf) {
    common::widen_matrix(p, dt, 1, n, 0, stride, buf);
    stride = 1;
    return buf;
}

// Where a loop writes its f32 results: in place for an f32 tensor, else
// into buf, which store_run then narrows into the tensor.
inline float *f32_out(float *p, float *) { return p; }
inline float *f32_out(uint16_t *, float *buf) { return buf; }

// n f32 values rounded to nearest even into a bf16/f16 run `stride`
// elements apart (f32: already in place, nothing to do).
inline void store_run(const float *, int64_t, float *, int64_t, data_type_t) {}
inline void store_run(const float *f, int64_t n, uint16_t *p, int64_t stride,
        data_type_t dt) {
    if (stride == 1) {
        common::narrow_row(f, n, p, dt);
        return;
    }
    uint16_t tmp[256]; // narrowed 8 at a time, then scattered
    for (int64_t i0 = 0; i0 < n; i0 += 256) {
        const int64_t m = std::min<int64_t>(256, n - i0);
        common::narrow_row(f + i0, m, tmp, dt);
        for (int64_t i = 0; i < m; ++i)
            p[(i0 + i) * stride] = tmp[i];
    }
}

} // namespace pool
} // namespace cpu
} // namespace llga
