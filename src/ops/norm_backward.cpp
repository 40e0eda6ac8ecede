// SPDX-License-Identifier: Apache-2.0
// ops/norm_backward.cpp — BatchNormTrainingBackward and LayerNormBackward:
// schemas, shape inference and reference gradients (the exact gradients of
// the forward ops in norm.cpp, given the forward mean and biased variance).
#include <cmath>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/infer_util.hpp"
#include "ops/norm_common.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

status_t require_same_shape(const ir::op_t &op, size_t k, const dims_t &want) {
    LLGA_RETURN_IF_ERROR(require_shape(op, k));
    const dims_t d = ir::dims_of(op.inputs[k]);
    if (d != want)
        return fail(dnnl_invalid_shape, "%s: input %zu has shape %s, expected %s",
                describe(op).c_str(), k, ir::dims_to_string(d).c_str(),
                ir::dims_to_string(want).c_str());
    return dnnl_success;
}

// ---- BatchNormTrainingBackward -------------------------------------------

status_t check_bn_bwd(const ir::op_t &op) { return norm_check_dtypes(op, 2); }

status_t infer_bn_bwd(ir::op_t &op) {
    // The opset's shape inference demands rank >= 4 here (unlike the forward).
    LLGA_RETURN_IF_ERROR(require_rank(op, 0, 4, DNNL_MAX_NDIMS));
    const dims_t src = ir::dims_of(op.inputs[0]);
    LLGA_RETURN_IF_ERROR(require_same_shape(op, 1, src));
    const dim_t c = src[norm_channel_axis(op, static_cast<int>(src.size()))];
    for (size_t k = 2; k < op.inputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(norm_require_vec(op, k, c));
    LLGA_RETURN_IF_ERROR(set_output(op, 0, src));
    for (size_t k = 1; k < op.outputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(set_output(op, k, {c}));
    return dnnl_success;
}

status_t ref_bn_bwd(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dd = in_view(op, in, 1),
                 mean = in_view(op, in, 2), var = in_view(op, in, 3),
                 ds = out_view(op, out, 0);
    const bool has_gamma = op.inputs.size() > 4;
    view_t gamma, dg, db;
    if (has_gamma) gamma = in_view(op, in, 4);
    if (op.outputs.size() > 1) dg = out_view(op, out, 1);
    if (op.outputs.size() > 2) db = out_view(op, out, 2);
    const double eps = op.get_f32(dnnl_graph_op_attr_epsilon);
    const int cax = norm_channel_axis(op, src.ndims());
    dims_t rest = src.dims;
    rest[cax] = 1;
    const int64_t m = ir::product(rest);
    parallel_for(src.dims[cax], 1, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t c = b; c < e; ++c) {
            const double mu = mean.at_linear(c);
            const double inv = 1.0 / std::sqrt(var.at_linear(c) + eps);
            const double g = has_gamma ? gamma.at_linear(c) : 1.0;
            double sum_dy = 0, sum_dy_xh = 0;
            for (int64_t i = 0; i < m; ++i) {
                ir::unravel(i, rest, idx);
                idx[cax] = c;
                const double dy = dd.at(idx);
                sum_dy += dy;
                sum_dy_xh += dy * (src.at(idx) - mu) * inv;
            }
            for (int64_t i = 0; i < m; ++i) {
                ir::unravel(i, rest, idx);
                idx[cax] = c;
                const double xh = (src.at(idx) - mu) * inv;
                ds.set(idx, g * inv * (dd.at(idx) - sum_dy / m - xh * sum_dy_xh / m));
            }
            if (dg.data) dg.set_linear(c, sum_dy_xh);
            if (db.data) db.set_linear(c, sum_dy);
        }
    });
    return dnnl_success;
}

// ---- LayerNormBackward ---------------------------------------------------

status_t check_ln_bwd(const ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(norm_check_dtypes(op, 2));
    if (op.get_bool(dnnl_graph_op_attr_use_affine, true) && op.outputs.size() != 3)
        return fail(dnnl_invalid_graph_op,
                "%s: use_affine is true, so 3 outputs (diff_src, diff_gamma, "
                "diff_beta) are required, got %zu",
                describe(op).c_str(), op.outputs.size());
    int64_t a;
    return norm_begin_axis(op, dnnl_invalid_graph_op, a);
}

status_t infer_ln_bwd(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    int64_t a;
    LLGA_RETURN_IF_ERROR(norm_begin_axis(op, dnnl_invalid_shape, a));
    const dims_t src = ir::dims_of(op.inputs[0]);
    const dims_t lead(src.begin(), src.begin() + a), norm(src.begin() + a, src.end());
    LLGA_RETURN_IF_ERROR(require_same_shape(op, 1, src));
    for (size_t k = 2; k < 4; ++k) {
        LLGA_RETURN_IF_ERROR(require_shape(op, k));
        if (ir::nelems(op.inputs[k]) != ir::product(lead))
            return fail(dnnl_invalid_shape,
                    "%s: input %zu has shape %s, expected %s (one statistic "
                    "per normalized group)",
                    describe(op).c_str(), k,
                    ir::dims_to_string(ir::dims_of(op.inputs[k])).c_str(),
                    ir::dims_to_string(lead).c_str());
    }
    for (size_t k = 4; k < op.inputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(norm_check_affine(op, k, norm));
    LLGA_RETURN_IF_ERROR(set_output(op, 0, src));
    const dims_t wdims = op.inputs.size() > 4 ? ir::dims_of(op.inputs[4]) : norm;
    for (size_t k = 1; k < op.outputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(set_output(op, k, wdims));
    return dnnl_success;
}

status_t ref_ln_bwd(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dd = in_view(op, in, 1),
                 mean = in_view(op, in, 2), var = in_view(op, in, 3),
                 ds = out_view(op, out, 0);
    const bool has_gamma = op.get_bool(dnnl_graph_op_attr_use_affine, true)
            && op.inputs.size() > 4;
    view_t gamma, dg, db;
    if (has_gamma) gamma = in_view(op, in, 4);
    const bool wgrad = op.outputs.size() == 3;
    if (wgrad) {
        dg = out_view(op, out, 1);
        db = out_view(op, out, 2);
    }
    int64_t a;
    LLGA_RETURN_IF_ERROR(norm_begin_axis(op, dnnl_invalid_shape, a));
    const double eps = op.get_f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    const dims_t lead(src.dims.begin(), src.dims.begin() + a);
    const dims_t norm(src.dims.begin() + a, src.dims.end());
    const int64_t nl = ir::product(lead), n = ir::product(norm);
    // diff_src: one independent row per leading index.
    parallel_for(nl, 1, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t l = b; l < e; ++l) {
            ir::unravel(l, lead, idx);
            const double mu = mean.at_linear(l);
            const double inv = 1.0 / std::sqrt(var.at_linear(l) + eps);
            double mg = 0, mgx = 0;
            for (int64_t j = 0; j < n; ++j) {
                ir::unravel(j, norm, idx + a);
                const double g = dd.at(idx) * (has_gamma ? gamma.at_linear(j) : 1.0);
                mg += g;
                mgx += g * (src.at(idx) - mu) * inv;
            }
            if (n) {
                mg /= n;
                mgx /= n;
            }
            for (int64_t j = 0; j < n; ++j) {
                ir::unravel(j, norm, idx + a);
                const double g = dd.at(idx) * (has_gamma ? gamma.at_linear(j) : 1.0);
                const double xh = (src.at(idx) - mu) * inv;
                ds.set(idx, (g - mg - xh * mgx) * inv);
            }
        }
    });
    if (!wgrad) return dnnl_success;
    // diff_gamma / diff_beta: reductions over the leading indices.
    parallel_for(n, 16, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t j = b; j < e; ++j) {
            double sg = 0, sb = 0;
            for (int64_t l = 0; l < nl; ++l) {
                ir::unravel(l, lead, idx);
                ir::unravel(j, norm, idx + a);
                const double dy = dd.at(idx);
                const double inv = 1.0 / std::sqrt(var.at_linear(l) + eps);
                sb += dy;
                sg += dy * (src.at(idx) - mean.at_linear(l)) * inv;
            }
            dg.set_linear(j, sg);
            db.set_linear(j, sb);
        }
    });
    return dnnl_success;
}

} // namespace

void define_norm_backward(op_kind_t kind, op_def_t &def) {
    const auto f32_bf16 = dtypes({dnnl_f32, dnnl_bf16});
    op_schema_t &s = def.schema;
    switch (kind) {
        case dnnl_graph_op_batch_norm_backward:
            s.num_inputs({4, 5})
                    .num_outputs({1, 2, 3})
                    .input("src", "T1")
                    .input("diff_dst", "T1")
                    .input("mean", "T2")
                    .input("variance", "T2")
                    .input("gamma", "T2")
                    .output("diff_src", "T1")
                    .output("diff_gamma", "T2")
                    .output("diff_beta", "T2")
                    .types("T1", k_fp)
                    .types("T2", f32_bf16)
                    .attr(dnnl_graph_op_attr_epsilon, true)
                    .attr(dnnl_graph_op_attr_data_format,
                            ir::attr_value_t::make_str("NXC"))
                    .candidates(dnnl_graph_op_attr_data_format, {"NXC", "NCX"})
                    .constraint(check_bn_bwd);
            def.infer = infer_bn_bwd;
            def.ref = ref_bn_bwd;
            def.traits.is_backward = true;
            break;
        case dnnl_graph_op_layer_norm_backward:
            s.num_inputs({4, 5, 6})
                    .num_outputs({1, 3})
                    .input("src", "T1")
                    .input("diff_dst", "T1")
                    .input("mean", "T2")
                    .input("variance", "T2")
                    .input("gamma", "T2")
                    .input("beta", "T2")
                    .output("diff_src", "T1")
                    .output("diff_gamma", "T2")
                    .output("diff_beta", "T2")
                    .types("T1", k_fp)
                    .types("T2", f32_bf16)
                    .attr(dnnl_graph_op_attr_begin_norm_axis,
                            ir::attr_value_t::make_s64(-1))
                    .attr(dnnl_graph_op_attr_use_affine,
                            ir::attr_value_t::make_bool(true))
                    .attr(dnnl_graph_op_attr_epsilon,
                            ir::attr_value_t::make_f32(1e-5f))
                    .constraint(check_ln_bwd);
            def.infer = infer_ln_bwd;
            def.ref = ref_ln_bwd;
            def.traits.is_backward = true;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
