// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/layernorm.hpp — the normalization JIT family:
// LayerNorm forward (normalized trailing dims, optional affine and
// mean/variance outputs) and GroupNorm forward (NCX and NXC; NXC with
// spatial dims runs groupnorm.cpp); f32/bf16/f16 data, f32 statistics,
// gamma and beta; AVX-512 and AVX2 variants. Asmjit-free header.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace layernorm {

// LayerNorm.
bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

// GroupNorm.
bool accepts_group(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_group(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace layernorm
} // namespace cpu
} // namespace llga
