// SPDX-License-Identifier: Apache-2.0
// ops/softmax.cpp — the softmax family: SoftMax (with optional log-sum-exp
// stats output and the "inf_as_zero" mode), SoftMaxBackward, LogSoftmax and
// LogSoftmaxBackward. All four work on 1-D slices along `axis`.
#include <cmath>
#include <limits>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

// Axis check shared by verify (rank may be unknown) and shape inference.
status_t check_axis(const ir::op_t &op, status_t st) {
    const int r = op.inputs[0].ndims;
    if (r < 0) return dnnl_success;
    int64_t a;
    const int64_t axis = op.get_s64(dnnl_graph_op_attr_axis);
    if (!ir::normalize_axis(axis, r, a))
        return fail(st, "%s: axis %lld is out of range for rank-%d input",
                describe(op).c_str(), static_cast<long long>(axis), r);
    return dnnl_success;
}

int64_t axis_of(const ir::op_t &op) {
    int64_t a = 0;
    ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis), op.inputs[0].ndims, a);
    return a;
}

status_t check_softmax(const ir::op_t &op) {
    const data_type_t t1 = op.inputs[0].data_type;
    const data_type_t t2 = op.outputs[0].data_type;
    // Only f32 sources may produce a lower-precision dst.
    if (t1 != dnnl_f32 && t1 != t2)
        return fail(dnnl_invalid_graph_op,
                "%s: dst data type %s must equal src data type %s (only an "
                "f32 src may produce another floating-point dst)",
                describe(op).c_str(), ir::dtype_name(t2), ir::dtype_name(t1));
    return check_axis(op, dnnl_invalid_graph_op);
}

status_t check_softmax_bwd(const ir::op_t &op) {
    const data_type_t t1 = op.inputs[0].data_type;
    const data_type_t t2 = op.outputs[0].data_type;
    if (t2 != t1 && t2 != dnnl_f32)
        return fail(dnnl_invalid_graph_op,
                "%s: diff_src data type %s must equal diff_dst data type %s "
                "or be f32",
                describe(op).c_str(), ir::dtype_name(t2), ir::dtype_name(t1));
    return check_axis(op, dnnl_invalid_graph_op);
}

status_t check_axis_only(const ir::op_t &op) {
    return check_axis(op, dnnl_invalid_graph_op);
}

status_t infer_softmax(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(check_axis(op, dnnl_invalid_shape));
    const dims_t src = ir::dims_of(op.inputs[0]);
    LLGA_RETURN_IF_ERROR(set_output(op, 0, src));
    if (op.outputs.size() > 1) {
        dims_t stats = src;
        stats[axis_of(op)] = 1;
        LLGA_RETURN_IF_ERROR(set_output(op, 1, stats));
    }
    return dnnl_success;
}

status_t infer_softmax_bwd(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(require_shape(op, 1));
    LLGA_RETURN_IF_ERROR(check_axis(op, dnnl_invalid_shape));
    const dims_t dd = ir::dims_of(op.inputs[0]);
    if (ir::dims_of(op.inputs[1]) != dd)
        return fail(dnnl_invalid_shape,
                "%s: dst shape %s must equal diff_dst shape %s",
                describe(op).c_str(),
                ir::dims_to_string(ir::dims_of(op.inputs[1])).c_str(),
                ir::dims_to_string(dd).c_str());
    return set_output(op, 0, dd);
}

// Iterates the 1-D slices along `axis` of a shape; body(slice multi-index with
// idx[axis] = 0). Each view adds k * strides[axis] for element k of a slice.
template <typename F>
void for_each_slice(const dims_t &dims, int64_t axis, F body) {
    dims_t outer = dims;
    outer[axis] = 1;
    const int64_t n = ir::product(outer);
    if (dims[axis] == 0) return;
    parallel_for(n, 16, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t s = b; s < e; ++s) {
            ir::unravel(s, outer, idx);
            body(idx);
        }
    });
}

status_t ref_softmax(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    const bool has_stats = op.outputs.size() > 1;
    view_t stats;
    if (has_stats) stats = out_view(op, out, 1);
    const bool log_mode = op.kind == dnnl_graph_op_log_softmax;
    const bool inf_as_zero
            = iequals(op.get_str(dnnl_graph_op_attr_mode, "none"), "inf_as_zero");
    const int64_t axis = axis_of(op);
    const int64_t n = src.dims[axis];
    const int64_t ss = src.strides[axis], ds = dst.strides[axis];
    for_each_slice(src.dims, axis, [&](const int64_t *idx) {
        const int64_t so = src.offset(idx), dof = dst.offset(idx);
        // Subtracting the max keeps exp() from overflowing.
        double m = -std::numeric_limits<double>::infinity();
        bool nan = false;
        for (int64_t k = 0; k < n; ++k) {
            const double x = src.at_offset(so + k * ss);
            nan = nan || std::isnan(x);
            if (x > m) m = x;
        }
        if (nan) m = std::numeric_limits<double>::quiet_NaN();
        const bool all_neg_inf = std::isinf(m) && m < 0;
        if (all_neg_inf && inf_as_zero) {
            for (int64_t k = 0; k < n; ++k)
                dst.set_offset(dof + k * ds, 0.0);
            if (has_stats) stats.set(idx, m);
            return;
        }
        double sum = 0;
        for (int64_t k = 0; k < n; ++k)
            sum += std::exp(src.at_offset(so + k * ss) - m);
        const double lse = std::log(sum);
        for (int64_t k = 0; k < n; ++k) {
            const double x = src.at_offset(so + k * ss);
            dst.set_offset(dof + k * ds,
                    log_mode ? x - m - lse : std::exp(x - m) / sum);
        }
        if (has_stats) stats.set(idx, m + lse);
    });
    return dnnl_success;
}

status_t ref_softmax_bwd(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const view_t dd = in_view(op, in, 0), y = in_view(op, in, 1);
    const view_t ds = out_view(op, out, 0);
    const bool log_mode = op.kind == dnnl_graph_op_log_softmax_backward;
    const int64_t axis = axis_of(op);
    const int64_t n = dd.dims[axis];
    const int64_t sdd = dd.strides[axis], sy = y.strides[axis],
                  sds = ds.strides[axis];
    for_each_slice(dd.dims, axis, [&](const int64_t *idx) {
        const int64_t odd = dd.offset(idx), oy = y.offset(idx),
                      ods = ds.offset(idx);
        // softmax: dx = y (dy - sum(dy y)); log-softmax: dx = dy - e^y sum(dy).
        double acc = 0;
        for (int64_t k = 0; k < n; ++k) {
            const double g = dd.at_offset(odd + k * sdd);
            acc += log_mode ? g : g * y.at_offset(oy + k * sy);
        }
        for (int64_t k = 0; k < n; ++k) {
            const double g = dd.at_offset(odd + k * sdd);
            const double yv = y.at_offset(oy + k * sy);
            ds.set_offset(ods + k * sds,
                    log_mode ? g - std::exp(yv) * acc : yv * (g - acc));
        }
    });
    return dnnl_success;
}

} // namespace

void define_softmax(op_kind_t kind, op_def_t &def) {
    switch (kind) {
        case dnnl_graph_op_softmax:
            def.schema.num_inputs({1})
                    .num_outputs({1, 2})
                    .input("src", "T1")
                    .output("dst", "T2")
                    .output("stats", "T3")
                    .types("T1", k_fp)
                    .types("T2", k_fp)
                    .types("T3", dt_bit(dnnl_f32))
                    .attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(1))
                    .attr(dnnl_graph_op_attr_mode,
                            ir::attr_value_t::make_str("none"))
                    .candidates(dnnl_graph_op_attr_mode, {"none", "inf_as_zero"})
                    .constraint(check_softmax);
            def.infer = infer_softmax;
            def.ref = ref_softmax;
            break;
        case dnnl_graph_op_softmax_backward:
            def.schema.num_inputs({2})
                    .num_outputs({1})
                    .input("diff_dst", "T1")
                    .input("dst", "T1")
                    .output("diff_src", "T2")
                    .types("T1", k_fp)
                    .types("T2", k_fp)
                    .attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(1))
                    .constraint(check_softmax_bwd);
            def.infer = infer_softmax_bwd;
            def.ref = ref_softmax_bwd;
            def.traits.is_backward = true;
            break;
        case dnnl_graph_op_log_softmax:
            def.schema.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T")
                    .output("dst", "T")
                    .types("T", k_fp)
                    .attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(-1))
                    .constraint(check_axis_only);
            def.infer = infer_softmax;
            def.ref = ref_softmax;
            break;
        case dnnl_graph_op_log_softmax_backward:
            def.schema.num_inputs({2})
                    .num_outputs({1})
                    .input("diff_dst", "T")
                    .input("dst", "T")
                    .output("diff_src", "T")
                    .types("T", k_fp)
                    .attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(-1))
                    .constraint(check_axis_only);
            def.infer = infer_softmax_bwd;
            def.ref = ref_softmax_bwd;
            def.traits.is_backward = true;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
