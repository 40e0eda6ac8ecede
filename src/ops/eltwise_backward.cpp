// SPDX-License-Identifier: Apache-2.0
// ops/eltwise_backward.cpp — the 12 elementwise unary backward ops
// (AbsBackward ... TanhBackward): schema (src-or-dst + diff_dst -> diff_src,
// T in f32/bf16/f16), shape inference (identity, diff_dst must match), and
// one reference kernel applying the gradient formula of ops/eltwise_math.hpp.
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/eltwise_math.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace eltwise {

bwd_fn_t backward_fn(op_kind_t kind) {
    switch (kind) {
#define LLGA_CASE(k, f) \
    case dnnl_graph_op_##k: return f;
        LLGA_ELTWISE_BWD_FORMULAS(LLGA_CASE)
#undef LLGA_CASE
        default: return nullptr;
    }
}

} // namespace eltwise

namespace {

using ir::attr_value_t;

// Identity from input 0; diff_dst must have the same shape because the
// kernel pairs the two element by element.
status_t infer_eltwise_bwd(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(require_shape(op, 1));
    const dims_t v = ir::dims_of(op.inputs[0]), dd = ir::dims_of(op.inputs[1]);
    if (v != dd)
        return fail(dnnl_invalid_shape,
                "%s: input 1 'diff_dst' has shape %s but input 0 has %s; "
                "they must be equal",
                describe(op).c_str(), ir::dims_to_string(dd).c_str(),
                ir::dims_to_string(v).c_str());
    return set_output(op, 0, v);
}

// Reads both inputs at i before writing diff_src[i]: safe in place.
status_t ref_eltwise_bwd(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const eltwise::bwd_fn_t g = eltwise::backward_fn(op.kind);
    if (!g)
        return fail(dnnl_unimplemented, "%s: not an elementwise backward op",
                describe(op).c_str());
    const eltwise::params_t p = eltwise::params_of(op);
    const view_t v = in_view(op, in, 0), dd = in_view(op, in, 1);
    const view_t ds = out_view(op, out, 0);
    parallel_for(ds.nelems(), 4096, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = b; i < e; ++i) {
            ir::unravel(i, ds.dims, idx);
            ds.set(idx, g(v.at(idx), dd.at(idx), p));
        }
    });
    return dnnl_success;
}

// Common schema; `with_use_dst` ops name input 0 "src/dst" and take use_dst
// (default true: input 0 is the forward output).
op_schema_t &backward(op_def_t &def, bool with_use_dst) {
    def.infer = infer_eltwise_bwd;
    def.ref = ref_eltwise_bwd;
    def.traits.is_backward = true;
    def.traits.inplace_input = 1; // diff_src may overwrite diff_dst
    def.schema.num_inputs({2})
            .num_outputs({1})
            .input(with_use_dst ? "src/dst" : "src", "T")
            .input("diff_dst", "T")
            .output("diff_src", "T")
            .types("T", k_fp);
    if (with_use_dst)
        def.schema.attr(dnnl_graph_op_attr_use_dst, attr_value_t::make_bool(true));
    return def.schema;
}

} // namespace

void define_eltwise_backward(op_kind_t kind, op_def_t &def) {
    switch (kind) {
        case dnnl_graph_op_abs_backward:
        case dnnl_graph_op_hard_swish_backward:
        case dnnl_graph_op_mish_backward: backward(def, false); break;
        case dnnl_graph_op_relu_backward:
        case dnnl_graph_op_sigmoid_backward:
        case dnnl_graph_op_sqrt_backward:
        case dnnl_graph_op_tanh_backward: backward(def, true); break;
        case dnnl_graph_op_clamp_backward:
            backward(def, true)
                    .attr(dnnl_graph_op_attr_min, true)
                    .attr(dnnl_graph_op_attr_max, true);
            break;
        case dnnl_graph_op_elu_backward:
            backward(def, true).attr(dnnl_graph_op_attr_alpha, true);
            break;
        case dnnl_graph_op_gelu_backward:
            backward(def, false)
                    .attr(dnnl_graph_op_attr_mode,
                            attr_value_t::make_str("gelu_erf"))
                    .candidates(dnnl_graph_op_attr_mode,
                            {"gelu_erf", "gelu_tanh"});
            break;
        case dnnl_graph_op_hard_sigmoid_backward:
            backward(def, false)
                    .attr(dnnl_graph_op_attr_alpha, true)
                    .attr(dnnl_graph_op_attr_beta, true);
            break;
        case dnnl_graph_op_softplus_backward:
            backward(def, false).attr(
                    dnnl_graph_op_attr_beta, attr_value_t::make_f32(1.f));
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
