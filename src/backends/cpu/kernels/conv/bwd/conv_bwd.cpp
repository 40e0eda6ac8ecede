// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/bwd/conv_bwd.cpp — a backward-convolution partition
// -> bwd_desc_t (see conv_bwd.hpp), the kernel-table hooks, and the dense
// channel-last copies both kernels make of operands they cannot read in place.
// The geometry is the reference's own (ops::conv_op_geometry), so pads,
// auto_pad, output_padding and the derived sizes cannot disagree.
#include "backends/cpu/kernels/conv/bwd/conv_bwd_p.hpp"

#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/conv_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace conv_bwd {

namespace {

// Scatters nsp per-spatial values into the (d, h, w) slots: 1D fills w,
// 2D fills h and w; the missing outer ones keep `fill`.
void to3(const dims_t &v, int nsp, int64_t fill, int64_t *out3) {
    for (int i = 0; i < 3; ++i)
        out3[i] = fill;
    for (int i = 0; i < nsp; ++i)
        out3[3 - nsp + i] = v[static_cast<size_t>(i)];
}

// Element strides of a data tensor as (n, c, d, h, w); absent spatial dims
// get 0 (their extent is 1).
void data_strides(const logical_tensor_t &lt, bool nxc, int nsp, int64_t *s) {
    const dims_t st = ir::strides_of(lt);
    const int rank = nsp + 2;
    s[0] = st[0];
    s[1] = st[nxc ? rank - 1 : 1];
    for (int i = 0; i < 3; ++i)
        s[2 + i] = 0;
    for (int i = 0; i < nsp; ++i)
        s[2 + 3 - nsp + i] = st[static_cast<size_t>((nxc ? 1 : 2) + i)];
}

} // namespace

bool analyse(const compiler::plan_t &plan, isa_t isa, bwd_desc_t &b,
        std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    const char *kname = ops::op_kind_name(op.kind);
    b.op_name = kname ? kname : "?";
    switch (op.kind) {
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_conv_transpose: b.compute_w = false; break;
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_weights:
            b.compute_w = true;
            break;
        default: return decline(why, b.op_name + " is not a backward conv");
    }
    if (isa == isa_t::avx2)
        b.kind = gemm::ukr_kind_t::f32_avx2;
    else if (isa == isa_t::avx512_core)
        b.kind = gemm::ukr_kind_t::f32_avx512;
    else
        return decline(why, std::string("f32 GEMM flavours are avx2 and "
                                        "avx512_core, not ")
                        + isa_name(isa));
    if (op.outputs.size() != 1 || op.inputs.size() < 2)
        return decline(why, b.op_name + ": unexpected port count");
    if (op.fpmath != dnnl_fpmath_mode_strict)
        return decline(why, b.op_name + ": fpmath mode is not strict; the "
                                        "reference honours the down-conversion");

    const ops::conv_roles_t r = ops::conv_roles(op.kind);
    auto lt_of = [&](int role) -> const logical_tensor_t & {
        return role < 0 ? op.outputs[0] : op.inputs[static_cast<size_t>(role)];
    };
    for (int role : {r.x, r.y, r.w}) {
        const logical_tensor_t &lt = lt_of(role);
        if (!ir::strides_known(lt) || !ir::shape_known(lt))
            return decline(why, b.op_name + ": tensor " + std::to_string(lt.id)
                            + " has no concrete strided layout");
        if (lt.data_type != dnnl_f32)
            return decline(why, b.op_name + ": only f32 tensors");
        if (ir::nelems(lt) == 0)
            return decline(why, b.op_name + ": empty tensor");
    }
    ops::conv_geom_t g;
    if (ops::conv_op_geometry(op, g) != dnnl_success)
        return decline(why, b.op_name + ": " + last_error());
    if (g.nsp < 1 || g.nsp > 3)
        return decline(why, b.op_name + ": needs 1 to 3 spatial dims");

    conv::conv_desc_t &d = b.d;
    d.nsp = g.nsp;
    d.nxc = g.channel_last;
    d.N = g.n;
    d.G = g.groups;
    d.ICg = g.cx / g.groups;
    d.OCg = g.cy / g.groups;
    int64_t v[3];
    to3(g.xsp, g.nsp, 1, v);
    d.ID = v[0], d.IH = v[1], d.IW = v[2];
    to3(g.ysp, g.nsp, 1, v);
    d.OD = v[0], d.OH = v[1], d.OW = v[2];
    to3(g.k, g.nsp, 1, v);
    d.KD = v[0], d.KH = v[1], d.KW = v[2];
    to3(g.s, g.nsp, 1, v);
    d.SD = v[0], d.SH = v[1], d.SW = v[2];
    to3(g.d, g.nsp, 1, v);
    d.DD = v[0], d.DH = v[1], d.DW = v[2];
    to3(g.pb, g.nsp, 0, v);
    d.PD = v[0], d.PH = v[1], d.PW = v[2];
    data_strides(lt_of(r.x), d.nxc, g.nsp, d.ss);
    data_strides(lt_of(r.y), d.nxc, g.nsp, d.ds);
    // Weights: [cy, xi, K...] or [K..., xi, cy].
    const dims_t wst = ir::strides_of(lt_of(r.w));
    const int nsp = g.nsp;
    const bool sf = g.weights_spatial_first;
    d.ws[0] = wst[static_cast<size_t>(sf ? nsp + 1 : 0)];
    d.ws[1] = wst[static_cast<size_t>(sf ? nsp : 1)];
    for (int i = 0; i < 3; ++i)
        d.ws[2 + i] = 0;
    for (int i = 0; i < nsp; ++i)
        d.ws[2 + 3 - nsp + i] = wst[static_cast<size_t>((sf ? 0 : 2) + i)];

    auto port = [&](int role) {
        const logical_tensor_t &lt = lt_of(role);
        return role < 0 ? compiler::find_port(plan.outputs, lt.id)
                        : compiler::find_port(plan.inputs, lt.id);
    };
    b.x = port(r.x);
    b.y = port(r.y);
    b.w = port(r.w);
    if (b.x < 0 || b.y < 0 || b.w < 0)
        return decline(why, b.op_name + ": a tensor is not a partition port");
    if (op.kind == dnnl_graph_op_conv_transpose && op.inputs.size() > 2) {
        const logical_tensor_t &bl = op.inputs[2];
        b.bias = compiler::find_port(plan.inputs, bl.id);
        if (b.bias < 0 || bl.data_type != dnnl_f32 || bl.ndims != 1
                || !ir::strides_known(bl))
            return decline(why, b.op_name + ": bias is not an f32 [C] port");
        d.has_bias = true;
        d.bias_stride = ir::strides_of(bl)[0];
    }
    return true;
}

void dense_nxc_strides(const conv::conv_desc_t &d, bool x_side, int64_t *s) {
    const int64_t C = x_side ? d.IC() : d.OC();
    const int64_t H = x_side ? d.IH : d.OH, W = x_side ? d.IW : d.OW;
    const int64_t D = x_side ? d.ID : d.OD;
    s[1] = 1;
    s[4] = C;
    s[3] = W * C;
    s[2] = H * W * C;
    s[0] = D * H * W * C;
}

void copy_f32(const conv::conv_desc_t &d, bool x_side, const float *src,
        const int64_t *src_s, float *dst, const int64_t *dst_s) {
    movement::copy_desc_t c;
    c.es = 4;
    c.dims = {d.N, x_side ? d.IC() : d.OC(), x_side ? d.ID : d.OD,
            x_side ? d.IH : d.OH, x_side ? d.IW : d.OW};
    c.src_strides.assign(src_s, src_s + 5);
    c.dst_strides.assign(dst_s, dst_s + 5);
    movement::strided_copy(movement::simplify(c), src, dst);
}

namespace {

// Fewest X pixels (all images) for which the flipped form pays for
// rewriting the weights once more (layers with few pixels and many
// channels are dominated by their weights).
constexpr int64_t k_flip_min_pixels = 256;

// Which kernel runs `b`: 'f' the flipped forward convolution (unit
// strides; not 1x1 layers, which the GEMM kernel runs as one plain GEMM),
// 'd' / 'w' the GEMM kernels, 0 none (depthwise groups as GEMMs would be
// one-column products; the reference is left to them).
char pick(const compiler::plan_t &plan, const bwd_desc_t &b, isa_t isa,
        std::string *why) {
    const conv::conv_desc_t &d = b.d;
    const bool worth_flipping = d.depthwise()
            || (d.ksize() > 1 && d.N * d.ID * d.IH * d.IW >= k_flip_min_pixels);
    std::string flip_why = "not flipped";
    if (!b.compute_w && worth_flipping
            && accepts_flipped(plan, b, isa, &flip_why))
        return 'f';
    if (b.d.depthwise()) {
        decline(why, b.op_name + ": depthwise groups as GEMMs would be "
                        "one-column products; " + flip_why);
        return 0;
    }
    return b.compute_w ? 'w' : 'd';
}

} // namespace

const float *y_for_gemm(const conv::conv_desc_t &d, const float *y,
        bool in_place, scratch_frame_t &frame, int64_t *yn) {
    *yn = d.ds[0];
    if (in_place) return y;
    int64_t dense[5];
    dense_nxc_strides(d, false, dense);
    float *copy = static_cast<float *>(frame.take(
            static_cast<size_t>(d.N * d.opix() * d.OC()) * sizeof(float)));
    copy_f32(d, false, y, d.ds, copy, dense);
    *yn = dense[0];
    return copy;
}

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    bwd_desc_t b;
    return analyse(plan, isa, b, why) && pick(plan, b, isa, why) != 0;
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    bwd_desc_t b;
    std::string why;
    const char how = analyse(plan, isa, b, &why) ? pick(plan, b, isa, &why) : 0;
    switch (how) {
        case 'f': return make_flipped_kernel(plan, b, isa, out);
        case 'd': return make_data_kernel(b, out);
        case 'w': return make_weights_kernel(b, out);
        default:
            return fail(dnnl_unimplemented, "cpu conv_bwd: %s", why.c_str());
    }
}

} // namespace conv_bwd
} // namespace cpu
} // namespace llga
