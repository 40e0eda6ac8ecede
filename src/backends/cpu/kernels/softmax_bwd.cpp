// backends/cpu/kernels/softmax_bwd.cpp — softmax backward (see
// softmax_bwd.hpp): the slices along the axis enumerated by the other
// dims, threaded over slices.
#include "backends/cpu/kernels/softmax_bwd.hpp"

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
namespace softmax_bwd {

namespace {

// Elements one task covers at least.
constexpr int64_t k_task_elems = 16384;

struct layout_t {
    bool log = false;
    int dd = -1, y = -1, ds = -1; // ports: diff_dst, dst, diff_src
    int64_t n = 0;                // slice length (the axis)
    int64_t sdd = 0, sy = 0, sds = 0; // strides along the axis
    // The other dims: sizes and each tensor's strides.
    std::vector<int64_t> on, odd, oy, ods;
};

class softmax_bwd_kernel_t : public compiler::kernel_t {
public:
    explicit softmax_bwd_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override {
        return l_.log ? "logsoftmax_backward_f32" : "softmax_backward_f32";
    }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        const float *dd = static_cast<const float *>(ctx.inputs[l.dd]);
        const float *y = static_cast<const float *>(ctx.inputs[l.y]);
        float *ds = static_cast<float *>(ctx.outputs[l.ds]);
        int64_t slices = 1;
        for (int64_t v : l.on)
            slices *= v;
        const int64_t grain = std::max<int64_t>(1, k_task_elems / std::max<int64_t>(1, l.n));
        parallel_for(slices, grain, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t) {
                int64_t rest = t, odd = 0, oy = 0, ods = 0;
                for (size_t k = l.on.size(); k-- > 0;) {
                    const int64_t i = rest % l.on[k];
                    rest /= l.on[k];
                    odd += i * l.odd[k];
                    oy += i * l.oy[k];
                    ods += i * l.ods[k];
                }
                const float *g = dd + odd, *yv = y + oy;
                float *o = ds + ods;
                double acc = 0;
                if (l.log) {
                    for (int64_t k = 0; k < l.n; ++k)
                        acc += double(g[k * l.sdd]);
                    for (int64_t k = 0; k < l.n; ++k)
                        o[k * l.sds] = static_cast<float>(double(g[k * l.sdd])
                                - std::exp(double(yv[k * l.sy])) * acc);
                } else {
                    for (int64_t k = 0; k < l.n; ++k)
                        acc += double(g[k * l.sdd]) * double(yv[k * l.sy]);
                    for (int64_t k = 0; k < l.n; ++k)
                        o[k * l.sds] = static_cast<float>(double(yv[k * l.sy])
                                * (double(g[k * l.sdd]) - acc));
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
    if (op->kind != dnnl_graph_op_softmax_backward
            && op->kind != dnnl_graph_op_log_softmax_backward)
        return decline(why, "not SoftMaxBackward/LogSoftmaxBackward");
    if (op->inputs.size() != 2 || op->outputs.size() != 1)
        return decline(why, "unexpected port count");
    const logical_tensor_t &dd = op->inputs[0], &y = op->inputs[1],
                           &ds = op->outputs[0];
    for (const logical_tensor_t *t : {&dd, &y, &ds})
        if (t->data_type != dnnl_f32) return decline(why, "only f32");
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
    for (int d = 0; d < r; ++d) {
        if (d == axis) continue;
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
    return create_by<layout_t, softmax_bwd_kernel_t>(
            plan, "softmax backward", analyse, out);
}

} // namespace softmax_bwd
} // namespace cpu
} // namespace llga
