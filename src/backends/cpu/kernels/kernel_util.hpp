// backends/cpu/kernels/kernel_util.hpp — small helpers the GEMM and conv
// drivers share: integer rounding of block counts, and the growable,
// 64-byte aligned scratch buffer each thread keeps for packing.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace llga {
namespace cpu {

inline int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t round_up(int64_t a, int64_t b) { return div_up(a, b) * b; }

// Grows (never shrinks) to the largest size asked for, in whole pages;
// the contents do not survive a growth.
struct aligned_buf_t {
    void *p = nullptr;
    size_t size = 0;
    aligned_buf_t() = default;
    aligned_buf_t(const aligned_buf_t &) = delete;
    aligned_buf_t &operator=(const aligned_buf_t &) = delete;
    ~aligned_buf_t() { std::free(p); }
    void *get(size_t bytes) {
        if (bytes > size) {
            std::free(p);
            size = static_cast<size_t>(
                    round_up(static_cast<int64_t>(bytes), 4096));
            p = std::aligned_alloc(64, size);
        }
        return p;
    }
};

} // namespace cpu
} // namespace llga
