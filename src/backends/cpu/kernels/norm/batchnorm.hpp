// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/batchnorm.hpp — BatchNormInference (and, below,
// BatchNormForwardTraining) on dense row-major tensors, NXC or NCX: data
// f32, bf16 or f16; parameters and statistics f32, or bf16 with bf16 data.
// Each element is computed with the reference's own double expression,
// gamma (x - mean) / sqrt(var + eps) + beta in that order, so results
// match it bit for bit (16-bit data widen exactly, piece by piece into L1
// buffers, and each result is rounded once into its type); the
// per-channel values are read once per call, and channel-last data runs
// its channels as the inner loop.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace batchnorm {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

// BatchNormForwardTraining, dense, the same types: batch mean and
// variance summed in double in the reference's order, the normalized output and the running
// statistics (momentum, 0.5 when absent, as the reference), bit-identical;
// channel blocks in parallel.
bool accepts_training(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_training(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace batchnorm
} // namespace cpu
} // namespace llga
