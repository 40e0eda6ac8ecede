// SPDX-License-Identifier: Apache-2.0
// base/env.cpp — environment knob parsing.
#include "base/env.hpp"

#include <cerrno>
#include <cstdlib>

namespace llga {

std::string getenv_string(const char *name) {
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

long long getenv_int(const char *name, long long fallback) {
    const char *v = std::getenv(name);
    if (!v || !*v) return fallback;
    char *end = nullptr;
    errno = 0;
    long long r = std::strtoll(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0') return fallback;
    return r;
}

} // namespace llga
