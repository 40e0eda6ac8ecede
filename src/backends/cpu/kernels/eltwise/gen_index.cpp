// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/gen_index.cpp — see gen_index.hpp.
#include "backends/cpu/kernels/eltwise/gen_index.hpp"

#include <cstdint>
#include <limits>

#include "backends/cpu/kernels/common/broadcast_runs.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace gen_index {

namespace {

// Elements per task: one store each.
constexpr int64_t k_chunk = 32768;

struct layout_t {
    int out = -1;
    common::runs_t runs; // operands: dst, the axis index
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    if (op.kind != dnnl_graph_op_gen_index)
        return decline(why, "not GenIndex");
    if (op.inputs.size() != 1 || op.outputs.size() != 1)
        return decline(why, "GenIndex: unexpected port count");
    const logical_tensor_t &o = op.outputs[0];
    if (o.data_type != dnnl_s32)
        return decline(why, "GenIndex: the output is not s32");
    if (!ir::is_dense_any_order(o))
        return decline(why, "GenIndex: the output is not dense");
    int64_t axis = 0;
    if (!ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis), o.ndims, axis))
        return decline(why, "GenIndex: axis out of range");
    if (o.dims[axis] - 1 > std::numeric_limits<int32_t>::max())
        return decline(why, "GenIndex: indices beyond the s32 range");
    // Element offsets of this operand are the indices along the axis.
    logical_tensor_t index = o;
    for (int d = 0; d < o.ndims; ++d) {
        index.dims[d] = d == axis ? o.dims[d] : 1;
        index.layout.strides[d] = d == axis ? 1 : 0;
    }
    std::string reason;
    if (!common::plan(o, {index}, l.runs, &reason))
        return decline(why, "GenIndex: " + reason);
    l.out = compiler::find_port(plan.outputs, o.id);
    if (l.out < 0) return decline(why, "GenIndex: output is not a port");
    return true;
}

class kernel_t : public compiler::kernel_t {
public:
    explicit kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return "gen_index_s32"; }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        int32_t *dst = static_cast<int32_t *>(ctx.outputs[l_.out]);
        const common::runs_t &r = l_.runs;
        common::for_each_piece(r, k_chunk, [&](const int64_t *off, int64_t len) {
            int32_t *dp = dst + off[0];
            const int64_t v = off[1];
            common::with_steps<1>(&r.inner_step[1], [&](auto iv) {
                for (int64_t t = 0; t < len; ++t)
                    dp[t] = static_cast<int32_t>(v + iv(t));
            });
        });
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
    return create_by<layout_t, kernel_t>(plan, "gen_index", analyse, out);
}

} // namespace gen_index
} // namespace cpu
} // namespace llga
