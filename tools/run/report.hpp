// SPDX-License-Identifier: Apache-2.0
// tools/run/report.hpp — llga-run's output in benchdnn's wording (docs/runner.md,
// "Output"): result lines "<idx>:<STATE> [(<why>)] __REPRO: <repro>", the
// summary line, "total perf:" and perf lines expanded from --perf-template.
#pragma once

#include <string>

namespace llga_run {

// benchdnn's problem states that llga-run assigns.
enum class state_t {
    passed,
    failed,
    skipped,
    unimplemented,
    invalid_arguments,
    mistrusted,
    listed,
};
const char *state_name(state_t s); // "PASSED", ...

struct bench_stats_t {
    int tests = 0, passed = 0, skipped = 0, mistrusted = 0, unimplemented = 0,
        invalid_arguments = 0, failed = 0, listed = 0;
    // Sums over the timed cases of their minimum and average times.
    double perf_min_ms = 0, perf_avg_ms = 0;
    bool any_perf = false;
    // Counted as benchdnn does: UNIMPLEMENTED and INVALID_ARGUMENTS also
    // count as failed.
    void add(state_t s);
};

// "tests:.. passed:.. skipped:.. mistrusted:.. unimplemented:..
// invalid_arguments:.. failed:.. listed:.."
std::string summary_line(const bench_stats_t &b);
// "total perf: min(ms):.. avg(ms):.."
std::string total_perf_line(const bench_stats_t &b);

// "<idx>:<STATE> (<why>) __REPRO: <repro>" (no parentheses when why is empty).
std::string result_line(
        int idx, state_t s, const std::string &why, const std::string &repro);

// What a perf line can show about one case.
struct perf_fields_t {
    int idx = 0;
    std::string engine = "cpu", prb, impl, name;
    double min_ms = 0, avg_ms = 0, max_ms = 0;
    double ops = 0;      // floating-point operations per run; 0 if unknown
    double ctime_ms = 0; // compile time of all partitions
    double ibytes = 0, obytes = 0;
};

// --perf-template value to template text: "def" and "csv" are the graph
// driver's named templates; anything else is a custom template.
std::string perf_template_text(const std::string &given);
// Expands %...% items as benchdnn does: %engine% %prb% %DESC% %desc% %impl%
// %name% %idx% %driver% and the time-based %[-0+][KMG]{time,ops,flops,
// ctime,ibytes,obytes,iobytes,bw,freq,clocks}% (modifier order: time,
// then unit). Unknown items are printed as written.
std::string expand_perf_template(
        const std::string &tmpl, const perf_fields_t &f);

} // namespace llga_run
