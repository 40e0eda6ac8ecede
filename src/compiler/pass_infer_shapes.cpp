// SPDX-License-Identifier: Apache-2.0
// compiler/pass_infer_shapes.cpp — shape propagation through a partition.
#include "compiler/pass_infer_shapes.hpp"

#include "base/checked_size.hpp"
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
        // Inferred shapes (broadcasts, pads) pass the same size checks as
        // the user's: nothing past 2^48 elements reaches a kernel.
        for (auto &out : op.outputs) {
            if (check_shape(out, "output", dnnl_invalid_shape) != dnnl_success)
                return fail(dnnl_invalid_shape,
                        "%s: output tensor %zu would have shape %s; dims must "
                        "be in [0, 2^48] with at most 2^48 elements",
                        ops::describe(op).c_str(), out.id,
                        ir::dims_to_string(ir::dims_of(out)).c_str());
            known[out.id] = out;
        }
    }
    return dnnl_success;
}

} // namespace compiler
} // namespace llga
