// SPDX-License-Identifier: Apache-2.0
// ops/binary.cpp — the elementwise binary ops (Add, Subtract, Multiply, Divide,
// Maximum, Minimum, SquaredDifference, GreaterEqual) and the ternary Select:
// schemas with auto_broadcast, numpy / one-way broadcast shape inference, and
// a reference kernel that walks the output and maps each index back into the
// (possibly broadcast, possibly strided) inputs.
#include <cmath>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

using ir::attr_value_t;

// Values arrive as double: s32 operands are exact, and the sum, difference or
// comparison of two s32 values is exact too, which is what the s32 forms of
// Add/Subtract/GreaterEqual need. Float results are rounded on store.
using binary_fn_t = double (*)(double a, double b);

double add_f(double a, double b) { return a + b; }
double sub_f(double a, double b) { return a - b; }
double mul_f(double a, double b) { return a * b; }
double div_f(double a, double b) { return a / b; }
// Written so that a NaN in either operand propagates.
double max_f(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return NAN;
    return a > b ? a : b;
}
double min_f(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return NAN;
    return a < b ? a : b;
}
double sqdiff_f(double a, double b) { return (a - b) * (a - b); }
double ge_f(double a, double b) { return a >= b ? 1.0 : 0.0; }

binary_fn_t binary_fn(op_kind_t kind) {
    switch (kind) {
        case dnnl_graph_op_add: return add_f;
        case dnnl_graph_op_subtract: return sub_f;
        case dnnl_graph_op_multiply: return mul_f;
        case dnnl_graph_op_divide: return div_f;
        case dnnl_graph_op_maximum: return max_f;
        case dnnl_graph_op_minimum: return min_f;
        case dnnl_graph_op_squared_difference: return sqdiff_f;
        case dnnl_graph_op_greater_equal: return ge_f;
        default: return nullptr;
    }
}

// Reads a[i] and b[i] before writing dst[i], so dst may alias src_0 when
// they have the same shape and layout (the declared in-place case).
status_t ref_binary(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const binary_fn_t f = binary_fn(op.kind);
    if (!f)
        return fail(dnnl_unimplemented, "%s: not a binary op",
                describe(op).c_str());
    const view_t a = in_view(op, in, 0), b = in_view(op, in, 1);
    const view_t dst = out_view(op, out, 0);
    const int nd = dst.ndims();
    parallel_for(dst.nelems(), 4096, [&](int64_t lo, int64_t hi) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(lo, dst.dims, idx);
        for (int64_t i = lo; i < hi;
                ++i, ir::next_index(idx, dst.dims)) {
            const double va = a.at_offset(
                    ir::broadcast_offset(idx, nd, a.dims, a.strides));
            const double vb = b.at_offset(
                    ir::broadcast_offset(idx, nd, b.dims, b.strides));
            dst.set(idx, f(va, vb));
        }
    });
    return dnnl_success;
}

status_t ref_select(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t cond = in_view(op, in, 0);
    const view_t a = in_view(op, in, 1), b = in_view(op, in, 2);
    const view_t dst = out_view(op, out, 0);
    const int nd = dst.ndims();
    parallel_for(dst.nelems(), 4096, [&](int64_t lo, int64_t hi) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(lo, dst.dims, idx);
        for (int64_t i = lo; i < hi;
                ++i, ir::next_index(idx, dst.dims)) {
            const bool c = cond.at_offset(ir::broadcast_offset(
                                   idx, nd, cond.dims, cond.strides))
                    != 0;
            const view_t &src = c ? a : b;
            dst.set(idx,
                    src.at_offset(ir::broadcast_offset(
                            idx, nd, src.dims, src.strides)));
        }
    });
    return dnnl_success;
}

// Select's output shape: src_0 and src_1 combine per auto_broadcast, then cond
// must broadcast one way into that result (it never enlarges the output).
// Errors use `st` so the add-time constraint and shape inference share it.
status_t select_shape(const ir::op_t &op, status_t st, dims_t &out) {
    const dims_t c = ir::dims_of(op.inputs[0]);
    const dims_t a = ir::dims_of(op.inputs[1]);
    const dims_t b = ir::dims_of(op.inputs[2]);
    if (iequals(op.get_str(dnnl_graph_op_attr_auto_broadcast, "numpy"), "none")) {
        if (a != b || c != a)
            return fail(st,
                    "%s: auto_broadcast is none but cond %s, src_0 %s and "
                    "src_1 %s are not all the same shape",
                    describe(op).c_str(), ir::dims_to_string(c).c_str(),
                    ir::dims_to_string(a).c_str(),
                    ir::dims_to_string(b).c_str());
        out = a;
        return dnnl_success;
    }
    if (!ir::broadcast_shapes(a, b, out))
        return fail(st,
                "%s: src_0 %s and src_1 %s cannot be broadcast together",
                describe(op).c_str(), ir::dims_to_string(a).c_str(),
                ir::dims_to_string(b).c_str());
    if (!ir::broadcastable_to(c, out))
        return fail(st,
                "%s: cond %s cannot be broadcast (one way, right-aligned) "
                "to the output shape %s",
                describe(op).c_str(), ir::dims_to_string(c).c_str(),
                ir::dims_to_string(out).c_str());
    return dnnl_success;
}

// Add-time check: only when every input shape is fully known, since unknown
// shapes are settled at compile time.
status_t check_select(const ir::op_t &op) {
    for (size_t k = 0; k < 3; ++k)
        if (!ir::shape_known(op.inputs[k])) return dnnl_success;
    dims_t out;
    return select_shape(op, dnnl_invalid_graph_op, out);
}

status_t infer_select(ir::op_t &op) {
    for (size_t k = 0; k < 3; ++k)
        LLGA_RETURN_IF_ERROR(require_shape(op, k));
    dims_t out;
    LLGA_RETURN_IF_ERROR(select_shape(op, dnnl_invalid_shape, out));
    return set_output(op, 0, out);
}

// Common part of the two-input schemas; `t0`/`t1`/`t2` name the type
// variables of src_0, src_1 and dst (the same name ties their dtypes).
op_schema_t &binary(op_def_t &def, const char *t0, const char *t1,
        const char *t2) {
    def.infer = infer_broadcast;
    def.ref = ref_binary;
    def.traits.inplace_input = 0;
    return def.schema.num_inputs({2})
            .num_outputs({1})
            .input("src_0", t0)
            .input("src_1", t1)
            .output("dst", t2)
            .attr(dnnl_graph_op_attr_auto_broadcast,
                    attr_value_t::make_str("numpy"))
            .candidates(dnnl_graph_op_attr_auto_broadcast, {"none", "numpy"});
}

} // namespace

void define_binary(op_kind_t kind, op_def_t &def) {
    const dtype_set_t fp_s32 = k_fp | dt_bit(dnnl_s32);
    switch (kind) {
        case dnnl_graph_op_add:
        case dnnl_graph_op_subtract:
            // Each operand's dtype is free within the set (schema rule).
            binary(def, "T1", "T2", "T3")
                    .types("T1", fp_s32)
                    .types("T2", fp_s32)
                    .types("T3", fp_s32);
            break;
        case dnnl_graph_op_multiply:
        case dnnl_graph_op_divide:
            binary(def, "T1", "T2", "T3")
                    .types("T1", k_fp)
                    .types("T2", k_fp)
                    .types("T3", k_fp);
            break;
        case dnnl_graph_op_maximum:
        case dnnl_graph_op_minimum:
        case dnnl_graph_op_squared_difference:
            binary(def, "T", "T", "T").types("T", k_fp);
            break;
        case dnnl_graph_op_greater_equal:
            binary(def, "T1", "T1", "T2")
                    .types("T1", fp_s32)
                    .types("T2", dt_bit(dnnl_boolean));
            // A boolean output can never share an f32/bf16/f16/s32 input.
            def.traits.inplace_input = -1;
            break;
        case dnnl_graph_op_select:
            def.schema.num_inputs({3})
                    .num_outputs({1})
                    .input("cond", "T1")
                    .input("src_0", "T2")
                    .input("src_1", "T2")
                    .output("dst", "T2")
                    .types("T1", dt_bit(dnnl_boolean))
                    .types("T2", k_fp)
                    .attr(dnnl_graph_op_attr_auto_broadcast,
                            attr_value_t::make_str("numpy"))
                    .candidates(dnnl_graph_op_attr_auto_broadcast,
                            {"none", "numpy"})
                    .constraint(check_select);
            def.infer = infer_select;
            def.ref = ref_select;
            // dst may share src_0 (cond is boolean, so never input 0).
            def.traits.inplace_input = 1;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
