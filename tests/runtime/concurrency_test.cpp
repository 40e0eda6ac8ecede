// SPDX-License-Identifier: Apache-2.0
// tests/runtime/concurrency_test.cpp — the concurrency contract: one compiled
// partition executed from many threads at once, each with its own stream
// and tensors (8 threads x 1,000 executions), while the constant cache is
// flushed under it. The first executions start together and must compute
// the constant once. Run under ThreadSanitizer by the `tsan` ctest label
// (tools/test builds it with -DLLGA_TSAN=ON).
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime_test_util.hpp"

#include "runtime/constant_cache.hpp"

using namespace rt_test;

namespace {

constexpr int k_threads = 8;
constexpr int k_iters = 1000;

// Releases all threads at once so the first executions really overlap.
struct start_gate_t {
    std::mutex m;
    std::condition_variable cv;
    int waiting = 0;
    bool open = false;
    void arrive_and_wait(int n) {
        std::unique_lock<std::mutex> lock(m);
        if (++waiting == n) {
            open = true;
            cv.notify_all();
        }
        cv.wait(lock, [&] { return open; });
    }
};

TEST(Concurrency, OneCompiledPartitionManyThreads) {
    const reference_backend_only_t ref_only;
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 4), dnnl_success);
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    auto &cache = llga::rt::constant_cache_t::get(dnnl_cpu, 0);
    // y = BiasAdd(x, b) with b constant: ref backend (ref_only above),
    // constant cache path.
    auto x = lt(1, {4, 8}), b = lt(2, {8}, dnnl_graph_tensor_property_constant),
         y = lt(3, {4, 8});
    compiled_op_t c(1, dnnl_graph_op_bias_add, {x, b}, {y}, eng);
    std::vector<float> bias(8);
    for (int k = 0; k < 8; ++k)
        bias[k] = float(k);
    const auto before = cache.usage();

    start_gate_t gate;
    std::atomic<int> errors {0};
    std::atomic<bool> done {false};
    std::vector<std::thread> ts;
    for (int t = 0; t < k_threads; ++t)
        ts.emplace_back([&, t] {
            dnnl_stream_t s = nullptr;
            if (dnnl_stream_create(&s, eng, dnnl_stream_default_flags) != dnnl_success) {
                ++errors;
                return;
            }
            std::vector<float> xv(32), yv(32);
            for (int k = 0; k < 32; ++k)
                xv[k] = float(t * 100 + k);
            auto tx = tensor(x, eng, xv.data()), tb = tensor(b, eng, bias.data()),
                 ty = tensor(y, eng, yv.data());
            gate.arrive_and_wait(k_threads);
            for (int i = 0; i < k_iters; ++i) {
                if (c.run(s, {tx, tb}, {ty}) != dnnl_success) ++errors;
                for (int k = 0; k < 32; k += 7)
                    if (yv[k] != xv[k] + bias[k % 8]) ++errors;
            }
            for (auto h : {tx, tb, ty})
                dnnl_graph_tensor_destroy(h);
            dnnl_stream_destroy(s);
        });
    // After the first wave, flush repeatedly: executions holding an evicted
    // buffer keep using it; others recompute.
    std::thread churn([&] {
        while (cache.usage().hits - before.hits < 100 && !done) std::this_thread::yield();
        const auto first = cache.usage();
        EXPECT_EQ(first.computed - before.computed, 1u) << "computed once";
        for (int i = 0; i < 20 && !done; ++i) {
            cache.flush();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });
    for (auto &t : ts)
        t.join();
    done = true;
    churn.join();
    EXPECT_EQ(errors.load(), 0);
    const auto after = cache.usage();
    EXPECT_EQ((after.hits - before.hits) + (after.misses - before.misses),
            size_t(k_threads) * k_iters);
    EXPECT_LE(after.bytes, after.capacity_bytes);
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 0), dnnl_success);
    dnnl_engine_destroy(eng);
}

// Compiling the same partition from many threads: one cached object, all
// usable.
TEST(Concurrency, ConcurrentCompilesOfOnePartition) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    std::atomic<int> errors {0};
    std::vector<std::thread> ts;
    for (int t = 0; t < k_threads; ++t)
        ts.emplace_back([&] {
            for (int i = 0; i < 20; ++i) {
                compiled_op_t c(1, dnnl_graph_op_abs, {lt(1, {16})}, {lt(2, {16})}, eng);
                if (!c.cp) ++errors;
            }
        });
    for (auto &t : ts)
        t.join();
    EXPECT_EQ(errors.load(), 0);
    dnnl_engine_destroy(eng);
}

} // namespace
