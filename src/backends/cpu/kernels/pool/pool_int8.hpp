// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool_int8.hpp — quantized max pooling in one pass
// (the x8_pool_post_ops and x8_pool_add_post_ops families): Dequantize
// (u8/s8, per tensor, positive scale) -> MaxPool -> elementwise ops ->
// [Quantize]. Dequantization with a positive scale is monotone, so the
// pool's maximum is the dequantized maximum byte; and the ops whose other
// operand is one value per (image, channel) plane map that byte through
// functions of the byte alone. So the kernel takes the byte maximum of
// each window and looks the result up in a per-plane table of the 256
// bytes (plus the empty window) made by running the partition's own ops,
// reference code, on those values. From the first operand that varies by
// pixel (a residual) on, the ops run per element in f32
// (pool_int8_tail.hpp). Bit for bit the op-by-op result, with no f32
// tensor. asmjit-free.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace pool_int8 {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace pool_int8
} // namespace cpu
} // namespace llga
