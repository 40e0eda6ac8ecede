// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_int8_cfg.cpp — quantized Convolution partition
// -> conv_int8_cfg_t, plus the two byte loops the kernel runs (weights
// reorder, im2col with zero-point padding). See the header.
#include "backends/cpu/kernels/conv/conv_int8_cfg_p.hpp"

#include <algorithm>
#include <cstring>

#include "backends/cpu/kernels/conv/conv_chain_p.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/infer_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

// Smallest K (= KD*KH*KW*IC) for which an NCX convolution with an f32
// result runs here (see analyse_int8).
constexpr int64_t k_ncx_f32_min_k = 256;

// Whether some output pixel reads a tap outside the input along one
// spatial dim (padding, or a kernel overhanging the end).
bool touches_padding(int64_t I, int64_t O, int64_t K, int64_t S, int64_t D,
        int64_t P) {
    return P > 0 || (O - 1) * S - P + (K - 1) * D >= I;
}

// The BiasAdd after a bias-less Convolution as the conv's bias: channel
// axis last (as the NXC conv's channels), a [OC] f32 partition input.
bool read_bias_add(const compiler::plan_t &plan, const ir::op_t &ba,
        conv_desc_t &d, std::string *why) {
    if (d.has_bias)
        return decline(why, "Convolution has a bias and a BiasAdd");
    if (ops::is_channel_last(ba) != d.nxc)
        return decline(why, "BiasAdd: channel axis is not the Convolution's "
                            "output channels (its data_format differs)");
    if (ba.outputs[0].data_type != dnnl_f32)
        return decline(why, "BiasAdd output is not f32");
    const logical_tensor_t &b = ba.inputs[1];
    if (b.data_type != dnnl_f32) return decline(why, "bias is not f32");
    if (!matmul::tensor_usable(b, why)) return false;
    if (b.ndims != 1 || b.dims[0] != d.OC())
        return decline(why, "BiasAdd: bias is not [OC]");
    d.in_bias = compiler::find_port(plan.inputs, b.id);
    if (d.in_bias < 0) return decline(why, "bias is not a port");
    d.bias_stride = ir::strides_of(b)[0];
    d.bias_dt = dnnl_f32;
    d.has_bias = true;
    return true;
}

} // namespace

namespace {

// The chain between the conv (and its bias) and the output or Quantize,
// as gemm_int8 post-ops on the channel-last GEMM (rows = output pixels,
// columns = output channels). Operands must have contiguous channels, or
// (channel-first operands that vary by pixel) be copied channel-last
// first, as the GEMM's channel-last dst is on NCX data.
bool read_chain(const compiler::plan_t &plan, const ir::op_t &conv,
        const std::vector<matmul::chain_step_t> &steps,
        const common::tail_t &tail, conv_int8_cfg_t &c, std::vector<bool> &used,
        std::string *why) {
    conv_chain_t ch;
    ch.conv = &conv;
    ch.steps.assign(steps.begin() + tail.chain_begin,
            steps.begin() + tail.chain_end);
    for (const matmul::chain_step_t &st : ch.steps)
        if (st.op->kind == dnnl_graph_op_bias_add)
            return decline(why, "a second BiasAdd after the quantized "
                                "Convolution");
    conv_desc_t d = c.d; // the mapping reads the original layout
    conv_epilogue_t e;
    if (!map_conv_epilogue(plan, ch,
                c.ncx_1x1 ? gemm_view_t::channels_by_pixels
                          : gemm_view_t::pixels_by_channels,
                d, e, why, true))
        return false;
    // On NCX data an operand that varies by pixel is read from a dense
    // channel-last copy (po_operand_t::to_nxc), as the GEMM's dst is one;
    // the channel-first 1x1 reads operands with contiguous pixels.
    for (const po_operand_t &o : e.operands)
        if (c.ncx_1x1 ? o.pix_step > 1 || o.to_nxc
                      : o.c_step > 1
                                || (c.via_nxc && o.pix_step != 0 && !o.to_nxc))
            return decline(why, "a post-op operand of the quantized "
                                "Convolution is strided along the GEMM's "
                                "columns");
    for (int i : e.dequant_ops)
        used[static_cast<size_t>(i)] = true;
    c.post = e.post;
    common::set_chain_dst(c.out, c.post);
    c.po_operands = e.operands;
    return true;
}

} // namespace

bool analyse_int8(const compiler::plan_t &plan, conv_int8_cfg_t &c,
        std::string *why) {
    const int ci
            = matmul::single_op_of_kind(plan, dnnl_graph_op_convolution, why);
    if (ci < 0) return false;
    const ir::op_t &conv = plan.ops[ci];
    if (conv.inputs.size() < 2 || conv.inputs.size() > 3
            || conv.outputs.size() != 1)
        return decline(why, "Convolution: unexpected port count");
    std::vector<matmul::chain_step_t> steps;
    std::vector<bool> used;
    if (!matmul::walk_chain(plan, static_cast<size_t>(ci), steps, &used, why))
        return false;
    const ir::op_t *dqs = common::dequant_of(plan, conv, 0, used, why);
    if (!dqs) return false;
    const ir::op_t *dqw = common::dequant_of(plan, conv, 1, used, why);
    if (!dqw) return false;
    common::tail_t tail;
    if (!common::read_tail(steps, conv, tail, why, true)) return false;
    const data_type_t conv_dt = conv.outputs[0].data_type;
    if (conv_dt != dnnl_f32 && conv_dt != dnnl_bf16)
        return decline(why, "Convolution output is not f32 or bf16");
    if (conv_dt != dnnl_f32 && tail.bias_add)
        return decline(why, "BiasAdd after a bf16 Convolution result (the "
                            "reference rounds between them)");
    if (conv.fpmath != dnnl_fpmath_mode_strict
            && conv.fpmath != dnnl_fpmath_mode_any)
        return decline(why, "Convolution: fpmath mode rounds the dequantized "
                            "inputs; the int8 GEMM is exact");
    const logical_tensor_t &src = dqs->inputs[0], &wei = dqw->inputs[0];
    if (src.data_type != dnnl_u8 && src.data_type != dnnl_s8)
        return decline(why, "Dequantize of src is not u8/s8");
    if (wei.data_type != dnnl_s8)
        return decline(why, "Dequantize of weights is not s8 (gemm_int8 "
                            "takes s8 weights only)");
    const logical_tensor_t &dst
            = steps.empty() ? conv.outputs[0] : steps.back().op->outputs[0];
    if (!matmul::tensor_usable(dst, why)) return false;

    // Geometry: conv_analysis reads an f32 view of the op whose src,
    // weights and dst are the int8 ports (same dims and element strides).
    ir::op_t view = conv;
    view.inputs[0] = src;
    view.inputs[1] = wei;
    view.inputs[0].data_type = view.inputs[1].data_type = dnnl_f32;
    view.fpmath = dnnl_fpmath_mode_strict;
    logical_tensor_t dst_view = dst;
    dst_view.data_type = dnnl_f32;
    conv_desc_t &d = c.d;
    if (!analyse_conv(plan, view, dst_view, d, why)) return false;
    d.src_dt = src.data_type;
    d.dst_dt = dst.data_type;
    if (d.G != 1) return decline(why, "Convolution: groups > 1");
    if (d.has_bias && d.bias_dt != dnnl_f32 && d.bias_dt != dnnl_bf16)
        return decline(why, "bias is not f32 or bf16");
    if (tail.bias_add && !read_bias_add(plan, *tail.bias_add, d, why))
        return false;
    c.ncx_1x1 = !d.nxc && d.is_1x1_dense()
            && pixel_stride(d.ss, d.ID, d.IH, d.IW) == 1
            && pixel_stride(d.ds, d.OD, d.OH, d.OW) == 1
            && (dst.data_type == dnnl_f32 || dst.data_type == dnnl_bf16);
    if (!d.nxc && !c.ncx_1x1) {
        // Channel-first: the kernel reads and writes dense channel-last
        // byte copies, which cost far less than the f32 tensors of the
        // op-by-op steps (an f32 result is declined below).
        c.via_nxc = true;
        std::copy(d.ss, d.ss + 5, c.ncx_ss);
        std::copy(d.ds, d.ds + 5, c.ncx_ds);
        const int64_t is[5] = {d.ID * d.IH * d.IW * d.IC(), 1,
                d.IH * d.IW * d.IC(), d.IW * d.IC(), d.IC()};
        const int64_t os[5] = {d.OD * d.OH * d.OW * d.OC(), 1,
                d.OH * d.OW * d.OC(), d.OW * d.OC(), d.OC()};
        std::copy(is, is + 5, d.ss);
        std::copy(os, os + 5, d.ds);
    }
    if (!c.ncx_1x1 && d.ss[1] != 1 && d.IC() > 1)
        return decline(why, "src channels are not contiguous");
    if (!c.ncx_1x1 && d.ds[1] != 1 && d.OC() > 1)
        return decline(why, "dst channels are not contiguous");
    c.src_pix = pixel_stride(d.ss, d.ID, d.IH, d.IW);
    c.dst_pix = pixel_stride(d.ds, d.OD, d.OH, d.OW);
    if (c.dst_pix == 0)
        return decline(why, "dst pixels are not one uniform stride");

    common::qparams_t qs, qw;
    if (!common::read_qparams(*dqs, qs, why)
            || !common::read_qparams(*dqw, qw, why))
        return false;
    if (qs.axis >= 0)
        return decline(why, "Dequantize of src: per-channel scales");
    if (qw.axis >= 0) {
        // Per output channel only: the last weights dim (XIO) or the first
        // (OIX); conv_desc_t keeps the OC stride, not the axis, so ask.
        const std::string wf
                = conv.get_str(dnnl_graph_op_attr_weights_format, "XIO");
        const bool xio = !wf.empty() && (wf[0] == 'X' || wf[0] == 'x');
        const int64_t oc_axis = xio ? wei.ndims - 1 : 0;
        if (qw.axis != oc_axis
                || static_cast<int64_t>(qw.scales.size()) != d.OC())
            return decline(why, "Dequantize of weights: per-channel scales "
                                "not along the output channels");
    }
    c.src_s8 = src.data_type == dnnl_s8;
    c.src_scale = qs.scales[0];
    c.src_zp = qs.zp;
    c.wei_scales = qw.scales;
    c.wei_zp = qw.zp;
    if (!common::read_out_quant(steps, tail, dst, c.out, why)) return false;
    if (tail.has_chain() && !read_chain(plan, conv, steps, tail, c, used, why))
        return false;
    for (size_t i = 0; i < used.size(); ++i)
        if (!used[i])
            return decline(why, std::string(ops::op_kind_name(plan.ops[i].kind))
                            + " is not part of the quantized Convolution");
    // The channel-first 1x1 adds the per-channel scales and the bias as
    // operands of its own ahead of the chain's.
    if (c.ncx_1x1
            && c.po_operands.size() + (c.wei_scales.size() > 1 ? 1 : 0)
                            + (d.has_bias ? 1 : 0)
                    > static_cast<size_t>(gemm::k_max_po_operands))
        return decline(why, "Convolution: too many post-op operands");
    // Channel-first with an f32 result: moving 4-byte values back from
    // the channel-last scratch costs about what the int8 GEMM saves over
    // dequantizing and running the f32 convolution when K is small (AVX2,
    // NCX 50x64x56x56 ReLU, 1x1: K = 64 19.5 ms op by op vs 34 ms here,
    // K = 128 on par; K = 256 57 vs 51 ms, 3x3 K = 288 63 vs 44 ms, K = 576
    // 111 vs 65 ms). 8- and 16-bit results always take this kernel.
    if (c.via_nxc && c.out.dst == gemm_int8::i8_dst_t::f32
            && c.K() < k_ncx_f32_min_k)
        return decline(why, "Convolution: NCX data with an f32 result and "
                            "K < " + std::to_string(k_ncx_f32_min_k)
                        + " (transposing the f32 dst back costs more than "
                          "the int8 GEMM saves)");

    c.direct = !c.ncx_1x1 && d.is_1x1_dense() && c.src_pix != 0;
    if (!c.direct) {
        // Padding is written as the src zero point; it must be a value of
        // the src type.
        const bool pads = touches_padding(d.ID, d.OD, d.KD, d.SD, d.DD, d.PD)
                || touches_padding(d.IH, d.OH, d.KH, d.SH, d.DH, d.PH)
                || touches_padding(d.IW, d.OW, d.KW, d.SW, d.DW, d.PW);
        const int32_t lo = c.src_s8 ? -128 : 0, hi = c.src_s8 ? 127 : 255;
        if (pads && (c.src_zp < lo || c.src_zp > hi))
            return decline(why, "src zero point is not a value of the src "
                                "type, so padding cannot hold it");
    }
    const int64_t ext[4] = {d.ICg, d.KW, d.KH, d.KD};
    const int64_t str[4] = {d.ws[1], d.ws[4], d.ws[3], d.ws[2]};
    c.sbk = collapse_stride(ext, str, 4);
    c.wei_in_place = c.sbk != 0;
    c.sbn = d.ws[0];
    if (!c.wei_in_place) {
        c.sbk = d.OC();
        c.sbn = 1;
    }
    return true;
}

void reorder_weights_int8(const conv_int8_cfg_t &c, const int8_t *wei,
        int8_t *out) {
    const conv_desc_t &d = c.d;
    const int64_t OC = d.OC();
    int64_t k = 0;
    for (int64_t kd = 0; kd < d.KD; ++kd)
        for (int64_t kh = 0; kh < d.KH; ++kh)
            for (int64_t kw = 0; kw < d.KW; ++kw)
                for (int64_t ic = 0; ic < d.ICg; ++ic, ++k) {
                    const int8_t *w = wei + ic * d.ws[1] + kd * d.ws[2]
                            + kh * d.ws[3] + kw * d.ws[4];
                    for (int64_t oc = 0; oc < OC; ++oc)
                        out[k * OC + oc] = w[oc * d.ws[0]];
                }
}

void im2col_int8(const conv_int8_cfg_t &c, const char *src, int64_t n,
        int64_t p0, int64_t rows, char *panel, int64_t lda) {
    const conv_desc_t &d = c.d;
    const int pad = c.src_zp; // the byte pattern of zp in u8 or s8
    const size_t ic = static_cast<size_t>(d.IC());
    const size_t kw_run = static_cast<size_t>(d.KW) * ic;
    // The KW taps of a kernel row are one run of input bytes when the
    // columns are dense and not dilated.
    const bool row_runs = d.DW == 1 && d.ss[4] == d.IC();
    const char *img = src + n * d.ss[0];
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t p = p0 + r;
        const int64_t ow = p % d.OW, oh = p / d.OW % d.OH,
                      od = p / (d.OW * d.OH);
        char *out = panel + r * lda;
        const int64_t iw0 = ow * d.SW - d.PW;
        for (int64_t kd = 0; kd < d.KD; ++kd) {
            const int64_t id = od * d.SD - d.PD + kd * d.DD;
            if (id < 0 || id >= d.ID) {
                std::memset(out, pad, kw_run * static_cast<size_t>(d.KH));
                out += kw_run * static_cast<size_t>(d.KH);
                continue;
            }
            for (int64_t kh = 0; kh < d.KH; ++kh, out += kw_run) {
                const int64_t ih = oh * d.SH - d.PH + kh * d.DH;
                if (ih < 0 || ih >= d.IH) {
                    std::memset(out, pad, kw_run);
                    continue;
                }
                const char *line = img + id * d.ss[2] + ih * d.ss[3];
                if (row_runs && iw0 >= 0 && iw0 + d.KW <= d.IW) {
                    std::memcpy(out, line + iw0 * d.ss[4], kw_run);
                    continue;
                }
                for (int64_t kw = 0; kw < d.KW; ++kw) {
                    const int64_t iw = iw0 + kw * d.DW;
                    char *o = out + static_cast<size_t>(kw) * ic;
                    if (iw < 0 || iw >= d.IW)
                        std::memset(o, pad, ic);
                    else
                        std::memcpy(o, line + iw * d.ss[4], ic);
                }
            }
        }
    }
}

} // namespace conv
} // namespace cpu
} // namespace llga
