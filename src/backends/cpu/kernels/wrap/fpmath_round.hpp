// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/wrap/fpmath_round.hpp — partitions whose MatMul or
// convolution reads f32 src/weights under a graph fpmath mode of bf16, f16
// or tf32: those operands are rounded as the mode permits (exactly as the
// reference rounds them), then the strict-mode kernel the table picks for
// the same partition runs (fpmath_round.cpp).
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace fpmath_round {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace fpmath_round
} // namespace cpu
} // namespace llga
