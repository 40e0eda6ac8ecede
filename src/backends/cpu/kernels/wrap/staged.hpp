// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/wrap/staged.hpp — single bf16/f16 ops (MatMul,
// Convolution, elementwise, ...) on hosts without bf16/f16 arithmetic
// (AVX2, AVX-512 without BF16): the partition's half-precision ports are
// widened to f32 copies, the f32 JIT kernel for the same op runs on them,
// and its f32 result is rounded into the real output. Last in the kernel
// table, so native kernels win where the host has them. Internal to
// backends/cpu.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace staged {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace staged
} // namespace cpu
} // namespace llga
