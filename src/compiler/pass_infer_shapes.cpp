// compiler/pass_infer_shapes.cpp — shape propagation through a partition.
#include "compiler/pass_infer_shapes.hpp"

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace compiler {

status_t pass_infer_shapes(plan_t &plan, lt_map_t &known) {
    for (ir::op_t &op : plan.ops) {
        for (auto &in : op.inputs) {
            auto it = known.find(in.id);
            if (it == known.end() || !ir::shape_known(it->second))
                return fail(dnnl_invalid_shape,
                        "%s: input tensor %zu has no known shape at compile "
                        "time",
                        ops::describe(op).c_str(), in.id);
            in = it->second;
        }
        // Seed outputs with what the user declared at compile time.
        for (auto &out : op.outputs) {
            auto it = known.find(out.id);
            if (it != known.end()) out = it->second;
        }
        LLGA_RETURN_IF_ERROR(ops::infer_shapes(op));
        for (auto &out : op.outputs)
            known[out.id] = out;
    }
    return dnnl_success;
}

} // namespace compiler
} // namespace llga
