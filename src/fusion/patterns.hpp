// SPDX-License-Identifier: Apache-2.0
// fusion/patterns.hpp — the pattern table of patterns.def as data: one entry
// per pass in run order, and the matcher declarations it expands to.
#pragma once

#include <cstddef>
#include <vector>

#include "fusion/match.hpp"

namespace llga {
namespace fusion {

using matcher_fn_t = bool (*)(const match_ctx_t &, size_t, match_t &);

#define LLGA_PATTERN(name, prio, kind, matcher) \
    bool matcher(const match_ctx_t &ctx, size_t anchor, match_t &m);
#include "fusion/patterns.def"
#undef LLGA_PATTERN

struct pattern_t {
    const char *name;
    float priority;
    const char *kind; // partition kind, e.g. "matmul_post_ops"
    matcher_fn_t match;
};

// [StaticReshape] ─► StaticTranspose ─► [StaticReshape], or StaticTranspose
// ─► Reorder, after `value`: appends the ops and moves `value` on, or
// leaves both unchanged and returns false (patterns_compute.cpp).
bool take_layout_tail(const match_ctx_t &ctx, match_t &m, size_t &value);

// Every pattern of patterns.def, in run order.
const std::vector<pattern_t> &pattern_table();

} // namespace fusion
} // namespace llga
