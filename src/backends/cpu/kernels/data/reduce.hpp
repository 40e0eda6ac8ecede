// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/data/reduce.hpp — ReduceSum, ReduceMean, ReduceMax,
// ReduceMin, ReduceProd, ReduceL1 and ReduceL2 on f32, bf16 or f16 (src
// and dst one type; any source strides, dense destination; 16-bit source
// tiles widened into an L1 buffer, results rounded once into the type).
// Each output accumulates in double over its reduced elements in
// row-major order, as the reference does, so results match it bit for
// bit (a NaN anywhere in a slice gives NaN, for max/min too). When
// the innermost dim is kept, a block of neighbouring outputs accumulates
// together, so the inner loop is unit-stride for them; otherwise each
// output walks its reduced elements with the innermost reduced dim inside.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace reduce {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace reduce
} // namespace cpu
} // namespace llga
