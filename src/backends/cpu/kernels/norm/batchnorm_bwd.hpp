// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/batchnorm_bwd.hpp — BatchNormTrainingBackward:
// src, diff_dst and diff_src f32, bf16 or f16; mean, variance, gamma and
// the weight gradients f32, or bf16 with bf16 data. NXC or NCX, any rank,
// any strides on src, diff_dst and diff_src and on the per-channel
// vectors, with or without gamma, with one, two or three outputs
// (diff_src, diff_gamma, diff_beta). Per channel, the two sums (diff_dst,
// and diff_dst times the normalized source) run in double in the
// reference's order, then every diff_src element is the reference's own
// double expression, so all outputs match it bit for bit (16-bit data
// widen exactly, piece by piece into L1 buffers, and each result rounds
// once into its type). Channel-last tensors run blocks of channels as the
// unit-stride inner loop.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace batchnorm_bwd {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace batchnorm_bwd
} // namespace cpu
} // namespace llga
