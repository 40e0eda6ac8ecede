// SPDX-License-Identifier: Apache-2.0
// tools/run/stats_fill.hpp — second fill pass for softmax statistics inputs.
#pragma once

#include <string>

#include "fill.hpp"
#include "prepare.hpp"

namespace llga_run {

// A graph input subtracted from scores right before Exp is a softmax
// statistic (the row max or log-sum-exp saved by a training forward pass,
// e.g. sdpa-plain-training-backward). Random values there make exp()
// overflow, and the check then compares infinities. For each such input
// this runs the reference once on the first fill and sets every statistic
// to the maximum of the scores it is broadcast against, so exp(x - stat)
// stays in (0, 1] as in a real backward pass. Returns false with `error`
// if that reference run fails; does nothing when the graph has no such
// input.
bool fill_softmax_stats(const prepared_t &g, buffers_t &bufs, std::string &error);

// True if graph input `id` is such a statistic (for role reports).
bool is_softmax_stat(const prepared_t &g, size_t id);

} // namespace llga_run
