// SPDX-License-Identifier: Apache-2.0
// ops/bias_prelu.cpp — the channel-broadcast ops: BiasAdd (add a per-channel
// vector), BiasAddBackward (sum diff_dst over everything but the channel),
// PReLU (leaky ReLU with a broadcast slope tensor) and PReLUBackward. Owns
// the channel-axis and slope-broadcast rules of these four ops.
#include <algorithm>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/prelu_slope.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

using ir::attr_value_t;

// Channel axis of a rank-n tensor under data_format (rank <= 2: both formats
// are [N, C]; rank 1 has only the one axis).
int channel_axis(int rank, bool channel_last) {
    if (rank <= 1) return 0;
    return channel_last ? rank - 1 : 1;
}

// ---- BiasAdd ---------------------------------------------------------------

// Add-time check of what is already known; a wrong bias can never compile.
status_t check_bias_add(const ir::op_t &op) {
    const logical_tensor_t &src = op.inputs[0], &bias = op.inputs[1];
    if (bias.ndims >= 0 && bias.ndims != 1)
        return fail(dnnl_invalid_graph_op,
                "%s: input 1 'bias' must be 1-D, got rank %d",
                describe(op).c_str(), bias.ndims);
    if (src.ndims >= 2 && bias.ndims == 1) {
        const dim_t c = src.dims[channel_axis(src.ndims, is_channel_last(op))];
        if (c >= 0 && bias.dims[0] >= 0 && c != bias.dims[0])
            return fail(dnnl_invalid_graph_op,
                    "%s: bias has %lld elements but src has %lld channels "
                    "(data_format %s)",
                    describe(op).c_str(), static_cast<long long>(bias.dims[0]),
                    static_cast<long long>(c),
                    op.get_str(dnnl_graph_op_attr_data_format, "NXC").c_str());
    }
    return dnnl_success;
}

status_t infer_bias_add(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_rank(op, 0, 2, max_ndims));
    LLGA_RETURN_IF_ERROR(require_rank(op, 1, 1, 1));
    const dims_t src = ir::dims_of(op.inputs[0]);
    const dim_t c = channels(src, is_channel_last(op));
    if (op.inputs[1].dims[0] != c)
        return fail(dnnl_invalid_shape,
                "%s: bias has %lld elements but src %s has %lld channels "
                "(data_format %s)",
                describe(op).c_str(), static_cast<long long>(op.inputs[1].dims[0]),
                ir::dims_to_string(src).c_str(), static_cast<long long>(c),
                op.get_str(dnnl_graph_op_attr_data_format, "NXC").c_str());
    return set_output(op, 0, src);
}

// Reads src[i] before writing dst[i]: safe in place on src.
status_t ref_bias_add(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), bias = in_view(op, in, 1);
    const view_t dst = out_view(op, out, 0);
    const int ca = channel_axis(dst.ndims(), is_channel_last(op));
    parallel_for(dst.nelems(), 4096, [&](int64_t lo, int64_t hi) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = lo; i < hi; ++i) {
            ir::unravel(i, dst.dims, idx);
            dst.set(idx, src.at(idx) + bias.at_offset(idx[ca] * bias.strides[0]));
        }
    });
    return dnnl_success;
}

// ---- BiasAddBackward -------------------------------------------------------

status_t infer_bias_add_bwd(ir::op_t &op) {
    // The opset's shape inference requires rank >= 4 here (unlike BiasAdd).
    LLGA_RETURN_IF_ERROR(require_rank(op, 0, 4, max_ndims));
    const dims_t dd = ir::dims_of(op.inputs[0]);
    return set_output(op, 0, {channels(dd, is_channel_last(op))});
}

status_t ref_bias_add_bwd(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const view_t dd = in_view(op, in, 0);
    const view_t db = out_view(op, out, 0);
    const int nd = dd.ndims();
    const int ca = channel_axis(nd, is_channel_last(op));
    const dim_t c_n = dd.dims[ca];
    dims_t rest = dd.dims; // every axis but the channel
    rest.erase(rest.begin() + ca);
    const int64_t rest_n = ir::product(rest);
    parallel_for(c_n, 1, [&](int64_t lo, int64_t hi) {
        int64_t ridx[DNNL_MAX_NDIMS], idx[DNNL_MAX_NDIMS];
        for (int64_t c = lo; c < hi; ++c) {
            double sum = 0;
            for (int64_t j = 0; j < rest_n; ++j) {
                ir::unravel(j, rest, ridx);
                for (int d = 0, r = 0; d < nd; ++d)
                    idx[d] = d == ca ? c : ridx[r++];
                sum += dd.at(idx);
            }
            db.set_linear(c, sum);
        }
    });
    return dnnl_success;
}

// ---- PReLU / PReLUBackward -------------------------------------------------

// The slope re-expressed at the src rank (size-1 axes where it broadcasts), so
// ir::broadcast_offset maps a src index to its slope element. Rules:
//  * 1-D slope, per-channel, length != 1: lies on the channel axis;
//  * otherwise: right-aligned, each slope dim equals the src dim or is 1.
// `strides` are the slope's memory strides, or dense ones for a logical index.
bool align_slope(const ir::op_t &op, const dims_t &src, const dims_t &slope,
        const dims_t &strides, bool per_channel, dims_t &a_dims,
        dims_t &a_strides) {
    const size_t n = src.size();
    a_dims.assign(n, 1);
    a_strides.assign(n, 0);
    if (slope.size() == 1 && per_channel && slope[0] != 1 && n >= 1) {
        const int ca = channel_axis(static_cast<int>(n), is_channel_last(op));
        if (slope[0] != src[ca]) return false;
        a_dims[ca] = slope[0];
        a_strides[ca] = strides[0];
        return true;
    }
    if (slope.size() > n) return false;
    const size_t off = n - slope.size();
    for (size_t k = 0; k < slope.size(); ++k) {
        if (slope[k] != 1 && slope[k] != src[off + k]) return false;
        a_dims[off + k] = slope[k];
        a_strides[off + k] = strides[k];
    }
    return true;
}

// PReLU has the per_channel_broadcast attribute; PReLUBackward always treats
// a 1-D slope of length != 1 as per-channel.
bool per_channel_of(const ir::op_t &op) {
    return op.kind == dnnl_graph_op_prelu_backward
            || op.get_bool(dnnl_graph_op_attr_per_channel_broadcast, true);
}

status_t check_slope(const ir::op_t &op, status_t st) {
    const dims_t src = ir::dims_of(op.inputs[0]);
    const dims_t slope = ir::dims_of(op.inputs[1]);
    dims_t ad, as;
    if (!align_slope(op, src, slope, ir::dense_strides(slope),
                per_channel_of(op), ad, as))
        return fail(st,
                "%s: slope %s does not broadcast to src %s (expected a 1-D "
                "slope of the channel count%s, or a right-aligned shape whose "
                "dims equal src's or are 1; data_format %s)",
                describe(op).c_str(), ir::dims_to_string(slope).c_str(),
                ir::dims_to_string(src).c_str(),
                per_channel_of(op) ? "" : " (per_channel_broadcast=false: "
                                          "the last src dim)",
                op.get_str(dnnl_graph_op_attr_data_format, "NXC").c_str());
    return dnnl_success;
}

// Add-time: only judged once both shapes are fully known.
status_t check_prelu(const ir::op_t &op) {
    if (!ir::shape_known(op.inputs[0]) || !ir::shape_known(op.inputs[1]))
        return dnnl_success;
    return check_slope(op, dnnl_invalid_graph_op);
}

status_t infer_prelu(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(require_shape(op, 1));
    LLGA_RETURN_IF_ERROR(check_slope(op, dnnl_invalid_shape));
    return set_output(op, 0, ir::dims_of(op.inputs[0]));
}

// Reads src[i] before writing dst[i]: safe in place on src.
status_t ref_prelu(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), slope = in_view(op, in, 1);
    const view_t dst = out_view(op, out, 0);
    dims_t ad, as;
    if (!align_slope(op, src.dims, slope.dims, slope.strides,
                per_channel_of(op), ad, as))
        return check_slope(op, dnnl_invalid_shape);
    const int nd = dst.ndims();
    parallel_for(dst.nelems(), 4096, [&](int64_t lo, int64_t hi) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = lo; i < hi; ++i) {
            ir::unravel(i, dst.dims, idx);
            const double x = src.at(idx);
            const double s = slope.at_offset(ir::broadcast_offset(idx, nd, ad, as));
            dst.set(idx, x >= 0 ? x : s * x);
        }
    });
    return dnnl_success;
}

status_t check_prelu_bwd(const ir::op_t &op) {
    for (size_t k = 0; k < 3; ++k)
        if (!ir::shape_known(op.inputs[k])) return dnnl_success;
    if (ir::dims_of(op.inputs[2]) != ir::dims_of(op.inputs[0]))
        return fail(dnnl_invalid_graph_op,
                "%s: input 2 'diff_dst' %s must have the shape of src %s",
                describe(op).c_str(),
                ir::dims_to_string(ir::dims_of(op.inputs[2])).c_str(),
                ir::dims_to_string(ir::dims_of(op.inputs[0])).c_str());
    return check_slope(op, dnnl_invalid_graph_op);
}

status_t infer_prelu_bwd(ir::op_t &op) {
    for (size_t k = 0; k < 3; ++k)
        LLGA_RETURN_IF_ERROR(require_shape(op, k));
    const dims_t src = ir::dims_of(op.inputs[0]);
    if (ir::dims_of(op.inputs[2]) != src)
        return fail(dnnl_invalid_shape,
                "%s: input 2 'diff_dst' %s must have the shape of src %s",
                describe(op).c_str(),
                ir::dims_to_string(ir::dims_of(op.inputs[2])).c_str(),
                ir::dims_to_string(src).c_str());
    LLGA_RETURN_IF_ERROR(check_slope(op, dnnl_invalid_shape));
    LLGA_RETURN_IF_ERROR(set_output(op, 0, src));
    return set_output(op, 1, ir::dims_of(op.inputs[1]));
}

status_t ref_prelu_bwd(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), slope = in_view(op, in, 1);
    const view_t dd = in_view(op, in, 2);
    const view_t ds = out_view(op, out, 0), dslope = out_view(op, out, 1);
    // ad/as address slope memory; ld/ls give the slope's logical (row-major)
    // index, used for the diff_slope accumulators.
    dims_t ad, as, ld, ls;
    if (!align_slope(op, src.dims, slope.dims, slope.strides, true, ad, as)
            || !align_slope(op, src.dims, slope.dims,
                    ir::dense_strides(slope.dims), true, ld, ls))
        return check_slope(op, dnnl_invalid_shape);
    const int nd = src.ndims();
    const int64_t n = src.nelems();
    const int64_t sn = slope.nelems();

    parallel_for(n, 4096, [&](int64_t lo, int64_t hi) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = lo; i < hi; ++i) {
            ir::unravel(i, src.dims, idx);
            const double x = src.at(idx), dy = dd.at(idx);
            const double s = slope.at_offset(ir::broadcast_offset(idx, nd, ad, as));
            ds.set(idx, x > 0 ? dy : s * dy);
        }
    });

    // diff_slope sums over the src positions sharing a slope element. Fixed
    // chunks with private accumulators, added in chunk order, keep the result
    // independent of thread scheduling.
    const int64_t chunks = std::max<int64_t>(1,
            std::min<int64_t>(64, n / std::max<int64_t>(1, 16 * sn)));
    std::vector<std::vector<double>> part(
            static_cast<size_t>(chunks), std::vector<double>(sn, 0.0));
    parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t c = cb; c < ce; ++c) {
            std::vector<double> &acc = part[static_cast<size_t>(c)];
            for (int64_t i = n * c / chunks; i < n * (c + 1) / chunks; ++i) {
                ir::unravel(i, src.dims, idx);
                const double x = src.at(idx);
                if (x > 0) continue;
                acc[ir::broadcast_offset(idx, nd, ld, ls)] += x * dd.at(idx);
            }
        }
    });
    for (int64_t j = 0; j < sn; ++j) {
        double sum = 0;
        for (const auto &acc : part)
            sum += acc[j];
        dslope.set_linear(j, sum);
    }
    return dnnl_success;
}

op_schema_t &with_data_format(op_schema_t &s) {
    return s.attr(dnnl_graph_op_attr_data_format, attr_value_t::make_str("NXC"))
            .candidates(dnnl_graph_op_attr_data_format, {"NCX", "NXC"});
}

} // namespace

bool prelu_slope_at_src_rank(const ir::op_t &op, const dims_t &src,
        const dims_t &slope, const dims_t &strides, dims_t &a_dims,
        dims_t &a_strides) {
    return align_slope(op, src, slope, strides, per_channel_of(op), a_dims,
            a_strides);
}

void define_bias_prelu(op_kind_t kind, op_def_t &def) {
    switch (kind) {
        case dnnl_graph_op_bias_add:
            with_data_format(def.schema.num_inputs({2})
                                     .num_outputs({1})
                                     .input("src", "T")
                                     .input("bias", "T")
                                     .output("dst", "T")
                                     .types("T", k_fp))
                    .constraint(check_bias_add);
            def.infer = infer_bias_add;
            def.ref = ref_bias_add;
            def.traits.inplace_input = 0;
            break;
        case dnnl_graph_op_bias_add_backward:
            with_data_format(def.schema.num_inputs({1})
                                     .num_outputs({1})
                                     .input("diff_dst", "T")
                                     .output("diff_bias", "T")
                                     .types("T", k_fp));
            def.infer = infer_bias_add_bwd;
            def.ref = ref_bias_add_bwd;
            def.traits.is_backward = true;
            break;
        case dnnl_graph_op_prelu:
            with_data_format(def.schema.num_inputs({2})
                                     .num_outputs({1})
                                     .input("src", "T")
                                     .input("slope", "T")
                                     .output("dst", "T")
                                     .types("T", k_fp))
                    .attr(dnnl_graph_op_attr_per_channel_broadcast,
                            attr_value_t::make_bool(true))
                    .constraint(check_prelu);
            def.infer = infer_prelu;
            def.ref = ref_prelu;
            def.traits.inplace_input = 0;
            break;
        case dnnl_graph_op_prelu_backward:
            with_data_format(def.schema.num_inputs({3})
                                     .num_outputs({2})
                                     .input("src", "T")
                                     .input("slope", "T")
                                     .input("diff_dst", "T")
                                     .output("diff_src", "T")
                                     .output("diff_slope", "T")
                                     .types("T", k_fp))
                    .constraint(check_prelu_bwd);
            def.infer = infer_prelu_bwd;
            def.ref = ref_prelu_bwd;
            def.traits.is_backward = true;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
