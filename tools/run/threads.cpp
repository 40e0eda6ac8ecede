// SPDX-License-Identifier: Apache-2.0
// tools/run/threads.cpp — gives the runner's reference path a thread pool.
// llga-run links its own copy of the internal op definitions (libllga.so
// keeps its copies hidden), so the oneTBB loop libllga installs for itself
// never reaches them; without this the oracle would run on one core.
#include "threads.hpp"

#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "base/parallel.hpp"

namespace llga_run {

namespace {
void tbb_loop(int64_t n, int64_t grain, const llga::range_body_t &body) {
    tbb::parallel_for(tbb::blocked_range<int64_t>(0, n, grain),
            [&](const tbb::blocked_range<int64_t> &r) {
                body(r.begin(), r.end());
            });
}
} // namespace

void start_reference_threads() {
    static std::once_flag once;
    std::call_once(once, [] { llga::set_parallel_impl(tbb_loop); });
}

} // namespace llga_run
