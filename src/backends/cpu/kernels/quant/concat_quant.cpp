// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/concat_quant.cpp — the quantized Concat (see
// concat_quant.hpp): the partition's shape check, the tables, and the
// per-input copies into the output.
#include "backends/cpu/kernels/quant/concat_quant.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "backends/cpu/kernels/common/int8_quant_params.hpp"
#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "backends/cpu/kernels/quant/quant.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace cpu {
namespace concat_quant {

namespace {

bool is_q8(data_type_t t) {
    return t == dnnl_u8 || t == dnnl_s8 || t == dnnl_f8_e4m3
            || t == dnnl_f8_e5m2;
}

// One input: its port, the copy into the output, and its byte table
// (empty: the identity, a plain copy).
struct piece_t {
    int in = -1;
    int64_t dst_off = 0;
    movement::copy_desc_t c;
    std::vector<uint8_t> lut;
};

struct layout_t {
    int out = -1;
    std::vector<piece_t> pieces;
    std::string name;
};

// A per-tensor (De)Quantize's scale and zero point (per-channel values
// that are all equal count as one), read as the int8 kernels read them.
bool per_tensor(const ir::op_t &op, float *scale, float *zp, std::string *why) {
    common::qparams_t q;
    if (!common::read_qparams(op, q, why)) return false;
    if (q.axis >= 0)
        return decline(why, "quantized Concat: per-channel parameters");
    *scale = q.scales[0];
    *zp = static_cast<float>(q.zp);
    return true;
}

// The converter of one direction for 8-bit type t (generated code, or
// the C++ tables for the f8 types; all bit-exact against the reference).
bool converter(quant::conv_t c, data_type_t t, quant::convert_fn_t *fn) {
    const bool f8 = t == dnnl_f8_e4m3 || t == dnnl_f8_e5m2;
    return (f8 ? quant::get_convert_scalar(c, t, quant::params_t::scalar, fn)
               : quant::get_convert(c, t, quant::params_t::scalar,
                       isa_t::avx2, fn))
            == dnnl_success;
}

// q_out(v) for the 256 bytes v of type `in`: dequantized (scale_in, zp_in)
// to f32, then quantized (1/scale_out, zp_out) to `out`, by the same
// conversions the op-by-op kernels run. Empty when it is the identity.
bool byte_table(data_type_t in, float s_in, float z_in, data_type_t out,
        float s_out, float z_out, std::vector<uint8_t> &lut, std::string *why) {
    quant::convert_fn_t deq = nullptr, q = nullptr;
    if (!converter(quant::conv_t::dequantize, in, &deq)
            || !converter(quant::conv_t::quantize, out, &q))
        return decline(why, "quantized Concat: no converter: " + last_error());
    std::array<uint8_t, 256> bytes;
    for (int v = 0; v < 256; ++v)
        bytes[static_cast<size_t>(v)] = static_cast<uint8_t>(v);
    std::array<float, 256> f;
    deq(bytes.data(), f.data(), 256, &s_in, &z_in);
    const float mul = 1.f / s_out; // as quant.cpp, and the reference
    lut.resize(256);
    q(f.data(), lut.data(), 256, &mul, &z_out);
    bool identity = in == out;
    for (int v = 0; v < 256 && identity; ++v)
        identity = lut[static_cast<size_t>(v)] == v;
    if (identity) lut.clear();
    return true;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *concat = nullptr, *quant = nullptr;
    size_t deqs = 0;
    for (const ir::op_t &op : plan.ops) {
        if (op.kind == dnnl_graph_op_concat && !concat) concat = &op;
        else if (op.kind == dnnl_graph_op_quantize && !quant) quant = &op;
        else if (op.kind == dnnl_graph_op_dequantize) ++deqs;
        else return decline(why, "quantized Concat: not Dequantize -> Concat -> Quantize");
    }
    if (!concat || !quant || deqs != concat->inputs.size()
            || quant->inputs.size() != 1 || quant->outputs.size() != 1
            || concat->outputs.size() != 1
            || quant->inputs[0].id != concat->outputs[0].id)
        return decline(why, "quantized Concat: not Dequantize -> Concat -> Quantize");
    const logical_tensor_t &out = quant->outputs[0];
    l.out = compiler::find_port(plan.outputs, out.id);
    if (l.out < 0 || plan.outputs.size() != 1 || !is_q8(out.data_type)
            || concat->outputs[0].data_type != dnnl_f32
            || ir::dims_of(out) != ir::dims_of(concat->outputs[0]))
        return decline(why, "quantized Concat: output is not an 8-bit port");
    float s_out = 1.f, z_out = 0.f;
    if (!per_tensor(*quant, &s_out, &z_out, why)) return false;
    int64_t axis = concat->get_s64(dnnl_graph_op_attr_axis, 0);
    if (axis < 0) axis += out.ndims;
    if (axis < 0 || axis >= out.ndims)
        return decline(why, "quantized Concat: axis out of range");
    int64_t at = 0;
    for (const logical_tensor_t &x : concat->inputs) {
        const int at_op = matmul::producer_of(plan, x.id);
        const ir::op_t *dq = at_op < 0 ? nullptr : &plan.ops[static_cast<size_t>(at_op)];
        if (!dq || dq->kind != dnnl_graph_op_dequantize || x.ndims != out.ndims)
            return decline(why, "quantized Concat: an input is not dequantized");
        const logical_tensor_t &src = dq->inputs[0];
        piece_t pc;
        pc.in = compiler::find_port(plan.inputs, src.id);
        if (pc.in < 0 || !is_q8(src.data_type) || x.data_type != dnnl_f32)
            return decline(why, "quantized Concat: a Dequantize does not read an 8-bit port");
        float s = 1.f, z = 0.f;
        if (!per_tensor(*dq, &s, &z, why)) return false;
        if (!byte_table(src.data_type, s, z, out.data_type, s_out, z_out, pc.lut, why))
            return false;
        pc.dst_off = at * out.layout.strides[axis];
        pc.c.es = 1;
        pc.c.dims = ir::dims_of(src);
        pc.c.src_strides = ir::strides_of(src);
        pc.c.dst_strides = ir::strides_of(out);
        l.pieces.push_back(std::move(pc));
        at += src.dims[axis];
    }
    if (at != out.dims[axis])
        return decline(why, "quantized Concat: inputs do not fill the axis");
    l.name = std::string("concat_quant_") + ir::dtype_name(out.data_type);
    return true;
}

class concat_quant_kernel_t : public compiler::kernel_t {
public:
    explicit concat_quant_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        char *dst = static_cast<char *>(ctx.outputs[l_.out]);
        for (const piece_t &p : l_.pieces) {
            if (p.lut.empty())
                movement::strided_copy(p.c, ctx.inputs[p.in], dst + p.dst_off);
            else
                movement::strided_map_bytes(p.c, p.lut.data(),
                        ctx.inputs[p.in], dst + p.dst_off);
        }
        return dnnl_success;
    }

private:
    layout_t l_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, concat_quant_kernel_t>(plan, "concat_quant",
            analyse, out);
}

} // namespace concat_quant
} // namespace cpu
} // namespace llga
