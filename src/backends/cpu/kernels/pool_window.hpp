// backends/cpu/kernels/pool_window.hpp — what the pooling kernels (pool.cpp,
// pool_bwd.cpp) share: one window's taps along one dim clipped to the
// source, so no tap is tested against the bounds.
#pragma once

#include <algorithm>
#include <cstdint>

namespace llga {
namespace cpu {
namespace pool {

// Taps of a window along one dim that fall inside the source: the first
// and one past the last tap index, and the source index of the first.
struct taps_t {
    int64_t k0, k1, p0;
};

// Output position o, stride s, dilation d, begin pad pb, kernel k, source
// size x.
inline taps_t clip(int64_t o, int64_t s, int64_t d, int64_t pb, int64_t k,
        int64_t x) {
    const int64_t start = o * s - pb;
    if (d == 1) { // no divisions on the common path
        const int64_t k0 = std::max<int64_t>(0, -start);
        const int64_t k1 = std::max(k0, std::min(k, x - start));
        return {k0, k1, start + k0};
    }
    int64_t k0 = start < 0 ? (-start + d - 1) / d : 0;
    int64_t k1 = start + (k - 1) * d < x ? k : (x - 1 - start) / d + 1;
    if (start > x - 1) k1 = 0;
    k1 = std::max(k0, std::min(k, k1));
    return {k0, k1, start + k0 * d};
}

} // namespace pool
} // namespace cpu
} // namespace llga
