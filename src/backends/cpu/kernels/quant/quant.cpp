// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/quant.cpp — the plan side of the quantization
// family: which single-op partitions it takes (static Quantize / Dequantize per
// tensor or per channel, TypeCast f32 <-> bf16, dense tensors), how per channel
// scales map onto the generated functions, and the kernel_t that splits the
// tensor into row chunks and runs them with llga::parallel_for.
#include "backends/cpu/kernels/quant/quant.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace quant {

namespace {

// Elements per call of the generated function: a multiple of every vector
// width, large enough to amortise scheduling.
constexpr int64_t k_chunk = 16384;
// Per channel with at least this many elements per channel run (`inner`):
// one call per run with broadcast scale/zp. Below it the per-channel values
// are expanded to one per element of a C*inner row and read alongside the
// data (axis = last dim is the case inner = 1, where nothing is expanded).
constexpr int64_t k_bcast_min_inner = 32;

// How the tensor is walked: `rows` rows of `row_len` elements; per-element
// params (vector) are indexed by the position in the row, broadcast params
// (scalar) by row % channels.
struct layout_t {
    conv_t conv = conv_t::quantize;
    data_type_t qdt = dnnl_u8;
    bool per_channel = false;
    int in = -1, out = -1;
    int in_size = 4, out_size = 1;
    params_t params = params_t::scalar;
    int64_t rows = 0, row_len = 0, channels = 1;
    std::vector<float> mul, zp;
    // The input copied into the output's layout first.
    movement::relayout_t reorder;
};

bool is_f8(data_type_t dt) { return dt == dnnl_f8_e4m3 || dt == dnnl_f8_e5m2; }

int dt_size(data_type_t dt) {
    return dt == dnnl_f32 ? 4 : dt == dnnl_bf16 || dt == dnnl_f16 ? 2 : 1;
}

// Checks the dtypes of `op` and sets l.conv / l.qdt.
bool analyse_types(const ir::op_t &op, const std::string &kind, layout_t &l,
        std::string &why) {
    const data_type_t s = op.inputs[0].data_type, d = op.outputs[0].data_type;
    const std::string pair = std::string(ir::dtype_name(s)) + " -> "
            + ir::dtype_name(d);
    if (op.kind == dnnl_graph_op_type_cast) {
        struct {
            data_type_t s, d;
            conv_t c;
        } const casts[] = {{dnnl_f32, dnnl_bf16, conv_t::f32_to_bf16},
                {dnnl_bf16, dnnl_f32, conv_t::bf16_to_f32},
                {dnnl_f32, dnnl_f16, conv_t::f32_to_f16},
                {dnnl_f16, dnnl_f32, conv_t::f16_to_f32},
                {dnnl_bf16, dnnl_f16, conv_t::bf16_to_f16},
                {dnnl_f16, dnnl_bf16, conv_t::f16_to_bf16}};
        for (const auto &c : casts)
            if (c.s == s && c.d == d) {
                l.conv = c.c;
                return true;
            }
        why = kind + ": only casts among f32, bf16 and f16 (got " + pair + ")";
        return false;
    }
    const bool quantize = op.kind == dnnl_graph_op_quantize;
    const data_type_t real = quantize ? s : d, q = quantize ? d : s;
    if (real != dnnl_f32 || (q != dnnl_u8 && q != dnnl_s8 && !is_f8(q))) {
        why = kind + ": only "
                + (quantize ? "f32 -> u8/s8/f8" : "u8/s8/f8 -> f32")
                + " (got " + pair + ")";
        return false;
    }
    l.conv = quantize ? conv_t::quantize : conv_t::dequantize;
    l.qdt = q;
    return true;
}

// Scales and zero points as the generated code wants them: mul = 1/scale
// for Quantize (computed in f32 as the reference does), scale otherwise.
bool analyse_params(const ir::op_t &op, const std::string &kind, layout_t &l,
        std::string &why) {
    const std::string qtype
            = op.get_str(dnnl_graph_op_attr_qtype, "per_tensor");
    if (ops::iequals(qtype, "per_channel"))
        l.per_channel = true;
    else if (!ops::iequals(qtype, "per_tensor")) {
        why = kind + ": qtype " + qtype + " is not supported";
        return false;
    }
    const std::vector<float> scales = op.get_f32s(dnnl_graph_op_attr_scales);
    const std::vector<int64_t> zps = op.get_s64s(dnnl_graph_op_attr_zps);
    const dims_t dims = ir::dims_of(op.inputs[0]);
    int64_t axis = 0, c = 1;
    if (l.per_channel) {
        if (!ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis, 1),
                    static_cast<int>(dims.size()), axis)) {
            why = kind + ": per_channel axis out of range";
            return false;
        }
        c = dims[static_cast<size_t>(axis)];
    }
    if (static_cast<int64_t>(scales.size()) != c
            || (!zps.empty() && zps.size() != scales.size())) {
        why = kind + ": scales/zps do not match the channel count";
        return false;
    }
    std::vector<float> mul(scales.size()), zp(scales.size(), 0.f);
    for (size_t k = 0; k < scales.size(); ++k) {
        mul[k] = l.conv == conv_t::quantize ? 1.f / scales[k] : scales[k];
        if (!zps.empty()) zp[k] = static_cast<float>(zps[k]);
    }
    const int64_t n = ir::product(dims);
    if (!l.per_channel) {
        l.rows = 1;
        l.row_len = n;
        l.mul = mul;
        l.zp = zp;
        return true;
    }
    int64_t inner = 1;
    for (size_t k = static_cast<size_t>(axis) + 1; k < dims.size(); ++k)
        inner *= dims[k];
    l.channels = c;
    if (inner >= k_bcast_min_inner) {
        l.rows = c ? n / inner : 0; // outer * C runs of `inner`
        l.row_len = inner;
        l.mul = mul;
        l.zp = zp;
        return true;
    }
    l.params = params_t::vector;
    l.row_len = c * inner;
    l.rows = l.row_len ? n / l.row_len : 0;
    l.mul.resize(static_cast<size_t>(l.row_len));
    l.zp.resize(static_cast<size_t>(l.row_len));
    for (size_t ch = 0; ch < mul.size(); ++ch)
        for (size_t j = 0; j < static_cast<size_t>(inner); ++j) {
            l.mul[ch * static_cast<size_t>(inner) + j] = mul[ch];
            l.zp[ch * static_cast<size_t>(inner) + j] = zp[ch];
        }
    return true;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    std::string msg;
    auto decline = [&](const std::string &m) {
        if (why) *why = m;
        return false;
    };
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    const char *kname = ops::op_kind_name(op.kind);
    const std::string kind = kname ? kname : "?";
    if (op.kind != dnnl_graph_op_quantize && op.kind != dnnl_graph_op_dequantize
            && op.kind != dnnl_graph_op_type_cast)
        return decline(kind + " is not Quantize, Dequantize or TypeCast");
    if (op.inputs.size() != 1 || op.outputs.size() != 1)
        return decline(kind + ": unexpected port count");
    if (!analyse_types(op, kind, l, msg)) return decline(msg);
    // Row-major, or both tensors dense in the same other order (channel-
    // last, ...): the conversion then walks memory flat. Per-channel
    // parameters follow the row-major channel position, so they need
    // row-major tensors.
    // An input of the output's shape in another layout is first copied
    // into the output's (a channel-last intermediate feeding a row-major
    // output in a fused partition run step by step).
    const logical_tensor_t &to = op.outputs[0];
    logical_tensor_t ti = op.inputs[0];
    if (ir::is_dense_any_order(to) && ir::strides_known(ti)
            && ir::dims_of(ti) == ir::dims_of(to) && !ir::same_layout(ti, to)) {
        l.reorder = movement::relayout(ti, to,
                static_cast<size_t>(dt_size(ti.data_type)));
        std::memcpy(ti.layout.strides, to.layout.strides, sizeof(ti.layout.strides));
    }
    const bool flat = !ir::is_dense(ti) && ir::is_dense_any_order(ti)
            && ir::same_layout(ti, to);
    for (const logical_tensor_t *lt : {static_cast<const logical_tensor_t *>(&ti), &to})
        if (!ir::is_dense(*lt) && !flat)
            return decline(kind + ": tensor " + std::to_string(lt->id)
                    + " is neither dense row-major nor laid out as the other");
    if (ir::nelems(op.inputs[0]) != ir::nelems(op.outputs[0]))
        return decline(kind + ": input and output sizes differ");
    l.in = compiler::find_port(plan.inputs, op.inputs[0].id);
    l.out = compiler::find_port(plan.outputs, op.outputs[0].id);
    if (l.in < 0 || l.out < 0) return decline(kind + ": tensor is not a port");
    l.in_size = dt_size(op.inputs[0].data_type);
    l.out_size = dt_size(op.outputs[0].data_type);
    if (is_cast(l.conv)) {
        // Casts take no params; one dummy pair keeps the pointers valid.
        l.rows = 1;
        l.row_len = ir::nelems(op.inputs[0]);
        l.mul = {1.f};
        l.zp = {0.f};
        return true;
    }
    if (!analyse_params(op, kind, l, msg)) return decline(msg);
    if (flat && l.per_channel)
        return decline(kind + ": per-channel parameters need row-major "
                              "tensors");
    return true;
}

// Whether `l` runs C++ (quant_scalar.cpp) rather than generated code.
bool scalar(const layout_t &l) {
    return is_cast(l.conv) ? l.conv != conv_t::f32_to_bf16
                    && l.conv != conv_t::bf16_to_f32
                           : is_f8(l.qdt);
}

std::string kernel_name(const layout_t &l, bool avx512) {
    std::string n;
    switch (l.conv) {
        case conv_t::quantize:
            n = std::string("quantize_f32_") + ir::dtype_name(l.qdt);
            break;
        case conv_t::dequantize:
            n = std::string("dequantize_") + ir::dtype_name(l.qdt) + "_f32";
            break;
        case conv_t::f32_to_bf16: n = "typecast_f32_bf16"; break;
        case conv_t::bf16_to_f32: n = "typecast_bf16_f32"; break;
        case conv_t::f32_to_f16: n = "typecast_f32_f16"; break;
        case conv_t::f16_to_f32: n = "typecast_f16_f32"; break;
        case conv_t::bf16_to_f16: n = "typecast_bf16_f16"; break;
        case conv_t::f16_to_bf16: n = "typecast_f16_bf16"; break;
    }
    if (!is_cast(l.conv)) n += l.per_channel ? "_per_channel" : "_per_tensor";
    // The C++ conversions (quant_scalar.cpp): f8 through tables, the casts
    // with an f16 side through F16C intrinsics.
    if (!is_cast(l.conv) && is_f8(l.qdt)) return n + "_tables";
    if (scalar(l)) return n + "_f16c";
    return n + (avx512 ? "_avx512" : "_avx2");
}

class quant_kernel_t : public compiler::kernel_t {
public:
    quant_kernel_t(std::string name, convert_fn_t fn, layout_t l)
        : name_(std::move(name)), fn_(fn), l_(std::move(l)) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const auto *src = static_cast<const char *>(ctx.inputs[l_.in]);
        auto *dst = static_cast<char *>(ctx.outputs[l_.out]);
        scratch_frame_t frame;
        src = static_cast<const char *>(l_.reorder.apply(src, frame));
        const int64_t len = l_.row_len;
        if (len == 0 || l_.rows == 0) return dnnl_success;
        const int64_t per_row = (len + k_chunk - 1) / k_chunk;
        const int64_t grain = std::max<int64_t>(1, k_chunk / len);
        const bool vec = l_.params == params_t::vector;
        parallel_for(l_.rows * per_row, grain, [&](int64_t b, int64_t e) {
            for (int64_t it = b; it < e; ++it) {
                const int64_t r = it / per_row;
                const int64_t off = (it % per_row) * k_chunk;
                const int64_t base = r * len + off;
                const size_t p = static_cast<size_t>(
                        vec ? off : r % l_.channels);
                fn_(src + base * l_.in_size, dst + base * l_.out_size,
                        static_cast<size_t>(std::min(k_chunk, len - off)),
                        l_.mul.data() + p, l_.zp.data() + p);
            }
        });
        return dnnl_success;
    }

private:
    std::string name_;
    convert_fn_t fn_;
    layout_t l_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    if (!vector_loop_isa(isa, why)) return false;
    layout_t l;
    return analyse(plan, l, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu quant: %s", why.c_str());
    convert_fn_t fn = nullptr;
    if (scalar(l))
        LLGA_RETURN_IF_ERROR(get_convert_scalar(l.conv, l.qdt, l.params, &fn));
    else
        LLGA_RETURN_IF_ERROR(get_convert(l.conv, l.qdt, l.params, isa, &fn));
    const std::string name = kernel_name(l, isa == isa_t::avx512_core);
    out = std::make_shared<quant_kernel_t>(name, fn, std::move(l));
    return dnnl_success;
}

} // namespace quant
} // namespace cpu
} // namespace llga
