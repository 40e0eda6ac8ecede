// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_analysis_p.hpp — reads a Convolution (a
// single-op partition, or the head of a fused chain) into one canonical
// description the conv kernels share: 3D geometry (1D/2D problems get unit
// outer spatial dims), groups, data types, and element strides of src/dst
// as (n, c, d, h, w) and of the weights as (oc, ic, kd, kh, kw) whatever
// NXC/NCX and XIO/OIX say. Also the weight reorder into the GEMM's
// [G][KD][KH][KW][ICg][OCg] form. asmjit-free.
#pragma once

#include <cstdint>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace conv {

struct conv_desc_t {
    int nsp = 2;            // spatial rank of the op (1..3)
    bool nxc = true;        // data_format (src and dst)
    int64_t N = 0, G = 1, ICg = 0, OCg = 0;
    int64_t ID = 1, IH = 1, IW = 1, OD = 1, OH = 1, OW = 1;
    int64_t KD = 1, KH = 1, KW = 1;
    int64_t SD = 1, SH = 1, SW = 1;
    int64_t DD = 1, DH = 1, DW = 1; // dilation: 1 is dense (oneDNN Graph)
    int64_t PD = 0, PH = 0, PW = 0; // pads_begin (pads_end follow from O*)
    // Element strides: src/dst as (n, c, d, h, w), weights (oc, ic, kd, kh, kw)
    // with oc over all OC and ic within a group.
    int64_t ss[5] = {}, ds[5] = {}, ws[5] = {};
    data_type_t src_dt = dnnl_f32, dst_dt = dnnl_f32, bias_dt = dnnl_f32;
    bool has_bias = false;
    bool wei_constant = false;
    // Partition port indices.
    int in_src = -1, in_wei = -1, in_bias = -1, out = -1;
    int64_t bias_stride = 1;

    int64_t IC() const { return G * ICg; }
    int64_t OC() const { return G * OCg; }
    int64_t ksize() const { return KD * KH * KW; }
    int64_t opix() const { return OD * OH * OW; }
    bool bf16() const { return src_dt == dnnl_bf16; }
    bool is_1x1_dense() const {
        return ksize() == 1 && SD == 1 && SH == 1 && SW == 1 && PD == 0
                && PH == 0 && PW == 0 && OD == ID && OH == IH && OW == IW;
    }
    bool depthwise() const { return ICg == 1 && OCg == 1 && G > 1; }
    std::string str() const; // "g2 mb1 ic8 oc16 8x8 k3x3 s1x1 d1x1 p1x1"
};

// Fills `d` from a Convolution partition; false with the reason in *why
// (if non-null) for anything the conv kernels cannot read: another op,
// unknown shapes or layouts, types other than f32 -> f32 / bf16 -> bf16|f32,
// a non-strict fpmath mode on f32, spatial rank > 3.
bool analyse(const compiler::plan_t &plan, conv_desc_t &d, std::string *why);

// The same for Convolution `op` of a (possibly fused) partition whose
// kernel writes `dst`: op's own output, or the last op of a post-op chain
// (same dims). dst_dt, the dst strides and `out` are then dst's; the
// caller checks the chain itself (conv_chain.hpp).
bool analyse_conv(const compiler::plan_t &plan, const ir::op_t &op,
        const logical_tensor_t &dst, conv_desc_t &d, std::string *why);

// Weights reordered into w[g][kd][kh][kw][ic][oc] (oc within the group),
// i.e. per group a row-major [K = KD*KH*KW*ICg, OCg] GEMM B matrix, in the
// weights' own type (es bytes per element); `kw_outer` swaps kh and kw
// (w[g][kd][kw][kh][ic][oc], the stacked-rows K order).
void reorder_weights_gemm(const conv_desc_t &d, const void *wei, void *out,
        bool kw_outer = false);

// The single stride of a walk over n dims (innermost first) with extents
// ext and element strides str, if there is one (extent-1 dims are free);
// else 0. E.g. the (ic, kw, kh, kd) walk of XIO weights is one stride.
int64_t collapse_stride(const int64_t *ext, const int64_t *str, int n);

// Elements between pixels (w steps) of dst/src when their (d, h, w) walk is
// one uniform stride (dense pixels), else 0.
int64_t pixel_stride(const int64_t s[5], int64_t D, int64_t H, int64_t W);

} // namespace conv
} // namespace cpu
} // namespace llga
