// SPDX-License-Identifier: Apache-2.0
// ops/misc.cpp — utility ops: End (marks a graph output as consumed),
// Wildcard (stands for an op the library does not know), and GenIndex
// (dst[i] = index of i along `axis`, as s32).
#include "base/status.hpp"
#include "base/parallel.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

status_t infer_end(ir::op_t &) { return dnnl_success; }

status_t ref_end(const ir::op_t &, const std::vector<const void *> &,
        const std::vector<void *> &) {
    return dnnl_success;
}

status_t check_gen_index(const ir::op_t &op) {
    const logical_tensor_t &src = op.inputs[0];
    if (src.ndims < 0) return dnnl_success; // checked again at compile time
    int64_t axis;
    if (!ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis), src.ndims, axis))
        return fail(dnnl_invalid_graph_op,
                "%s: axis %lld is out of range for rank %d",
                describe(op).c_str(),
                static_cast<long long>(op.get_s64(dnnl_graph_op_attr_axis)),
                src.ndims);
    return dnnl_success;
}

status_t infer_gen_index(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(check_gen_index(op));
    return set_output(op, 0, ir::dims_of(op.inputs[0]));
}

status_t ref_gen_index(const ir::op_t &op, const std::vector<const void *> &,
        const std::vector<void *> &out) {
    const view_t dst = out_view(op, out, 0);
    int64_t axis = 0;
    ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis), dst.ndims(), axis);
    parallel_for(dst.nelems(), 4096, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(b, dst.dims, idx);
        for (int64_t i = b; i < e;
                ++i, ir::next_index(idx, dst.dims)) {
            dst.set(idx, static_cast<double>(idx[axis]));
        }
    });
    return dnnl_success;
}

} // namespace

void define_misc(op_kind_t kind, op_def_t &def) {
    switch (kind) {
        case dnnl_graph_op_end:
            def.schema.num_inputs({1})
                    .num_outputs({0})
                    .input("src", "T")
                    .types("T",
                            k_fp
                                    | dtypes({dnnl_s8, dnnl_u8, dnnl_s32,
                                            dnnl_boolean, dnnl_data_type_undef}));
            def.infer = infer_end;
            def.ref = ref_end;
            def.traits.is_marker = true;
            break;
        case dnnl_graph_op_wildcard:
            def.schema.variadic_inputs(0, SIZE_MAX).variadic_outputs(0, SIZE_MAX);
            def.traits.is_marker = true;
            break;
        case dnnl_graph_op_gen_index:
            def.schema.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T1")
                    .output("dst", "T2")
                    .types("T1", k_fp)
                    .types("T2", dt_bit(dnnl_s32))
                    .attr(dnnl_graph_op_attr_axis, true)
                    .constraint(check_gen_index);
            def.infer = infer_gen_index;
            def.ref = ref_gen_index;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
