// SPDX-License-Identifier: Apache-2.0
// ops/infer_util.hpp — building blocks for shape inference shared by families:
// writing an output shape against what the user declared, identity and
// broadcast inference, and spatial (conv/pool) size arithmetic.
#pragma once

#include <string>

#include "ir/op.hpp"

namespace llga {
namespace ops {

// Writes `dims` into op.outputs[k]. If the user declared a rank it must match
// (invalid_shape); declared known dims must equal the inferred ones.
status_t set_output(ir::op_t &op, size_t k, const dims_t &dims);
// Requires op.inputs[k] to have a known shape (invalid_shape otherwise).
status_t require_shape(const ir::op_t &op, size_t k);
// Requires a rank in [lo, hi].
status_t require_rank(const ir::op_t &op, size_t k, int lo, int hi);

// Output 0 takes the shape of input 0.
status_t infer_identity(ir::op_t &op);
// Output 0 = numpy (or "none") broadcast of inputs 0 and 1 per auto_broadcast.
status_t infer_broadcast(ir::op_t &op);

// Channel-last data formats ("NXC") vs channel-first ("NCX").
bool is_channel_last(const ir::op_t &op);
// Spatial dims of an NCX/NXC tensor and its channel count.
dims_t spatial_dims(const dims_t &d, bool channel_last);
dim_t channels(const dims_t &d, bool channel_last);
// Assembles [N, C, X...] or [N, X..., C].
dims_t make_data_dims(dim_t n, dim_t c, const dims_t &x, bool channel_last);

// Pads for auto_pad in {"SAME_UPPER","SAME_LOWER","VALID"} (case-insensitive);
// returns false if auto_pad is "None"/absent (pads stay as given).
bool auto_pads(const std::string &auto_pad, const dims_t &in, const dims_t &k,
        const dims_t &s, const dims_t &d, dims_t &pb, dims_t &pe,
        bool transpose = false);
// Largest dimension (and element count) llga accepts: 2^48. Real tensors are
// far smaller; the bound keeps every size computation inside int64.
constexpr dim_t max_dim = dim_t(1) << 48;

// Output size of one conv/pool spatial dim (dilation convention: 1 = none);
// -1 if it would exceed max_dim or the stride is not positive.
dim_t conv_out_size(dim_t in, dim_t k, dim_t s, dim_t d, dim_t pb, dim_t pe,
        bool ceil_mode = false);

} // namespace ops
} // namespace llga
