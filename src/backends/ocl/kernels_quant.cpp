// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_quant.cpp — builders of the quant family
// (kernels/quant.cl): Quantize and Dequantize (scales/zps attributes baked
// into the program) and DynamicQuantize / DynamicDequantize (scales/zps
// tensors read per element: one value, per channel or per group).
#include "backends/ocl/kernels_family.hpp"

#include "ir/shape.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace ocl {

namespace {

enum class qtype_t { tensor, channel, group };

qtype_t qtype_of(const ir::op_t &op) {
    const std::string q = op.get_str(dnnl_graph_op_attr_qtype, "per_tensor");
    if (ops::iequals(q, "per_channel")) return qtype_t::channel;
    if (ops::iequals(q, "per_group")) return qtype_t::group;
    return qtype_t::tensor;
}

// The launch over src's elements with the src/dst parts of the options.
launch_desc_t quant_launch(const ir::op_t &op) {
    const logical_tensor_t &src = op.inputs[0], &dst = op.outputs[0];
    launch_desc_t d;
    d.family = "quant";
    d.kernel = "quant";
    std::string &o = d.options;
    dt_option("SRC", src.data_type, o);
    dt_option("DST", dst.data_type, o);
    const std::vector<int64_t> dims = dims_1(src);
    o += int_option("ND", static_cast<int64_t>(dims.size()));
    o += list_option("DIMS", dims);
    o += list_option("SRC_STRIDES", strides_1(src));
    o += list_option("DST_STRIDES", strides_1(dst));
    const int64_t n = ir::nelems(src);
    d.work = static_cast<size_t>(std::max<int64_t>(n, 0));
    o += int_option("NELEMS", n);
    if (op.kind == dnnl_graph_op_dequantize
            || op.kind == dnnl_graph_op_dynamic_dequantize)
        o += " -DDEQUANT";
    d.args = {src.id, dst.id};
    return d;
}

// Options of parameter tensor P (SC or ZP): how an element finds its value.
std::string param_options(const char *p, const logical_tensor_t &t,
        qtype_t q) {
    std::string o;
    const std::string s(p);
    dt_option(p, t.data_type, o);
    const int mode = ir::nelems(t) == 1 ? 0 : q == qtype_t::channel ? 1 : 2;
    o += int_option((s + "_MODE").c_str(), mode);
    o += int_option((s + "_ND").c_str(), static_cast<int64_t>(dims_1(t).size()));
    o += list_option((s + "_DIMS").c_str(), dims_1(t));
    o += list_option((s + "_STRIDES").c_str(), strides_1(t));
    return o;
}

} // namespace

status_t build_quant(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &src = op.inputs[0];
    launch_desc_t d = quant_launch(op);
    std::string &o = d.options;
    const qtype_t q = qtype_of(op);
    if (q == qtype_t::channel) {
        int64_t axis = 0;
        if (!ir::normalize_axis(
                    op.get_s64(dnnl_graph_op_attr_axis, 1), src.ndims, axis))
            return unsupported(op, "bad per_channel axis");
        o += int_option("AXIS", axis);
    }
    if (op.kind == dnnl_graph_op_quantize
            || op.kind == dnnl_graph_op_dequantize) {
        const std::vector<float> scales = op.get_f32s(dnnl_graph_op_attr_scales);
        const std::vector<int64_t> zps = op.get_s64s(dnnl_graph_op_attr_zps);
        if (scales.empty()) return unsupported(op, "no scales");
        std::string s = " -DSTATIC_SCALES=";
        for (size_t i = 0; i < scales.size(); ++i)
            s += (i ? "," : "") + float_literal(scales[i]);
        o += s;
        if (!zps.empty()) {
            std::string z = " -DSTATIC_ZPS=";
            for (size_t i = 0; i < zps.size(); ++i)
                z += (i ? "," : "")
                        + float_literal(static_cast<float>(zps[i]));
            o += z;
        }
        out.push_back(d);
        return dnnl_success;
    }
    // Dynamic: scales (input 1) and optional zero points (input 2).
    if (op.inputs.size() < 2) return unsupported(op, "no scales input");
    o += param_options("SC", op.inputs[1], q);
    d.args.push_back(op.inputs[1].id);
    if (op.inputs.size() > 2) {
        o += param_options("ZP", op.inputs[2], q);
        d.args.push_back(op.inputs[2].id);
    }
    if (q == qtype_t::group && src.ndims > 0) {
        const std::vector<int64_t> g
                = op.get_s64s(dnnl_graph_op_attr_group_shape);
        if (static_cast<int>(g.size()) != src.ndims)
            return unsupported(op, "group_shape does not match the src rank");
        o += list_option("GROUP", g);
    }
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
