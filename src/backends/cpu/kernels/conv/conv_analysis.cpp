// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_analysis.cpp — Convolution partition -> the
// canonical conv_desc_t (see the header). Attributes are read with the ops/
// helpers the reference uses (spatial_attr, auto_pads, is_channel_last), so
// both sides agree on pads, dilations and formats; the output spatial dims
// are the declared (inferred) output's, checked against the formula.
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"

#include <cctype>
#include <cstring>

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/conv_util.hpp"
#include "ops/infer_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

// Scatters per-spatial values into the 3-slot (d, h, w) form: 1D fills w,
// 2D fills h and w.
void to3(const dims_t &v, int nsp, int64_t *d, int64_t *h, int64_t *w) {
    int64_t *out[3] = {d, h, w};
    for (int i = 0; i < nsp; ++i)
        *out[3 - nsp + i] = v[i];
}

} // namespace

std::string conv_desc_t::str() const {
    auto sp = [&](int64_t a, int64_t b, int64_t c) {
        std::string s;
        if (nsp == 3) s += std::to_string(a) + "x";
        if (nsp >= 2) s += std::to_string(b) + "x";
        return s + std::to_string(c);
    };
    return "g" + std::to_string(G) + " mb" + std::to_string(N) + " ic"
            + std::to_string(IC()) + " oc" + std::to_string(OC()) + " "
            + sp(ID, IH, IW) + " k" + sp(KD, KH, KW) + " s" + sp(SD, SH, SW)
            + " d" + sp(DD, DH, DW) + " p" + sp(PD, PH, PW);
}

int64_t collapse_stride(const int64_t *ext, const int64_t *str, int n) {
    int first = -1;
    for (int i = 0; i < n && first < 0; ++i)
        if (ext[i] > 1) first = i;
    if (first < 0) return 1; // a single element: any stride will do
    const int64_t q = str[first];
    if (q <= 0) return 0;
    int64_t span = 1; // elements walked so far, in units of q
    for (int i = 0; i < n; ++i) {
        if (ext[i] > 1 && str[i] != span * q) return 0;
        span *= ext[i];
    }
    return q;
}

int64_t pixel_stride(const int64_t s[5], int64_t D, int64_t H, int64_t W) {
    const int64_t ext[3] = {W, H, D}, str[3] = {s[4], s[3], s[2]};
    return collapse_stride(ext, str, 3);
}

bool analyse(const compiler::plan_t &plan, conv_desc_t &d, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    if (op.kind != dnnl_graph_op_convolution) {
        const char *kname = ops::op_kind_name(op.kind);
        if (why) *why = std::string(kname ? kname : "?") + " is not Convolution";
        return false;
    }
    if (op.outputs.size() != 1) {
        if (why) *why = "Convolution: unexpected port count";
        return false;
    }
    return analyse_conv(plan, op, op.outputs[0], d, why);
}

bool analyse_conv(const compiler::plan_t &plan, const ir::op_t &op,
        const logical_tensor_t &dst, conv_desc_t &d, std::string *why) {
    auto decline = [&](const std::string &msg) {
        if (why) *why = msg;
        return false;
    };
    if (op.inputs.size() < 2 || op.inputs.size() > 3 || op.outputs.size() != 1)
        return decline("Convolution: unexpected port count");
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v) {
            if (!ir::strides_known(lt) || !ir::shape_known(lt))
                return decline("Convolution: tensor " + std::to_string(lt.id)
                        + " has no concrete strided layout");
            if (ir::nelems(lt) == 0)
                return decline("Convolution: tensor " + std::to_string(lt.id)
                        + " is empty");
        }
    if (!ir::strides_known(dst) || !ir::shape_known(dst))
        return decline("Convolution: dst " + std::to_string(dst.id)
                + " has no concrete strided layout");
    if (ir::dims_of(dst) != ir::dims_of(op.outputs[0]))
        return decline("Convolution: the partition output is not the "
                       "Convolution's dst shape");
    const logical_tensor_t &src = op.inputs[0], &wei = op.inputs[1];
    d.src_dt = src.data_type;
    d.dst_dt = dst.data_type;
    if (wei.data_type != d.src_dt)
        return decline("Convolution: src and weights types differ");
    if (d.src_dt == dnnl_f32) {
        if (d.dst_dt != dnnl_f32)
            return decline("Convolution: f32 src needs f32 dst");
        if (op.fpmath != dnnl_fpmath_mode_strict)
            return decline("Convolution: fpmath mode is not strict; the "
                           "reference honours the down-conversion");
    } else if (d.src_dt == dnnl_bf16) {
        if (d.dst_dt != dnnl_bf16 && d.dst_dt != dnnl_f32)
            return decline("Convolution: bf16 src needs bf16 or f32 dst");
    } else {
        return decline(std::string("Convolution: src type ")
                + ir::dtype_name(d.src_dt) + " is not f32 or bf16");
    }

    const int rank = src.ndims;
    if (rank < 3 || rank > 5 || wei.ndims != rank || dst.ndims != rank)
        return decline("Convolution: needs 1 to 3 spatial dims and weights "
                       "of the data rank");
    const int nsp = rank - 2;
    d.nsp = nsp;
    d.nxc = ops::is_channel_last(op);
    const std::string wf = op.get_str(dnnl_graph_op_attr_weights_format, "XIO");
    const bool wxio = !wf.empty() && std::toupper(wf[0]) == 'X';
    d.G = op.get_s64(dnnl_graph_op_attr_groups, 1);
    if (d.G < 1) return decline("Convolution: groups < 1");

    const dims_t sd = ir::dims_of(src), ss = ir::strides_of(src);
    const dims_t wd = ir::dims_of(wei), wst = ir::strides_of(wei);
    const dims_t dd = ir::dims_of(dst), dst_s = ir::strides_of(dst);
    // (n, c, spatial...) positions of a data tensor.
    auto data_axes = [&](const dims_t &dims, const dims_t &str, int64_t *ext,
                             int64_t *st) {
        ext[0] = dims[0];
        st[0] = str[0];
        const int c = d.nxc ? rank - 1 : 1, sp0 = d.nxc ? 1 : 2;
        ext[1] = dims[c];
        st[1] = str[c];
        for (int i = 0; i < 3; ++i) {
            ext[2 + i] = 1;
            st[2 + i] = 0;
        }
        for (int i = 0; i < nsp; ++i) {
            ext[2 + 3 - nsp + i] = dims[sp0 + i];
            st[2 + 3 - nsp + i] = str[sp0 + i];
        }
    };
    int64_t se[5], de[5];
    data_axes(sd, ss, se, d.ss);
    data_axes(dd, dst_s, de, d.ds);
    d.N = se[0];
    if (de[0] != d.N) return decline("Convolution: batch sizes differ");
    d.ID = se[2];
    d.IH = se[3];
    d.IW = se[4];
    d.OD = de[2];
    d.OH = de[3];
    d.OW = de[4];

    // Weights: [OC, ICg, K...] (OIX) or [K..., ICg, OC] (XIO).
    const int woc = wxio ? rank - 1 : 0, wic = wxio ? rank - 2 : 1;
    const int wk0 = wxio ? 0 : 2;
    const int64_t OC = wd[woc];
    d.ICg = wd[wic];
    d.ws[0] = wst[woc];
    d.ws[1] = wst[wic];
    dims_t k(nsp);
    for (int i = 0; i < nsp; ++i) {
        k[i] = wd[wk0 + i];
        d.ws[2 + 3 - nsp + i] = wst[wk0 + i];
    }
    to3(k, nsp, &d.KD, &d.KH, &d.KW);
    if (OC % d.G != 0 || d.ICg * d.G != se[1] || de[1] != OC)
        return decline("Convolution: channels do not match weights/groups");
    d.OCg = OC / d.G;

    dims_t s, dil, pb, pe;
    const status_t e = dnnl_invalid_arguments;
    if (ops::spatial_attr(op, dnnl_graph_op_attr_strides, nsp, 1, e, s)
                    != dnnl_success
            || ops::spatial_attr(op, dnnl_graph_op_attr_dilations, nsp, 1, e,
                       dil) != dnnl_success
            || ops::spatial_attr(op, dnnl_graph_op_attr_pads_begin, nsp, 0, e,
                       pb) != dnnl_success
            || ops::spatial_attr(op, dnnl_graph_op_attr_pads_end, nsp, 0, e, pe)
                    != dnnl_success)
        return decline("Convolution: malformed spatial attributes");
    const dims_t xsp(sd.begin() + (d.nxc ? 1 : 2),
            sd.begin() + (d.nxc ? 1 : 2) + nsp);
    ops::auto_pads(op.get_str(dnnl_graph_op_attr_auto_pad, "None"), xsp, k, s,
            dil, pb, pe, false);
    for (int i = 0; i < nsp; ++i) {
        if (s[i] < 1 || dil[i] < 1 || pb[i] < 0 || pe[i] < 0)
            return decline("Convolution: bad strides/dilations/pads");
        const int64_t o = ops::conv_out_size(xsp[i], k[i], s[i], dil[i], pb[i],
                pe[i]);
        if (o != de[2 + 3 - nsp + i])
            return decline("Convolution: dst spatial dims do not match");
    }
    to3(s, nsp, &d.SD, &d.SH, &d.SW);
    to3(dil, nsp, &d.DD, &d.DH, &d.DW);
    to3(pb, nsp, &d.PD, &d.PH, &d.PW);

    d.in_src = compiler::find_port(plan.inputs, src.id);
    d.in_wei = compiler::find_port(plan.inputs, wei.id);
    d.out = compiler::find_port(plan.outputs, dst.id);
    if (d.in_src < 0 || d.in_wei < 0 || d.out < 0)
        return decline("Convolution: a tensor is not a partition port");
    d.wei_constant = plan.inputs[d.in_wei].property
            == dnnl_graph_tensor_property_constant;
    if (op.inputs.size() == 3) {
        const logical_tensor_t &bl = op.inputs[2];
        d.in_bias = compiler::find_port(plan.inputs, bl.id);
        if (d.in_bias < 0) return decline("Convolution: bias is not a port");
        if (bl.data_type != dnnl_f32 && bl.data_type != dnnl_bf16)
            return decline("Convolution: bias is not f32 or bf16");
        const dims_t bd = ir::dims_of(bl);
        if (bd.size() != 1 || bd[0] != OC)
            return decline("Convolution: bias is not [OC]");
        d.bias_dt = bl.data_type;
        d.bias_stride = ir::strides_of(bl)[0];
        d.has_bias = true;
    }
    return true;
}

void reorder_weights_gemm(const conv_desc_t &d, const void *wei, void *out,
        bool kw_outer) {
    const size_t es = d.bf16() ? 2 : 4;
    const char *w = static_cast<const char *>(wei);
    char *o = static_cast<char *>(out);
    // The two middle loops walk kh, kw (im2col) or kw, kh (stacked rows).
    const int64_t n1 = kw_outer ? d.KW : d.KH, n2 = kw_outer ? d.KH : d.KW;
    const int64_t s1 = kw_outer ? d.ws[4] : d.ws[3],
                  s2 = kw_outer ? d.ws[3] : d.ws[4];
    size_t i = 0;
    for (int64_t g = 0; g < d.G; ++g)
        for (int64_t kd = 0; kd < d.KD; ++kd)
            for (int64_t k1 = 0; k1 < n1; ++k1)
                for (int64_t k2 = 0; k2 < n2; ++k2)
                    for (int64_t ic = 0; ic < d.ICg; ++ic) {
                        const int64_t base = ic * d.ws[1] + kd * d.ws[2]
                                + k1 * s1 + k2 * s2;
                        if (d.ws[0] == 1) { // XIO: output channels contiguous
                            std::memcpy(o + i * es,
                                    w + (base + g * d.OCg) * static_cast<int64_t>(es),
                                    static_cast<size_t>(d.OCg) * es);
                            i += static_cast<size_t>(d.OCg);
                            continue;
                        }
                        for (int64_t oc = 0; oc < d.OCg; ++oc, ++i)
                            std::memcpy(o + i * es,
                                    w + (base + (g * d.OCg + oc) * d.ws[0])
                                                    * static_cast<int64_t>(es),
                                    es);
                    }
}

} // namespace conv
} // namespace cpu
} // namespace llga
