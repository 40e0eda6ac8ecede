// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_int8.hpp — the quantized Convolution of the
// CPU backend: Dequantize(src u8/s8) and Dequantize(weights s8) -> Convolution
// -> [bias] -> [ReLU/Clamp] -> [Quantize u8/s8] partitions (channel-last,
// groups 1) run on the int8 GEMM driver (gemm_int8.hpp): a dense 1x1 as one
// GEMM, anything else as GEMMs over im2col panels of the int8 src.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace conv {

// Kernel-table hooks (kernels.def: one line at avx2; the kernel's name
// says which flavour gemm_int8 chose).
bool accepts_int8(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_int8(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace conv
} // namespace cpu
} // namespace llga
