// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/gen_index.hpp — GenIndex (dst[i] = the index of
// element i along `axis`, s32, src never read) as a threaded C++ loop: the
// index is the offset of a virtual operand that is 1 everywhere but the
// axis, walked as broadcast runs (broadcast_runs.hpp), so any dense output
// order writes contiguous runs of i0, i0 + step, ...
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace gen_index {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace gen_index
} // namespace cpu
} // namespace llga
