// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax_bwd.hpp — SoftMaxBackward and
// LogSoftmaxBackward on f32, bf16 or f16 (diff_dst and dst one type,
// diff_src that type or, for SoftMaxBackward, f32), any axis and strides:
// per slice along the axis, the reference's double sum (dy·y, or dy) and
// then its expression per element (y (dy − s), or dy − e^y s) in double.
// 16-bit tensors are widened piece by piece into L1 buffers (exact) and
// each result rounded once into its type, as the reference stores it.
// SoftMaxBackward matches the reference bit for bit; LogSoftmaxBackward
// takes e^y from the JIT exp (1.14 ulp in f32) where the reference has a
// double exp, so each result is within about 2^-22 |e^y s| plus one
// rounding of it. Slices run in parallel, many at once along a dense run
// after the axis or (slices strided along the axis) a unit-stride dim.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace softmax_bwd {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace softmax_bwd
} // namespace cpu
} // namespace llga
