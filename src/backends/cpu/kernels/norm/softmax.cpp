// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax.cpp — the softmax family's plan side: which
// plans it takes, and the kernel_t that runs the generated functions of
// softmax_jit.cpp over rows (contiguous axis), W-column blocks (strided
// axis, inner < 64) or streamed row segments (inner >= 64) with
// llga::parallel_for.
//
// Each slice takes a reduce and an apply: reduce gives the max m and
// s = sum e^(x-m) (per block of a long slice, combined here in double);
// C++ then forms 1/s or ln s (one scalar log per slice, so no vector log is
// needed) and apply writes e^(x-m)/s or (x-m)-ln s. The results are within
// a few ulp of the f32 rounding of the exact value
// (tests/unit/backends/cpu_softmax_test.cpp states the tolerances).
#include "backends/cpu/kernels/norm/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/norm/softmax_jit.hpp"
#include "backends/cpu/kernels/norm/softmax_norm_io.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace softmax {

using norm::args_t;
using norm::dt_t;
using norm::fn_t;

namespace {

// Elements per parallel task: tensors below this run on one thread.
constexpr int64_t k_grain_elems = 32768;
// Largest f32 scratch (elements) a task keeps e^(x-m) in; beyond it apply
// recomputes the exponentials instead (the row no longer fits in cache).
constexpr int64_t k_max_scratch = int64_t(1) << 18;
// Strided axes with at least this many inner elements stream whole row
// segments (contiguous, prefetch-friendly) instead of W-column blocks,
// whose rows are `inner` elements apart: with a large power-of-two stride
// every row of a block falls in the same L1 set and a new page.
constexpr int64_t k_strm_min_inner = 64;
// Columns per streaming task (a multiple of every vector width).
constexpr int64_t k_strm_cols = 1024;

struct fns_t {
    fn_t reduce = nullptr, apply = nullptr; // row, or full column block
    fn_t reduce_tail = nullptr, apply_tail = nullptr; // partial block
    fn_t smax = nullptr, sexp = nullptr, sapply = nullptr; // streaming
};

// ---- plan side -------------------------------------------------------------

struct layout_t {
    bool log = false, inf_as_zero = false, stats = false;
    bool stored = false; // SoftMax keeps e^(x-m) between reduce and apply
    dt_t sdt = dt_t::f32, ddt = dt_t::f32;
    int in = -1, out = -1, out_stats = -1; // port positions in the plan
    int64_t outer = 0, len = 0, inner = 0;
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    auto decline = [&](const std::string &msg) {
        if (why) *why = msg;
        return false;
    };
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    if (op.kind != dnnl_graph_op_softmax && op.kind != dnnl_graph_op_log_softmax)
        return decline("not SoftMax or LogSoftmax");
    l.log = op.kind == dnnl_graph_op_log_softmax;
    const std::string kind = l.log ? "LogSoftmax" : "SoftMax";
    if (op.inputs.size() != 1 || op.outputs.empty() || op.outputs.size() > 2
            || (l.log && op.outputs.size() != 1))
        return decline(kind + ": unexpected port count");
    l.stats = op.outputs.size() == 2;
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v)
            if (!ir::shape_known(lt) || !ir::is_dense(lt))
                return decline(kind + ": tensor " + std::to_string(lt.id)
                        + " is not dense row-major with a known shape");
    if (!norm::dt_of(op.inputs[0].data_type, &l.sdt)
            || !norm::dt_of(op.outputs[0].data_type, &l.ddt))
        return decline(kind + ": only f32/bf16/f16 src and dst");
    if (l.stats && op.outputs[1].data_type != dnnl_f32)
        return decline(kind + ": stats output must be f32");
    const dims_t d = ir::dims_of(op.inputs[0]);
    if (d.empty()) return decline(kind + ": rank-0 input");
    if (ir::dims_of(op.outputs[0]) != d)
        return decline(kind + ": dst shape differs from src");
    int64_t axis = 0;
    const int64_t raw = op.get_s64(dnnl_graph_op_attr_axis, l.log ? -1 : 1);
    if (!ir::normalize_axis(raw, static_cast<int>(d.size()), axis))
        return decline(kind + ": axis out of range");
    l.inf_as_zero = !l.log
            && ops::iequals(op.get_str(dnnl_graph_op_attr_mode, "none"),
                    "inf_as_zero");
    l.outer = 1;
    l.inner = 1;
    for (int64_t k = 0; k < axis; ++k)
        l.outer *= d[static_cast<size_t>(k)];
    for (size_t k = static_cast<size_t>(axis) + 1; k < d.size(); ++k)
        l.inner *= d[k];
    l.len = d[static_cast<size_t>(axis)];
    l.in = compiler::find_port(plan.inputs, op.inputs[0].id);
    l.out = compiler::find_port(plan.outputs, op.outputs[0].id);
    if (l.stats) l.out_stats = compiler::find_port(plan.outputs, op.outputs[1].id);
    if (l.in < 0 || l.out < 0 || (l.stats && l.out_stats < 0))
        return decline(kind + ": tensor is not a partition port");
    return true;
}

// Per-slice scalars from the reduce results (m, s): apply computes
// e^(x-p0)*p1 or (x-p0)-p1; *stat gets the log-sum-exp.
inline void finish(const layout_t &l, float m, float s, float *p0, float *p1,
        float *stat) {
    if (l.inf_as_zero && m == -std::numeric_limits<float>::infinity()) {
        // e^(-inf - 0) * 0 = 0 for every element of an all -inf slice.
        *p0 = 0.f;
        *p1 = 0.f;
        *stat = m;
        return;
    }
    const double lse = std::log(static_cast<double>(s));
    *p0 = m;
    *p1 = l.log ? static_cast<float>(lse) : static_cast<float>(1.0 / s);
    *stat = static_cast<float>(m + lse);
}

// Long slices are reduced in blocks (k_block elements of a row, or
// k_block_rows rows of a column block) and the blocks' (m_j, s_j) combined
// in double, so each f32 partial sum has at most ~32 terms (a single pass
// over 34000 rows was off by 1.4e-5). Streaming sums are flushed to double
// every k_block_rows rows.
constexpr int64_t k_block = 1024;
constexpr int64_t k_block_rows = 64;

} // namespace

// m = max m_j, s = sum s_j e^(m_j - m) over nb blocks `stride` apart. A
// block that is all -inf (m_j = -inf, s_j NaN) adds nothing when m is
// finite; an all -inf slice gives s = NaN like a single pass (x - m is
// NaN), and NaN anywhere stays NaN.
void combine(const float *mb, const float *sb, int64_t nb, int64_t stride,
        float *m, float *s) {
    const float ninf = -std::numeric_limits<float>::infinity();
    float mx = ninf;
    for (int64_t j = 0; j < nb; ++j) {
        const float v = mb[j * stride];
        if (std::isnan(v)) {
            *m = *s = v;
            return;
        }
        mx = std::max(mx, v);
    }
    *m = mx;
    if (mx == ninf) {
        *s = std::numeric_limits<float>::quiet_NaN();
        return;
    }
    double t = 0;
    for (int64_t j = 0; j < nb; ++j) {
        const float v = mb[j * stride];
        if (v != ninf)
            t += double(sb[j * stride]) * std::exp(double(v) - double(mx));
    }
    *s = static_cast<float>(t);
}

// Stored apply multiplies block j's e^(x - m_j) by p1 e^(m_j - m); 0 (with
// the block's exponentials zeroed by the caller) for inf_as_zero slices and
// all -inf blocks of a slice with a finite max.
float block_scale(float p1, float mj, float m, bool *zero) {
    const float ninf = -std::numeric_limits<float>::infinity();
    // (An all -inf slice without inf_as_zero has m = -inf and p1 NaN: it
    // stays NaN like the reference.)
    *zero = p1 == 0.f || (mj == ninf && m != ninf);
    if (*zero) return 0.f;
    return static_cast<float>(double(p1) * std::exp(double(mj) - double(m)));
}

namespace {

class kernel_t : public compiler::kernel_t {
public:
    kernel_t(std::string name, const layout_t &l, int W, const fns_t &f)
        : name_(std::move(name)), l_(l), W_(W), f_(f) {}
    const char *name() const override { return name_.c_str(); }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        if (l_.len == 0 || l_.outer == 0 || l_.inner == 0) return dnnl_success;
        const char *src = static_cast<const char *>(ctx.inputs[l_.in]);
        char *dst = static_cast<char *>(ctx.outputs[l_.out]);
        float *stats = l_.stats ? static_cast<float *>(ctx.outputs[l_.out_stats])
                                : nullptr;
        const int ss = norm::dt_shift(l_.sdt), ds = norm::dt_shift(l_.ddt);
        if (l_.inner == 1) {
            const int64_t grain = std::max<int64_t>(1, k_grain_elems / l_.len);
            // An f32 dst holds the exponentials itself.
            const bool own = l_.stored && l_.ddt == dt_t::f32;
            const int64_t len = l_.len, nb = (len + k_block - 1) / k_block;
            parallel_for(l_.outer, grain, [&](int64_t b, int64_t e) {
                float st[2], pr[2], lse, m, sum;
                std::vector<float> scratch(
                        l_.stored && !own ? size_t(len) : 0);
                std::vector<float> mb(static_cast<size_t>(nb));
                std::vector<float> sb(static_cast<size_t>(nb));
                args_t a {};
                a.stats = st;
                a.params = pr;
                for (int64_t r = b; r < e; ++r) {
                    const char *rs = src + ((r * len) << ss);
                    char *rd = dst + ((r * len) << ds);
                    float *rt = own ? reinterpret_cast<float *>(rd)
                                    : scratch.data();
                    for (int64_t j = 0; j < nb; ++j) {
                        a.src = rs + ((j * k_block) << ss);
                        a.len = std::min(k_block, len - j * k_block);
                        a.tmp = rt + j * k_block;
                        f_.reduce(&a);
                        mb[size_t(j)] = st[0];
                        sb[size_t(j)] = st[1];
                    }
                    combine(mb.data(), sb.data(), nb, 1, &m, &sum);
                    finish(l_, m, sum, &pr[0], &pr[1], &lse);
                    if (stats) stats[r] = lse;
                    if (!l_.stored) {
                        a.src = rs;
                        a.dst = rd;
                        a.len = len;
                        f_.apply(&a);
                        continue;
                    }
                    const float p1 = pr[1];
                    for (int64_t j = 0; j < nb; ++j) {
                        a.len = std::min(k_block, len - j * k_block);
                        a.dst = rd + ((j * k_block) << ds);
                        a.tmp = rt + j * k_block;
                        bool zero;
                        pr[1] = block_scale(p1, mb[size_t(j)], m, &zero);
                        if (zero) std::fill(a.tmp, a.tmp + a.len, 0.f);
                        f_.apply(&a);
                    }
                }
            });
            return dnnl_success;
        }
        if (l_.inner >= k_strm_min_inner) return stream(src, dst, stats);
        const int64_t W = W_, nb = (l_.inner + W - 1) / W;
        const int64_t grain
                = std::max<int64_t>(1, k_grain_elems / (l_.len * W));
        const int64_t len = l_.len, nr = (len + k_block_rows - 1) / k_block_rows;
        parallel_for(l_.outer * nb, grain, [&](int64_t b, int64_t e) {
            float st[32], pr[32];
            scratch_frame_t frame; // uninitialised (see stream())
            float *scratch = l_.stored
                    ? static_cast<float *>(frame.take(size_t(len * W) * 4))
                    : nullptr;
            float *mb = static_cast<float *>(frame.take(size_t(2 * nr * W) * 4));
            float *sb = mb + nr * W;
            args_t a {};
            a.inner = l_.inner;
            a.stats = st;
            a.params = pr;
            for (int64_t w = b; w < e; ++w) {
                const int64_t o = w / nb, c0 = (w % nb) * W;
                const int64_t lanes = std::min(W, l_.inner - c0);
                const int64_t off = o * len * l_.inner + c0;
                const bool tail = lanes < W;
                const fn_t reduce = tail ? f_.reduce_tail : f_.reduce;
                const fn_t apply = tail ? f_.apply_tail : f_.apply;
                a.lanes = lanes;
                // Per chunk of rows: k0, its row count, its pointers.
                auto chunk = [&](int64_t j) {
                    const int64_t k0 = j * k_block_rows;
                    a.len = std::min(k_block_rows, len - k0);
                    a.src = src + ((off + k0 * l_.inner) << ss);
                    a.dst = dst + ((off + k0 * l_.inner) << ds);
                    a.tmp = l_.stored ? scratch + k0 * W : nullptr;
                };
                for (int64_t j = 0; j < nr; ++j) {
                    chunk(j);
                    reduce(&a);
                    for (int64_t k = 0; k < lanes; ++k) {
                        mb[j * W + k] = st[k];
                        sb[j * W + k] = st[W + k];
                    }
                }
                for (int64_t k = 0; k < lanes; ++k) {
                    float lse, m, sum;
                    combine(mb + k, sb + k, nr, W, &m, &sum);
                    finish(l_, m, sum, &pr[k], &pr[W + k], &lse);
                    if (stats) stats[o * l_.inner + c0 + k] = lse;
                }
                if (!l_.stored) {
                    a.src = src + (off << ss);
                    a.dst = dst + (off << ds);
                    a.len = len;
                    apply(&a);
                    continue;
                }
                float p1[16];
                std::copy(pr + W, pr + W + lanes, p1);
                for (int64_t j = 0; j < nr; ++j) {
                    chunk(j);
                    for (int64_t k = 0; k < lanes; ++k) {
                        bool zero;
                        pr[W + k] = block_scale(
                                p1[k], mb[j * W + k], pr[k], &zero);
                        if (zero)
                            for (int64_t i = 0; i < a.len; ++i)
                                a.tmp[i * W + k] = 0.f;
                    }
                    apply(&a);
                }
            }
        });
        return dnnl_success;
    }

private:
    // Strided axis, streaming: a task owns up to k_strm_cols columns of one
    // outer index and walks the len rows three times (max, exp-sum, apply),
    // keeping per-column m, s, p0, p1 in arrays.
    status_t stream(const char *src, char *dst, float *stats) const {
        const int ss = norm::dt_shift(l_.sdt), ds = norm::dt_shift(l_.ddt);
        const int64_t len = l_.len, inner = l_.inner;
        const int64_t IC = std::min(k_strm_cols, inner);
        const int64_t nc = (inner + IC - 1) / IC;
        const int64_t grain = std::max<int64_t>(1, k_grain_elems / (len * IC));
        parallel_for(l_.outer * nc, grain, [&](int64_t b, int64_t e) {
            // Per-thread scratch, not vectors: a zero-filled len x IC
            // vector per call (400 KiB for 128 x 784) was a memset and,
            // past malloc's mmap threshold, fresh pages every time (6.5%
            // of 64x128x28x28 axis 1).
            scratch_frame_t frame;
            float *m = static_cast<float *>(frame.take(size_t(4 * IC) * 4));
            float *s = m + IC, *p0 = s + IC, *p1 = p0 + IC;
            float *scratch = l_.stored
                    ? static_cast<float *>(frame.take(size_t(len * IC) * 4))
                    : nullptr;
            double *tot = static_cast<double *>(frame.take(size_t(IC) * 8));
            args_t a {};
            for (int64_t w = b; w < e; ++w) {
                const int64_t o = w / nc, c0 = (w % nc) * IC;
                const int64_t ic = std::min(IC, inner - c0);
                auto at = [&](int64_t k) { return (o * len + k) * inner + c0; };
                auto tmp = [&](int64_t k) {
                    return l_.stored ? scratch + k * ic : nullptr;
                };
                std::fill(m, m + ic, -std::numeric_limits<float>::infinity());
                std::fill(s, s + ic, 0.f);
                a.len = ic;
                a.stats = m;
                for (int64_t k = 0; k < len; ++k) {
                    a.src = src + (at(k) << ss);
                    f_.smax(&a);
                }
                a.stats = s;
                a.params = m;
                std::fill(tot, tot + ic, 0.0);
                for (int64_t k = 0; k < len; ++k) {
                    a.src = src + (at(k) << ss);
                    a.tmp = tmp(k);
                    f_.sexp(&a);
                    if ((k + 1) % k_block_rows == 0 || k + 1 == len)
                        for (int64_t c = 0; c < ic; ++c) {
                            tot[c] += s[c];
                            s[c] = 0.f;
                        }
                }
                for (int64_t c = 0; c < ic; ++c) {
                    float lse;
                    finish(l_, m[c], static_cast<float>(tot[c]),
                            &p0[c], &p1[c], &lse);
                    if (stats) stats[o * inner + c0 + c] = lse;
                    if (l_.stored && p1[c] == 0.f) // inf_as_zero column
                        for (int64_t k = 0; k < len; ++k)
                            tmp(k)[c] = 0.f;
                }
                a.params = p0;
                a.gamma = p1;
                for (int64_t k = 0; k < len; ++k) {
                    a.src = src + (at(k) << ss);
                    a.dst = dst + (at(k) << ds);
                    a.tmp = tmp(k);
                    f_.sapply(&a);
                }
            }
        });
        return dnnl_success;
    }

    std::string name_;
    layout_t l_;
    int W_;
    fns_t f_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    if (!vector_loop_isa(isa, why)) return false;
    layout_t l;
    return analyse(plan, l, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu softmax: %s", why.c_str());
    if (isa != isa_t::avx512_core && isa != isa_t::avx2)
        return fail(dnnl_unimplemented, "cpu softmax: no generator for %s",
                isa_name(isa));
    const bool z = isa == isa_t::avx512_core;
    const bool row = l.inner == 1;
    const bool strm = l.inner >= k_strm_min_inner;
    const int W = z ? 16 : 8;
    const int64_t block = row ? 1 : strm ? std::min(k_strm_cols, l.inner) : W;
    l.stored = !l.log
            && ((row && l.ddt == dt_t::f32) || l.len * block <= k_max_scratch);
    spec_t s {fkind_t::row_reduce, l.sdt, l.ddt, l.log, false, z, l.stored};
    fns_t f;
    if (strm) {
        s.kind = fkind_t::strm_max;
        LLGA_RETURN_IF_ERROR(get_fn(isa, s, &f.smax));
        s.kind = fkind_t::strm_exp;
        LLGA_RETURN_IF_ERROR(get_fn(isa, s, &f.sexp));
        s.kind = fkind_t::strm_apply;
        LLGA_RETURN_IF_ERROR(get_fn(isa, s, &f.sapply));
    } else {
        s.kind = row ? fkind_t::row_reduce : fkind_t::col_reduce;
        LLGA_RETURN_IF_ERROR(get_fn(isa, s, &f.reduce));
        s.kind = row ? fkind_t::row_apply : fkind_t::col_apply;
        LLGA_RETURN_IF_ERROR(get_fn(isa, s, &f.apply));
        if (!row && l.inner % W != 0) {
            s.tail = true;
            LLGA_RETURN_IF_ERROR(get_fn(isa, s, &f.apply_tail));
            s.kind = fkind_t::col_reduce;
            LLGA_RETURN_IF_ERROR(get_fn(isa, s, &f.reduce_tail));
        }
    }
    const std::string name = std::string(l.log ? "logsoftmax_" : "softmax_")
            + (row ? "row_" : strm ? "strm_" : "col_") + norm::dt_name(l.sdt)
            + "_" + norm::dt_name(l.ddt) + (z ? "_avx512" : "_avx2");
    out = std::make_shared<kernel_t>(name, l, W, f);
    return dnnl_success;
}

} // namespace softmax
} // namespace cpu
} // namespace llga
