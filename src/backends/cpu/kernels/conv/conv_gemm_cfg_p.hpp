// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_gemm_cfg_p.hpp — how conv_gemm.cpp lays a
// Convolution partition (a single op, or a Convolution -> post-op chain)
// on the JIT GEMM: the mode (channel-last 1x1, channel-first 1x1, implicit
// im2col), the weights as B, the implicit blocking, and the fused epilogue
// (conv_chain.hpp). Split from the kernel so each file stays readable.
// asmjit-free.
#pragma once

#include <cstdint>
#include <string>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "backends/cpu/kernels/conv/conv_chain_p.hpp"
#include "backends/cpu/kernels/gemm/gemm.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace conv {

// stacked: see gemm_cfg_t::orows.
enum class gemm_mode_t { direct_nxc, direct_ncx, implicit, stacked };

struct gemm_cfg_t {
    conv_desc_t d;
    gemm::ukr_kind_t kind = gemm::ukr_kind_t::f32_avx2;
    gemm_mode_t mode = gemm_mode_t::implicit;
    bool via_nxc = false; // implicit on NCX data: dense NXC scratch
    // direct_ncx of a strided 1x1 (no padding): the pixels the kernel
    // reads are first gathered into a dense [N][IC][pixels] copy, which
    // the GEMM reads as B (gather_1x1_ncx).
    bool gather = false;
    int64_t K = 0;        // GEMM K: KD*KH*KW*ICg
    int64_t qs = 0, qd = 0; // src / dst elements between pixels
    // B = weights read in place when their (kd, kh, kw, ic) walk is one
    // stride (XIO, or any 1x1): B[k, oc] at k * wsbk + oc * wsbn. Else a
    // reordered [G][K][OCg] copy (wsbk = OCg, wsbn = 1).
    bool w_inplace = false;
    int64_t wsbk = 0, wsbn = 1;
    // implicit: pixel rows per panel, output-channel block width and counts
    int64_t mb = 0, nblk = 0, ncw = 0, nck = 0;
    // stacked (2D, dense kernel columns, wide output rows): per output row,
    // the input rows its kernel rows read are interleaved into one buffer
    // S[iwp][kh][ic] of iwp = (OW - 1) * SW + KW padded input columns; an
    // output pixel's K values, in (kw, kh, ic) order, are then one run of
    // S starting at column ow * SW, so the GEMM reads A in place with rows
    // lda = SW * KH * ICg apart. S is about KW / SW times smaller than the
    // im2col rows and built from whole channel runs (conv1, 3 channels:
    // 1568 runs of 12 bytes per output row instead of 784 of 84 spread
    // over 66 KB). orows output rows per task (nblk tasks per image).
    int64_t orows = 0, lda = 0, iwp = 0;
    // Fused partition: the post-op chain in the GEMM epilogue. With
    // direct_ncx the bias is its first op (a per-row add of operand -1).
    bool fused = false;
    conv_epilogue_t epi;
};

// Reads `plan` for the GEMM candidate of `isa`; false with the reason in
// *why when that candidate cannot run it.
bool configure_gemm(const compiler::plan_t &plan, isa_t isa, int nthreads,
        gemm_cfg_t &c, std::string *why);

} // namespace conv
} // namespace cpu
} // namespace llga
