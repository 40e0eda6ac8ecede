// SPDX-License-Identifier: Apache-2.0
// tests/unit/tools/run_report_test.cpp — llga-run's benchdnn-style lines
// (tools/run/report.hpp): expected text written from benchdnn's documented
// formats.
#include <gtest/gtest.h>

#include "report.hpp"

namespace llga_run {
namespace {

TEST(RunReport, ResultLines) {
    EXPECT_EQ(result_line(0, state_t::passed, "", "--graph --case=a.json"),
            "0:PASSED __REPRO: --graph --case=a.json");
    EXPECT_EQ(result_line(3, state_t::failed, "errors:2 total:10", "--graph --case=b"),
            "3:FAILED (errors:2 total:10) __REPRO: --graph --case=b");
    EXPECT_EQ(result_line(1, state_t::skipped, "MAX_WORK_EXCEEDED", "x"),
            "1:SKIPPED (MAX_WORK_EXCEEDED) __REPRO: x");
}

TEST(RunReport, SummaryCountsAsBenchdnn) {
    bench_stats_t b;
    b.add(state_t::passed);
    b.add(state_t::failed);
    b.add(state_t::unimplemented); // benchdnn counts it as failed too
    b.add(state_t::invalid_arguments);
    b.add(state_t::skipped);
    EXPECT_EQ(summary_line(b),
            "tests:5 passed:1 skipped:1 mistrusted:0 unimplemented:1 "
            "invalid_arguments:1 failed:3 listed:0");
    b.perf_min_ms = 1.5;
    b.perf_avg_ms = 2;
    EXPECT_EQ(total_perf_line(b), "total perf: min(ms):1.5 avg(ms):2");
}

TEST(RunReport, PerfTemplates) {
    EXPECT_EQ(perf_template_text("def"), "perf,%engine%,%prb%,%-time%,%0time%");
    EXPECT_EQ(perf_template_text("csv"), "perf,%engine%,%DESC%,%-time%,%0time%");
    perf_fields_t f;
    f.idx = 4;
    f.prb = "--graph --case=g.json";
    f.min_ms = 0.5;
    f.avg_ms = 0.75;
    f.max_ms = 2;
    f.ops = 2e9;
    f.ctime_ms = 3;
    EXPECT_EQ(expand_perf_template(perf_template_text("def"), f),
            "perf,cpu,--graph --case=g.json,0.5,0.75");
    // Modifiers: time first (- min, 0 avg, + max), then unit (K M G).
    EXPECT_EQ(expand_perf_template(
                      "%idx%:%+time%;%Gops%;%-Gflops%;%0Gflops%;%ctime%", f),
            "4:2;2;4000;2666.67;3"); // 2e9 ops / 0.5 ms = 4e12 /s
    // Not an item: printed as written.
    EXPECT_EQ(expand_perf_template("a%b%c 100%", f), "a%b%c 100%");
}

} // namespace
} // namespace llga_run
