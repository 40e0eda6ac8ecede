// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool.hpp — MaxPool, AvgPool and AvgPoolBackward on
// f32, bf16 or f16 (both sides one type): 1D/2D/3D, NXC or NCX, any
// strides, kernel, stride, dilation, pads, auto_pad, floor/ceil rounding,
// exclude_pad, with the reference's window geometry (ops/pool_geom.hpp).
// Each output pixel's window is clipped to the source once, so no tap is
// tested against the bounds; channel-last tensors (unit channel stride)
// run their channels as a vector loop. The average sums in double and
// divides once, as the reference does, so results match it bit for bit.
// 16-bit data is widened to f32 a run at a time (a tap's chunk of
// channels, a source row, or a batch of small planes) into per-task
// buffers and the f32 results narrowed once (round to nearest even), as
// the reference rounds; an all-padding max window gives the type's
// lowest finite value.
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
