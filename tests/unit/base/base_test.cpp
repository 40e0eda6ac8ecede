// SPDX-License-Identifier: Apache-2.0
// tests/unit/base/base_test.cpp — status/last-error, env parsing, parallel_for.
#include <algorithm>
#include <atomic>
#include <thread>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "base/env.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"

namespace llga {
namespace {

TEST(Status, FailRecordsMessageAndBumpsSerial) {
    const uint64_t before = error_serial();
    EXPECT_EQ(fail(dnnl_invalid_shape, "tensor %d is %s", 3, "odd"),
            dnnl_invalid_shape);
    EXPECT_EQ(last_error(), "tensor 3 is odd");
    EXPECT_EQ(error_serial(), before + 1);
    prefix_last_error("entry");
    EXPECT_EQ(last_error(), "entry: tensor 3 is odd");
    EXPECT_STREQ(status_name(dnnl_invalid_graph_op), "invalid_graph_op");
    EXPECT_STREQ(status_name(static_cast<status_t>(77)), "unknown_status");
}

TEST(Status, LastErrorIsPerThread) {
    set_last_error("main");
    std::string seen_in_thread = "unset";
    std::thread t([&] { seen_in_thread = last_error(); });
    t.join();
    EXPECT_EQ(seen_in_thread, "");
    EXPECT_EQ(last_error(), "main");
}

TEST(Env, IntParsing) {
    setenv("LLGA_TEST_KNOB", "42", 1);
    EXPECT_EQ(getenv_int("LLGA_TEST_KNOB", 7), 42);
    setenv("LLGA_TEST_KNOB", "4x", 1);
    EXPECT_EQ(getenv_int("LLGA_TEST_KNOB", 7), 7); // malformed -> fallback
    setenv("LLGA_TEST_KNOB", "", 1);
    EXPECT_EQ(getenv_int("LLGA_TEST_KNOB", 7), 7);
    unsetenv("LLGA_TEST_KNOB");
    EXPECT_EQ(getenv_int("LLGA_TEST_KNOB", -1), -1);
    EXPECT_EQ(getenv_string("LLGA_TEST_KNOB"), "");
}

TEST(Parallel, CoversEveryIndexOnceSerialAndInstalled) {
    for (int installed = 0; installed < 2; ++installed) {
        if (installed)
            set_parallel_impl([](int64_t n, int64_t grain, const range_body_t &body) {
                // A deliberately odd splitter: chunks of `grain`, last first.
                for (int64_t b = ((n - 1) / grain) * grain; b >= 0; b -= grain)
                    body(b, std::min(n, b + grain));
            });
        std::vector<std::atomic<int>> hits(1000);
        parallel_for(1000, 64, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i)
                hits[i]++;
        });
        for (auto &h : hits)
            EXPECT_EQ(h.load(), 1);
    }
    set_parallel_impl(nullptr);
    int calls = 0;
    parallel_for(0, 1, [&](int64_t, int64_t) { ++calls; });
    EXPECT_EQ(calls, 0);
}

} // namespace
} // namespace llga
