// SPDX-License-Identifier: Apache-2.0
// base/hash.hpp — hash combining for cache keys (kernel and partition caches).
#pragma once

#include <cstddef>
#include <functional>

namespace llga {

inline size_t hash_combine(size_t seed, size_t v) {
    // 64-bit variant of the classic golden-ratio mix.
    return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 12) + (seed >> 4));
}

template <typename T>
size_t hash_value(size_t seed, const T &v) {
    return hash_combine(seed, std::hash<T>()(v));
}

} // namespace llga
