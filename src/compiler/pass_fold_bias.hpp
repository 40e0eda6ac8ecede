// SPDX-License-Identifier: Apache-2.0
// compiler/pass_fold_bias.hpp — pass 4: a BiasAdd straight after a
// Convolution, ConvTranspose or MatMul that has no bias input becomes that
// op's bias input. Every kernel of those ops adds its bias in the epilogue,
// so a partition such as Convolution → BiasAdd → ReLU that no fused kernel
// takes whole still loses a full pass over the output (and the BiasAdd step
// that would otherwise run on the reference).
#pragma once

#include "compiler/plan.hpp"

namespace llga {
namespace compiler {

// Folds where it is exact for f32 results: the anchor's output is f32, read
// only by the BiasAdd and not a port; the BiasAdd's channel axis is the
// anchor's output channel (Convolution/ConvTranspose: the same
// data_format; MatMul: the last axis, i.e. NXC or rank <= 2); the bias is
// 1-D, of the anchor's src type, and has one value per channel.
void pass_fold_bias(plan_t &plan);

} // namespace compiler
} // namespace llga
