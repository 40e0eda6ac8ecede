// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool_bwd.hpp — MaxPoolBackward on f32, bf16 or f16
// (all three tensors one type; 16-bit src rows widened into an f32 ring
// as the windows reach them, diff_dst widened and diff_src narrowed a run
// at a time): 1D/2D/3D, NXC or NCX, any strides
// on src, diff_dst and diff_src, kernel, stride, dilation, pads and
// auto_pad, with the reference's window geometry (ops/pool_geom.hpp).
// Each output's argmax is found over its clipped window in the reference's
// scan order with its rule (the first tap inside starts, only a strictly
// greater value replaces it, so ties keep the first and a NaN wins only as
// the first tap), and its gradient is added in double at that source
// position, outputs ascending, as the reference does: results match it bit
// for bit. Channel-last tensors run blocks of channels as the inner loop.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace pool_bwd {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace pool_bwd
} // namespace cpu
} // namespace llga
