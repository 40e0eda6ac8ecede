// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/prelu_slope_sum_p.hpp — PReLUBackward's
// diff_slope summed as the reference (ops/bias_prelu.cpp) sums it: src's
// row-major index range cut into `chunks` equal pieces (a count fixed by n and
// sn alone), each with its own double accumulators filled in increasing index
// order, then per slope element the pieces added in order from 0. Only the
// pieces and disjoint slope ranges run in parallel, so each accumulator sees
// the reference's additions in the reference's order whatever the thread count.
// Used by prelu.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/c_types.hpp"
#include "ir/op.hpp"

namespace llga {
namespace cpu {
namespace prelu {

// The slope ranges split axis `a`, src's outermost axis the slope does not
// broadcast along: one index of it owns sn / ea consecutive slope elements.
struct slope_sum_t {
    int64_t n = 0, sn = 0, chunks = 1;
    int64_t ea = 1, in = 1; // extent of axis a; src elements inside one index
    // src's dims from a inward (unit dims dropped, neighbours merged) and
    // the slope's row-major index step along each (0: broadcast).
    std::vector<int64_t> ext, js;
    dims_t sdims, sstrides; // diff_slope's dims and memory strides
};

// The sum of PReLUBackward `op` (shapes already checked).
slope_sum_t plan_slope_sum(const ir::op_t &op);

// diff_slope (type dt, f32/bf16/f16, at its own strides) from src `x` and
// diff_dst `dy`, both dense row-major; scratch from `frame`.
void diff_slope(const slope_sum_t &g, data_type_t dt, const void *x,
        const void *dy, void *ds, scratch_frame_t &frame);

} // namespace prelu
} // namespace cpu
} // namespace llga
