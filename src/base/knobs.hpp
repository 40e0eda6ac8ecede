// SPDX-License-Identifier: Apache-2.0
// base/knobs.hpp — the LLGA_* tuning knobs of base/knobs.def, read through
// base/env (values are read on demand; callers cache them).
#pragma once

#include <string>

namespace llga {

enum class knob_t {
#define LLGA_KNOB(id, var, dflt, what) id,
#include "base/knobs.def"
#undef LLGA_KNOB
};

// "LLGA_GEMM_KC".
const char *knob_name(knob_t k);
// The knob as a decimal integer; `fallback` if unset or malformed.
long long knob_int(knob_t k, long long fallback);
// The knob's text; "" if unset.
std::string knob_string(knob_t k);

} // namespace llga
