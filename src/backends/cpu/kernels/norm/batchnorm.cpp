// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/batchnorm.cpp — BatchNormInference and
// BatchNormForwardTraining (see batchnorm.hpp): the tensor seen as
// [outer, C, inner] (NCX: inner = spatial; NXC: outer = batch x spatial,
// inner = 1), threaded over outer rows and, for NCX, channels. A
// channel's training sums are chains of dependent double adds, so NCX
// training tasks take four channels and run their sums side by side (one
// block loop for f32 data in place and for widened 16-bit pieces).
// bf16/f16 data run the same per-element expressions on pieces of at most
// 1024 elements widened into L1 buffers, the results narrowed piece by
// piece.
#include "backends/cpu/kernels/norm/batchnorm.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/norm/norm_types_p.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace batchnorm {

namespace {

// Elements one task covers at least.
constexpr int64_t k_task_elems = 16384;
// Elements of one widened piece of 16-bit data (4 KB as f32).
constexpr int64_t k_piece = 1024;
// Floats between the starts of two such buffers: 64 bytes more than a
// piece, so that the same element of two buffers is not 4 KB apart (the
// loads of one would wait on the stores to the other: 4K aliasing).
constexpr int64_t k_stride = k_piece + 16;

struct layout_t {
    int src = -1, gamma = -1, beta = -1, mean = -1, var = -1, dst = -1;
    // src and dst; the parameters (f32, or bf16 with bf16 data).
    data_type_t dt = dnnl_f32, pdt = dnnl_f32;
    int64_t outer = 0, c = 0, inner = 0;
    double eps = 0;
};

// The spec's types of a batch-norm op (norm_types.hpp): data inputs[0]
// and outputs[0]; the parameters and statistics the others.
bool bn_types(const ir::op_t &op, data_type_t &dt, data_type_t &pdt,
        std::string *why) {
    return norm_types(op, 1, "src and dst", "parameters", dt, pdt, why);
}

// One channel-last row: every channel once. (AVX2, which kernels.def
// guarantees: four doubles per vector where SSE2 has two; no FMA, so the
// expression rounds as the reference's.)
__attribute__((target("avx2"))) void row_channels(const float *x, float *y,
        int64_t C, const double *g, const double *mu, const double *inv,
        const double *bt) {
    for (int64_t c = 0; c < C; ++c)
        y[c] = static_cast<float>(g[c] * (x[c] - mu[c]) * inv[c] + bt[c]);
}

// One channel plane of `n` elements (AVX2 as row_channels).
__attribute__((target("avx2"))) void plane(const float *x, float *y,
        int64_t n, double g, double mu, double inv, double bt) {
    for (int64_t i = 0; i < n; ++i)
        y[i] = static_cast<float>(g * (x[i] - mu) * inv + bt);
}

class bn_kernel_t : public compiler::kernel_t {
public:
    explicit bn_kernel_t(layout_t l)
        : l_(l)
        , name_(std::string(l.inner == 1 ? "batchnorm_inference_nxc_"
                                         : "batchnorm_inference_ncx_")
                  + ir::dtype_name(l.dt)) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        auto param = [&](int k, int64_t c) {
            return ir::load_value(l.pdt, ctx.inputs[k], c);
        };
        const size_t C = static_cast<size_t>(l.c);
        std::vector<double> g(C), mu(C), inv(C), bt(C);
        for (size_t c = 0; c < C; ++c) {
            const int64_t i = static_cast<int64_t>(c);
            // As the reference: 1 / sqrt(var + eps) in double.
            inv[c] = 1.0 / std::sqrt(param(l.var, i) + l.eps);
            g[c] = param(l.gamma, i);
            mu[c] = param(l.mean, i);
            bt[c] = param(l.beta, i);
        }
        if (l.dt != dnnl_f32) {
            run_half(ctx, g.data(), mu.data(), inv.data(), bt.data());
            return dnnl_success;
        }
        const float *x = static_cast<const float *>(ctx.inputs[l.src]);
        float *y = static_cast<float *>(ctx.outputs[l.dst]);
        if (l.inner == 1) {
            const int64_t grain = std::max<int64_t>(1, k_task_elems / l.c);
            parallel_for(l.outer, grain, [&](int64_t b, int64_t e) {
                for (int64_t r = b; r < e; ++r)
                    row_channels(x + r * l.c, y + r * l.c, l.c, g.data(),
                            mu.data(), inv.data(), bt.data());
            });
        } else {
            const int64_t grain = std::max<int64_t>(1, k_task_elems / l.inner);
            parallel_for(l.outer * l.c, grain, [&](int64_t b, int64_t e) {
                for (int64_t t = b; t < e; ++t) {
                    const size_t c = static_cast<size_t>(t % l.c);
                    plane(x + t * l.inner, y + t * l.inner, l.inner, g[c],
                            mu[c], inv[c], bt[c]);
                }
            });
        }
        return dnnl_success;
    }

private:
    // 16-bit data: the dense tensor in pieces of k_piece elements, each
    // widened, computed plane by plane (NCX) or row by row (NXC) through
    // the f32 loops above, and narrowed.
    void run_half(const compiler::exec_ctx_t &ctx, const double *g,
            const double *mu, const double *inv, const double *bt) const {
        const layout_t &l = l_;
        const auto *x = static_cast<const uint16_t *>(ctx.inputs[l.src]);
        auto *y = static_cast<uint16_t *>(ctx.outputs[l.dst]);
        const int64_t total = l.outer * l.c * l.inner;
        parallel_for(div_up(total, k_piece), k_task_elems / k_piece,
                [&](int64_t b, int64_t e) {
                    for (int64_t t = b; t < e; ++t) {
                        const int64_t e0 = t * k_piece;
                        piece_half(x + e0, y + e0, e0,
                                std::min(k_piece, total - e0), g, mu, inv, bt);
                    }
                });
    }

    // Elements [e0, e0 + w) of the tensor (x and y point at e0): widened,
    // computed in runs of one plane (NCX) or one row (NXC), narrowed.
    // AVX2 (kernels.def) for the loops, which inline here; no FMA, so they
    // round as before.
    __attribute__((target("avx2"))) void piece_half(const uint16_t *x,
            uint16_t *y, int64_t e0, int64_t w, const double *g,
            const double *mu, const double *inv, const double *bt) const {
        const layout_t &l = l_;
        alignas(64) float buf[2 * k_stride];
        float *bx = buf, *by = buf + k_stride;
        common::widen_row(x, l.dt, w, bx);
        const int64_t run = l.inner == 1 ? l.c : l.inner;
        for (int64_t p = e0, len; p < e0 + w; p += len) {
            const int64_t at = p % run;
            len = std::min(run - at, e0 + w - p);
            const float *i = bx + (p - e0);
            float *o = by + (p - e0);
            if (l.inner == 1) {
                row_channels(i, o, len, g + at, mu + at, inv + at, bt + at);
            } else {
                const int64_t c = p / run % l.c;
                plane(i, o, len, g[c], mu[c], inv[c], bt[c]);
            }
        }
        common::narrow_row(by, w, y, l.dt);
    }

    layout_t l_;
    std::string name_;
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_batch_norm_inference)
        return decline(why, "not BatchNormInference");
    if (op->inputs.size() != 5 || op->outputs.size() != 1)
        return decline(why, "unexpected port count");
    const logical_tensor_t &x = op->inputs[0], &y = op->outputs[0];
    if (!bn_types(*op, l.dt, l.pdt, why)) return false;
    if (!ir::is_dense(x) || !ir::is_dense(y))
        return decline(why, "src and dst must be dense row-major");
    if (x.ndims < 2) return decline(why, "rank below 2");
    const bool nxc = ops::iequals(
            op->get_str(dnnl_graph_op_attr_data_format, "NXC"), "NXC");
    const int cax = nxc ? x.ndims - 1 : 1;
    l.c = x.dims[cax];
    l.outer = 1;
    l.inner = 1;
    for (int d = 0; d < x.ndims; ++d) {
        if (d < cax) l.outer *= x.dims[d];
        if (d > cax) l.inner *= x.dims[d];
    }
    for (size_t k = 1; k < 5; ++k) {
        const logical_tensor_t &p = op->inputs[k];
        if (ir::nelems(p) != l.c || !ir::is_dense(p))
            return decline(why, "parameters must be dense with C values");
    }
    int *ports[5] = {&l.src, &l.gamma, &l.beta, &l.mean, &l.var};
    for (size_t k = 0; k < 5; ++k) {
        *ports[k] = compiler::find_port(plan.inputs, op->inputs[k].id);
        if (*ports[k] < 0) return decline(why, "input is not a port");
    }
    l.dst = compiler::find_port(plan.outputs, y.id);
    if (l.dst < 0) return decline(why, "output is not a port");
    l.eps = op->get_f32(dnnl_graph_op_attr_epsilon);
    return true;
}

// ---- BatchNormForwardTraining ------------------------------------------

struct train_layout_t {
    int src = -1, mean_in = -1, var_in = -1, gamma = -1, beta = -1;
    int dst = -1, run_mean = -1, run_var = -1, batch_mean = -1, batch_var = -1;
    data_type_t dt = dnnl_f32, pdt = dnnl_f32; // as layout_t
    int64_t outer = 0, c = 0, inner = 0;
    double eps = 0, momentum = 0.5;
};

// Channels one channel-first training task takes: k_train_group, fewer
// when that would leave threads without a task (8 measured no faster).
// Channel-last tasks take an equal share of the channels per thread, in
// multiples of 16 and at most k_nxc_block: every row is then read in
// runs as long as the threads allow (f32 2 x 71 x 71 x 192 on one
// thread: blocks of 64 channels, three runs per row, 17.6 ms; all 192 in
// one block 6.7 ms).
constexpr int64_t k_train_group = 4;
constexpr int64_t k_nxc_block = 512;

// The loops of the training kernel on one block of channels: channel q's
// p values at b[q * ld + i] (R channels, or cw <= k_nxc_block when R is
// 0), in place in an f32 tensor (ld = the plane size, 1 for channel-last)
// or in a widened piece of 16-bit data. Each channel's sums in its order
// (outer rows, then positions ascending, as the reference walks them); R
// channels side by side are R independent chains of dependent adds,
// where one channel's chain bounds a one-channel loop (f32 2 x 192 x 71
// x 71 on one thread: 5.0 -> 2.4 ms). The sums are copied into locals:
// acc may alias mu for all the compiler knows, and would be stored and
// reloaded every position.
template <int R>
inline void block_sums(const float *b, int64_t ld, int64_t p, int64_t cw_,
        double *acc) {
    const int64_t cw = R ? R : cw_;
    double a[R ? R : k_nxc_block];
    std::copy(acc, acc + cw, a);
    for (int64_t i = 0; i < p; ++i)
        for (int64_t q = 0; q < cw; ++q)
            a[q] += b[q * ld + i];
    std::copy(a, a + cw, acc);
}

template <int R>
inline void block_sq(const float *b, int64_t ld, int64_t p, int64_t cw_,
        const double *mu, double *acc) {
    const int64_t cw = R ? R : cw_;
    double a[R ? R : k_nxc_block], m[R ? R : k_nxc_block];
    std::copy(acc, acc + cw, a);
    std::copy(mu, mu + cw, m);
    for (int64_t i = 0; i < p; ++i)
        for (int64_t q = 0; q < cw; ++q) {
            const double d = b[q * ld + i] - m[q];
            a[q] += d * d;
        }
    std::copy(a, a + cw, acc);
}

// The normalized values of such a block, channel q's into o[q * ldo + i].
inline void block_norm(const float *b, int64_t ld, int64_t p, int64_t cw,
        const double *g, const double *mu, const double *inv,
        const double *bt, float *o, int64_t ldo) {
    for (int64_t q = 0; q < cw; ++q) {
        const float *bq = b + q * ld;
        float *oq = o + q * ldo;
        for (int64_t i = 0; i < p; ++i)
            oq[i] = static_cast<float>(g[q] * (bq[i] - mu[q]) * inv[q] + bt[q]);
    }
}

// The per-channel values of a block of channels [c0, c1): the sums, then
// mean, variance, 1 / sqrt(var + eps), gamma and beta as the reference
// forms them.
struct block_stats_t {
    std::vector<double> sum, sq, mu, var, inv, g, bt;
    explicit block_stats_t(size_t w)
        : sum(w, 0.0), sq(w, 0.0), mu(w), var(w), inv(w), g(w), bt(w) {}
};

// f(std::integral_constant<int, R>()): R = k_train_group when the block
// has that many channels (the loops unrolled over them), else 0 (cw
// channels at run time).
template <typename F>
inline void by_group(int64_t cw, F &&f) {
    if (cw == k_train_group)
        f(std::integral_constant<int, k_train_group>());
    else
        f(std::integral_constant<int, 0>());
}

// Channels [c0, c1) of f32 data, read in place: per outer row, the
// block's planes (channel q's at x + q * I) for each of the three passes.
// AVX2 (kernels.def) for the loops inlined here; no FMA, so they round as
// before.
__attribute__((target("avx2"))) void train_channels(const train_layout_t &l,
        const float *x, float *y, const float *mean_in, const float *var_in,
        const float *gamma, const float *beta, float *const *stats, int64_t c0,
        int64_t c1) {
    const int64_t C = l.c, I = l.inner, cw = c1 - c0;
    const int64_t count = l.outer * I;
    block_stats_t s(static_cast<size_t>(cw));
    // Channel-last rows hold the block's channels side by side (I = 1:
    // one position, channels 1 apart); planes one channel each (I
    // positions, channels I apart).
    by_group(cw, [&](auto r) {
        constexpr int R = decltype(r)::value;
        for (int64_t o = 0; o < l.outer; ++o)
            block_sums<R>(x + (o * C + c0) * I, I, I, cw, s.sum.data());
    });
    for (size_t k = 0; k < s.mu.size(); ++k)
        s.mu[k] = count ? s.sum[k] / count : 0;
    by_group(cw, [&](auto r) {
        constexpr int R = decltype(r)::value;
        for (int64_t o = 0; o < l.outer; ++o)
            block_sq<R>(x + (o * C + c0) * I, I, I, cw, s.mu.data(),
                    s.sq.data());
    });
    for (size_t k = 0; k < s.mu.size(); ++k) {
        const int64_t c = c0 + static_cast<int64_t>(k);
        s.var[k] = count ? s.sq[k] / count : 0;
        s.inv[k] = 1.0 / std::sqrt(s.var[k] + l.eps);
        s.g[k] = gamma ? double(gamma[c]) : 1.0;
        s.bt[k] = beta ? double(beta[c]) : 0.0;
    }
    for (int64_t o = 0; o < l.outer; ++o) {
        const int64_t at = (o * C + c0) * I;
        block_norm(x + at, I, I, cw, s.g.data(), s.mu.data(), s.inv.data(),
                s.bt.data(), y + at, I);
    }
    const double m = l.momentum;
    for (int64_t c = c0; c < c1; ++c) {
        const size_t k = static_cast<size_t>(c - c0);
        stats[0][c] = static_cast<float>(m * mean_in[c] + (1 - m) * s.mu[k]);
        stats[1][c] = static_cast<float>(m * var_in[c] + (1 - m) * s.var[k]);
        stats[2][c] = static_cast<float>(s.mu[k]);
        stats[3][c] = static_cast<float>(s.var[k]);
    }
}

// train_channels for 16-bit data (and f32 or bf16 parameters): per outer
// row, the block of channels [c0, c1) x a piece of the inner positions
// widened into an L1 buffer (channel q's piece at b[q * p]), once for
// each of the three passes, the results narrowed channel by channel. The
// sums keep train_channels' order. AVX2 (kernels.def) for the loops; no
// FMA.
__attribute__((target("avx2"))) void train_channels_half(
        const train_layout_t &l, const uint16_t *x, uint16_t *y,
        const compiler::exec_ctx_t &ctx, int64_t c0, int64_t c1) {
    const int64_t I = l.inner, cw = c1 - c0, rs = l.c * I;
    const int64_t count = l.outer * I;
    // Positions per piece: all channels of a row (NXC), or up to k_piece
    // elements of the block's planes.
    const int64_t P = I == 1 ? 1 : std::max<int64_t>(1, k_piece / cw);
    alignas(64) float buf[2 * k_stride];
    float *bx = buf, *by = buf + k_stride;
    block_stats_t s(static_cast<size_t>(cw));
    // f(o, i0, p) for every piece, outer rows then positions ascending,
    // the piece widened into bx.
    const auto pieces = [&](auto &&f) {
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t i0 = 0; i0 < I; i0 += P) {
                const int64_t p = std::min(P, I - i0);
                const uint16_t *src = x + o * rs + c0 * I + i0;
                if (p == 1) // one position of each channel, I apart
                    common::widen_matrix(src, l.dt, 1, cw, 0, I, bx);
                else
                    common::widen_matrix(src, l.dt, cw, p, I, 1, bx);
                f(o, i0, p);
            }
    };
    by_group(cw, [&](auto r) {
        constexpr int R = decltype(r)::value;
        pieces([&](int64_t, int64_t, int64_t p) {
            block_sums<R>(bx, p, p, cw, s.sum.data());
        });
    });
    for (size_t k = 0; k < s.mu.size(); ++k)
        s.mu[k] = count ? s.sum[k] / count : 0;
    by_group(cw, [&](auto r) {
        constexpr int R = decltype(r)::value;
        pieces([&](int64_t, int64_t, int64_t p) {
            block_sq<R>(bx, p, p, cw, s.mu.data(), s.sq.data());
        });
    });
    for (size_t k = 0; k < s.mu.size(); ++k) {
        const int64_t c = c0 + static_cast<int64_t>(k);
        s.var[k] = count ? s.sq[k] / count : 0;
        s.inv[k] = 1.0 / std::sqrt(s.var[k] + l.eps);
        s.g[k] = l.gamma < 0
                ? 1.0
                : ir::load_value(l.pdt, ctx.inputs[l.gamma], c);
        s.bt[k] = l.beta < 0 ? 0.0
                             : ir::load_value(l.pdt, ctx.inputs[l.beta], c);
    }
    pieces([&](int64_t o, int64_t i0, int64_t p) {
        block_norm(bx, p, p, cw, s.g.data(), s.mu.data(), s.inv.data(),
                s.bt.data(), by, p);
        uint16_t *dst = y + o * rs + c0 * I + i0;
        if (I == 1) {
            common::narrow_row(by, cw, dst, l.dt);
        } else {
            for (int64_t q = 0; q < cw; ++q)
                common::narrow_row(by + q * p, p, dst + q * I, l.dt);
        }
    });
    const double m = l.momentum;
    const auto put = [&](int port, int64_t c, double v) {
        ir::store_value(l.pdt, ctx.outputs[port], c, static_cast<float>(v));
    };
    for (size_t k = 0; k < s.mu.size(); ++k) {
        const int64_t c = c0 + static_cast<int64_t>(k);
        const double mean_in = ir::load_value(l.pdt, ctx.inputs[l.mean_in], c);
        const double var_in = ir::load_value(l.pdt, ctx.inputs[l.var_in], c);
        put(l.run_mean, c, m * mean_in + (1 - m) * s.mu[k]);
        put(l.run_var, c, m * var_in + (1 - m) * s.var[k]);
        put(l.batch_mean, c, s.mu[k]);
        put(l.batch_var, c, s.var[k]);
    }
}

class bn_train_kernel_t : public compiler::kernel_t {
public:
    explicit bn_train_kernel_t(train_layout_t l)
        : l_(l)
        , name_(std::string(l.inner == 1 ? "batchnorm_training_nxc_"
                                         : "batchnorm_training_ncx_")
                  + ir::dtype_name(l.dt)) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const train_layout_t &l = l_;
        auto in = [&](int k) {
            return k < 0 ? nullptr : static_cast<const float *>(ctx.inputs[k]);
        };
        auto out = [&](int k) { return static_cast<float *>(ctx.outputs[k]); };
        float *stats[4] = {out(l.run_mean), out(l.run_var), out(l.batch_mean),
                out(l.batch_var)};
        // Channel-last: a share of neighbouring channels per thread, so
        // every row is read in runs as long as they can be;
        // channel-first: k_train_group channels (their planes) per task,
        // their sums side by side (see block_sums), unless that leaves
        // threads idle.
        const int64_t threads = std::max(1, rt::max_threads());
        const int64_t cb = l.inner == 1
                ? std::min(k_nxc_block, round_up(div_up(l.c, threads), 16))
                : std::max<int64_t>(1, std::min(k_train_group, l.c / threads));
        parallel_for(div_up(l.c, cb), 1, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t) {
                const int64_t c0 = t * cb, c1 = std::min(l.c, (t + 1) * cb);
                if (l.dt != dnnl_f32)
                    train_channels_half(l,
                            static_cast<const uint16_t *>(ctx.inputs[l.src]),
                            static_cast<uint16_t *>(ctx.outputs[l.dst]), ctx,
                            c0, c1);
                else
                    train_channels(l, in(l.src), out(l.dst), in(l.mean_in),
                            in(l.var_in), in(l.gamma), in(l.beta), stats, c0,
                            c1);
            }
        });
        return dnnl_success;
    }

private:
    train_layout_t l_;
    std::string name_;
};

bool analyse_training(
        const compiler::plan_t &plan, train_layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_batch_norm_forward_training)
        return decline(why, "not BatchNormForwardTraining");
    if (op->inputs.size() < 3 || op->inputs.size() > 5 || op->outputs.size() != 5)
        return decline(why, "unexpected port count");
    for (const auto *v : {&op->inputs, &op->outputs})
        for (const logical_tensor_t &t : *v)
            if (!ir::is_dense(t))
                return decline(why, "tensors must be dense row-major");
    if (!bn_types(*op, l.dt, l.pdt, why)) return false;
    const logical_tensor_t &x = op->inputs[0];
    if (x.ndims < 2 || ir::dims_of(op->outputs[0]) != ir::dims_of(x))
        return decline(why, "rank below 2 or dst shape differs");
    const bool nxc = ops::iequals(
            op->get_str(dnnl_graph_op_attr_data_format, "NXC"), "NXC");
    const int cax = nxc ? x.ndims - 1 : 1;
    l.c = x.dims[cax];
    l.outer = 1;
    l.inner = 1;
    for (int d = 0; d < x.ndims; ++d) {
        if (d < cax) l.outer *= x.dims[d];
        if (d > cax) l.inner *= x.dims[d];
    }
    for (size_t k = 1; k < op->inputs.size(); ++k)
        if (ir::nelems(op->inputs[k]) != l.c)
            return decline(why, "parameters must have C values");
    for (size_t k = 1; k < 5; ++k)
        if (ir::nelems(op->outputs[k]) != l.c)
            return decline(why, "statistics outputs must have C values");
    int *ins[5] = {&l.src, &l.mean_in, &l.var_in, &l.gamma, &l.beta};
    for (size_t k = 0; k < op->inputs.size(); ++k)
        if ((*ins[k] = compiler::find_port(plan.inputs, op->inputs[k].id)) < 0)
            return decline(why, "input is not a port");
    int *outs[5] = {&l.dst, &l.run_mean, &l.run_var, &l.batch_mean,
            &l.batch_var};
    for (size_t k = 0; k < 5; ++k)
        if ((*outs[k] = compiler::find_port(plan.outputs, op->outputs[k].id)) < 0)
            return decline(why, "output is not a port");
    l.eps = op->get_f32(dnnl_graph_op_attr_epsilon);
    // Without the attribute the reference uses 0.5, as the backend does.
    l.momentum = op->get_f32(dnnl_graph_op_attr_momentum, 0.5f);
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, bn_kernel_t>(plan, "batchnorm", analyse, out);
}

bool accepts_training(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<train_layout_t>(plan, why, analyse_training);
}

status_t create_training(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<train_layout_t, bn_train_kernel_t>(
            plan, "batchnorm training", analyse_training, out);
}

} // namespace batchnorm
} // namespace cpu
} // namespace llga
