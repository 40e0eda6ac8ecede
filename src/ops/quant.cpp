// SPDX-License-Identifier: Apache-2.0
// ops/quant.cpp — the quantization family: Quantize and Dequantize (scales
// and zero points as attributes) and DynamicQuantize / DynamicDequantize
// (scales and zero points as runtime tensors; DynamicDequantize also handles
// s4/u4 storage and per_group scales). Arithmetic is done in f32 the way the
// opset specifies it: q = x * (1/scale) + zp, saturated then rounded
// half-to-even by the integer store; x = (q - zp) * scale.
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

constexpr int64_t k_grain = 4096;

enum class qmode_t { tensor, channel, group, unknown };

qmode_t qmode(const ir::op_t &op) {
    const std::string q = op.get_str(dnnl_graph_op_attr_qtype, "per_tensor");
    if (iequals(q, "per_tensor")) return qmode_t::tensor;
    if (iequals(q, "per_channel")) return qmode_t::channel;
    if (iequals(q, "per_group")) return qmode_t::group;
    return qmode_t::unknown;
}

bool is_f8(data_type_t dt) { return dt == dnnl_f8_e4m3 || dt == dnnl_f8_e5m2; }

// The opset has no candidate list for qtype; we still reject values we could
// not compute with, at add time, rather than fail later.
status_t check_qtype(const ir::op_t &op, bool allow_group) {
    const qmode_t m = qmode(op);
    if (m == qmode_t::unknown || (m == qmode_t::group && !allow_group))
        return fail(dnnl_invalid_graph_op,
                "%s: qtype '%s' is not supported, expected per_tensor or "
                "per_channel%s",
                describe(op).c_str(),
                op.get_str(dnnl_graph_op_attr_qtype).c_str(),
                allow_group ? " or per_group" : "");
    return dnnl_success;
}

// Channel axis of input 0 when its rank is known; `st` on out of range.
status_t check_quant_axis(const ir::op_t &op, status_t st) {
    const int r = op.inputs[0].ndims;
    int64_t a;
    const int64_t axis = op.get_s64(dnnl_graph_op_attr_axis, 1);
    if (r >= 0 && !ir::normalize_axis(axis, r, a))
        return fail(st, "%s: per_channel axis %lld is out of range for rank %d",
                describe(op).c_str(), static_cast<long long>(axis), r);
    return dnnl_success;
}

int64_t quant_axis(const ir::op_t &op) {
    int64_t a = 0;
    ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis, 1), op.inputs[0].ndims, a);
    return a;
}

// ---- Quantize / Dequantize ---------------------------------------------

status_t check_static(const ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(check_qtype(op, false));
    const std::string who = describe(op);
    const size_t ns = op.get_f32s(dnnl_graph_op_attr_scales).size();
    const bool has_zps = op.has_attr(dnnl_graph_op_attr_zps);
    const size_t nz = op.get_s64s(dnnl_graph_op_attr_zps).size();
    const qmode_t m = qmode(op);
    if (ns == 0)
        return fail(dnnl_invalid_graph_op, "%s: scales must not be empty",
                who.c_str());
    if (m == qmode_t::tensor && ns != 1)
        return fail(dnnl_invalid_graph_op,
                "%s: per_tensor quantization takes exactly 1 scale, got %zu",
                who.c_str(), ns);
    if (has_zps && nz != ns)
        return fail(dnnl_invalid_graph_op,
                "%s: zps has %zu values but scales has %zu (they must match)",
                who.c_str(), nz, ns);
    // The quantized side is dst for Quantize and src for Dequantize.
    const data_type_t qdt = op.kind == dnnl_graph_op_quantize
            ? op.outputs[0].data_type
            : op.inputs[0].data_type;
    if (has_zps && is_f8(qdt))
        return fail(dnnl_invalid_graph_op,
                "%s: zero points are not supported with %s", who.c_str(),
                ir::dtype_name(qdt));
    // The number of per_channel scales is checked against the axis at
    // compile (infer_static), not here: as in oneDNN, a Dequantize on the
    // weights of a Convolution takes one scale per output channel whatever
    // its axis names (compiler/pass_weight_scales.hpp).
    if (m == qmode_t::channel)
        LLGA_RETURN_IF_ERROR(check_quant_axis(op, dnnl_invalid_graph_op));
    return dnnl_success;
}

status_t infer_static(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    if (qmode(op) == qmode_t::channel) {
        LLGA_RETURN_IF_ERROR(check_quant_axis(op, dnnl_invalid_shape));
        const dim_t c = op.inputs[0].dims[quant_axis(op)];
        const size_t ns = op.get_f32s(dnnl_graph_op_attr_scales).size();
        if (static_cast<size_t>(c) != ns)
            return fail(dnnl_invalid_shape,
                    "%s: per_channel needs %lld scales (size of axis %lld), "
                    "got %zu",
                    describe(op).c_str(), static_cast<long long>(c),
                    static_cast<long long>(quant_axis(op)), ns);
    }
    return infer_identity(op);
}

status_t ref_static(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), dst = out_view(op, out, 0);
    const std::vector<float> scales = op.get_f32s(dnnl_graph_op_attr_scales);
    const std::vector<int64_t> zps = op.get_s64s(dnnl_graph_op_attr_zps);
    const bool per_channel = qmode(op) == qmode_t::channel;
    const int64_t axis = quant_axis(op);
    const bool quantize = op.kind == dnnl_graph_op_quantize;
    parallel_for(src.nelems(), k_grain, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = b; i < e; ++i) {
            ir::unravel(i, src.dims, idx);
            const size_t c = per_channel ? static_cast<size_t>(idx[axis]) : 0;
            const float scale = scales[c];
            const float zp = zps.empty() ? 0.f : static_cast<float>(zps[c]);
            const float x = static_cast<float>(src.at(idx));
            const float y = quantize ? x * (1.f / scale) + zp : (x - zp) * scale;
            dst.set(idx, y);
        }
    });
    return dnnl_success;
}

// ---- DynamicQuantize / DynamicDequantize ---------------------------------

status_t check_dynamic(const ir::op_t &op) {
    const bool dequant = op.kind == dnnl_graph_op_dynamic_dequantize;
    LLGA_RETURN_IF_ERROR(check_qtype(op, dequant));
    const std::string who = describe(op);
    const qmode_t m = qmode(op);
    const logical_tensor_t &src = op.inputs[0], &sc = op.inputs[1];
    const bool has_zps = op.inputs.size() > 2;
    const int64_t ns = ir::nelems(sc);
    const int64_t nz = has_zps ? ir::nelems(op.inputs[2]) : -1;
    if (m == qmode_t::tensor) {
        if (ns > 1 || nz > 1)
            return fail(dnnl_invalid_graph_op,
                    "%s: per_tensor needs 1-element scales%s, got %lld "
                    "scales%s",
                    who.c_str(), has_zps ? " and zps" : "",
                    static_cast<long long>(ns),
                    has_zps ? (" and " + std::to_string(nz) + " zps").c_str() : "");
    } else if (m == qmode_t::channel) {
        LLGA_RETURN_IF_ERROR(check_quant_axis(op, dnnl_invalid_graph_op));
        if (ns >= 0 && nz > 1 && nz != ns)
            return fail(dnnl_invalid_graph_op,
                    "%s: per_channel zps must have 1 or %lld elements (like "
                    "scales), got %lld",
                    who.c_str(), static_cast<long long>(ns),
                    static_cast<long long>(nz));
    } else { // per_group
        if (!op.has_attr(dnnl_graph_op_attr_group_shape))
            return fail(dnnl_invalid_graph_op,
                    "%s: per_group needs the group_shape attribute", who.c_str());
        const std::vector<int64_t> g = op.get_s64s(dnnl_graph_op_attr_group_shape);
        for (int64_t v : g)
            if (v < 1)
                return fail(dnnl_invalid_graph_op,
                        "%s: group_shape entries must be >= 1, got %lld",
                        who.c_str(), static_cast<long long>(v));
        if (src.ndims >= 0 && static_cast<int>(g.size()) != src.ndims)
            return fail(dnnl_invalid_graph_op,
                    "%s: group_shape has %zu entries, expected one per src "
                    "dim (%d)",
                    who.c_str(), g.size(), src.ndims);
        if (has_zps && sc.ndims >= 0 && op.inputs[2].ndims >= 0) {
            const logical_tensor_t &zp = op.inputs[2];
            bool same = zp.ndims == sc.ndims;
            for (int d = 0; same && d < sc.ndims; ++d)
                same = sc.dims[d] < 0 || zp.dims[d] < 0 || sc.dims[d] == zp.dims[d];
            if (!same)
                return fail(dnnl_invalid_graph_op,
                        "%s: per_group zps shape %s must equal scales shape %s",
                        who.c_str(),
                        ir::dims_to_string(ir::dims_of(zp)).c_str(),
                        ir::dims_to_string(ir::dims_of(sc)).c_str());
        }
    }
    return dnnl_success;
}

status_t infer_dynamic(ir::op_t &op) {
    for (size_t k = 0; k < op.inputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(require_shape(op, k));
    const std::string who = describe(op);
    const dims_t src = ir::dims_of(op.inputs[0]), sc = ir::dims_of(op.inputs[1]);
    const int64_t ns = ir::product(sc);
    const bool has_zps = op.inputs.size() > 2;
    const dims_t zp = has_zps ? ir::dims_of(op.inputs[2]) : dims_t {};
    switch (qmode(op)) {
        case qmode_t::tensor:
            if (ns != 1 || (has_zps && ir::product(zp) != 1))
                return fail(dnnl_invalid_shape,
                        "%s: per_tensor scales/zps must have 1 element",
                        who.c_str());
            break;
        case qmode_t::channel: {
            LLGA_RETURN_IF_ERROR(check_quant_axis(op, dnnl_invalid_shape));
            const dim_t c = src[quant_axis(op)];
            if (ns != c || sc.size() > 1
                    || (has_zps && ir::product(zp) != 1 && ir::product(zp) != c))
                return fail(dnnl_invalid_shape,
                        "%s: per_channel needs 1-D scales of %lld elements "
                        "(and zps of 1 or %lld), got scales %s",
                        who.c_str(), static_cast<long long>(c),
                        static_cast<long long>(c),
                        ir::dims_to_string(sc).c_str());
            break;
        }
        case qmode_t::group: {
            const std::vector<int64_t> g
                    = op.get_s64s(dnnl_graph_op_attr_group_shape);
            bool ok = sc.size() == src.size() && g.size() == src.size();
            for (size_t d = 0; ok && d < src.size(); ++d)
                ok = g[d] >= 1 && sc[d] * g[d] == src[d];
            if (!ok)
                return fail(dnnl_invalid_shape,
                        "%s: per_group scales shape %s times group_shape must "
                        "equal src shape %s",
                        who.c_str(), ir::dims_to_string(sc).c_str(),
                        ir::dims_to_string(src).c_str());
            if (has_zps && zp != sc)
                return fail(dnnl_invalid_shape,
                        "%s: per_group zps shape %s must equal scales shape %s",
                        who.c_str(), ir::dims_to_string(zp).c_str(),
                        ir::dims_to_string(sc).c_str());
            break;
        }
        default: return check_qtype(op, true);
    }
    return infer_identity(op);
}

// Value of a scales/zps tensor for src element idx.
double param_at(const view_t &v, qmode_t m, int64_t axis,
        const std::vector<int64_t> &group, const int64_t *idx) {
    if (v.nelems() == 1) return v.at_linear(0);
    if (m == qmode_t::channel) return v.at_linear(idx[axis]);
    int64_t j[DNNL_MAX_NDIMS];
    for (int d = 0; d < v.ndims(); ++d)
        j[d] = idx[d] / group[d];
    return v.at(j);
}

status_t ref_dynamic(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const view_t src = in_view(op, in, 0), sc = in_view(op, in, 1),
                 dst = out_view(op, out, 0);
    const bool has_zps = op.inputs.size() > 2;
    view_t zp;
    if (has_zps) zp = in_view(op, in, 2);
    const qmode_t m = qmode(op);
    const int64_t axis = quant_axis(op);
    const std::vector<int64_t> group = op.get_s64s(dnnl_graph_op_attr_group_shape);
    const bool quantize = op.kind == dnnl_graph_op_dynamic_quantize;
    parallel_for(src.nelems(), k_grain, [&](int64_t b, int64_t e) {
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = b; i < e; ++i) {
            ir::unravel(i, src.dims, idx);
            const float scale = static_cast<float>(param_at(sc, m, axis, group, idx));
            const float z = has_zps
                    ? static_cast<float>(param_at(zp, m, axis, group, idx))
                    : 0.f;
            const float x = static_cast<float>(src.at(idx));
            const float y = quantize ? x * (1.f / scale) + z : (x - z) * scale;
            dst.set(idx, y);
        }
    });
    return dnnl_success;
}

void quant_attrs(op_schema_t &s) {
    s.attr(dnnl_graph_op_attr_qtype, ir::attr_value_t::make_str("per_tensor"))
            .attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(1));
}

} // namespace

void define_quant(op_kind_t kind, op_def_t &def) {
    const dtype_set_t q8 = dtypes({dnnl_u8, dnnl_s8, dnnl_f8_e5m2, dnnl_f8_e4m3});
    op_schema_t &s = def.schema;
    switch (kind) {
        case dnnl_graph_op_quantize:
            s.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T1")
                    .output("dst", "T2")
                    .types("T1", dt_bit(dnnl_f32))
                    .types("T2", q8);
            quant_attrs(s);
            s.attr(dnnl_graph_op_attr_scales, true)
                    .attr(dnnl_graph_op_attr_zps, false)
                    .constraint(check_static);
            def.infer = infer_static;
            def.ref = ref_static;
            break;
        case dnnl_graph_op_dequantize:
            s.num_inputs({1})
                    .num_outputs({1})
                    .input("src", "T1")
                    .output("dst", "T2")
                    .types("T1", q8)
                    .types("T2", dt_bit(dnnl_f32));
            quant_attrs(s);
            s.attr(dnnl_graph_op_attr_scales, true)
                    .attr(dnnl_graph_op_attr_zps, false)
                    .constraint(check_static);
            def.infer = infer_static;
            def.ref = ref_static;
            break;
        case dnnl_graph_op_dynamic_quantize:
            s.num_inputs({2, 3})
                    .num_outputs({1})
                    .input("src", "T1")
                    .input("scales", "T1")
                    .input("zps", "T2")
                    .output("dst", "T3")
                    .types("T1", dt_bit(dnnl_f32))
                    .types("T2", dtypes({dnnl_u8, dnnl_s8, dnnl_s32}))
                    .types("T3", dtypes({dnnl_u8, dnnl_s8}));
            quant_attrs(s);
            s.constraint(check_dynamic);
            def.infer = infer_dynamic;
            def.ref = ref_dynamic;
            break;
        case dnnl_graph_op_dynamic_dequantize:
            s.num_inputs({2, 3})
                    .num_outputs({1})
                    .input("src", "T1")
                    .input("scales", "T2")
                    .input("zps", "T3")
                    .output("dst", "T2")
                    .types("T1", dtypes({dnnl_u8, dnnl_s8, dnnl_s4, dnnl_u4}))
                    .types("T2", k_fp)
                    .types("T3",
                            dtypes({dnnl_u4, dnnl_s4, dnnl_u8, dnnl_s8, dnnl_s32}));
            quant_attrs(s);
            s.attr(dnnl_graph_op_attr_group_shape, false).constraint(check_dynamic);
            def.infer = infer_dynamic;
            def.ref = ref_dynamic;
            break;
        default: break;
    }
}

} // namespace ops
} // namespace llga
