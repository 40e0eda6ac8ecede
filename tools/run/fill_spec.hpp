// SPDX-License-Identifier: Apache-2.0
// tools/run/fill_spec.hpp — llga-run's --fill=ID:SPEC[+ID:SPEC...] (docs/
// runner.md "Input filling"): per-input overrides of the default data, as
// benchdnn's fill options offer. ID is a graph input's tensor id or '*' for
// every floating-point input. SPEC is one of
//   range:LO:HI        uniform values in [LO, HI] (steps of 1/8 for
//                      floating-point types, 1 for integers);
//   special            a mix: NaN, +Inf, -Inf, a positive and a negative
//                      denormal, +0, -0 and ordinary data, cycling;
//   nan | inf | -inf | denorm | zero | -zero [:EVERY]
//                      that value at every EVERY-th element (default 1:
//                      all), ordinary data elsewhere.
// Special values need a floating-point input.
#pragma once

#include <string>
#include <vector>

#include "fill.hpp"

namespace llga_run {

struct fill_spec_t {
    enum kind_t { range, special, value } kind = range;
    bool all = false;  // ID was '*'
    size_t id = 0;
    double lo = 0, hi = 0; // range
    double v = 0;          // value
    bool denorm = false;   // value is the dtype's denormal (sign from v)
    int64_t every = 1;     // value: one element in `every`
};

// Parses the option text; false with `error` set on malformed input.
bool parse_fill(const std::string &text, std::vector<fill_spec_t> &out,
        std::string &error);
// Checks the specs against the graph (ids are inputs, special values only
// on floating-point inputs).
bool check_fill(const std::string &text, const prepared_t &g, std::string &error);
// Applies the specs to the filled input buffers (after fill_inputs).
void apply_fill(const std::string &text, const prepared_t &g, buffers_t &bufs);

} // namespace llga_run
