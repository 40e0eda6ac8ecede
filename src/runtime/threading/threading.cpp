// runtime/threading/threading.cpp — oneTBB implementation of parallel_for.
#include "runtime/threading/threading.hpp"

#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

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

int max_threads() { return tbb::info::default_concurrency(); }

} // namespace rt
} // namespace llga
