// backends/cpu/kernels/eltwise_exact.cpp — see eltwise_exact.hpp.
#include "backends/cpu/kernels/eltwise_exact.hpp"

#include <algorithm>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/movement.hpp"
#include "base/parallel.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/eltwise_math.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace eltwise_exact {

namespace {

// Elements per task: the formulas cost tens of nanoseconds each.
constexpr int64_t k_grain = 2048;

struct layout_t {
    std::string name;
    ops::eltwise::fwd_fn_t fwd = nullptr; // forward ops
    ops::eltwise::bwd_fn_t bwd = nullptr; // backward ops (2 inputs)
    ops::eltwise::params_t params;
    int in[2] = {-1, -1}, out = -1;
    int64_t n = 0;
    // Inputs copied into the output's order first.
    movement::relayout_t reorder[2];
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    const char *kname = ops::op_kind_name(op.kind);
    const std::string kind = kname ? kname : "?";
    l.bwd = ops::eltwise::backward_fn(op.kind);
    // Forward ops the generated family runs are left to it (its line comes
    // first); this one only takes those it cannot.
    switch (op.kind) {
        case dnnl_graph_op_log:
        case dnnl_graph_op_mish:
        case dnnl_graph_op_softplus:
        case dnnl_graph_op_pow:
        case dnnl_graph_op_reciprocal:
            l.fwd = ops::eltwise::forward_fn(op.kind);
            break;
        default: break;
    }
    if (!l.fwd && !l.bwd)
        return decline(why, kind + " is not an exact-formula elementwise op");
    const size_t nin = l.bwd ? 2 : 1;
    if (op.inputs.size() != nin || op.outputs.size() != 1)
        return decline(why, kind + ": unexpected port count");
    const logical_tensor_t &o = op.outputs[0];
    if (!ir::is_dense_any_order(o))
        return decline(why, kind + ": the output is not dense");
    l.n = ir::nelems(o);
    for (size_t k = 0; k < nin; ++k) {
        const logical_tensor_t &lt = op.inputs[k];
        if (lt.data_type != dnnl_f32 || o.data_type != dnnl_f32)
            return decline(why, kind + ": only f32 (bf16/f16 run staged)");
        if (ir::dims_of(lt) != ir::dims_of(o) || !ir::strides_known(lt))
            return decline(why, kind + ": input " + std::to_string(k)
                            + " is not shaped like the output");
        if (!ir::same_layout(lt, o)) {
            l.reorder[k] = movement::relayout(lt, o, 4);
        }
        l.in[k] = compiler::find_port(plan.inputs, lt.id);
        if (l.in[k] < 0) return decline(why, kind + ": input is not a port");
    }
    l.out = compiler::find_port(plan.outputs, o.id);
    if (l.out < 0) return decline(why, kind + ": output is not a port");
    l.params = ops::eltwise::params_of(op);
    l.name = std::string("exact_") + kind + "_f32";
    return true;
}

class exact_kernel_t : public compiler::kernel_t {
public:
    explicit exact_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }

    // Both inputs of element i are read before diff_src[i] / dst[i] is
    // written, so the declared in-place pairs are safe.
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const int nin = l_.bwd ? 2 : 1;
        const float *in[2] = {nullptr, nullptr};
        scratch_frame_t frame;
        for (int k = 0; k < nin; ++k)
            in[k] = static_cast<const float *>(
                    l_.reorder[k].apply(ctx.inputs[l_.in[k]], frame));
        float *out = static_cast<float *>(ctx.outputs[l_.out]);
        const ops::eltwise::params_t &p = l_.params;
        if (l_.bwd) {
            const ops::eltwise::bwd_fn_t g = l_.bwd;
            parallel_for(l_.n, k_grain, [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; ++i)
                    out[i] = static_cast<float>(g(in[0][i], in[1][i], p));
            });
        } else {
            const ops::eltwise::fwd_fn_t f = l_.fwd;
            parallel_for(l_.n, k_grain, [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; ++i)
                    out[i] = static_cast<float>(f(in[0][i], p));
            });
        }
        return dnnl_success;
    }

private:
    layout_t l_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    (void)isa;
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    (void)isa;
    return create_by<layout_t, exact_kernel_t>(
            plan, "eltwise_exact", analyse, out);
}

} // namespace eltwise_exact
} // namespace cpu
} // namespace llga
