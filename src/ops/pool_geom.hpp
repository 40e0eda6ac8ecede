// SPDX-License-Identifier: Apache-2.0
// ops/pool_geom.hpp — the pooling window geometry the reference kernels
// and shape inference use (ops/pool.cpp), shared with backend kernels so
// that every implementation sees the same windows: auto_pad, floor/ceil
// output sizes, dilations, and the average's divisor.
#pragma once

#include "base/c_types.hpp"
#include "base/status.hpp"
#include "ir/op.hpp"

namespace llga {
namespace ops {

// "x" = src / diff_src (the pooled side), "y" = dst / diff_dst. Spatial
// vectors have nsp entries; d is the step between taps (1 = dense), pads
// are resolved from auto_pad.
struct pool_geom_t {
    int nsp = 0;
    bool channel_last = true;
    dim_t n = 0, c = 0;
    dims_t xsp, ysp, k, s, d, pb, pe;
};

// Validates x (known) and y (empty = derive it) against the op's
// attributes and fills g; failures return `err` with a message.
status_t pool_geometry(const ir::op_t &op, const dims_t &x, const dims_t &y,
        status_t err, pool_geom_t &g);

// The average's divisor at output position o (nsp entries): the window's
// in-bounds positions (exclude_pad) or its positions inside the padded
// extent.
double avg_divisor(const pool_geom_t &g, const int64_t *o, bool exclude_pad);

// What a max-pool window with no source position inside yields.
double pool_lowest(data_type_t dt);

} // namespace ops
} // namespace llga
