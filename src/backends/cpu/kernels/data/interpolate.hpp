// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/data/interpolate.hpp — Interpolate and
// InterpolateBackward on the CPU backend (interpolate.cpp): f32, bf16 or
// f16 (one type; 16-bit rows widened and narrowed around the f32 loops),
// nearest and linear modes, 1D to 3D, any layout, bit-identical to the
// reference.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace interpolate {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace interpolate
} // namespace cpu
} // namespace llga
