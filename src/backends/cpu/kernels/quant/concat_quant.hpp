// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/concat_quant.hpp — a quantized Concat in one pass:
// Dequantize on every input (per tensor, 8-bit), Concat, Quantize (per
// tensor, 8-bit). Each input's requantization depends on nothing but its
// byte, so it is a 256-entry table made with the quantization kernels'
// own (bit-exact) conversions, and the partition becomes one strided copy
// per input mapped through its table, or a plain copy where the table is
// the identity (the usual case: one scale and zero point throughout).
// No f32 tensor is ever written. asmjit-free.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace concat_quant {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace concat_quant
} // namespace cpu
} // namespace llga
