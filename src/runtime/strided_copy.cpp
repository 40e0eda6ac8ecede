// SPDX-License-Identifier: Apache-2.0
// runtime/strided_copy.cpp — odometer walk over the dims, innermost last.
#include "runtime/strided_copy.hpp"

#include <cstring>
#include <vector>

namespace llga {
namespace rt {

void strided_copy(const void *src, const dims_t &src_strides, void *dst,
        const dims_t &dst_strides, const dims_t &dims, size_t elem_bytes) {
    const int n = static_cast<int>(dims.size());
    for (int d = 0; d < n; ++d)
        if (dims[d] == 0) return;
    const auto *s = static_cast<const char *>(src);
    auto *t = static_cast<char *>(dst);
    std::vector<int64_t> idx(n, 0);
    while (true) {
        int64_t so = 0, to = 0;
        for (int d = 0; d < n; ++d) {
            so += idx[d] * src_strides[d];
            to += idx[d] * dst_strides[d];
        }
        std::memcpy(t + to * static_cast<int64_t>(elem_bytes),
                s + so * static_cast<int64_t>(elem_bytes), elem_bytes);
        int d = n - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < dims[d]) break;
            idx[d] = 0;
        }
        if (d < 0) break;
    }
}

} // namespace rt
} // namespace llga
