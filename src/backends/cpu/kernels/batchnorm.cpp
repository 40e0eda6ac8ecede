// backends/cpu/kernels/batchnorm.cpp — BatchNormInference and
// BatchNormForwardTraining (see batchnorm.hpp): the tensor seen as [outer, C, inner] (NCX: inner =
// spatial; NXC: outer = batch x spatial, inner = 1), threaded over outer
// rows and, for NCX, channels. bf16/f16 data run the same per-element
// expressions on pieces of at most 1024 elements widened into L1 buffers,
// the results narrowed piece by piece; their NCX training tasks take four
// channels and run the channels' sums side by side.
#include "backends/cpu/kernels/batchnorm.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/cpu/kernels/convert_rows.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

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

// The spec's types of a batch-norm op: data (inputs[0] and outputs[0])
// f32, bf16 or f16; every other tensor one type, f32, or bf16 with bf16
// data. Sets dt and pdt; false with the reason otherwise.
bool bn_types(const ir::op_t &op, data_type_t &dt, data_type_t &pdt,
        std::string *why) {
    dt = op.inputs[0].data_type;
    pdt = op.inputs.size() > 1 ? op.inputs[1].data_type : dnnl_f32;
    if ((dt != dnnl_f32 && dt != dnnl_bf16 && dt != dnnl_f16)
            || op.outputs[0].data_type != dt)
        return decline(why, "src and dst must be one of f32, bf16, f16");
    if (pdt != dnnl_f32 && !(pdt == dnnl_bf16 && dt == dnnl_bf16))
        return decline(why, "parameters must be f32, or bf16 with bf16 data");
    for (const auto *v : {&op.inputs, &op.outputs})
        for (size_t k = 1; k < v->size(); ++k)
            if ((*v)[k].data_type != pdt)
                return decline(why, "parameter types differ");
    return true;
}

// One channel-last row: every channel once.
void row_channels(const float *x, float *y, int64_t C, const double *g,
        const double *mu, const double *inv, const double *bt) {
    for (int64_t c = 0; c < C; ++c)
        y[c] = static_cast<float>(g[c] * (x[c] - mu[c]) * inv[c] + bt[c]);
}

// One channel plane of `n` elements.
void plane(const float *x, float *y, int64_t n, double g, double mu,
        double inv, double bt) {
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
        cvt::widen_row(x, l.dt, w, bx);
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
        cvt::narrow_row(by, w, y, l.dt);
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

// Channels [c0, c1): batch statistics in the reference's order (per
// channel, the other dims row-major: outer ascending, then inner), then
// the normalized values and the four statistics outputs.
void train_channels(const train_layout_t &l, const float *x, float *y,
        const float *mean_in, const float *var_in, const float *gamma,
        const float *beta, float *const *stats, int64_t c0, int64_t c1) {
    const int64_t C = l.c, I = l.inner, w = c1 - c0;
    const int64_t count = l.outer * I;
    std::vector<double> sum(static_cast<size_t>(w), 0.0), sq(sum);
    for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t c = c0; c < c1; ++c) {
            const float *xp = x + (o * C + c) * I;
            double &acc = sum[static_cast<size_t>(c - c0)];
            for (int64_t i = 0; i < I; ++i)
                acc += xp[i];
        }
    std::vector<double> mu(static_cast<size_t>(w));
    for (int64_t k = 0; k < w; ++k)
        mu[static_cast<size_t>(k)] = count ? sum[static_cast<size_t>(k)] / count : 0;
    for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t c = c0; c < c1; ++c) {
            const float *xp = x + (o * C + c) * I;
            const double m = mu[static_cast<size_t>(c - c0)];
            double &acc = sq[static_cast<size_t>(c - c0)];
            for (int64_t i = 0; i < I; ++i) {
                const double d = xp[i] - m;
                acc += d * d;
            }
        }
    std::vector<double> inv(static_cast<size_t>(w)), var(inv);
    for (int64_t k = 0; k < w; ++k) {
        const size_t s = static_cast<size_t>(k);
        var[s] = count ? sq[s] / count : 0;
        inv[s] = 1.0 / std::sqrt(var[s] + l.eps);
    }
    for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t c = c0; c < c1; ++c) {
            const size_t s = static_cast<size_t>(c - c0);
            const double g = gamma ? double(gamma[c]) : 1.0;
            const double bt = beta ? double(beta[c]) : 0.0;
            const float *xp = x + (o * C + c) * I;
            float *yp = y + (o * C + c) * I;
            for (int64_t i = 0; i < I; ++i)
                yp[i] = static_cast<float>(g * (xp[i] - mu[s]) * inv[s] + bt);
        }
    const double m = l.momentum;
    for (int64_t c = c0; c < c1; ++c) {
        const size_t s = static_cast<size_t>(c - c0);
        stats[0][c] = static_cast<float>(m * mean_in[c] + (1 - m) * mu[s]);
        stats[1][c] = static_cast<float>(m * var_in[c] + (1 - m) * var[s]);
        stats[2][c] = static_cast<float>(mu[s]);
        stats[3][c] = static_cast<float>(var[s]);
    }
}

// The loops of train_channels_half on one widened block: channel q's
// values at b[q * p + i], i < p (R channels, or cw when R is 0). Each
// channel's sums in its order; R channels side by side are R independent
// chains of dependent adds (one channel's chain bounds the f32 loop).
template <int R>
inline void block_sums(const float *b, int64_t p, int64_t cw_, double *acc) {
    const int64_t cw = R ? R : cw_;
    for (int64_t i = 0; i < p; ++i)
        for (int64_t q = 0; q < cw; ++q)
            acc[q] += b[q * p + i];
}

template <int R>
inline void block_sq(const float *b, int64_t p, int64_t cw_, const double *mu,
        double *acc) {
    const int64_t cw = R ? R : cw_;
    for (int64_t i = 0; i < p; ++i)
        for (int64_t q = 0; q < cw; ++q) {
            const double d = b[q * p + i] - mu[q];
            acc[q] += d * d;
        }
}

// train_channels for 16-bit data (and f32 or bf16 parameters): per outer
// row, the block of channels [c0, c1) x a piece of the inner positions
// widened into an L1 buffer (channel q's piece at b[q * p]), once for
// each of the three passes, the results narrowed channel by channel. The
// sums keep train_channels' order (outer, then inner, ascending per
// channel). AVX2 (kernels.def) for the loops; no FMA.
__attribute__((target("avx2"))) void train_channels_half(
        const train_layout_t &l, const uint16_t *x, uint16_t *y,
        const compiler::exec_ctx_t &ctx, int64_t c0, int64_t c1) {
    const int64_t I = l.inner, cw = c1 - c0, rs = l.c * I;
    const int64_t count = l.outer * I;
    // Positions per piece: all channels of a row (NXC), or up to k_piece
    // elements of the block's planes.
    const int64_t P = I == 1 ? 1 : std::max<int64_t>(1, k_piece / cw);
    const size_t W = static_cast<size_t>(cw);
    alignas(64) float buf[2 * k_stride];
    float *bx = buf, *by = buf + k_stride;
    std::vector<double> sum(W, 0.0), sq(W, 0.0), mu(W), var(W), inv(W), g(W),
            bt(W);
    // f(o, i0, p, block) for every piece, outer rows then positions
    // ascending; block = the widened piece.
    const auto pieces = [&](auto &&f) {
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t i0 = 0; i0 < I; i0 += P) {
                const int64_t p = std::min(P, I - i0);
                const uint16_t *src = x + o * rs + c0 * I + i0;
                if (p == 1) // one position of each channel, I apart
                    cvt::widen_matrix(src, l.dt, 1, cw, 0, I, bx);
                else
                    cvt::widen_matrix(src, l.dt, cw, p, I, 1, bx);
                f(o, i0, p);
            }
    };
    const bool four = cw == 4;
    pieces([&](int64_t, int64_t, int64_t p) {
        if (four)
            block_sums<4>(bx, p, cw, sum.data());
        else
            block_sums<0>(bx, p, cw, sum.data());
    });
    for (size_t k = 0; k < W; ++k)
        mu[k] = count ? sum[k] / count : 0;
    pieces([&](int64_t, int64_t, int64_t p) {
        if (four)
            block_sq<4>(bx, p, cw, mu.data(), sq.data());
        else
            block_sq<0>(bx, p, cw, mu.data(), sq.data());
    });
    for (size_t k = 0; k < W; ++k) {
        const int64_t c = c0 + static_cast<int64_t>(k);
        var[k] = count ? sq[k] / count : 0;
        inv[k] = 1.0 / std::sqrt(var[k] + l.eps);
        g[k] = l.gamma < 0 ? 1.0 : ir::load_value(l.pdt, ctx.inputs[l.gamma], c);
        bt[k] = l.beta < 0 ? 0.0 : ir::load_value(l.pdt, ctx.inputs[l.beta], c);
    }
    pieces([&](int64_t o, int64_t i0, int64_t p) {
        for (int64_t q = 0; q < cw; ++q) {
            const size_t s = static_cast<size_t>(q);
            const float *b = bx + q * p;
            float *out = by + q * p;
            for (int64_t i = 0; i < p; ++i)
                out[i] = static_cast<float>(g[s] * (b[i] - mu[s]) * inv[s] + bt[s]);
        }
        uint16_t *dst = y + o * rs + c0 * I + i0;
        if (I == 1) {
            cvt::narrow_row(by, cw, dst, l.dt);
        } else {
            for (int64_t q = 0; q < cw; ++q)
                cvt::narrow_row(by + q * p, p, dst + q * I, l.dt);
        }
    });
    const double m = l.momentum;
    const auto put = [&](int port, int64_t c, double v) {
        ir::store_value(l.pdt, ctx.outputs[port], c, static_cast<float>(v));
    };
    for (size_t k = 0; k < W; ++k) {
        const int64_t c = c0 + static_cast<int64_t>(k);
        const double mean_in = ir::load_value(l.pdt, ctx.inputs[l.mean_in], c);
        const double var_in = ir::load_value(l.pdt, ctx.inputs[l.var_in], c);
        put(l.run_mean, c, m * mean_in + (1 - m) * mu[k]);
        put(l.run_var, c, m * var_in + (1 - m) * var[k]);
        put(l.batch_mean, c, mu[k]);
        put(l.batch_var, c, var[k]);
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
        // Channel-last: blocks of neighbouring channels, so every row is
        // read in runs; channel-first: one channel (its planes) per task,
        // or four for 16-bit data (see block_sums).
        const int64_t cb = l.inner == 1 ? 64 : l.dt != dnnl_f32 ? 4 : 1;
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
