// SPDX-License-Identifier: Apache-2.0
// tools/run/compare.hpp — comparison of a graph output of the main path with
// the reference path, element by element in logical order (the two buffers
// may have different strides), with data-type-aware tolerances.
#pragma once

#include <string>

#include "fill.hpp"

namespace llga_run {

struct tolerance_t {
    double abs = 0; // an element passes if |got - ref| <= abs + rel * |ref|
    double rel = 0;
    // ... or if |got - ref| <= norm * max |ref| over the whole output
    double norm = 0;
};

// Tolerance for an output of this data type (docs/runner.md, "Tolerances").
tolerance_t tolerance_for(llga::data_type_t dt);

struct compare_result_t {
    bool ok = true;
    int64_t n = 0, mismatches = 0, nonfinite = 0;
    double max_abs = 0, max_rel = 0;
    double scale = 0; // largest finite |reference| value
    int64_t first_bad = -1; // logical index of the first mismatch
    double bad_got = 0, bad_ref = 0;
    tolerance_t tol;
    std::string note; // e.g. a shape mismatch
};

compare_result_t compare_outputs(const buffer_t &got, const buffer_t &ref);

} // namespace llga_run
