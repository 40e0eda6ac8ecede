// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernel_desc.cpp — build-option spelling shared by the kernel
// family builders.
#include "backends/ocl/kernel_desc.hpp"

#include <cmath>
#include <cstdio>

#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ocl {

bool dt_option(const char *x, data_type_t dt, std::string &opts) {
    const char *t = nullptr, *n = nullptr;
    switch (dt) {
        case dnnl_f32: t = "float"; n = "f32"; break;
        case dnnl_f16: t = "half"; n = "f16"; break;
        case dnnl_bf16: t = "ushort"; n = "bf16"; break;
        case dnnl_s8: t = "char"; n = "s8"; break;
        case dnnl_u8: t = "uchar"; n = "u8"; break;
        case dnnl_s32: t = "int"; n = "s32"; break;
        case dnnl_boolean: t = "uchar"; n = "bool"; break;
        case dnnl_f8_e4m3: t = "uchar"; n = "f8_e4m3"; break;
        case dnnl_f8_e5m2: t = "uchar"; n = "f8_e5m2"; break;
        case dnnl_s4: t = "uchar"; n = "s4"; break; // loads only
        case dnnl_u4: t = "uchar"; n = "u4"; break; // loads only
        default: return false;
    }
    opts += std::string(" -D") + x + "_T=" + t + " -D" + x + "_DT=" + n;
    return true;
}

status_t check_dtypes(const ir::op_t &op, bool allow_scalars) {
    std::string scratch;
    for (const auto *side : {&op.inputs, &op.outputs})
        for (const auto &lt : *side) {
            if (lt.property == dnnl_graph_tensor_property_host_scalar
                    && !(allow_scalars && side == &op.inputs))
                return fail(dnnl_unimplemented,
                        "the OpenCL engine has no kernel for %s with a host "
                        "scalar input (tensor %zu)",
                        ops::op_kind_name(op.kind), lt.id);
            if (!dt_option("X", lt.data_type, scratch))
                return fail(dnnl_unimplemented,
                        "the OpenCL engine has no kernel for %s on %s data "
                        "(tensor %zu)",
                        ops::op_kind_name(op.kind),
                        ir::dtype_name(lt.data_type), lt.id);
            if (side == &op.outputs && ir::dtype_bits(lt.data_type) < 8)
                return fail(dnnl_unimplemented,
                        "the OpenCL engine does not write %s data (%s output "
                        "tensor %zu): packed 4-bit outputs are not supported",
                        ir::dtype_name(lt.data_type),
                        ops::op_kind_name(op.kind), lt.id);
        }
    return dnnl_success;
}

std::string list_option(const char *name, const std::vector<int64_t> &v) {
    std::string s = std::string(" -D") + name + "=";
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + std::to_string(v[i]);
    if (v.empty()) s += "0";
    return s;
}

std::string int_option(const char *name, int64_t v) {
    return std::string(" -D") + name + "=" + std::to_string(v);
}

std::string nc_spatial_stride_options(const logical_tensor_t &t,
        const char *prefix, bool channel_last, int nsp) {
    const int64_t *s = t.layout.strides;
    const int first = channel_last ? 1 : 2;
    int64_t sp[3] = {0, 0, 0};
    for (int i = 0; i < nsp && i < 3; ++i)
        sp[3 - nsp + i] = s[first + i];
    const std::string q(prefix);
    std::string o = int_option((q + "S_N").c_str(), s[0]);
    o += int_option((q + "S_C").c_str(), channel_last ? s[t.ndims - 1] : s[1]);
    o += int_option((q + "S_D").c_str(), sp[0]);
    o += int_option((q + "S_H").c_str(), sp[1]);
    o += int_option((q + "S_W").c_str(), sp[2]);
    return o;
}

std::string float_literal(float v) {
    if (std::isnan(v)) return "NAN";
    if (std::isinf(v)) return v > 0 ? "INFINITY" : "(-INFINITY)";
    char buf[64];
    std::snprintf(buf, sizeof(buf), "(%af)", static_cast<double>(v));
    return buf;
}

std::string float_option(const char *name, float v) {
    return std::string(" -D") + name + "=" + float_literal(v);
}

std::vector<int64_t> dims_1(const logical_tensor_t &lt) {
    if (lt.ndims <= 0) return {1};
    return std::vector<int64_t>(lt.dims, lt.dims + lt.ndims);
}

std::vector<int64_t> strides_1(const logical_tensor_t &lt) {
    if (lt.ndims <= 0) return {0};
    return std::vector<int64_t>(
            lt.layout.strides, lt.layout.strides + lt.ndims);
}

std::vector<int64_t> bcast_strides(
        const logical_tensor_t &in, const std::vector<int64_t> &out_dims) {
    const int on = static_cast<int>(out_dims.size());
    std::vector<int64_t> s(on, 0);
    const int n = std::max(in.ndims, 0);
    for (int j = 0; j < n; ++j) {
        const int d = on - n + j;
        if (d < 0) continue;
        s[d] = (in.dims[j] == 1 && out_dims[d] != 1) ? 0
                                                     : in.layout.strides[j];
        if (in.dims[j] == 1) s[d] = 0;
    }
    return s;
}

status_t unsupported(const ir::op_t &op, const char *what) {
    return fail(dnnl_unimplemented,
            "the OpenCL engine has no kernel for %s (op %zu '%s'): %s",
            ops::op_kind_name(op.kind), op.id, op.name.c_str(), what);
}

} // namespace ocl
} // namespace llga
