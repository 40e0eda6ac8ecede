// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/prelu.hpp — PReLU and PReLUBackward (f32, bf16,
// f16) as threaded C++ loops with the reference's expressions: the slope
// broadcast of ops/prelu_slope.hpp walked as broadcast runs
// (broadcast_runs.hpp), and PReLUBackward's diff_slope summed in double in the
// reference's pieces and order (prelu_slope_sum.hpp), so every output is the
// reference's whatever the thread count.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace prelu {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace prelu
} // namespace cpu
} // namespace llga
