// SPDX-License-Identifier: Apache-2.0
// base/env.hpp — reading environment knobs (ONEDNN_VERBOSE, cache capacities,
// ONEDNN_MAX_CPU_ISA, ...). Values are read on demand; callers cache them.
#pragma once

#include <string>

namespace llga {

// Returns the variable's value, or "" if unset.
std::string getenv_string(const char *name);
// Parses a decimal integer; returns `fallback` if unset or malformed.
long long getenv_int(const char *name, long long fallback);

} // namespace llga
