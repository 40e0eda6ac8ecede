// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/select_compare.hpp — GreaterEqual (f32, bf16,
// f16 or s32 inputs, boolean output) and Select (boolean cond; f32, bf16 or f16
// values) with any numpy broadcast, as threaded C++ loops over broadcast runs
// (broadcast_runs.hpp). Both compute what the reference does: the comparison of
// two exactly widened values, and a copy of the chosen value with the NaN
// quieting the reference's trip through double applies.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace select_compare {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace select_compare
} // namespace cpu
} // namespace llga
