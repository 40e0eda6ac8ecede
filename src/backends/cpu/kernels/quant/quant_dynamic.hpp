// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/quant_dynamic.hpp — DynamicQuantize and
// DynamicDequantize on the CPU backend (quant_dynamic.cpp): runtime scales
// and zero points per tensor, channel or group, s4/u4/s8/u8/s32 storage,
// f32/bf16/f16 values, any strides; bit-identical to the reference.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace quant_dynamic {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace quant_dynamic
} // namespace cpu
} // namespace llga
