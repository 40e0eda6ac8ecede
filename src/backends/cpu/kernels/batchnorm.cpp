// backends/cpu/kernels/batchnorm.cpp — BatchNormInference (see
// batchnorm.hpp): the tensor seen as [outer, C, inner] (NCX: inner =
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

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, bn_kernel_t>(plan, "batchnorm", analyse, out);
}

} // namespace batchnorm
} // namespace cpu
} // namespace llga
