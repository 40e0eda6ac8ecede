// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/layernorm_bwd.cpp — LayerNormBackward (see
// layernorm_bwd.hpp): rows of n normalized elements, threaded over rows for
// diff_src and over column blocks for diff_gamma / diff_beta. A row's two
// sums are chains of dependent double adds (in the reference's order), so
// diff_src runs eight rows' chains side by side (rows_side_by_side), f32
// rows in place; bf16/f16 data run the same arithmetic on pieces widened
// into L1 buffers: blocks of whole rows when a row fits one (so short rows
// cost one conversion call per block, not per row), else pieces of one row.
#include "backends/cpu/kernels/norm/layernorm_bwd.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/common/elem_io.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/norm/norm_types_p.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace layernorm_bwd {

namespace {

// Columns one weight-gradient task accumulates side by side.
constexpr int64_t k_col_block = 256;
// Elements of one widened piece of a 16-bit tensor (4 KB as f32; three
// such buffers stay in L1 with the rows they come from).
constexpr int64_t k_piece = 1024;
// Floats between the starts of two such buffers: 64 bytes more than a
// piece, so that the same element of two buffers is not 4 KB apart (the
// loads of one would wait on the stores to the other: 4K aliasing).
constexpr int64_t k_stride = k_piece + 16;

struct layout_t {
    int src = -1, dd = -1, mean = -1, var = -1, gamma = -1; // input ports
    int ds = -1, dg = -1, db = -1;                           // output ports
    // src, diff_dst, diff_src; the statistics, gamma and the weight
    // gradients (f32, or bf16 with bf16 data).
    data_type_t dt = dnnl_f32, pdt = dnnl_f32;
    int64_t rows = 0, n = 0;
    double eps = 0;
};

// Sums over one row piece of w elements: mg += g, mgx += g xh, with g =
// dy gamma (dy without gamma) and xh = (x - mu) inv, in the reference's
// order and association.
inline void add_row_sums(const float *x, const float *dy, const float *gamma,
        int64_t w, double mu, double iv, double &mg, double &mgx) {
    for (int64_t j = 0; j < w; ++j) {
        const double g = double(dy[j]) * (gamma ? double(gamma[j]) : 1.0);
        mg += g;
        mgx += g * (double(x[j]) - mu) * iv;
    }
}

// add_row_sums of R whole rows at once (rows n apart, from zero): R
// independent chains of dependent adds instead of one, each row's sums in
// its own order as before (n = 28: the chain's latency bounded the
// one-row loop).
template <int R>
inline void add_rows_sums(const float *x, const float *dy, const float *gamma,
        int64_t n, const double *mu, const double *iv, double *mg,
        double *mgx) {
    double a[R] = {}, b[R] = {};
    for (int64_t j = 0; j < n; ++j) {
        const double gm = gamma ? double(gamma[j]) : 1.0;
        for (int q = 0; q < R; ++q) {
            const double g = double(dy[q * n + j]) * gm;
            a[q] += g;
            b[q] += g * (double(x[q * n + j]) - mu[q]) * iv[q];
        }
    }
    for (int q = 0; q < R; ++q) {
        mg[q] = a[q];
        mgx[q] = b[q];
    }
}

// diff_src of one row piece: (g - mg - xh mgx) inv, mg and mgx the row's
// means.
inline void row_results(const float *x, const float *dy, const float *gamma,
        int64_t w, double mu, double iv, double mg, double mgx, float *o) {
    for (int64_t j = 0; j < w; ++j) {
        const double g = double(dy[j]) * (gamma ? double(gamma[j]) : 1.0);
        const double xh = (double(x[j]) - mu) * iv;
        o[j] = static_cast<float>((g - mg - xh * mgx) * iv);
    }
}

// The per-row means of the sums (the reference divides unless n is 0).
inline void row_means(int64_t n, double &mg, double &mgx) {
    if (n) {
        mg /= n;
        mgx /= n;
    }
}

// diff_src of R whole rows (rows n apart in x, dy and o; their means mu
// and inverse deviations iv): the R rows' sums side by side, then their
// results while the rows are in L1.
template <int R>
inline void rows_group(const float *x, const float *dy, float *o, int64_t n,
        const double *mu, const double *iv, const float *gamma) {
    double mg[R], mgx[R];
    add_rows_sums<R>(x, dy, gamma, n, mu, iv, mg, mgx);
    for (int q = 0; q < R; ++q) {
        row_means(n, mg[q], mgx[q]);
        row_results(x + q * n, dy + q * n, gamma, n, mu[q], iv[q], mg[q],
                mgx[q], o + q * n);
    }
}

// diff_src of nr whole rows, eight (then four, then one) at a time: the
// f32 rows in place and the widened 16-bit blocks both take it. AVX2
// (kernels.def) for the loops inlined here; no FMA, so they round as the
// reference's.
__attribute__((target("avx2"))) void rows_side_by_side(const float *x,
        const float *dy, float *o, int64_t nr, int64_t n, const double *mu,
        const double *iv, const float *gamma) {
    int64_t i = 0;
    for (; i + 8 <= nr; i += 8)
        rows_group<8>(x + i * n, dy + i * n, o + i * n, n, mu + i, iv + i,
                gamma);
    for (; i + 4 <= nr; i += 4)
        rows_group<4>(x + i * n, dy + i * n, o + i * n, n, mu + i, iv + i,
                gamma);
    for (; i < nr; ++i)
        rows_group<1>(x + i * n, dy + i * n, o + i * n, n, mu + i, iv + i,
                gamma);
}

// Weight-gradient sums of one row piece: sb += dy, sg += dy xh.
inline void add_col_sums(const float *x, const float *dy, int64_t w,
        double mu, double iv, double *sg, double *sb) {
    for (int64_t j = 0; j < w; ++j) {
        const double d = dy[j];
        sb[j] += d;
        sg[j] += d * (double(x[j]) - mu) * iv;
    }
}

// Per-row statistics, f32 or bf16, read as double.
struct stats_t {
    const void *p;
    data_type_t dt;
    double operator[](int64_t r) const {
        if (dt == dnnl_f32) return static_cast<const float *>(p)[r];
        return common::fp_t<dnnl_bf16>::load(static_cast<const uint16_t *>(p)[r]);
    }
};

class ln_bwd_kernel_t : public compiler::kernel_t {
public:
    explicit ln_bwd_kernel_t(layout_t l)
        : l_(l)
        , name_(std::string("layernorm_backward_") + ir::dtype_name(l.dt)) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        // 1 / sqrt(var + eps) per row, as the reference forms it.
        const stats_t mu {ctx.inputs[l.mean], l.pdt}, var {ctx.inputs[l.var], l.pdt};
        // (Threaded: a square root and a division per row take 1 ms for
        // the 64 x 128 x 28 rows on one thread.)
        std::vector<double> inv(static_cast<size_t>(l.rows));
        parallel_for(l.rows, k_col_block * 16, [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r)
                inv[static_cast<size_t>(r)] = 1.0 / std::sqrt(var[r] + l.eps);
        });
        // gamma as f32 values (bf16 widened once: n values).
        std::vector<float> gw;
        const float *gamma = nullptr;
        if (l.gamma >= 0) {
            gamma = static_cast<const float *>(ctx.inputs[l.gamma]);
            if (l.pdt != dnnl_f32) {
                gw.resize(static_cast<size_t>(l.n));
                common::widen_row(ctx.inputs[l.gamma], l.pdt, l.n, gw.data());
                gamma = gw.data();
            }
        }
        if (l.dt == dnnl_f32)
            diff_src_f32(ctx, inv, mu, gamma);
        else
            diff_src_half(ctx, inv, mu, gamma);
        if (l.dg >= 0) weight_grads(ctx, inv, mu);
        return dnnl_success;
    }

private:
    // f32 rows in place, up to k_rows_block of a task's rows at a time
    // (their means read once into a double block).
    void diff_src_f32(
            const compiler::exec_ctx_t &ctx, const std::vector<double> &inv,
            const stats_t &mu, const float *gamma) const {
        const layout_t &l = l_;
        const float *x = static_cast<const float *>(ctx.inputs[l.src]);
        const float *dd = static_cast<const float *>(ctx.inputs[l.dd]);
        float *ds = static_cast<float *>(ctx.outputs[l.ds]);
        const int64_t n = l.n;
        if (n == 0) return;
        // Rows per task at least: a few thousand elements.
        const int64_t grain = std::max<int64_t>(1, 4096 / n);
        parallel_for(l.rows, grain, [&](int64_t b, int64_t e) {
            constexpr int64_t k_rows_block = 64;
            double bm[k_rows_block];
            for (int64_t r0 = b; r0 < e; r0 += k_rows_block) {
                const int64_t nr = std::min(k_rows_block, e - r0);
                for (int64_t i = 0; i < nr; ++i)
                    bm[i] = mu[r0 + i];
                rows_side_by_side(x + r0 * n, dd + r0 * n, ds + r0 * n, nr, n,
                        bm, inv.data() + r0, gamma);
            }
        });
    }

    // 16-bit data: rows of at most k_piece elements in blocks of whole
    // rows, each tensor's block widened once; longer rows piece by piece,
    // widened once for the sums and again for the results. Pieces keep
    // the sums' order.
    void diff_src_half(const compiler::exec_ctx_t &ctx,
            const std::vector<double> &inv, const stats_t &mu,
            const float *gamma) const {
        const layout_t &l = l_;
        const auto *x = static_cast<const uint16_t *>(ctx.inputs[l.src]);
        const auto *dd = static_cast<const uint16_t *>(ctx.inputs[l.dd]);
        auto *ds = static_cast<uint16_t *>(ctx.outputs[l.ds]);
        const int64_t n = l.n;
        if (n == 0) return;
        if (n <= k_piece) {
            const int64_t rb = k_piece / n;
            parallel_for(div_up(l.rows, rb), 1, [&](int64_t b, int64_t e) {
                for (int64_t t = b; t < e; ++t) {
                    const int64_t r0 = t * rb;
                    rows_half(x + r0 * n, dd + r0 * n, ds + r0 * n,
                            std::min(rb, l.rows - r0), inv.data() + r0, mu, r0,
                            gamma);
                }
            });
            return;
        }
        parallel_for(l.rows, 1, [&](int64_t b, int64_t e) {
            alignas(64) float buf[3 * k_stride];
            float *bx = buf, *bd = buf + k_stride, *bo = buf + 2 * k_stride;
            for (int64_t r = b; r < e; ++r) {
                const size_t k = static_cast<size_t>(r);
                const uint16_t *xr = x + r * n, *gr = dd + r * n;
                double mg = 0, mgx = 0;
                for (int64_t j0 = 0; j0 < n; j0 += k_piece) {
                    const int64_t w = std::min(k_piece, n - j0);
                    common::widen_row(xr + j0, l.dt, w, bx);
                    common::widen_row(gr + j0, l.dt, w, bd);
                    add_row_sums(bx, bd, gamma ? gamma + j0 : nullptr, w, mu[r],
                            inv[k], mg, mgx);
                }
                row_means(n, mg, mgx);
                for (int64_t j0 = 0; j0 < n; j0 += k_piece) {
                    const int64_t w = std::min(k_piece, n - j0);
                    common::widen_row(xr + j0, l.dt, w, bx);
                    common::widen_row(gr + j0, l.dt, w, bd);
                    row_results(bx, bd, gamma ? gamma + j0 : nullptr, w, mu[r],
                            inv[k], mg, mgx, bo);
                    common::narrow_row(bo, w, ds + r * n + j0, l.dt);
                }
            }
        });
    }

    // diff_src of nr whole rows of 16-bit data (nr n <= k_piece): both
    // tensors' rows widened at once, rows_side_by_side on them, the
    // results narrowed at once.
    void rows_half(const uint16_t *x,
            const uint16_t *dd, uint16_t *ds, int64_t nr, const double *iv,
            const stats_t &mu, int64_t r0, const float *gamma) const {
        const int64_t n = l_.n;
        alignas(64) float buf[3 * k_stride];
        float *bx = buf, *bd = buf + k_stride, *bo = buf + 2 * k_stride;
        double bm[k_piece];
        common::widen_row(x, l_.dt, nr * n, bx);
        common::widen_row(dd, l_.dt, nr * n, bd);
        for (int64_t i = 0; i < nr; ++i)
            bm[i] = mu[r0 + i];
        rows_side_by_side(bx, bd, bo, nr, n, bm, iv, gamma);
        common::narrow_row(bo, nr * n, ds, l_.dt);
    }

    // Column sums over the rows, rows ascending for every column; 16-bit
    // rows are widened block by block (whole rows together when a column
    // block is the whole row), the sums stored through f32 as the
    // reference stores them.
    void weight_grads(const compiler::exec_ctx_t &ctx,
            const std::vector<double> &inv, const stats_t &mu) const {
        const layout_t &l = l_;
        const int64_t n = l.n;
        const bool half = l.dt != dnnl_f32;
        const int64_t es = half ? 2 : 4;
        const char *x = static_cast<const char *>(ctx.inputs[l.src]);
        const char *dd = static_cast<const char *>(ctx.inputs[l.dd]);
        void *dg = ctx.outputs[l.dg], *db = ctx.outputs[l.db];
        parallel_for(div_up(n, k_col_block), 1, [&](int64_t b, int64_t e) {
            std::vector<double> sg(k_col_block), sb(k_col_block);
            alignas(64) float buf[2 * k_stride];
            float *bx = buf, *bd = buf + k_stride;
            for (int64_t blk = b; blk < e; ++blk) {
                const int64_t j0 = blk * k_col_block;
                const int64_t w = std::min(k_col_block, n - j0);
                std::fill(sg.begin(), sg.end(), 0.0);
                std::fill(sb.begin(), sb.end(), 0.0);
                // Rows widened together: all of a block's columns are the
                // whole row (then consecutive rows are contiguous).
                const int64_t rb = !half ? 1 : w == n ? k_piece / n : 1;
                for (int64_t r0 = 0; r0 < l.rows; r0 += rb) {
                    const int64_t nr = std::min(rb, l.rows - r0);
                    const float *px, *pd;
                    if (half) {
                        common::widen_row(x + (r0 * n + j0) * es, l.dt,
                                (nr - 1) * n + w, bx);
                        common::widen_row(dd + (r0 * n + j0) * es, l.dt,
                                (nr - 1) * n + w, bd);
                        px = bx;
                        pd = bd;
                    } else {
                        px = reinterpret_cast<const float *>(x) + r0 * n + j0;
                        pd = reinterpret_cast<const float *>(dd) + r0 * n + j0;
                    }
                    for (int64_t i = 0; i < nr; ++i) {
                        const size_t k = static_cast<size_t>(r0 + i);
                        add_col_sums(px + i * n, pd + i * n, w, mu[r0 + i], inv[k],
                                sg.data(), sb.data());
                    }
                }
                for (int64_t j = 0; j < w; ++j) {
                    const size_t s = static_cast<size_t>(j);
                    ir::store_value(l.pdt, dg, j0 + j, static_cast<float>(sg[s]));
                    ir::store_value(l.pdt, db, j0 + j, static_cast<float>(sb[s]));
                }
            }
        });
    }

    layout_t l_;
    std::string name_;
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_layer_norm_backward)
        return decline(why, "not LayerNormBackward");
    if (op->inputs.size() < 4
            || (op->outputs.size() != 1 && op->outputs.size() != 3))
        return decline(why, "unexpected port count");
    for (const auto *v : {&op->inputs, &op->outputs})
        for (const logical_tensor_t &t : *v)
            if (!ir::is_dense(t))
                return decline(why, "tensors must be dense row-major");
    if (!norm_types(*op, 2, "src, diff_dst and diff_src",
                "statistics, gamma and weight gradients", l.dt, l.pdt, why))
        return false;
    const logical_tensor_t &x = op->inputs[0];
    int64_t a = 0;
    if (!ir::normalize_axis(op->get_s64(dnnl_graph_op_attr_begin_norm_axis, -1),
                x.ndims, a))
        return decline(why, "bad begin_norm_axis");
    l.rows = 1;
    l.n = 1;
    for (int d = 0; d < x.ndims; ++d)
        (d < a ? l.rows : l.n) *= x.dims[d];
    if (ir::dims_of(op->inputs[1]) != ir::dims_of(x)
            || ir::nelems(op->inputs[2]) != l.rows
            || ir::nelems(op->inputs[3]) != l.rows)
        return decline(why, "diff_dst / statistics shapes do not match");
    const bool has_gamma = op->get_bool(dnnl_graph_op_attr_use_affine, true)
            && op->inputs.size() > 4;
    if (has_gamma && ir::nelems(op->inputs[4]) != l.n)
        return decline(why, "gamma size does not match");
    auto port_in = [&](size_t k) {
        return compiler::find_port(plan.inputs, op->inputs[k].id);
    };
    l.src = port_in(0);
    l.dd = port_in(1);
    l.mean = port_in(2);
    l.var = port_in(3);
    l.gamma = has_gamma ? port_in(4) : -1;
    l.ds = compiler::find_port(plan.outputs, op->outputs[0].id);
    if (op->outputs.size() == 3) {
        if (ir::nelems(op->outputs[1]) != l.n || ir::nelems(op->outputs[2]) != l.n)
            return decline(why, "weight-gradient sizes do not match");
        l.dg = compiler::find_port(plan.outputs, op->outputs[1].id);
        l.db = compiler::find_port(plan.outputs, op->outputs[2].id);
        if (l.dg < 0 || l.db < 0) return decline(why, "ports not found");
    }
    if (l.src < 0 || l.dd < 0 || l.mean < 0 || l.var < 0 || l.ds < 0
            || (has_gamma && l.gamma < 0))
        return decline(why, "ports not found");
    l.eps = op->get_f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, ln_bwd_kernel_t>(
            plan, "layernorm backward", analyse, out);
}

} // namespace layernorm_bwd
} // namespace cpu
} // namespace llga
