// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv.hpp — the Convolution family of the CPU
// backend (forward, f32 and bf16): kernel-table hooks for the GEMM-based
// kernels (1x1 as one GEMM, everything else as implicit GEMM over im2col
// panels, conv_gemm.cpp), the direct batch-reduce kernel (conv_brg.cpp) and the
// JIT depthwise direct kernel (conv_dw.cpp).
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace conv {

// GEMM-based: f32 on avx2 / avx512_core, bf16 on avx512_core_bf16 /
// avx512_core_amx (the gemm micro-kernel flavour of that level).
bool accepts_gemm(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_gemm(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

// Direct batch-reduce kernel (conv_brg.cpp): channel-last, groups 1,
// 1D/2D; f32 on avx512_core, bf16 (even IC) on avx512_core_bf16.
bool accepts_brg(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_brg(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

// Depthwise (groups == IC == OC), channel-last data: f32 on avx2 /
// avx512_core, bf16 (f32 math) on avx512_core_bf16.
bool accepts_dw(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_dw(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace conv
} // namespace cpu
} // namespace llga
