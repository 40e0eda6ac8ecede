// backends/cpu/kernels/pool_int8.hpp — quantized max pooling in one pass
// (the x8_pool_post_ops family): Dequantize (u8/s8, per tensor, positive
// scale) -> MaxPool -> elementwise ops whose other operand is one value per
// (image, channel) plane -> [Quantize]. Dequantization with a positive scale
// is monotone, so the pool's maximum is the dequantized maximum byte; and
// everything after the pool maps that byte through ops that do not depend
// on the pixel. So the kernel takes the byte maximum of each window and
// looks the result up in a per-plane table of the 256 bytes (plus the
// empty window) made by running the partition's own ops, reference code,
// on those values: bit for bit the op-by-op result, with no f32 tensor.
// asmjit-free.
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
