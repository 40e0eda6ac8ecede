// backends/cpu/kernels/batchnorm.cpp — BatchNormInference and
// BatchNormForwardTraining (see batchnorm.hpp): the tensor seen as [outer, C, inner] (NCX: inner =
// spatial; NXC: outer = batch x spatial, inner = 1), threaded over outer
// rows and, for NCX, channels.
#include "backends/cpu/kernels/batchnorm.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace batchnorm {

namespace {

// Elements one task covers at least.
constexpr int64_t k_task_elems = 16384;

struct layout_t {
    int src = -1, gamma = -1, beta = -1, mean = -1, var = -1, dst = -1;
    int64_t outer = 0, c = 0, inner = 0;
    double eps = 0;
};

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
    explicit bn_kernel_t(layout_t l) : l_(l) {}
    const char *name() const override {
        return l_.inner == 1 ? "batchnorm_inference_nxc_f32"
                             : "batchnorm_inference_ncx_f32";
    }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        auto in = [&](int k) { return static_cast<const float *>(ctx.inputs[k]); };
        const float *x = in(l.src);
        float *y = static_cast<float *>(ctx.outputs[l.dst]);
        const size_t C = static_cast<size_t>(l.c);
        std::vector<double> g(C), mu(C), inv(C), bt(C);
        for (size_t c = 0; c < C; ++c) {
            // As the reference: 1 / sqrt(var + eps) in double.
            inv[c] = 1.0 / std::sqrt(double(in(l.var)[c]) + l.eps);
            g[c] = in(l.gamma)[c];
            mu[c] = in(l.mean)[c];
            bt[c] = in(l.beta)[c];
        }
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
    layout_t l_;
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_batch_norm_inference)
        return decline(why, "not BatchNormInference");
    if (op->inputs.size() != 5 || op->outputs.size() != 1)
        return decline(why, "unexpected port count");
    const logical_tensor_t &x = op->inputs[0], &y = op->outputs[0];
    for (const logical_tensor_t &t : op->inputs)
        if (t.data_type != dnnl_f32)
            return decline(why, "only f32 data and parameters");
    if (y.data_type != dnnl_f32) return decline(why, "only f32 output");
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

class bn_train_kernel_t : public compiler::kernel_t {
public:
    explicit bn_train_kernel_t(train_layout_t l) : l_(l) {}
    const char *name() const override {
        return l_.inner == 1 ? "batchnorm_training_nxc_f32"
                             : "batchnorm_training_ncx_f32";
    }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const train_layout_t &l = l_;
        auto in = [&](int k) {
            return k < 0 ? nullptr : static_cast<const float *>(ctx.inputs[k]);
        };
        auto out = [&](int k) { return static_cast<float *>(ctx.outputs[k]); };
        float *stats[4] = {out(l.run_mean), out(l.run_var), out(l.batch_mean),
                out(l.batch_var)};
        // Channel-last: blocks of neighbouring channels, so every row is
        // read in runs; channel-first: one channel (its planes) per task.
        const int64_t cb = l.inner == 1 ? 64 : 1;
        parallel_for(div_up(l.c, cb), 1, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t)
                train_channels(l, in(l.src), out(l.dst), in(l.mean_in),
                        in(l.var_in), in(l.gamma), in(l.beta), stats, t * cb,
                        std::min(l.c, (t + 1) * cb));
        });
        return dnnl_success;
    }

private:
    train_layout_t l_;
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
        for (const logical_tensor_t &t : *v) {
            if (t.data_type != dnnl_f32) return decline(why, "only f32");
            if (!ir::is_dense(t))
                return decline(why, "tensors must be dense row-major");
        }
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
