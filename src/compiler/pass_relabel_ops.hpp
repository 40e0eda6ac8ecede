// SPDX-License-Identifier: Apache-2.0
// compiler/pass_relabel_ops.hpp — pass 3: ops that are another op under a
// different name are renamed to it, so every backend's kernels for the
// other op run them. Today one: ConvTransposeBackwardData, whose math is a
// forward Convolution of diff_dst with the same weights read as OIX/XIO.
#pragma once

#include "compiler/plan.hpp"

namespace llga {
namespace compiler {

// ConvTransposeBackwardData(diff_dst, W as IOX | XOI) == Convolution(src =
// diff_dst, W as OIX | XIO) with the same strides, dilations, pads,
// auto_pad, groups and data_format: in both, output[cy] sums
// input[xi] * W[cy, xi, k] over the window (ops/conv_util.hpp names cy and
// xi), and the transposed op's "I" axis is the forward op's "O" axis.
void pass_relabel_ops(plan_t &plan);

} // namespace compiler
} // namespace llga
