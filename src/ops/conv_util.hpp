// SPDX-License-Identifier: Apache-2.0
// ops/conv_util.hpp — private helpers of the conv and pool family files:
// reading per-spatial-dim attributes, the verify-time checks they share, and
// the canonical geometry of the six convolution ops (see conv.cpp).
#pragma once

#include <vector>

#include "ops/op_def.hpp"

namespace llga {
namespace ops {

// Reads the s64[] attribute `a` as one value per spatial dim. An absent or
// empty value, or an untouched 12-entry default whose entries all equal
// `fill`, becomes nsp copies of `fill`. Any other length mismatch fails with
// `err` naming the op and attribute.
status_t spatial_attr(const ir::op_t &op, attr_id_t a, int nsp, dim_t fill,
        status_t err, dims_t &out);

// Verify-time checks shared by conv and pool ops: every listed attribute
// present is >= `min` elementwise, and all of them that carry explicit
// per-dim values have the same length (returned in *nsp, -1 if none).
status_t check_spatial_values(const ir::op_t &op, attr_id_t a, dim_t min);
status_t check_spatial_lengths(
        const ir::op_t &op, const std::vector<attr_id_t> &ids, int *nsp);

// The six conv ops all express one relation between an "X" tensor (the side
// whose positions are o*S + k*D - PB), a "Y" tensor and weights laid out
// canonically as W[cy, xi, k...] with cy over all Y channels and xi over the
// X channels of one group:
//   Convolution / ConvolutionBackward*: X = src side, Y = dst side, W = OIX.
//   ConvTranspose*: X = dst side, Y = src side, W = IOX (I plays "cy").
struct conv_geom_t {
    int nsp = 0;
    bool channel_last = true;
    bool weights_spatial_first = true; // XIO / XOI
    dim_t n = 0, groups = 1;
    dim_t cx = 0, cy = 0; // all channels of X and of Y
    dims_t xsp, ysp, k, s, d, pb, pe, out_pad;
};

// Where an op's X, Y and W tensors live: input index, or -1 for output 0.
struct conv_roles_t {
    int x = 0, y = -1, w = 1;
};
conv_roles_t conv_roles(op_kind_t kind);

// The canonical geometry of any of the six conv ops from its tensors'
// declared dims (inputs, and the output for the derived side), exactly as
// the reference kernel computes it; failures return dnnl_invalid_shape.
// Backend kernels use it so both implementations see the same pads.
status_t conv_op_geometry(const ir::op_t &op, conv_geom_t &g);

// Data-tensor offset of (n, c, spatial...) under NCX/NXC.
int64_t data_offset(const dims_t &strides, bool channel_last, dim_t n, dim_t c,
        const int64_t *sp, int nsp);
// Weights offset of canonical (cy, xi, k...) under [cy, xi, K] / [K, xi, cy].
int64_t weights_offset(const dims_t &strides, bool spatial_first, dim_t cy,
        dim_t xi, const int64_t *k, int nsp);

// Schema pieces shared by the forward (conv.cpp) and backward
// (conv_backward.cpp) definitions.
void set_conv_common_schema(op_def_t &def, bool transposed);
status_t check_conv(const ir::op_t &op);
status_t infer_conv(ir::op_t &op);
status_t ref_conv(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out);
void define_conv_backward(op_kind_t kind, op_def_t &def);

// The three loop nests (conv_backward.cpp holds the last two). `bias`, if
// non-null, is indexed by the channel of the tensor being written.
struct view_t;
void conv_compute_y(const conv_geom_t &g, const view_t &x, const view_t &w,
        const view_t *bias, const view_t &y);
void conv_compute_x(const conv_geom_t &g, const view_t &y, const view_t &w,
        const view_t *bias, const view_t &x);
void conv_compute_w(const conv_geom_t &g, const view_t &x, const view_t &y,
        const view_t &w);

} // namespace ops
} // namespace llga
