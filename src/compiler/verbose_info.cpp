// SPDX-License-Identifier: Apache-2.0
// compiler/verbose_info.cpp — the partition fields of the graph verbose lines.
#include "compiler/verbose_info.hpp"

#include "base/verbose.hpp"
#include "ir/dtype.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace compiler {

namespace {

const char *layout_text(layout_type_t l) {
    switch (l) {
        case dnnl_graph_layout_type_any: return "any";
        case dnnl_graph_layout_type_strided: return "strided";
        case dnnl_graph_layout_type_opaque: return "opaque";
        default: return "undef";
    }
}

const char *property_text(property_t p) {
    switch (p) {
        case dnnl_graph_tensor_property_variable: return "variable";
        case dnnl_graph_tensor_property_constant: return "constant";
        default: return "undef";
    }
}

const char *fpmath_text(fpmath_mode_t m) {
    switch (m) {
        case dnnl_fpmath_mode_bf16: return "bf16";
        case dnnl_fpmath_mode_f16: return "f16";
        case dnnl_fpmath_mode_any: return "any";
        case dnnl_fpmath_mode_tf32: return "tf32";
        default: return "strict";
    }
}

std::string kind_name(const ir::op_t &op) {
    const char *k = ops::op_kind_name(op.kind);
    return k ? k : "Unknown";
}

bool starts_with(const std::string &s, const char *p) {
    return s.rfind(p, 0) == 0;
}

// "data:<f0>;<f1>;... " for the ops' `key` attribute, "" when no op has it.
std::string format_list(
        const fusion::partition_t &p, attr_id_t key, const char *tag) {
    bool any = false;
    std::string s = tag;
    for (size_t i = 0; i < p.ops.size(); ++i) {
        if (i) s += ";";
        if (p.ops[i].has_attr(key)) {
            any = true;
            s += p.ops[i].get_str(key);
        }
    }
    return any ? s + " " : std::string();
}

} // namespace

std::string verbose_partition_kind(const fusion::partition_t &p) {
    if (p.kind != "single_op" || p.ops.empty()) return p.kind;
    const std::string k = kind_name(p.ops[0]);
    if (starts_with(k, "ConvolutionBackward")) return "convolution_backward_post_ops";
    if (starts_with(k, "ConvTranspose")) return "convtranspose_post_ops";
    if (starts_with(k, "Convolution")) return "convolution_post_ops";
    if (k == "MatMul") return "matmul_post_ops";
    if (starts_with(k, "Reduce")) return "reduction_post_ops";
    if (starts_with(k, "Interpolate")) return "interpolate_post_ops";
    if (k == "MaxPool" || k == "AvgPool") return "pooling_post_ops";
    if (starts_with(k, "BatchNorm")) return "batch_norm_post_ops";
    if (k == "Add" || k == "Subtract" || k == "Multiply" || k == "Divide"
            || k == "Maximum" || k == "Minimum" || k == "BiasAdd"
            || k == "SquaredDifference")
        return "binary_post_ops";
    if (k == "Quantize" || k == "Dequantize" || k == "DynamicQuantize"
            || k == "DynamicDequantize")
        return "misc_quantized_post_ops";
    static const char *unary[] = {"Abs", "Clamp", "Elu", "Exp", "GELU",
            "HardSigmoid", "HardSwish", "LeakyReLU", "Log", "Mish", "Pow",
            "ReLU", "Round", "Sigmoid", "SoftPlus", "Sqrt", "Square", "Tanh",
            "Reciprocal"};
    for (const char *u : unary)
        if (k == u) return "unary_post_ops";
    return "misc_post_ops";
}

std::string verbose_lt(const logical_tensor_t &lt) {
    std::string s = ir::dtype_name(lt.data_type);
    s += ":" + std::to_string(lt.id) + ":" + layout_text(lt.layout_type) + ":"
            + property_text(lt.property) + ":";
    for (int d = 0; d < lt.ndims; ++d)
        s += (d ? "x" : "") + std::to_string(lt.dims[d]);
    s += ":";
    if (lt.layout_type == dnnl_graph_layout_type_strided) {
        for (int d = 0; d < lt.ndims; ++d)
            s += (d ? "s" : "") + std::to_string(lt.layout.strides[d]);
    } else if (lt.layout_type == dnnl_graph_layout_type_opaque) {
        s += std::to_string(lt.layout.layout_id);
    } else if (lt.layout_type == dnnl_graph_layout_type_any) {
        s += "any";
    }
    return s;
}

std::string verbose_partition_info(const plan_t &plan, engine_kind_t engine,
        const std::string &impl, const std::string &backend) {
    static const fusion::partition_t empty;
    const fusion::partition_t &p = plan.partition ? *plan.partition : empty;
    std::string s = engine == dnnl_gpu ? "gpu" : "cpu";
    s += "," + std::to_string(p.id) + "," + verbose_partition_kind(p) + ",";
    for (size_t i = 0; i < p.ops.size(); ++i) {
        const std::string &n = p.ops[i].name;
        s += (i ? ";" : "") + verbose_field(n.empty() ? kind_name(p.ops[i]) : n);
    }
    s += "," + format_list(p, dnnl_graph_op_attr_data_format, "data:")
            + format_list(p, dnnl_graph_op_attr_weights_format, "filter:") + ",";
    std::string lts;
    for (size_t i = 0; i < plan.inputs.size(); ++i)
        lts += "in" + std::to_string(i) + "_" + verbose_lt(plan.inputs[i]) + " ";
    for (size_t i = 0; i < plan.outputs.size(); ++i)
        lts += (i ? " " : "") + std::string("out") + std::to_string(i) + "_"
                + verbose_lt(plan.outputs[i]);
    s += lts + ",fpm:" + fpmath_text(p.fpmath_mode)
            + (p.fpmath_apply_to_int ? ":true" : "");
    s += "," + verbose_field(impl) + "," + verbose_field(backend);
    return s;
}

} // namespace compiler
} // namespace llga
