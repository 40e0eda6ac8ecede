// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax.hpp — the softmax JIT family: SoftMax (with
// the optional log-sum-exp stats output and mode "inf_as_zero") and
// LogSoftmax forward over any axis of a dense tensor; f32/bf16/f16 data,
// f32 math, AVX-512 and AVX2 variants. A contiguous axis runs per row
// (max, sum of exp, scale: three passes over an L1-resident row); any other
// axis runs vectors across the inner dimension. Asmjit-free header.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace softmax {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace softmax
} // namespace cpu
} // namespace llga
