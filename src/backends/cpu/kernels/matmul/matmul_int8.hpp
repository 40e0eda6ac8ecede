// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul_int8.hpp — the quantized MatMul of the CPU
// backend: Dequantize(src u8/s8) and Dequantize(weights s8) -> MatMul ->
// [bias] -> [Quantize u8/s8] partitions run on the int8 GEMM driver
// (gemm_int8.hpp), which picks its own flavour (AMX, AVX512-VNNI,
// AVX-VNNI, AVX2) under the max-ISA knob.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace matmul {

// Kernel-table hooks (kernels.def: one line at avx2; the kernel's name
// says which flavour gemm_int8 chose).
bool accepts_int8(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_int8(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace matmul
} // namespace cpu
} // namespace llga
