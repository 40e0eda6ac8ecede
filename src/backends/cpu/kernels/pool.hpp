// backends/cpu/kernels/pool.hpp — MaxPool, AvgPool and AvgPoolBackward on
// f32 (bf16 and f16 reach it through the staged kernel): 1D/2D/3D, NXC or NCX, any
// strides, kernel, stride, dilation, pads, auto_pad, floor/ceil rounding,
// exclude_pad, with the reference's window geometry (ops/pool_geom.hpp).
// Each output pixel's window is clipped to the source once, so no tap is
// tested against the bounds; channel-last tensors (unit channel stride)
// run their channels as a vector loop. The average sums in double and
// divides once, as the reference does, so results match it bit for bit.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace pool {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace pool
} // namespace cpu
} // namespace llga
