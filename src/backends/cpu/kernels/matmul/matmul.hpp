// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul.hpp — the MatMul family of the CPU
// backend: which f32/bf16 MatMul partitions the JIT GEMM takes (dtypes,
// strides, batch broadcast, bias shape, fused post-op chains) and the kernel_t
// that runs them on gemm_t. The int8 MatMul is in matmul_int8.hpp.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace matmul {

// Kernel-table hooks (see kernels.def). f32 runs on the avx2 and
// avx512_core candidates, bf16 on avx512_core_amx (AMX tiles) or
// avx512_core_bf16 (vdpbf16ps); a single MatMul or MatMul -> [BiasAdd] ->
// post-ops (matmul_chain.hpp); anything else is declined with the reason
// in *why.
bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace matmul
} // namespace cpu
} // namespace llga
