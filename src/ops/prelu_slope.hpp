// SPDX-License-Identifier: Apache-2.0
// ops/prelu_slope.hpp — how PReLU and PReLUBackward broadcast their slope
// onto src (the rule ops/bias_prelu.cpp owns), shared with backend kernels
// so every implementation maps a src element to the same slope element.
#pragma once

#include "base/c_types.hpp"
#include "ir/op.hpp"

namespace llga {
namespace ops {

// The slope (dims `slope`, strides `strides`) re-expressed at src's rank:
// a_dims is 1 where it broadcasts, a_strides its strides (`strides` may be
// the memory strides, or dense ones for the slope's row-major index). A
// 1-D slope of length != 1 lies on the channel axis (data_format) when
// per-channel (PReLU's per_channel_broadcast, always for PReLUBackward);
// otherwise it is right-aligned, each dim equal to src's or 1. False if it
// does not broadcast so.
bool prelu_slope_at_src_rank(const ir::op_t &op, const dims_t &src,
        const dims_t &slope, const dims_t &strides, dims_t &a_dims,
        dims_t &a_strides);

} // namespace ops
} // namespace llga
