// SPDX-License-Identifier: Apache-2.0
// runtime/threading/threading.cpp — oneTBB implementation of parallel_for.
#include "runtime/threading/threading.hpp"

#include <mutex>

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "base/parallel.hpp"

namespace llga {
namespace rt {

namespace {
void tbb_parallel_for(int64_t n, int64_t grain, const range_body_t &body) {
    tbb::parallel_for(tbb::blocked_range<int64_t>(0, n, grain),
            [&](const tbb::blocked_range<int64_t> &r) {
                body(r.begin(), r.end());
            });
}
} // namespace

void start_threading() {
    static std::once_flag once;
    std::call_once(once, [] { set_parallel_impl(tbb_parallel_for); });
}

// The threads a parallel loop started here can use: the calling arena's
// concurrency (a framework may run us inside its own tbb::task_arena),
// capped by any tbb::global_control limit in force. Kernels size their
// blocking from this at compile time.
int max_threads() {
    const int arena = tbb::this_task_arena::max_concurrency();
    const size_t cap = tbb::global_control::active_value(
            tbb::global_control::max_allowed_parallelism);
    return std::max(1, static_cast<int>(std::min<size_t>(
                               static_cast<size_t>(arena), cap)));
}

} // namespace rt
} // namespace llga
