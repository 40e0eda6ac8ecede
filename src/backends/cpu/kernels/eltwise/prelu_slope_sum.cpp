// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/prelu_slope_sum.cpp — see prelu_slope_sum.hpp.
#include "backends/cpu/kernels/eltwise/prelu_slope_sum_p.hpp"

#include <algorithm>

#include "backends/cpu/kernels/common/elem_io.hpp"
#include "base/parallel.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/prelu_slope.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace prelu {

namespace {

// Adds x * dy (x <= 0 or NaN) to acc[slope index] for src's row-major
// elements [start, start + count) of one index range of the dims from `a`
// inward (x, dy point at that range's first element), in index order.
template <typename IO, typename R = typename IO::raw_t>
void accumulate(const slope_sum_t &g, int64_t start, int64_t count,
        const R *x, const R *dy, double *acc) {
    const int m = static_cast<int>(g.ext.size());
    int64_t idx[DNNL_MAX_NDIMS], j = 0, rest = start;
    for (int k = m - 1; k >= 0; --k) {
        idx[k] = rest % g.ext[k];
        rest /= g.ext[k];
        j += idx[k] * g.js[k];
    }
    const int64_t step = g.js[m - 1];
    for (int64_t i = start, end = start + count; i < end;) {
        const int64_t run = std::min(end - i, g.ext[m - 1] - idx[m - 1]);
        // A skipped term (x > 0) adds +0 instead of branching on the sign:
        // the same sum, since an accumulator that starts at +0 is never -0.
        const auto term = [&](int64_t t) {
            const double v = IO::load(x[i + t]);
            return common::pick(v > 0, 0.0, v * static_cast<double>(IO::load(dy[i + t])));
        };
        if (step == 0) { // one accumulator for the run: kept in a register
            double a = acc[j];
            for (int64_t t = 0; t < run; ++t)
                a += term(t);
            acc[j] = a;
        } else {
            for (int64_t t = 0; t < run; ++t)
                acc[j + t * step] += term(t);
        }
        i += run;
        j += run * step;
        idx[m - 1] += run;
        for (int k = m - 1; k > 0 && idx[k] == g.ext[k]; --k) {
            j += g.js[k - 1] - g.ext[k] * g.js[k];
            idx[k] = 0;
            ++idx[k - 1];
        }
    }
}

template <typename IO, typename R = typename IO::raw_t>
void sum_as(const slope_sum_t &g, data_type_t dt, const R *x, const R *dy,
        void *ds, scratch_frame_t &frame) {
    if (g.sn == 0) return;
    double *part = static_cast<double *>(frame.take(
            static_cast<size_t>(g.chunks * g.sn) * sizeof(double)));
    const int64_t per_v = g.sn / g.ea, span = g.ea * g.in;
    // Slope ranges per piece: enough tasks for every thread, each a few
    // thousand elements; the results do not depend on the count.
    const int64_t threads = std::max(1, rt::max_threads());
    const int64_t blocks = std::max<int64_t>(1,
            std::min({g.ea, div_up(4 * threads, g.chunks),
                    g.n / (g.chunks * 8192)}));
    parallel_for(g.chunks * blocks, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t c = t / blocks, b = t % blocks;
            const int64_t v0 = g.ea * b / blocks, v1 = g.ea * (b + 1) / blocks;
            double *acc = part + c * g.sn;
            std::fill(acc + v0 * per_v, acc + v1 * per_v, 0.0);
            const int64_t i0 = g.n * c / g.chunks, i1 = g.n * (c + 1) / g.chunks;
            for (int64_t o = span ? i0 / span : 0; o * span < i1; ++o) {
                const int64_t a = std::max(i0, o * span + v0 * g.in);
                const int64_t e = std::min(i1, o * span + v1 * g.in);
                if (a < e)
                    accumulate<IO>(g, a - o * span, e - a, x + o * span,
                            dy + o * span, acc);
            }
        }
    });
    const int nd = static_cast<int>(g.sdims.size());
    parallel_for(g.sn, 4096, [&](int64_t lo, int64_t hi) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(lo, g.sdims, idx);
        for (int64_t j = lo; j < hi; ++j, ir::next_index(idx, g.sdims)) {
            double sum = 0;
            for (int64_t c = 0; c < g.chunks; ++c)
                sum += part[c * g.sn + j];
            ir::store_value(dt, ds, ir::offset_of(idx, g.sstrides.data(), nd), sum);
        }
    });
}

} // namespace

slope_sum_t plan_slope_sum(const ir::op_t &op) {
    slope_sum_t s;
    const dims_t sd = ir::dims_of(op.inputs[0]);
    const dims_t pd = ir::dims_of(op.inputs[1]);
    dims_t ld, ls;
    ops::prelu_slope_at_src_rank(op, sd, pd, ir::dense_strides(pd), ld, ls);
    s.n = ir::product(sd);
    s.sn = ir::product(pd);
    // The reference's piece count: about 16 or more terms per slope
    // element in each piece, at most 64 pieces, at least one.
    s.chunks = std::max<int64_t>(1,
            std::min<int64_t>(64, s.n / std::max<int64_t>(1, 16 * s.sn)));
    const size_t nd = sd.size();
    size_t a = 0;
    while (a < nd && ld[a] == 1)
        ++a;
    s.ea = a < nd ? sd[a] : 1;
    s.in = 1;
    for (size_t d = a + 1; d < nd; ++d)
        s.in *= sd[d];
    // Dims from a inward, merged where the slope index keeps stepping
    // evenly (runs of broadcast dims, or of the slope's own dims), so the
    // walk's innermost run is as long as it can be.
    for (size_t d = a; d < nd; ++d) {
        if (sd[d] == 1) continue;
        const int64_t j = ld[d] == 1 ? 0 : ls[d];
        if (!s.ext.empty() && s.js.back() == j * sd[d]) {
            s.ext.back() *= sd[d];
            s.js.back() = j;
        } else {
            s.ext.push_back(sd[d]);
            s.js.push_back(j);
        }
    }
    if (s.ext.empty()) s.ext = {1}, s.js = {0};
    s.sdims = ir::dims_of(op.outputs[1]);
    s.sstrides = ir::strides_of(op.outputs[1]);
    return s;
}

void diff_slope(const slope_sum_t &g, data_type_t dt, const void *x,
        const void *dy, void *ds, scratch_frame_t &frame) {
    common::with_fp(dt, [&](auto io) {
        using R = typename decltype(io)::raw_t;
        sum_as<decltype(io)>(g, dt, static_cast<const R *>(x),
                static_cast<const R *>(dy), ds, frame);
    });
}

} // namespace prelu
} // namespace cpu
} // namespace llga
