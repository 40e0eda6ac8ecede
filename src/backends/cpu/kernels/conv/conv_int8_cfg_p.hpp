// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_int8_cfg_p.hpp — reads a quantized Convolution
// partition (Dequantize(src u8/s8), Dequantize(weights s8) -> Convolution
// -> [BiasAdd] -> [ReLU/Clamp...] -> [Quantize u8/s8]) into what the int8
// conv kernel (conv_int8.cpp) needs: the conv geometry (conv_desc_t, read
// by conv_analysis on an f32 view of the int8 ports), the quantization
// values, the weights as a GEMM B [K = KD*KH*KW*IC, N = OC], and which mode
// runs it. asmjit-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernels/common/int8_quant_params.hpp"
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "backends/cpu/kernels/conv/conv_chain_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_postops.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace conv {

struct conv_int8_cfg_t {
    conv_desc_t d;            // geometry, strides (elements = bytes), ports
    bool src_s8 = false;      // src u8 otherwise; weights always s8
    float src_scale = 1.f;
    int32_t src_zp = 0, wei_zp = 0;
    std::vector<float> wei_scales; // 1, or one per output channel
    common::out_quant_t out;        // f32, or u8/s8 with scale, zp, bounds
    // A dense 1x1 (stride 1, no padding) with uniformly strided pixels: the
    // conv is one GEMM over all pixels of all images, src read in place.
    bool direct = false;
    int64_t src_pix = 0, dst_pix = 0; // elements between pixels (uniform)
    // Weights as B[k][oc], k = ((kd * KH + kh) * KW + kw) * IC + ic: read
    // in place when that walk has one stride (XIO, any 1x1), else
    // reordered into a dense [K][OC] copy (OIX).
    bool wei_in_place = true;
    int64_t sbk = 0, sbn = 0;
    // Channel-first 1x1 (dense, stride 1, no padding) with pixels
    // contiguous and an f32/bf16 result: per image one GEMM
    // W [OC, IC] x X [IC, pixels] straight into the NCX dst, as the f32
    // 1x1 runs it. The weights are A (s8); X is B, read in place (u8
    // through gemm_int8_desc_t::wei_u8). Per-channel weight scales and
    // the bias become per-row post-ops ahead of the chain.
    bool ncx_1x1 = false;
    // NCX data: the kernel runs on dense channel-last copies of src and
    // dst (d.ss / d.ds then describe the copies); the tensors' own
    // strides are kept here.
    bool via_nxc = false;
    int64_t ncx_ss[5] = {}, ncx_ds[5] = {};
    // A post-op chain between the conv (and its bias) and the output or
    // the Quantize, run by gemm_int8's chain kernels (post.dst_dt is
    // `out`'s type; post.ops[i].bs has the image step of each operand).
    // Operands are f32 or dequantized s8/u8 inputs; channel-first ones
    // that vary by pixel are copied channel-last per execution (to_nxc).
    gemm::postops_t post;
    std::vector<po_operand_t> po_operands; // port and steps, chain order
    int64_t K() const { return d.ksize() * d.IC(); }
};

// Fills `c` from the partition; false with the reason in *why otherwise.
bool analyse_int8(const compiler::plan_t &plan, conv_int8_cfg_t &c,
        std::string *why);

// The weights (s8, strides of c.d.ws) as a dense row-major [K][OC] matrix.
void reorder_weights_int8(const conv_int8_cfg_t &c, const int8_t *wei,
        int8_t *out);

// Rows [p0, p0 + rows) (output pixels of image n) of the im2col panel of
// u8/s8 `src`: row r holds the KD*KH*KW*IC input values its output pixel
// reads, ic innermost, `lda` bytes apart. Taps in the padding hold the src
// zero point, which dequantizes to exactly 0 as the reference's padding.
void im2col_int8(const conv_int8_cfg_t &c, const char *src, int64_t n,
        int64_t p0, int64_t rows, char *panel, int64_t lda);

} // namespace conv
} // namespace cpu
} // namespace llga
