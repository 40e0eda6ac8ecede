// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax_bwd.cpp — softmax backward (see
// softmax_bwd.hpp): slices along the axis, threaded; a dense run after the
// axis (a channel axis of NCHW), or else, for slices strided along the
// axis, a dim of unit stride elsewhere, is walked as contiguous row
// segments of many slices at once; a slice contiguous along the axis as
// one row.
// bf16/f16 tensors take the same walks with each row segment (or piece of
// a slice) widened into an L1 buffer, the f32 arithmetic run on it and the
// results narrowed piece by piece.
#include "backends/cpu/kernels/norm/softmax_bwd.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/common/elem_io.hpp"
#include "backends/cpu/kernels/eltwise/eltwise.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace softmax_bwd {

namespace {

// Elements one task covers at least.
constexpr int64_t k_task_elems = 16384;
// Positions of a dense inner run one task walks at a time, at most: a
// whole run when it fits, so that walking down the axis reads one
// contiguous block (NCHW 64 x 128 x 28 x 28 over C, two threads: chunks
// of 256 positions 15 ms, 392 12-14, the whole 784 6.8), whose rows the
// prefetchers follow across pages; its double sums stay in L1.
constexpr int64_t k_inner_chunk = 2048;
// Floats between the starts of two row buffers of the 16-bit walks: 64
// bytes more than a chunk, so that the same element of two buffers is
// not a multiple of 4 KB apart (the loads of one would wait on the
// stores to the other: 4K aliasing).
constexpr int64_t k_stride = k_inner_chunk + 16;
// 16-bit slices whose sums run side by side (see slice_sums), and the
// elements of each widened at a time for them (8 KB per tensor).
constexpr int k_slices = 8;
constexpr int64_t k_sum_piece = 256;
static_assert(k_slices * k_sum_piece <= k_stride, "pieces fit a buffer");

struct layout_t {
    bool log = false;
    int dd = -1, y = -1, ds = -1; // ports: diff_dst, dst, diff_src
    // diff_dst and dst (one type), and diff_src: f32, or a 16-bit type
    // widened and narrowed by pieces.
    data_type_t dt = dnnl_f32, out_dt = dnnl_f32;
    int64_t n = 0;                // slice length (the axis)
    int64_t sdd = 0, sy = 0, sds = 0; // strides along the axis
    // > 1: the dims after the axis form one dense run of this many
    // elements (stride 1) in all three tensors, walked as vectors; the
    // dims below then list only those before the axis. Or, when there is
    // no such run and the slices are strided, one other dim of stride 1
    // in all three tensors, left out of the dims below.
    int64_t inner = 1;
    // The other dims: sizes and each tensor's strides.
    std::vector<int64_t> on, odd, oy, ods;
};

// `p` advanced by `off` elements of type `dt`.
inline const char *elem_at(const void *p, data_type_t dt, int64_t off) {
    return static_cast<const char *>(p)
            + off * static_cast<int64_t>(ir::dtype_storage_bytes(dt, 1));
}

// acc[i] += dy (log) or dy y, for the w positions of one row segment.
__attribute__((target("avx2"))) inline void add_sums(bool log, const float *g,
        const float *y, double *acc, int64_t w) {
    if (log)
        for (int64_t i = 0; i < w; ++i)
            acc[i] += double(g[i]);
    else
        for (int64_t i = 0; i < w; ++i)
            acc[i] += double(g[i]) * double(y[i]);
}

// o = dy - e^y acc (log; `ye` holds e^y) or y (dy - acc) (`ye` holds y),
// per position; `o` may be `ye` (each element is read before it is
// written). No FMA: the expressions round like the reference's.
__attribute__((target("avx2"))) inline void results(bool log, const float *g,
        const float *ye, const double *acc, float *o, int64_t w) {
    if (log)
        for (int64_t i = 0; i < w; ++i)
            o[i] = static_cast<float>(double(g[i]) - double(ye[i]) * acc[i]);
    else
        for (int64_t i = 0; i < w; ++i)
            o[i] = static_cast<float>(double(ye[i]) * (double(g[i]) - acc[i]));
}

// r[i] lane j <-> r[j] lane i: four rows of four doubles transposed.
__attribute__((target("avx2"))) inline void transpose4(__m256d *r) {
    const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]);
    const __m256d t1 = _mm256_unpackhi_pd(r[0], r[1]);
    const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]);
    const __m256d t3 = _mm256_unpackhi_pd(r[2], r[3]);
    r[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    r[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

// Four widened rows b[q * ld + k .. + 3] (q < 4) as doubles, transposed:
// r[j] holds element k + j of the four rows.
__attribute__((target("avx2"))) inline void columns4(const float *b,
        int64_t ld, int64_t k, __m256d *r) {
    for (int q = 0; q < 4; ++q)
        r[q] = _mm256_cvtps_pd(_mm_loadu_ps(b + q * ld + k));
    transpose4(r);
}

// acc[q] += dy (log) or dy·y over k < w for k_slices widened slice pieces
// (slice q's at g[q * ld] and y[q * ld]), k ascending. A slice's sum is
// one chain of dependent double adds in its order, as in the f32 walks,
// which its latency bounds; here the slices run side by side as the lanes
// of two vectors (two chains for eight slices), transposed from their
// rows (8 x 384 x 1024 over a contiguous axis on one thread: f32 4.2-4.4
// ms; bf16 slices one at a time 5.9-7.5, eight side by side 3.7-4.3).
__attribute__((target("avx2"))) void slice_sums(bool log, const float *g,
        const float *y, int64_t ld, int64_t w, double *acc) {
    static_assert(k_slices == 8, "two vectors of four slices");
    __m256d a0 = _mm256_loadu_pd(acc), a1 = _mm256_loadu_pd(acc + 4);
    int64_t k = 0;
    for (; k + 4 <= w; k += 4) {
        __m256d u[4], v[4];
        columns4(g, ld, k, u);
        columns4(g + 4 * ld, ld, k, v);
        if (!log) {
            __m256d uy[4], vy[4];
            columns4(y, ld, k, uy);
            columns4(y + 4 * ld, ld, k, vy);
            for (int j = 0; j < 4; ++j) {
                u[j] = _mm256_mul_pd(u[j], uy[j]);
                v[j] = _mm256_mul_pd(v[j], vy[j]);
            }
        }
        for (int j = 0; j < 4; ++j) {
            a0 = _mm256_add_pd(a0, u[j]);
            a1 = _mm256_add_pd(a1, v[j]);
        }
    }
    _mm256_storeu_pd(acc, a0);
    _mm256_storeu_pd(acc + 4, a1);
    for (; k < w; ++k)
        for (int q = 0; q < k_slices; ++q)
            acc[q] += log ? double(g[q * ld + k])
                          : double(g[q * ld + k]) * double(y[q * ld + k]);
}

class softmax_bwd_kernel_t : public compiler::kernel_t {
public:
    softmax_bwd_kernel_t(layout_t l, eltwise::unary_fn_t exp_fn)
        : l_(std::move(l)), exp_(exp_fn) {
        name_ = std::string(l_.log ? "logsoftmax_backward_" : "softmax_backward_")
                + ir::dtype_name(l_.dt);
    }
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        const bool f32 = l.dt == dnnl_f32 && l.out_dt == dnnl_f32;
        int64_t outer = 1;
        for (int64_t v : l.on)
            outer *= v;
        const int64_t chunks = div_up(l.inner, k_inner_chunk);
        const int64_t task_elems = l.n * std::min(l.inner, k_inner_chunk);
        const int64_t grain
                = std::max<int64_t>(1, k_task_elems / std::max<int64_t>(1, task_elems));
        const bool rows = l.inner == 1 && l.sdd == 1 && l.sy == 1 && l.sds == 1;
        const int64_t os = static_cast<int64_t>(ir::dtype_storage_bytes(l.out_dt, 1));
        parallel_for(outer * chunks, grain, [&](int64_t b, int64_t e) {
            // 16-bit slices: up to k_slices at a time (see slice_sums).
            const char *sg[k_slices], *sy[k_slices];
            char *so[k_slices];
            int ns = 0;
            for (int64_t t = b; t < e; ++t) {
                int64_t rest = t / chunks, odd = 0, oy = 0, ods = 0;
                for (size_t k = l.on.size(); k-- > 0;) {
                    const int64_t i = rest % l.on[k];
                    rest /= l.on[k];
                    odd += i * l.odd[k];
                    oy += i * l.oy[k];
                    ods += i * l.ods[k];
                }
                const int64_t i0 = t % chunks * k_inner_chunk;
                const int64_t w = std::min(k_inner_chunk, l.inner - i0);
                if (!f32) {
                    const char *g = elem_at(ctx.inputs[l.dd], l.dt, odd + i0);
                    const char *yv = elem_at(ctx.inputs[l.y], l.dt, oy + i0);
                    char *o = static_cast<char *>(ctx.outputs[l.ds]) + (ods + i0) * os;
                    if (l.inner > 1) {
                        run_inner_half(g, yv, o, w);
                        continue;
                    }
                    sg[ns] = g;
                    sy[ns] = yv;
                    so[ns++] = o;
                    if (ns == k_slices || t + 1 == e) {
                        run_slices_half(sg, sy, so, ns);
                        ns = 0;
                    }
                    continue;
                }
                const float *g = static_cast<const float *>(ctx.inputs[l.dd])
                        + odd + i0;
                const float *yv = static_cast<const float *>(ctx.inputs[l.y])
                        + oy + i0;
                float *o = static_cast<float *>(ctx.outputs[l.ds]) + ods + i0;
                if (l.inner > 1)
                    run_inner(g, yv, o, w);
                else if (rows)
                    run_row(g, yv, o);
                else
                    run_strided(g, yv, o);
            }
        });
        return dnnl_success;
    }

private:
    // e^y of `w` contiguous values (the JIT exp: 1.14 ulp).
    void exp_of(const float *y, float *out, int64_t w) const {
        exp_(y, out, static_cast<size_t>(w));
    }

    // One chunk of `w` positions of a dense inner run: the sums of all
    // positions in one pass down the axis, then the results row by row;
    // every row segment is contiguous. The kernel runs only where AVX2 is
    // (kernels.def), so the loops may use it: four doubles per vector.
    __attribute__((target("avx2"))) void run_inner(const float *g, const float *y, float *o, int64_t w) const {
        const layout_t &l = l_;
        double acc[k_inner_chunk] = {};
        alignas(64) float ey[k_inner_chunk];
        for (int64_t k = 0; k < l.n; ++k)
            add_sums(l.log, g + k * l.sdd, y + k * l.sy, acc, w);
        for (int64_t k = 0; k < l.n; ++k) {
            const float *gk = g + k * l.sdd, *yk = y + k * l.sy;
            if (l.log) exp_of(yk, ey, w);
            results(l.log, gk, l.log ? ey : yk, acc, o + k * l.sds, w);
        }
    }

    // The same for 16-bit tensors: each row segment widened into an L1
    // buffer as it is needed (twice: once per pass), the results narrowed
    // from another (w <= 2048: 16 KB of sums and 24 KB of rows).
    __attribute__((target("avx2"))) void run_inner_half(const char *g, const char *y, char *o, int64_t w) const {
        const layout_t &l = l_;
        const int64_t es = static_cast<int64_t>(ir::dtype_storage_bytes(l.dt, 1));
        const int64_t os = static_cast<int64_t>(ir::dtype_storage_bytes(l.out_dt, 1));
        double acc[k_inner_chunk];
        alignas(64) float buf[3 * k_stride];
        float *bg = buf, *by = buf + k_stride, *bo = buf + 2 * k_stride;
        std::fill(acc, acc + w, 0.0);
        for (int64_t k = 0; k < l.n; ++k) {
            common::widen_row(g + k * l.sdd * es, l.dt, w, bg);
            if (!l.log) common::widen_row(y + k * l.sy * es, l.dt, w, by);
            add_sums(l.log, bg, by, acc, w);
        }
        for (int64_t k = 0; k < l.n; ++k) {
            common::widen_row(g + k * l.sdd * es, l.dt, w, bg);
            common::widen_row(y + k * l.sy * es, l.dt, w, by);
            if (l.log) exp_of(by, bo, w);
            results(l.log, bg, l.log ? bo : by, acc, bo, w);
            common::narrow_row(bo, w, o + k * l.sds * os, l.out_dt);
        }
    }

    // A slice contiguous along the axis.
    __attribute__((target("avx2"))) void run_row(const float *g, const float *y, float *o) const {
        const layout_t &l = l_;
        double acc = 0;
        if (l.log) {
            for (int64_t k = 0; k < l.n; ++k)
                acc += double(g[k]);
            alignas(64) float ey[k_inner_chunk];
            for (int64_t k0 = 0; k0 < l.n; k0 += k_inner_chunk) {
                const int64_t w = std::min(k_inner_chunk, l.n - k0);
                exp_of(y + k0, ey, w);
                for (int64_t i = 0; i < w; ++i)
                    o[k0 + i] = static_cast<float>(
                            double(g[k0 + i]) - double(ey[i]) * acc);
            }
            return;
        }
        for (int64_t k = 0; k < l.n; ++k)
            acc += double(g[k]) * double(y[k]);
        for (int64_t k = 0; k < l.n; ++k)
            o[k] = static_cast<float>(double(y[k]) * (double(g[k]) - acc));
    }

    // Any other strides: element by element along the axis.
    void run_strided(const float *g, const float *y, float *o) const {
        const layout_t &l = l_;
        double acc = 0;
        if (l.log) {
            for (int64_t k = 0; k < l.n; ++k)
                acc += double(g[k * l.sdd]);
            for (int64_t k = 0; k < l.n; ++k) {
                float ey;
                exp_of(y + k * l.sy, &ey, 1);
                o[k * l.sds] = static_cast<float>(
                        double(g[k * l.sdd]) - double(ey) * acc);
            }
            return;
        }
        for (int64_t k = 0; k < l.n; ++k)
            acc += double(g[k * l.sdd]) * double(y[k * l.sy]);
        for (int64_t k = 0; k < l.n; ++k)
            o[k * l.sds] = static_cast<float>(
                    double(y[k * l.sy]) * (double(g[k * l.sdd]) - acc));
    }

    // ns <= k_slices slices of 16-bit tensors, contiguous along the axis
    // or not: their sums side by side (slice_sums), then each slice's
    // results in pieces of up to 2048 widened into L1 buffers (a strided
    // piece gathered), computed, and narrowed (scattered when strided).
    __attribute__((target("avx2"))) void run_slices_half(const char *const *g,
            const char *const *y, char *const *o, int ns) const {
        const layout_t &l = l_;
        const int64_t es = static_cast<int64_t>(ir::dtype_storage_bytes(l.dt, 1));
        const int64_t os = static_cast<int64_t>(ir::dtype_storage_bytes(l.out_dt, 1));
        alignas(64) float buf[3 * k_stride];
        float *bg = buf, *by = buf + k_stride, *bo = buf + 2 * k_stride;
        // The sums: pieces of k_sum_piece elements of every slice widened
        // side by side (a group short of k_slices repeats its first slice,
        // whose extra sums are dropped).
        double acc[k_slices] = {};
        for (int64_t k0 = 0; k0 < l.n; k0 += k_sum_piece) {
            const int64_t w = std::min(k_sum_piece, l.n - k0);
            for (int q = 0; q < k_slices; ++q) {
                const int s = q < ns ? q : 0;
                common::widen_matrix(g[s] + k0 * l.sdd * es, l.dt, 1, w, 0, l.sdd,
                        bg + q * k_sum_piece);
                if (!l.log)
                    common::widen_matrix(y[s] + k0 * l.sy * es, l.dt, 1, w, 0,
                            l.sy, by + q * k_sum_piece);
            }
            slice_sums(l.log, bg, by, k_sum_piece, w, acc);
        }
        for (int q = 0; q < ns; ++q) {
            const double a = acc[q];
            for (int64_t k0 = 0; k0 < l.n; k0 += k_inner_chunk) {
                const int64_t w = std::min(k_inner_chunk, l.n - k0);
                common::widen_matrix(g[q] + k0 * l.sdd * es, l.dt, 1, w, 0, l.sdd, bg);
                common::widen_matrix(y[q] + k0 * l.sy * es, l.dt, 1, w, 0, l.sy, by);
                if (l.log) {
                    exp_of(by, bo, w);
                    for (int64_t i = 0; i < w; ++i)
                        bo[i] = static_cast<float>(double(bg[i]) - double(bo[i]) * a);
                } else {
                    for (int64_t i = 0; i < w; ++i)
                        bo[i] = static_cast<float>(double(by[i]) * (double(bg[i]) - a));
                }
                if (l.sds == 1) {
                    common::narrow_row(bo, w, o[q] + k0 * os, l.out_dt);
                } else {
                    for (int64_t i = 0; i < w; ++i)
                        ir::store_value(l.out_dt, o[q], (k0 + i) * l.sds, bo[i]);
                }
            }
        }
    }

    layout_t l_;
    eltwise::unary_fn_t exp_;
    std::string name_;
};

// Whether dims (axis, r) of `t` are one dense run ending in stride 1.
bool dense_after(const logical_tensor_t &t, int axis, int r) {
    int64_t want = 1;
    for (int d = r - 1; d > axis; --d) {
        if (t.dims[d] != 1 && t.layout.strides[d] != want) return false;
        want *= t.dims[d];
    }
    return true;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_softmax_backward
            && op->kind != dnnl_graph_op_log_softmax_backward)
        return decline(why, "not SoftMaxBackward/LogSoftmaxBackward");
    if (op->inputs.size() != 2 || op->outputs.size() != 1)
        return decline(why, "unexpected port count");
    const logical_tensor_t &dd = op->inputs[0], &y = op->inputs[1],
                           &ds = op->outputs[0];
    // The spec's types: diff_dst and dst one floating-point type, diff_src
    // that type too, or f32 (SoftMaxBackward only).
    l.dt = dd.data_type;
    l.out_dt = ds.data_type;
    if (!common::is_fp(l.dt) || y.data_type != l.dt)
        return decline(why, "diff_dst and dst must be one of f32, bf16, f16");
    if (l.out_dt != l.dt
            && (l.out_dt != dnnl_f32
                    || op->kind != dnnl_graph_op_softmax_backward))
        return decline(why,
                "diff_src must have the type of diff_dst (or be f32 for "
                "SoftMaxBackward)");
    const int r = dd.ndims;
    if (y.ndims != r || ds.ndims != r || ir::dims_of(y) != ir::dims_of(dd)
            || ir::dims_of(ds) != ir::dims_of(dd))
        return decline(why, "shapes differ");
    int64_t axis = 0;
    if (r < 1
            || !ir::normalize_axis(op->get_s64(dnnl_graph_op_attr_axis), r, axis))
        return decline(why, "bad axis");
    l.log = op->kind == dnnl_graph_op_log_softmax_backward;
    l.n = dd.dims[axis];
    l.sdd = dd.layout.strides[axis];
    l.sy = y.layout.strides[axis];
    l.sds = ds.layout.strides[axis];
    const int a = static_cast<int>(axis);
    for (int d = a + 1; d < r; ++d)
        l.inner *= dd.dims[d];
    if (l.inner > 1
            && !(dense_after(dd, a, r) && dense_after(y, a, r)
                    && dense_after(ds, a, r)))
        l.inner = 1;
    // No dense run after the axis, and slices strided along it: a dim of
    // unit stride in all three tensors (before the axis, or after it in a
    // permuted order) is the inner run instead. Its neighbouring slices
    // then sit side by side in each row segment, their sums independent
    // lanes in their own order, where one strided slice at a time was a
    // chain of dependent adds over elements a cache line or more apart
    // (8 x 384 x 1024 with the 384 innermost, over the 1024, one thread:
    // f32 35 -> 4 ms, bf16 46 -> 5 ms).
    int unit = -1;
    if (l.inner == 1 && !(l.sdd == 1 && l.sy == 1 && l.sds == 1))
        for (int d = 0; d < r && unit < 0; ++d)
            if (d != axis && dd.dims[d] > 1 && dd.layout.strides[d] == 1
                    && y.layout.strides[d] == 1 && ds.layout.strides[d] == 1)
                unit = d;
    if (unit >= 0) l.inner = dd.dims[unit];
    for (int d = 0; d < r; ++d) {
        if (d == axis || d == unit || (unit < 0 && l.inner > 1 && d > axis))
            continue;
        l.on.push_back(dd.dims[d]);
        l.odd.push_back(dd.layout.strides[d]);
        l.oy.push_back(y.layout.strides[d]);
        l.ods.push_back(ds.layout.strides[d]);
    }
    l.dd = compiler::find_port(plan.inputs, dd.id);
    l.y = compiler::find_port(plan.inputs, y.id);
    l.ds = compiler::find_port(plan.outputs, ds.id);
    if (l.dd < 0 || l.y < 0 || l.ds < 0) return decline(why, "ports not found");
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu softmax backward: %s", why.c_str());
    eltwise::unary_fn_t exp_fn = nullptr;
    LLGA_RETURN_IF_ERROR(eltwise::get_unary(eltwise::alg_t::exp, 0.f, 0.f,
            isa == isa_t::avx512_core ? isa_t::avx512_core : isa_t::avx2,
            &exp_fn));
    out = std::make_shared<softmax_bwd_kernel_t>(std::move(l), exp_fn);
    return dnnl_success;
}

} // namespace softmax_bwd
} // namespace cpu
} // namespace llga
