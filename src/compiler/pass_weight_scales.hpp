// SPDX-License-Identifier: Apache-2.0
// compiler/pass_weight_scales.hpp — pass 0: per-channel scales on the
// weights of a Convolution or ConvTranspose follow its output channels.
// oneDNN v3.9 hands a per_channel Dequantize fused onto such weights to the
// primitive as "one scale per output channel" and never reads its `axis`:
// programs write axis=1 on XIO weights and get per-OC scales. This pass
// gives that Dequantize (and a per_channel Quantize feeding it, the
// in-graph weight quantization) the weights' output-channel dim as axis, so
// every kernel and the reference compute what oneDNN computes.
#pragma once

#include "compiler/pass_infer_shapes.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace compiler {

// Rewrites only when the Dequantize's result is read by nothing but the
// convolution's weights input (directly or through one TypeCast), and the
// number of scales equals the weights' output-channel dim; otherwise the
// ops keep their axis (and a count that does not match it is refused by
// shape inference, as for a standalone Dequantize). `known` gives the
// shapes of the partition's inputs.
void pass_weight_scales(plan_t &plan, const lt_map_t &known);

} // namespace compiler
} // namespace llga
