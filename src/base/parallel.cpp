// SPDX-License-Identifier: Apache-2.0
// base/parallel.cpp — dispatch to the installed parallel loop (serial default).
#include "base/parallel.hpp"

#include <atomic>

namespace llga {

namespace {
std::atomic<parallel_impl_t> g_impl {nullptr};
}

void parallel_for(int64_t n, int64_t grain, const range_body_t &body) {
    if (n <= 0) return;
    parallel_impl_t impl = g_impl.load(std::memory_order_acquire);
    if (!impl || n <= grain) {
        body(0, n);
        return;
    }
    impl(n, grain < 1 ? 1 : grain, body);
}

void set_parallel_impl(parallel_impl_t impl) {
    g_impl.store(impl, std::memory_order_release);
}

parallel_impl_t parallel_impl() { return g_impl.load(std::memory_order_acquire); }

} // namespace llga
