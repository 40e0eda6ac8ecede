// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/layernorm_bwd.hpp — LayerNormBackward on dense
// row-major tensors: src, diff_dst and diff_src f32, bf16 or f16; the
// statistics, gamma and the weight gradients f32, or bf16 with bf16 data;
// with or without gamma, with or without the diff_gamma / diff_beta
// outputs. diff_src is computed row by row and the weight gradients by
// blocks of columns over all rows (unit-stride inner loops), each with the
// reference's double expressions in its order; 16-bit data are widened
// exactly into L1 buffers and every result rounded once into its type, so
// results match the reference bit for bit.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace layernorm_bwd {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace layernorm_bwd
} // namespace cpu
} // namespace llga
