// backends/cpu/kernels/layernorm_bwd.cpp — LayerNormBackward (see
// layernorm_bwd.hpp): rows of n normalized elements, threaded over rows for
// diff_src and over column blocks for diff_gamma / diff_beta.
#include "backends/cpu/kernels/layernorm_bwd.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace layernorm_bwd {

namespace {

// Columns one weight-gradient task accumulates side by side.
constexpr int64_t k_col_block = 256;

struct layout_t {
    int src = -1, dd = -1, mean = -1, var = -1, gamma = -1; // input ports
    int ds = -1, dg = -1, db = -1;                           // output ports
    int64_t rows = 0, n = 0;
    double eps = 0;
};

class ln_bwd_kernel_t : public compiler::kernel_t {
public:
    explicit ln_bwd_kernel_t(layout_t l) : l_(l) {}
    const char *name() const override { return "layernorm_backward_f32"; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        auto in = [&](int k) {
            return k < 0 ? nullptr : static_cast<const float *>(ctx.inputs[k]);
        };
        const float *x = in(l.src), *dd = in(l.dd), *mean = in(l.mean),
                    *var = in(l.var), *gamma = in(l.gamma);
        float *ds = static_cast<float *>(ctx.outputs[l.ds]);
        const int64_t n = l.n;
        // 1 / sqrt(var + eps) per row, as the reference forms it.
        std::vector<double> inv(static_cast<size_t>(l.rows));
        for (int64_t r = 0; r < l.rows; ++r)
            inv[static_cast<size_t>(r)] = 1.0 / std::sqrt(double(var[r]) + l.eps);
        parallel_for(l.rows, 1, [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) {
                const float *xr = x + r * n, *gr = dd + r * n;
                float *o = ds + r * n;
                const double mu = mean[r], iv = inv[static_cast<size_t>(r)];
                double mg = 0, mgx = 0;
                for (int64_t j = 0; j < n; ++j) {
                    const double g = double(gr[j]) * (gamma ? double(gamma[j]) : 1.0);
                    mg += g;
                    mgx += g * (double(xr[j]) - mu) * iv;
                }
                if (n) {
                    mg /= n;
                    mgx /= n;
                }
                for (int64_t j = 0; j < n; ++j) {
                    const double g = double(gr[j]) * (gamma ? double(gamma[j]) : 1.0);
                    const double xh = (double(xr[j]) - mu) * iv;
                    o[j] = static_cast<float>((g - mg - xh * mgx) * iv);
                }
            }
        });
        if (l.dg < 0) return dnnl_success;
        float *dg = static_cast<float *>(ctx.outputs[l.dg]);
        float *db = static_cast<float *>(ctx.outputs[l.db]);
        // Column sums over the rows, rows ascending for every column.
        parallel_for(div_up(n, k_col_block), 1, [&](int64_t b, int64_t e) {
            std::vector<double> sg(k_col_block), sb(k_col_block);
            for (int64_t blk = b; blk < e; ++blk) {
                const int64_t j0 = blk * k_col_block;
                const int64_t w = std::min(k_col_block, n - j0);
                std::fill(sg.begin(), sg.end(), 0.0);
                std::fill(sb.begin(), sb.end(), 0.0);
                for (int64_t r = 0; r < l.rows; ++r) {
                    const float *xr = x + r * n + j0, *gr = dd + r * n + j0;
                    const double mu = mean[r], iv = inv[static_cast<size_t>(r)];
                    for (int64_t j = 0; j < w; ++j) {
                        const double dy = gr[j];
                        sb[static_cast<size_t>(j)] += dy;
                        sg[static_cast<size_t>(j)] += dy * (double(xr[j]) - mu) * iv;
                    }
                }
                for (int64_t j = 0; j < w; ++j) {
                    dg[j0 + j] = static_cast<float>(sg[static_cast<size_t>(j)]);
                    db[j0 + j] = static_cast<float>(sb[static_cast<size_t>(j)]);
                }
            }
        });
        return dnnl_success;
    }

private:
    layout_t l_;
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
        for (const logical_tensor_t &t : *v) {
            if (t.data_type != dnnl_f32) return decline(why, "only f32");
            if (!ir::is_dense(t))
                return decline(why, "tensors must be dense row-major");
        }
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
