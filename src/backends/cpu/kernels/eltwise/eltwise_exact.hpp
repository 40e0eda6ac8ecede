// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_exact.hpp — elementwise ops the
// generated eltwise family does not cover (Log, Mish, SoftPlus, Pow,
// Reciprocal) and the twelve unary backward ops (AbsBackward ... TanhBackward),
// f32, bf16 and f16 (each port its own type), as plain threaded C++ loops with
// the reference's own scalar formula (ops/eltwise_math.hpp) inlined: the
// results are bit-identical to the reference, and the time is the formula's,
// not the reference's per-element index arithmetic. 16-bit ports are widened
// and narrowed 512 elements at a time through L1 (convert_rows.hpp). Tensors
// are walked flat in the output's dense memory order; inputs laid out otherwise
// are copied into that order first.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace eltwise_exact {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace eltwise_exact
} // namespace cpu
} // namespace llga
