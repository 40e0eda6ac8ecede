// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_copy_p.hpp — the data movement around the conv
// kernels: building an im2col panel or stacked input rows from a
// channel-last source, moving a
// strided NCX tensor to a dense NXC scratch and back, and the f32 bias
// vector every kernel adds. asmjit-free.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"

namespace llga {
namespace cpu {
namespace conv {

// A channel-last view: element strides (n, c, d, h, w) with c stride 1.
struct nxc_view_t {
    const char *p = nullptr;
    int64_t s[5] = {};
};

// Rows [p0, p0 + rows) of image n's output pixels, group g, as an im2col
// panel: row r holds for every (kd, kh, kw) the ICg input channels the
// pixel's tap reads (zeros for taps in the padding), K = KD*KH*KW*ICg
// elements per row, rows `ldp` elements apart.
void im2col_nxc(const conv_desc_t &d, const nxc_view_t &src, int64_t n,
        int64_t g, int64_t p0, int64_t rows, char *panel, int64_t ldp);

// The stacked rows of output row oh of image n, group g (see
// gemm_cfg_t::orows): S[iwp][kh][ic] for the `iwp` padded input columns
// (iw = iwp - PW) and the kernel rows (ih = oh * SH - PH + kh * DH), zeros
// where either is outside the input. 2D (KD = 1).
void stacked_rows_nxc(const conv_desc_t &d, const nxc_view_t &src,
        int64_t n, int64_t g, int64_t oh, int64_t iwp, char *s);

// Strided tensor with (n, c, d, h, w) strides `s` and the given extents ->
// dense [N][D][H][W][C] (and back), es-byte elements (1, 2 or 4);
// threaded over rows (channel blocks on the way back).
void to_dense_nxc(const char *src, const int64_t s[5], int64_t N, int64_t C,
        int64_t D, int64_t H, int64_t W, size_t es, char *dst);
void from_dense_nxc(const char *src, int64_t N, int64_t C, int64_t D,
        int64_t H, int64_t W, size_t es, char *dst, const int64_t s[5]);

// The pixels a 1x1 convolution without padding reads (input pixel
// (od*SD, oh*SH, ow*SW) for every output pixel) of the NCX src: dense
// [N][IC][OD*OH*OW], es-byte elements; threaded over (image, channel).
void gather_1x1_ncx(const conv_desc_t &d, const char *src, size_t es,
        char *dst);

// The bias input as OC f32 values followed by `pad` zeros (the GEMM and
// the depthwise kernel read whole vectors past the last channel).
std::vector<float> bias_f32(const conv_desc_t &d, const void *bias,
        int64_t pad);

} // namespace conv
} // namespace cpu
} // namespace llga
