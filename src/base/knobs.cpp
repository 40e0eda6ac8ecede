// SPDX-License-Identifier: Apache-2.0
// base/knobs.cpp — names of the tuning knobs and their reads through base/env.
#include "base/knobs.hpp"

#include "base/env.hpp"

namespace llga {

const char *knob_name(knob_t k) {
    static const char *const names[] = {
#define LLGA_KNOB(id, var, dflt, what) #var,
#include "base/knobs.def"
#undef LLGA_KNOB
    };
    return names[static_cast<int>(k)];
}

long long knob_int(knob_t k, long long fallback) {
    return getenv_int(knob_name(k), fallback);
}

std::string knob_string(knob_t k) {
    return getenv_string(knob_name(k));
}

} // namespace llga
