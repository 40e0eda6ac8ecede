// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa.hpp — the kernel-table hooks of the fused
// scaled dot-product attention kernel (sdpa.cpp), which runs the partitions
// of the float_sdp_fusion and int8_sdp_fusion passes whole. Internal to
// backends/cpu.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace sdpa
} // namespace cpu
} // namespace llga
