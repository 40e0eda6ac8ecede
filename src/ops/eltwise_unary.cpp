// SPDX-License-Identifier: Apache-2.0
// ops/eltwise_unary.cpp — the 19 elementwise unary forward ops (Abs ... Tanh):
// one shared schema shape (src -> dst, T in f32/bf16/f16, identity shape),
// per-op attributes, and one reference kernel that applies the op's scalar
// formula from ops/eltwise_math.hpp to every element.
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

fwd_fn_t forward_fn(op_kind_t kind) {
    switch (kind) {
#define LLGA_CASE(k, f) \
    case dnnl_graph_op_##k: return f;
        LLGA_ELTWISE_FWD_FORMULAS(LLGA_CASE)
#undef LLGA_CASE
        default: return nullptr;
    }
}

} // namespace eltwise

namespace {

using ir::attr_value_t;

// Element i is read before it is written, so out[0] == in[0] with the same
// layout (the declared in-place case) is safe.
status_t ref_unary(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const eltwise::fwd_fn_t f = eltwise::forward_fn(op.kind);
    if (!f)
        return fail(dnnl_unimplemented, "%s: not an elementwise unary op",
                describe(op).c_str());
    const eltwise::params_t p = eltwise::params_of(op);
    const view_t src = in_view(op, in, 0);
    const view_t dst = out_view(op, out, 0);
    parallel_for(dst.nelems(), 4096, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(b, dst.dims, idx);
        for (int64_t i = b; i < e;
                ++i, ir::next_index(idx, dst.dims)) {
            dst.set(idx, f(src.at(idx), p));
        }
    });
    return dnnl_success;
}

// The common part of all 19 schemas; the caller adds attributes.
op_schema_t &unary(op_def_t &def) {
    def.infer = infer_identity;
    def.ref = ref_unary;
    def.traits.inplace_input = 0;
    return def.schema.num_inputs({1})
            .num_outputs({1})
            .input("src", "T")
            .output("dst", "T")
            .types("T", k_fp);
}

} // namespace

void define_eltwise_unary(op_kind_t kind, op_def_t &def) {
    switch (kind) {
        case dnnl_graph_op_clamp:
            unary(def).attr(dnnl_graph_op_attr_min, true)
                    .attr(dnnl_graph_op_attr_max, true);
            break;
        case dnnl_graph_op_elu:
        case dnnl_graph_op_leaky_relu:
            unary(def).attr(dnnl_graph_op_attr_alpha, true);
            break;
        case dnnl_graph_op_gelu:
            unary(def).attr(dnnl_graph_op_attr_mode,
                              attr_value_t::make_str("gelu_erf"))
                    .candidates(dnnl_graph_op_attr_mode,
                            {"gelu_erf", "gelu_tanh"});
            break;
        case dnnl_graph_op_hard_sigmoid:
            unary(def).attr(dnnl_graph_op_attr_alpha, true)
                    .attr(dnnl_graph_op_attr_beta, true);
            break;
        case dnnl_graph_op_pow:
            unary(def).attr(dnnl_graph_op_attr_beta, true);
            break;
        case dnnl_graph_op_softplus:
            unary(def).attr(
                    dnnl_graph_op_attr_beta, attr_value_t::make_f32(1.f));
            break;
        default:
            // Attribute-free ops.
            if (eltwise::forward_fn(kind)) unary(def);
            break;
    }
}

} // namespace ops
} // namespace llga
