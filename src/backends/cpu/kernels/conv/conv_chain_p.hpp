// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_chain_p.hpp — fused Convolution partitions
// (Convolution -> unary/binary post-ops) on the GEMM-based conv kernels:
// finding the Convolution and its chain (matmul_chain's walk), reading the
// conv dst as a GEMM in the orientation conv_gemm lays it out (which dst
// axes are the rows, the columns and the image batch), and mapping the
// chain onto gemm::postops_t (matmul_chain's mapping) together with what
// the kernel needs to point each task's GEMM at its part of every operand.
// asmjit-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_postops.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace conv {

// How a conv_gemm mode reads the (per image, per group) conv dst as C.
enum class gemm_view_t {
    pixels_by_channels, // rows = output pixels, columns = output channels
                        // (channel-last 1x1 and every implicit GEMM)
    channels_by_pixels, // rows = output channels, columns = pixels
                        // (channel-first 1x1, W x X)
};

// The Convolution of a multi-op partition and the chain after it.
struct conv_chain_t {
    const ir::op_t *conv = nullptr;
    const logical_tensor_t *dst = nullptr; // the value the kernel writes
    std::vector<matmul::chain_step_t> steps;
};

// Finds the one Convolution of `plan` and walks its chain (every op of the
// partition must be on it). False with the reason in *why.
bool find_conv_chain(const compiler::plan_t &plan, conv_chain_t &ch,
        std::string *why);

// One runtime operand of the epilogue as the conv kernel addresses it.
struct po_operand_t {
    // Partition input read; -1: the kernel's own f32 bias vector (the
    // channel-first 1x1 adds its bias as a per-row post-op when fused).
    int port = -1;
    int64_t es = 4; // bytes per element
    // Elements to step per image, per output pixel (flattened d, h, w) and
    // per output channel; 0 along axes where the operand broadcasts.
    int64_t n_step = 0, pix_step = 0, c_step = 0;
    // A channel-first operand with strided channels read by a
    // pixels_by_channels GEMM (whose columns must be contiguous): copied
    // first into a dense channel-last buffer of its own extents (n, c, d,
    // h, w) from strides `str`, which the steps above then describe.
    bool to_nxc = false;
    int64_t ext[5] = {1, 1, 1, 1, 1}, str[5] = {};
};

// The base the kernel reads operand `o` from, given the partition input
// `input`: the input itself, or (to_nxc) a dense channel-last copy of it
// made in `frame`.
const char *operand_base(const po_operand_t &o, const void *input,
        scratch_frame_t &frame);

struct conv_epilogue_t {
    // post.ops[i].bs has one entry (the image axis) for every operand.
    gemm::postops_t post;
    std::vector<po_operand_t> operands; // in chain order
    std::vector<int> dequant_ops; // see matmul::fp_epilogue_t
};

// Maps `ch.steps` onto the epilogue of a GEMM reading the conv dst as
// `view`. A BiasAdd right after a bias-less Convolution becomes the conv's
// bias (fills d.has_bias / in_bias / bias_dt / bias_stride).
// `dequant_operands`: see matmul::map_fp_epilogue (the int8 conv's chain).
bool map_conv_epilogue(const compiler::plan_t &plan, const conv_chain_t &ch,
        gemm_view_t view, conv_desc_t &d, conv_epilogue_t &e,
        std::string *why, bool dequant_operands = false);

} // namespace conv
} // namespace cpu
} // namespace llga
