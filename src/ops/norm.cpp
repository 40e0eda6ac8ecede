// SPDX-License-Identifier: Apache-2.0
// ops/norm.cpp — the normalization family: BatchNormInference,
// BatchNormForwardTraining, LayerNorm and GroupNorm (this file) and their
// shared checks; the two backward ops live in norm_backward.cpp. Statistics
// are computed in double with two passes (mean, then biased variance).
#include "ops/norm_common.hpp"

#include <cmath>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

status_t norm_check_dtypes(const ir::op_t &op, size_t first_stat_input) {
    const data_type_t t1 = op.inputs[0].data_type;
    auto check = [&](const logical_tensor_t &lt, const char *dir, size_t k) {
        if (lt.data_type == dnnl_bf16 && t1 != dnnl_bf16)
            return fail(dnnl_invalid_graph_op,
                    "%s: %s %zu is bf16, which is only allowed when the data "
                    "tensors are bf16 (they are %s)",
                    describe(op).c_str(), dir, k, ir::dtype_name(t1));
        return dnnl_success;
    };
    for (size_t k = first_stat_input; k < op.inputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(check(op.inputs[k], "input", k));
    for (size_t k = 1; k < op.outputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(check(op.outputs[k], "output", k));
    return dnnl_success;
}

status_t norm_require_vec(const ir::op_t &op, size_t k, dim_t c) {
    LLGA_RETURN_IF_ERROR(require_shape(op, k));
    const dims_t d = ir::dims_of(op.inputs[k]);
    if (d.size() != 1 || d[0] != c)
        return fail(dnnl_invalid_shape,
                "%s: input %zu has shape %s, expected [%lld] (one value per "
                "channel)",
                describe(op).c_str(), k, ir::dims_to_string(d).c_str(),
                static_cast<long long>(c));
    return dnnl_success;
}

int norm_channel_axis(const ir::op_t &op, int rank) {
    return is_channel_last(op) ? rank - 1 : 1;
}

status_t norm_begin_axis(const ir::op_t &op, status_t st, int64_t &a) {
    const int r = op.inputs[0].ndims;
    a = 0;
    if (r < 0) return dnnl_success;
    const int64_t v = op.get_s64(dnnl_graph_op_attr_begin_norm_axis, -1);
    if (!ir::normalize_axis(v, r, a))
        return fail(st, "%s: begin_norm_axis %lld is out of range for rank %d",
                describe(op).c_str(), static_cast<long long>(v), r);
    return dnnl_success;
}

status_t norm_check_affine(const ir::op_t &op, size_t k, const dims_t &norm) {
    LLGA_RETURN_IF_ERROR(require_shape(op, k));
    const dims_t d = ir::dims_of(op.inputs[k]);
    // Shaped like the normalized dims, or flattened into one dim.
    const bool ok = d == norm
            || (d.size() == 1 && d[0] == ir::product(norm));
    if (!ok)
        return fail(dnnl_invalid_shape,
                "%s: input %zu has shape %s, expected the normalized dims %s "
                "(or their product as one dim)",
                describe(op).c_str(), k, ir::dims_to_string(d).c_str(),
                ir::dims_to_string(norm).c_str());
    return dnnl_success;
}

namespace {

// ---- BatchNorm forward -------------------------------------------------

status_t check_bn(const ir::op_t &op) {
    // BatchNormInference keeps stats from input 1 on; training from input 1.
    return norm_check_dtypes(op, 1);
}

status_t infer_bn(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_rank(op, 0, 2, DNNL_MAX_NDIMS));
    const dims_t src = ir::dims_of(op.inputs[0]);
    const dim_t c = src[norm_channel_axis(op, static_cast<int>(src.size()))];
    for (size_t k = 1; k < op.inputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(norm_require_vec(op, k, c));
    LLGA_RETURN_IF_ERROR(set_output(op, 0, src));
    for (size_t k = 1; k < op.outputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(set_output(op, k, {c}));
    return dnnl_success;
}

// Calls body(offset_in_each_view...) for every element of channel c: gives
// the multi-index with idx[cax] = c.
template <typename F>
void for_channel(const dims_t &dims, int cax, int64_t c, F body) {
    dims_t rest = dims;
    rest[cax] = 1;
    const int64_t m = ir::product(rest);
    int64_t idx[DNNL_MAX_NDIMS];
    for (int64_t i = 0; i < m; ++i) {
        ir::unravel(i, rest, idx);
        idx[cax] = c;
        body(idx);
    }
}

status_t ref_bn_inference(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), gamma = in_view(op, in, 1),
                 beta = in_view(op, in, 2), mean = in_view(op, in, 3),
                 var = in_view(op, in, 4), dst = out_view(op, out, 0);
    const double eps = op.get_f32(dnnl_graph_op_attr_epsilon);
    const int cax = norm_channel_axis(op, src.ndims());
    parallel_for(src.dims[cax], 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) {
            const double inv = 1.0 / std::sqrt(var.at_linear(c) + eps);
            const double g = gamma.at_linear(c), bt = beta.at_linear(c),
                         mu = mean.at_linear(c);
            for_channel(src.dims, cax, c, [&](const int64_t *idx) {
                dst.set(idx, g * (src.at(idx) - mu) * inv + bt);
            });
        }
    });
    return dnnl_success;
}

status_t ref_bn_training(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), mean_in = in_view(op, in, 1),
                 var_in = in_view(op, in, 2), dst = out_view(op, out, 0);
    const bool has_gamma = op.inputs.size() > 3, has_beta = op.inputs.size() > 4;
    view_t gamma, beta;
    if (has_gamma) gamma = in_view(op, in, 3);
    if (has_beta) beta = in_view(op, in, 4);
    const view_t run_mean = out_view(op, out, 1), run_var = out_view(op, out, 2),
                 batch_mean = out_view(op, out, 3),
                 batch_var = out_view(op, out, 4);
    const double eps = op.get_f32(dnnl_graph_op_attr_epsilon);
    // Without the attribute the backend uses 0.5; we do the same.
    const double mom = op.get_f32(dnnl_graph_op_attr_momentum, 0.5f);
    const int cax = norm_channel_axis(op, src.ndims());
    const int64_t count = src.nelems() / std::max<int64_t>(src.dims[cax], 1);
    parallel_for(src.dims[cax], 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) {
            double sum = 0, sq = 0;
            for_channel(src.dims, cax, c,
                    [&](const int64_t *idx) { sum += src.at(idx); });
            const double mu = count ? sum / count : 0;
            for_channel(src.dims, cax, c, [&](const int64_t *idx) {
                const double d = src.at(idx) - mu;
                sq += d * d;
            });
            const double var = count ? sq / count : 0;
            const double inv = 1.0 / std::sqrt(var + eps);
            const double g = has_gamma ? gamma.at_linear(c) : 1.0;
            const double bt = has_beta ? beta.at_linear(c) : 0.0;
            for_channel(src.dims, cax, c, [&](const int64_t *idx) {
                dst.set(idx, g * (src.at(idx) - mu) * inv + bt);
            });
            run_mean.set_linear(c, mom * mean_in.at_linear(c) + (1 - mom) * mu);
            run_var.set_linear(c, mom * var_in.at_linear(c) + (1 - mom) * var);
            batch_mean.set_linear(c, mu);
            batch_var.set_linear(c, var);
        }
    });
    return dnnl_success;
}

// ---- LayerNorm -----------------------------------------------------------

status_t check_ln(const ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(norm_check_dtypes(op, 1));
    if (op.get_bool(dnnl_graph_op_attr_keep_stats, true) && op.outputs.size() != 3)
        return fail(dnnl_invalid_graph_op,
                "%s: keep_stats is true, so 3 outputs (dst, mean, variance) "
                "are required, got %zu",
                describe(op).c_str(), op.outputs.size());
    int64_t a;
    return norm_begin_axis(op, dnnl_invalid_graph_op, a);
}

status_t infer_ln(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    int64_t a;
    LLGA_RETURN_IF_ERROR(norm_begin_axis(op, dnnl_invalid_shape, a));
    const dims_t src = ir::dims_of(op.inputs[0]);
    const dims_t lead(src.begin(), src.begin() + a), norm(src.begin() + a, src.end());
    if (op.get_bool(dnnl_graph_op_attr_use_affine, true))
        for (size_t k = 1; k < op.inputs.size(); ++k)
            LLGA_RETURN_IF_ERROR(norm_check_affine(op, k, norm));
    LLGA_RETURN_IF_ERROR(set_output(op, 0, src));
    for (size_t k = 1; k < op.outputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(set_output(op, k, lead));
    return dnnl_success;
}

status_t ref_ln(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    const bool affine = op.get_bool(dnnl_graph_op_attr_use_affine, true)
            && op.inputs.size() == 3;
    view_t gamma, beta, mean, var;
    if (affine) {
        gamma = in_view(op, in, 1);
        beta = in_view(op, in, 2);
    }
    const bool stats = op.outputs.size() == 3;
    if (stats) {
        mean = out_view(op, out, 1);
        var = out_view(op, out, 2);
    }
    int64_t a;
    LLGA_RETURN_IF_ERROR(norm_begin_axis(op, dnnl_invalid_shape, a));
    const double eps = op.get_f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    const dims_t lead(src.dims.begin(), src.dims.begin() + a);
    const dims_t norm(src.dims.begin() + a, src.dims.end());
    const int64_t n = ir::product(norm);
    parallel_for(ir::product(lead), 1, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t l = b; l < e; ++l) {
            ir::unravel(l, lead, idx);
            auto elem = [&](int64_t j) {
                ir::unravel(j, norm, idx + a);
                return idx;
            };
            double sum = 0, sq = 0;
            for (int64_t j = 0; j < n; ++j)
                sum += src.at(elem(j));
            const double mu = n ? sum / n : 0;
            for (int64_t j = 0; j < n; ++j) {
                const double d = src.at(elem(j)) - mu;
                sq += d * d;
            }
            const double v = n ? sq / n : 0;
            const double inv = 1.0 / std::sqrt(v + eps);
            for (int64_t j = 0; j < n; ++j) {
                const int64_t *ix = elem(j);
                double y = (src.at(ix) - mu) * inv;
                if (affine) y = y * gamma.at_linear(j) + beta.at_linear(j);
                dst.set(ix, y);
            }
            if (stats) {
                mean.set_linear(l, mu);
                var.set_linear(l, v);
            }
        }
    });
    return dnnl_success;
}

// ---- GroupNorm -----------------------------------------------------------

status_t check_gn(const ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(norm_check_dtypes(op, 1));
    if (op.get_bool(dnnl_graph_op_attr_keep_stats, true) && op.outputs.size() != 3)
        return fail(dnnl_invalid_graph_op,
                "%s: keep_stats is true, so 3 outputs (dst, mean, variance) "
                "are required, got %zu",
                describe(op).c_str(), op.outputs.size());
    const int64_t g = op.get_s64(dnnl_graph_op_attr_groups);
    if (g < 1)
        return fail(dnnl_invalid_graph_op, "%s: groups must be >= 1, got %lld",
                describe(op).c_str(), static_cast<long long>(g));
    return dnnl_success;
}

status_t infer_gn(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_rank(op, 0, 2, DNNL_MAX_NDIMS));
    const dims_t src = ir::dims_of(op.inputs[0]);
    const dim_t c = src[norm_channel_axis(op, static_cast<int>(src.size()))];
    const int64_t g = op.get_s64(dnnl_graph_op_attr_groups);
    if (g < 1 || g > c || c % g != 0)
        return fail(dnnl_invalid_shape,
                "%s: groups %lld must be in [1, C] and divide the channel "
                "count C = %lld",
                describe(op).c_str(), static_cast<long long>(g),
                static_cast<long long>(c));
    if (op.get_bool(dnnl_graph_op_attr_use_affine, true))
        for (size_t k = 1; k < op.inputs.size(); ++k)
            LLGA_RETURN_IF_ERROR(norm_require_vec(op, k, c));
    LLGA_RETURN_IF_ERROR(set_output(op, 0, src));
    for (size_t k = 1; k < op.outputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(set_output(op, k, {src[0], g}));
    return dnnl_success;
}

status_t ref_gn(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    const bool affine = op.get_bool(dnnl_graph_op_attr_use_affine, true)
            && op.inputs.size() == 3;
    view_t gamma, beta, mean, var;
    if (affine) {
        gamma = in_view(op, in, 1);
        beta = in_view(op, in, 2);
    }
    const bool stats = op.outputs.size() == 3;
    if (stats) {
        mean = out_view(op, out, 1);
        var = out_view(op, out, 2);
    }
    const double eps = op.get_f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    const int cax = norm_channel_axis(op, src.ndims());
    const int64_t g = op.get_s64(dnnl_graph_op_attr_groups);
    const int64_t cg = src.dims[cax] / g;
    // Positions inside one (n, c) plane: every dim but 0 and the channel.
    dims_t plane = src.dims;
    plane[0] = 1;
    plane[cax] = 1;
    const int64_t sp = ir::product(plane);
    const int64_t count = cg * sp;
    parallel_for(src.dims[0] * g, 1, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t ng = b; ng < e; ++ng) {
            const int64_t n = ng / g, grp = ng % g;
            auto each = [&](auto body) {
                for (int64_t cc = 0; cc < cg; ++cc)
                    for (int64_t s = 0; s < sp; ++s) {
                        ir::unravel(s, plane, idx);
                        idx[0] = n;
                        idx[cax] = grp * cg + cc;
                        body(idx[cax]);
                    }
            };
            double sum = 0, sq = 0;
            each([&](int64_t) { sum += src.at(idx); });
            const double mu = count ? sum / count : 0;
            each([&](int64_t) {
                const double d = src.at(idx) - mu;
                sq += d * d;
            });
            const double v = count ? sq / count : 0;
            const double inv = 1.0 / std::sqrt(v + eps);
            each([&](int64_t c) {
                double y = (src.at(idx) - mu) * inv;
                if (affine) y = y * gamma.at_linear(c) + beta.at_linear(c);
                dst.set(idx, y);
            });
            if (stats) {
                const int64_t si[2] = {n, grp};
                mean.set(si, mu);
                var.set(si, v);
            }
        }
    });
    return dnnl_success;
}

void data_format_attr(op_schema_t &s) {
    s.attr(dnnl_graph_op_attr_data_format, ir::attr_value_t::make_str("NXC"))
            .candidates(dnnl_graph_op_attr_data_format, {"NXC", "NCX"});
}

} // namespace

void define_norm(op_kind_t kind, op_def_t &def) {
    const auto f32_bf16 = dtypes({dnnl_f32, dnnl_bf16});
    op_schema_t &s = def.schema;
    switch (kind) {
        case dnnl_graph_op_batch_norm_inference:
            s.num_inputs({5})
                    .num_outputs({1})
                    .input("src", "T1")
                    .input("gamma", "T2")
                    .input("beta", "T2")
                    .input("mean", "T2")
                    .input("variance", "T2")
                    .output("dst", "T1")
                    .types("T1", k_fp)
                    .types("T2", f32_bf16)
                    .attr(dnnl_graph_op_attr_epsilon, true)
                    .constraint(check_bn);
            data_format_attr(s);
            def.infer = infer_bn;
            def.ref = ref_bn_inference;
            break;
        case dnnl_graph_op_batch_norm_forward_training:
            s.num_inputs({3, 4, 5})
                    .num_outputs({5})
                    .input("src", "T1")
                    .input("mean", "T2")
                    .input("variance", "T2")
                    .input("gamma", "T2")
                    .input("beta", "T2")
                    .output("dst", "T1")
                    .output("running_mean", "T2")
                    .output("running_variance", "T2")
                    .output("batch_mean", "T2")
                    .output("batch_variance", "T2")
                    .types("T1", k_fp)
                    .types("T2", f32_bf16)
                    .attr(dnnl_graph_op_attr_epsilon, true)
                    .attr(dnnl_graph_op_attr_momentum, false)
                    .constraint(check_bn);
            data_format_attr(s);
            def.infer = infer_bn;
            def.ref = ref_bn_training;
            break;
        case dnnl_graph_op_layer_norm:
            s.num_inputs({1, 3})
                    .num_outputs({1, 3})
                    .input("src", "T1")
                    .input("gamma", "T2")
                    .input("beta", "T2")
                    .output("dst", "T1")
                    .output("mean", "T2")
                    .output("variance", "T2")
                    .types("T1", k_fp)
                    .types("T2", f32_bf16)
                    .attr(dnnl_graph_op_attr_keep_stats,
                            ir::attr_value_t::make_bool(true))
                    .attr(dnnl_graph_op_attr_begin_norm_axis,
                            ir::attr_value_t::make_s64(-1))
                    .attr(dnnl_graph_op_attr_use_affine,
                            ir::attr_value_t::make_bool(true))
                    .attr(dnnl_graph_op_attr_epsilon,
                            ir::attr_value_t::make_f32(1e-5f))
                    .constraint(check_ln);
            def.infer = infer_ln;
            def.ref = ref_ln;
            break;
        case dnnl_graph_op_group_norm:
            s.num_inputs({1, 3})
                    .num_outputs({1, 3})
                    .input("src", "T1")
                    .input("gamma", "T2")
                    .input("beta", "T2")
                    .output("dst", "T1")
                    .output("mean", "T2")
                    .output("variance", "T2")
                    .types("T1", k_fp)
                    .types("T2", f32_bf16)
                    .attr(dnnl_graph_op_attr_keep_stats,
                            ir::attr_value_t::make_bool(true))
                    .attr(dnnl_graph_op_attr_groups, true)
                    .attr(dnnl_graph_op_attr_use_affine,
                            ir::attr_value_t::make_bool(true))
                    .attr(dnnl_graph_op_attr_epsilon,
                            ir::attr_value_t::make_f32(1e-5f))
                    .constraint(check_gn);
            data_format_attr(s);
            def.infer = infer_gn;
            def.ref = ref_gn;
            break;
        case dnnl_graph_op_batch_norm_backward:
        case dnnl_graph_op_layer_norm_backward:
            define_norm_backward(kind, def);
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
