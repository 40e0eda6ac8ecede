// SPDX-License-Identifier: Apache-2.0
// ops/reduce.cpp — the reduction family: ReduceL1, ReduceL2, ReduceMax,
// ReduceMean, ReduceMin, ReduceProd, ReduceSum. One schema, one shape rule
// (axes attribute, keep_dims) and one kernel parameterised by the kind;
// accumulation is in double.
#include <algorithm>
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

// Normalizes the axes attribute against rank r into a per-dim mask; returns
// false (with a message recorded under `st`) on out-of-range or duplicates.
status_t reduce_mask(const ir::op_t &op, int r, status_t st,
        std::vector<bool> &mask) {
    mask.assign(r, false);
    for (int64_t v : op.get_s64s(dnnl_graph_op_attr_axes)) {
        int64_t a;
        if (!ir::normalize_axis(v, r, a))
            return fail(st, "%s: axes entry %lld is out of range for rank %d",
                    describe(op).c_str(), static_cast<long long>(v), r);
        if (mask[a])
            return fail(st, "%s: axes names dim %lld more than once",
                    describe(op).c_str(), static_cast<long long>(a));
        mask[a] = true;
    }
    return dnnl_success;
}

status_t check_reduce(const ir::op_t &op) {
    // The axes attribute always exists (its default [] is injected before
    // this check), so the axes-input form can never satisfy "exactly one of
    // attribute and input"; the opset rejects it the same way.
    if (op.inputs.size() == 2)
        return fail(dnnl_invalid_graph_op,
                "%s: the axes input is not supported; give the axes "
                "attribute instead (it is always present, default [])",
                describe(op).c_str());
    const int r = op.inputs[0].ndims;
    if (r < 0) return dnnl_success;
    std::vector<bool> mask;
    return reduce_mask(op, r, dnnl_invalid_graph_op, mask);
}

status_t infer_reduce(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    if (op.get_s64s(dnnl_graph_op_attr_axes).empty())
        return fail(dnnl_unimplemented,
                "%s: empty axes (identity reduction) is not supported",
                describe(op).c_str());
    const dims_t src = ir::dims_of(op.inputs[0]);
    std::vector<bool> mask;
    LLGA_RETURN_IF_ERROR(reduce_mask(
            op, static_cast<int>(src.size()), dnnl_invalid_shape, mask));
    const bool keep = op.get_bool(dnnl_graph_op_attr_keep_dims, false);
    dims_t out;
    for (size_t d = 0; d < src.size(); ++d) {
        if (!mask[d])
            out.push_back(src[d]);
        else if (keep)
            out.push_back(1);
    }
    return set_output(op, 0, out);
}

status_t ref_reduce(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    const int r = src.ndims();
    std::vector<bool> mask;
    LLGA_RETURN_IF_ERROR(reduce_mask(op, r, dnnl_invalid_shape, mask));
    const bool keep = op.get_bool(dnnl_graph_op_attr_keep_dims, false);
    // The reduced sub-space: reduced dims keep their size, the rest are 1.
    dims_t red(r, 1);
    for (int d = 0; d < r; ++d)
        if (mask[d]) red[d] = src.dims[d];
    const int64_t nr = ir::product(red);
    const op_kind_t kind = op.kind;
    const double inf = std::numeric_limits<double>::infinity();
    parallel_for(dst.nelems(), 64, [&](int64_t b, int64_t e) {
        int64_t oi[DNNL_MAX_NDIMS], base[DNNL_MAX_NDIMS], ri[DNNL_MAX_NDIMS],
                idx[DNNL_MAX_NDIMS];
        for (int64_t o = b; o < e; ++o) {
            ir::unravel(o, dst.dims, oi);
            for (int d = 0, k = 0; d < r; ++d) {
                if (mask[d]) {
                    base[d] = 0;
                    if (keep) ++k;
                } else {
                    base[d] = oi[k++];
                }
            }
            double acc = kind == dnnl_graph_op_reduce_prod ? 1
                    : kind == dnnl_graph_op_reduce_max     ? -inf
                    : kind == dnnl_graph_op_reduce_min     ? inf
                                                           : 0;
            bool nan = false;
            for (int64_t t = 0; t < nr; ++t) {
                ir::unravel(t, red, ri);
                for (int d = 0; d < r; ++d)
                    idx[d] = mask[d] ? ri[d] : base[d];
                const double x = src.at(idx);
                nan = nan || std::isnan(x);
                switch (kind) {
                    case dnnl_graph_op_reduce_l1: acc += std::fabs(x); break;
                    case dnnl_graph_op_reduce_l2: acc += x * x; break;
                    case dnnl_graph_op_reduce_max: acc = std::max(acc, x); break;
                    case dnnl_graph_op_reduce_min: acc = std::min(acc, x); break;
                    case dnnl_graph_op_reduce_prod: acc *= x; break;
                    default: acc += x; break; // sum, mean
                }
            }
            if (kind == dnnl_graph_op_reduce_l2) acc = std::sqrt(acc);
            if (kind == dnnl_graph_op_reduce_mean) acc /= static_cast<double>(nr);
            // max/min would otherwise drop NaNs depending on their position.
            if (nan) acc = std::numeric_limits<double>::quiet_NaN();
            dst.set(oi, acc);
        }
    });
    return dnnl_success;
}

} // namespace

void define_reduce(op_kind_t kind, op_def_t &def) {
    switch (kind) {
        case dnnl_graph_op_reduce_l1:
        case dnnl_graph_op_reduce_l2:
        case dnnl_graph_op_reduce_max:
        case dnnl_graph_op_reduce_mean:
        case dnnl_graph_op_reduce_min:
        case dnnl_graph_op_reduce_prod:
        case dnnl_graph_op_reduce_sum:
            def.schema.num_inputs({1, 2})
                    .num_outputs({1})
                    .input("src", "T1")
                    .input("axes", "T2")
                    .output("dst", "T1")
                    .types("T1", k_fp)
                    .types("T2", dt_bit(dnnl_s32))
                    .attr(dnnl_graph_op_attr_axes, ir::attr_value_t::make_s64s({}))
                    .attr(dnnl_graph_op_attr_keep_dims,
                            ir::attr_value_t::make_bool(false))
                    .constraint(check_reduce);
            def.infer = infer_reduce;
            def.ref = ref_reduce;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
