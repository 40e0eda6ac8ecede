// SPDX-License-Identifier: Apache-2.0
// ops/data_movement.cpp — ops that move or convert values without arithmetic:
// Concat, StaticReshape, StaticTranspose, Reorder (layout change) and
// TypeCast (dtype change with round-to-nearest-even).
#include <algorithm>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

constexpr int64_t k_grain = 4096;

// ---- Concat ----------------------------------------------------------------

status_t check_concat(const ir::op_t &op) {
    const int64_t axis = op.get_s64(dnnl_graph_op_attr_axis);
    int r = -1;
    for (size_t k = 0; k < op.inputs.size(); ++k) {
        const int rk = op.inputs[k].ndims;
        if (rk < 0) continue;
        if (r >= 0 && rk != r)
            return fail(dnnl_invalid_graph_op,
                    "%s: input %zu has rank %d but earlier inputs have rank %d "
                    "(all inputs must have the same rank)",
                    describe(op).c_str(), k, rk, r);
        r = rk;
    }
    int64_t a;
    if (r >= 0 && !ir::normalize_axis(axis, r, a))
        return fail(dnnl_invalid_graph_op,
                "%s: axis %lld is out of range for rank %d",
                describe(op).c_str(), static_cast<long long>(axis), r);
    return dnnl_success;
}

status_t infer_concat(ir::op_t &op) {
    for (size_t k = 0; k < op.inputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(require_shape(op, k));
    const dims_t first = ir::dims_of(op.inputs[0]);
    const int r = static_cast<int>(first.size());
    int64_t a;
    if (!ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis), r, a))
        return fail(dnnl_invalid_shape, "%s: axis %lld is out of range for rank %d",
                describe(op).c_str(),
                static_cast<long long>(op.get_s64(dnnl_graph_op_attr_axis)), r);
    dims_t out = first;
    for (size_t k = 1; k < op.inputs.size(); ++k) {
        const dims_t d = ir::dims_of(op.inputs[k]);
        bool ok = static_cast<int>(d.size()) == r;
        for (int i = 0; ok && i < r; ++i)
            ok = i == a || d[i] == first[i];
        if (!ok)
            return fail(dnnl_invalid_shape,
                    "%s: input %zu has shape %s, which differs from input 0 "
                    "shape %s on a dim other than the concat axis %lld",
                    describe(op).c_str(), k, ir::dims_to_string(d).c_str(),
                    ir::dims_to_string(first).c_str(), static_cast<long long>(a));
        out[a] += d[a];
    }
    return set_output(op, 0, out);
}

status_t ref_concat(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t dst = out_view(op, out, 0);
    int64_t a = 0;
    ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis), dst.ndims(), a);
    int64_t base = 0;
    for (size_t k = 0; k < op.inputs.size(); ++k) {
        const view_t src = in_view(op, in, k);
        parallel_for(src.nelems(), k_grain, [&](int64_t b, int64_t e) {
            int64_t idx[DNNL_MAX_NDIMS];
            for (int64_t i = b; i < e; ++i) {
                ir::unravel(i, src.dims, idx);
                const double v = src.at(idx);
                idx[a] += base;
                dst.set(idx, v);
            }
        });
        base += src.dims[a];
    }
    return dnnl_success;
}

// ---- StaticReshape ---------------------------------------------------------

status_t check_reshape(const ir::op_t &op) {
    const std::vector<int64_t> shape = op.get_s64s(dnnl_graph_op_attr_shape);
    int minus_ones = 0;
    for (int64_t v : shape) {
        if (v < -1)
            return fail(dnnl_invalid_graph_op,
                    "%s: shape entry %lld is invalid (entries must be >= -1)",
                    describe(op).c_str(), static_cast<long long>(v));
        minus_ones += v == -1;
    }
    if (minus_ones > 1)
        return fail(dnnl_invalid_graph_op,
                "%s: shape has %d entries of -1, at most one is allowed",
                describe(op).c_str(), minus_ones);
    if (shape.size() > DNNL_MAX_NDIMS)
        return fail(dnnl_invalid_graph_op, "%s: shape has %zu entries, max %d",
                describe(op).c_str(), shape.size(), DNNL_MAX_NDIMS);
    return dnnl_success;
}

status_t infer_reshape(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(check_reshape(op));
    const dims_t src = ir::dims_of(op.inputs[0]);
    const std::vector<int64_t> shape = op.get_s64s(dnnl_graph_op_attr_shape);
    const bool special_zero = op.get_bool(dnnl_graph_op_attr_special_zero);
    dims_t out(shape.begin(), shape.end());
    int infer_at = -1;
    int64_t known = 1;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == 0 && special_zero) {
            if (i >= src.size())
                return fail(dnnl_invalid_shape,
                        "%s: shape entry %zu is 0 with special_zero, but the "
                        "input has only %zu dims to copy from",
                        describe(op).c_str(), i, src.size());
            out[i] = src[i];
        }
        if (out[i] == -1)
            infer_at = static_cast<int>(i);
        else
            known *= out[i];
    }
    const int64_t in_elems = ir::product(src);
    if (infer_at >= 0) {
        if (known == 0)
            return fail(dnnl_invalid_shape,
                    "%s: cannot infer the -1 entry of shape %s because the "
                    "other entries multiply to 0",
                    describe(op).c_str(), ir::dims_to_string(out).c_str());
        out[infer_at] = in_elems / known;
    }
    if (ir::product(out) != in_elems)
        return fail(dnnl_invalid_shape,
                "%s: cannot reshape %s (%lld elements) into %s",
                describe(op).c_str(), ir::dims_to_string(src).c_str(),
                static_cast<long long>(in_elems),
                ir::dims_to_string(out).c_str());
    return set_output(op, 0, out);
}

// Shared by StaticReshape: copy in logical row-major order.
status_t ref_copy_linear(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    parallel_for(src.nelems(), k_grain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
            dst.set_linear(i, src.at_linear(i));
    });
    return dnnl_success;
}

// ---- StaticTranspose -------------------------------------------------------

// Normalized order; an empty order means "reverse all dims".
bool transpose_order(const ir::op_t &op, int r, std::vector<int64_t> &order) {
    const std::vector<int64_t> given = op.get_s64s(dnnl_graph_op_attr_order);
    order.clear();
    if (given.empty()) {
        for (int i = r - 1; i >= 0; --i)
            order.push_back(i);
        return true;
    }
    if (static_cast<int>(given.size()) != r) return false;
    std::vector<bool> seen(r, false);
    for (int64_t v : given) {
        int64_t a;
        if (!ir::normalize_axis(v, r, a) || seen[a]) return false;
        seen[a] = true;
        order.push_back(a);
    }
    return true;
}

status_t check_order(const ir::op_t &op, status_t st) {
    const int r = op.inputs[0].ndims;
    std::vector<int64_t> order;
    if (r >= 0 && !transpose_order(op, r, order)) {
        std::string text;
        for (int64_t v : op.get_s64s(dnnl_graph_op_attr_order))
            text += (text.empty() ? "" : ",") + std::to_string(v);
        return fail(st,
                "%s: order [%s] is not a permutation of the %d input dims "
                "(negative entries count from the end)",
                describe(op).c_str(), text.c_str(), r);
    }
    return dnnl_success;
}

status_t check_transpose(const ir::op_t &op) {
    return check_order(op, dnnl_invalid_graph_op);
}

status_t infer_transpose(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(check_order(op, dnnl_invalid_shape));
    const dims_t src = ir::dims_of(op.inputs[0]);
    std::vector<int64_t> order;
    transpose_order(op, static_cast<int>(src.size()), order);
    dims_t out;
    for (int64_t a : order)
        out.push_back(src[a]);
    return set_output(op, 0, out);
}

status_t ref_transpose(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    std::vector<int64_t> order;
    transpose_order(op, src.ndims(), order);
    parallel_for(dst.nelems(), k_grain, [&](int64_t b, int64_t e) {
        int64_t j[DNNL_MAX_NDIMS], i[DNNL_MAX_NDIMS];
        ir::unravel(b, dst.dims, j);
        for (int64_t n = b; n < e;
                ++n, ir::next_index(j, dst.dims)) {
            for (size_t k = 0; k < order.size(); ++k)
                i[order[k]] = j[k];
            dst.set(j, src.at(i));
        }
    });
    return dnnl_success;
}

// ---- Reorder / TypeCast ----------------------------------------------------

// Element-wise copy by multi-index (layouts may differ); the store converts
// to the dst dtype with round-to-nearest-even.
status_t ref_convert(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    parallel_for(src.nelems(), k_grain, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(b, src.dims, idx);
        for (int64_t i = b; i < e;
                ++i, ir::next_index(idx, src.dims)) {
            dst.set(idx, src.at(idx));
        }
    });
    return dnnl_success;
}

status_t check_typecast(const ir::op_t &op) {
    const data_type_t a = op.inputs[0].data_type, b = op.outputs[0].data_type;
    const bool half_pair = (a == dnnl_bf16 && b == dnnl_f16)
            || (a == dnnl_f16 && b == dnnl_bf16);
    if (a == b || half_pair)
        return fail(dnnl_invalid_graph_op,
                "%s: cannot cast %s to %s (allowed: f32<->bf16, f32<->f16)",
                describe(op).c_str(), ir::dtype_name(a), ir::dtype_name(b));
    return dnnl_success;
}

} // namespace

void define_data_movement(op_kind_t kind, op_def_t &def) {
    op_schema_t &s = def.schema;
    switch (kind) {
        case dnnl_graph_op_concat:
            s.variadic_inputs(1, 64)
                    .num_outputs({1})
                    .input("src", "T")
                    .output("dst", "T")
                    .types("T", k_fp)
                    .attr(dnnl_graph_op_attr_axis, true)
                    .constraint(check_concat);
            def.infer = infer_concat;
            def.ref = ref_concat;
            break;
        case dnnl_graph_op_static_reshape:
            s.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T")
                    .output("dst", "T")
                    .types("T", k_fp)
                    .attr(dnnl_graph_op_attr_shape, true)
                    .attr(dnnl_graph_op_attr_special_zero, true)
                    .constraint(check_reshape);
            def.infer = infer_reshape;
            def.ref = ref_copy_linear;
            break;
        case dnnl_graph_op_static_transpose:
            s.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T")
                    .output("dst", "T")
                    .types("T", k_fp)
                    .attr(dnnl_graph_op_attr_order, true)
                    .constraint(check_transpose);
            def.infer = infer_transpose;
            def.ref = ref_transpose;
            break;
        case dnnl_graph_op_reorder:
            s.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T")
                    .output("dst", "T")
                    .types("T", k_fp);
            def.infer = infer_identity;
            def.ref = ref_convert;
            def.traits.inplace_input = 0;
            break;
        case dnnl_graph_op_type_cast:
            s.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T1")
                    .output("dst", "T2")
                    .types("T1", k_fp)
                    .types("T2", k_fp)
                    .constraint(check_typecast);
            def.infer = infer_identity;
            def.ref = ref_convert;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
