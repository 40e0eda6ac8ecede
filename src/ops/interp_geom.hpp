// SPDX-License-Identifier: Apache-2.0
// ops/interp_geom.hpp — the sampling geometry of Interpolate and
// InterpolateBackward (ops/interpolate.cpp), shared with backend kernels
// so every implementation uses the same taps and weights: per spatial dim
// and output coordinate, two source indices and their weights, computed
// in double from the mode and coordinate_transformation_mode.
#pragma once

#include <vector>

#include "base/c_types.hpp"
#include "ir/op.hpp"

namespace llga {
namespace ops {

// Nearest uses one tap (i0 == i1) with weights 1 and 0.
struct interp_taps_t {
    std::vector<dim_t> i0, i1;
    std::vector<double> w0, w1;
};

struct interp_geom_t {
    int nsp = 0;
    bool cl = true; // data_format NXC
    dim_t n = 0, c = 0;
    dims_t xsp, ysp; // src side, dst side spatial dims
    std::vector<interp_taps_t> taps;
};

// x: src (diff_src) dims, y: dst (diff_dst) dims, both known and valid.
interp_geom_t interp_geometry(const ir::op_t &op, const dims_t &x, const dims_t &y);

} // namespace ops
} // namespace llga
