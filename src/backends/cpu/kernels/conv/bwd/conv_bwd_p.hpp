// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/bwd/conv_bwd_p.hpp — the backward convolutions of
// the CPU backend, f32 on the JIT GEMM: ConvolutionBackwardData and
// ConvTranspose ("compute X": GEMM into column panels, then col2im adds them
// into X, conv_bwd_data.cpp) and ConvolutionBackwardWeights and
// ConvTransposeBackwardWeights ("compute W": im2col panels of X times diff_dst,
// accumulated over the batch, conv_bwd_weights.cpp). With unit strides "compute
// X" is itself a forward convolution (flipped kernel, conv_bwd_flip.cpp) and
// runs on the forward conv kernels. ConvTransposeBackwardData is a forward
// Convolution and reaches the forward conv kernels through
// compiler/pass_relabel_ops.hpp.
//
// Both use the relation of ops/conv_util.hpp: X is the side whose positions
// are o*S + k*D - PB, Y the other, and W[cy, xi, k]. The description below
// reuses the forward conv_desc_t with X in the I* fields (src) and Y in the
// O* fields (dst), so the im2col builder of the forward kernels serves.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "backends/cpu/kernels/gemm/gemm.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace conv_bwd {

struct bwd_desc_t {
    bool compute_w = false; // else compute X
    // X: ID.., ICg, ss; Y: OD.., OCg, ds; W: ws as (cy, xi, kd, kh, kw);
    // has_bias / bias_stride: ConvTranspose's bias (X channels).
    conv::conv_desc_t d;
    // Partition ports: the written tensor's (X, or W with compute_w) is an
    // output index, the others input indices; bias -1 when there is none.
    int x = -1, y = -1, w = -1, bias = -1;
    gemm::ukr_kind_t kind = gemm::ukr_kind_t::f32_avx2;
    std::string op_name;
};

// Fills `b` from a single-op partition holding one of the four ops; false
// with the reason in *why for anything else: types other than f32, a
// non-strict fpmath mode, unknown layouts, spatial rank above 3, or an ISA
// without an f32 GEMM flavour.
bool analyse(const compiler::plan_t &plan, isa_t isa, bwd_desc_t &b,
        std::string *why);

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

// Element strides (n, c, d, h, w) of a dense channel-last X (x_side) or Y
// tensor of `d`, and an f32 copy of the whole X or Y tensor between two
// such stride sets (threaded; movement.hpp's strided copy).
void dense_nxc_strides(const conv::conv_desc_t &d, bool x_side, int64_t *s);
void copy_f32(const conv::conv_desc_t &d, bool x_side, const float *src,
        const int64_t *src_s, float *dst, const int64_t *dst_s);
// Y as the GEMMs read it: `y` itself when `in_place`, else a dense
// channel-last copy taken from `frame`; *yn is the elements between images.
const float *y_for_gemm(const conv::conv_desc_t &d, const float *y,
        bool in_place, scratch_frame_t &frame, int64_t *yn);

// "compute X" with unit strides as a forward Convolution of Y with the
// flipped weights, on the forward conv kernels of `isa`
// (conv_bwd_flip.cpp); accepts_flipped says whether one takes it.
bool accepts_flipped(const compiler::plan_t &plan, const bwd_desc_t &b,
        isa_t isa, std::string *why);
status_t make_flipped_kernel(const compiler::plan_t &plan, const bwd_desc_t &b,
        isa_t isa, std::shared_ptr<const compiler::kernel_t> &out);

// The two GEMM kernels (conv_bwd_data.cpp, conv_bwd_weights.cpp).
status_t make_data_kernel(const bwd_desc_t &b,
        std::shared_ptr<const compiler::kernel_t> &out);
status_t make_weights_kernel(const bwd_desc_t &b,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace conv_bwd
} // namespace cpu
} // namespace llga
